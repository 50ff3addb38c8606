/* Bit primitives for the wts core: a padded 9x9 board in two 64-bit words.
 *
 * Square (file f, rank r) lives at bit 10*r + f. Bit 10*r + 9 of every row
 * and every bit from 90 up stay zero, so shifting by 1, 9, 10 or 11 moves a
 * piece one step along a line and never wraps from one edge to the other.
 *
 * Every compiler- or CPU-specific branch of the package lives in this file,
 * each with a portable fallback: GCC, Clang and MSVC on the x86-64 baseline;
 * but for the SIMD lanes of random games, in wts_lanes.h.
 */
#ifndef WTS_BITS_H
#define WTS_BITS_H

#include <stdint.h>
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__BMI2__) || defined(__AVX2__))
#include <immintrin.h>
#endif

/* The level a core variant is built for (setup.py, wts_cpu.h); 1 for the baseline. */
#ifndef WTS_KERNEL_LEVEL
#define WTS_KERNEL_LEVEL 1
#endif

#if defined(_MSC_VER)
#include <immintrin.h>
#include <intrin.h>
#define WTS_INLINE static __forceinline
#else
#define WTS_INLINE static inline
#endif

#include "wts_status.h"

typedef struct {
    uint64_t lo; /* bits 0..63 */
    uint64_t hi; /* bits 64..127; only 64..89 are ever set */
} wts_board;

/* ---- 64-bit counting -------------------------------------------------- */

WTS_INLINE int wts_popcount64_swar(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The POPCNT instruction only when the build targets a CPU that has it;
 * a baseline x86-64 build would otherwise call into libgcc, slower than SWAR.
 * On 64-bit ARM the builtin is the baseline CNT instruction. MSVC defines no
 * macro for POPCNT: the core variant's level (setup.py) says, or /arch:AVX
 * and up (every CPU with AVX has POPCNT). */
WTS_INLINE int wts_popcount64(uint64_t x) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    return __builtin_popcountll(x);
#elif defined(_MSC_VER) && defined(_M_X64) && (WTS_KERNEL_LEVEL >= 2 || defined(__AVX__))
    return (int)__popcnt64(x);
#else
    return wts_popcount64_swar(x);
#endif
}

/* Index of the lowest set bit; x must not be 0. BSF is x86-64 baseline. */
WTS_INLINE int wts_ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
    unsigned long index;
    _BitScanForward64(&index, x);
    return (int)index;
#else
    static const int debruijn[64] = {
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6};
    return debruijn[((x & (0 - x)) * 0x03F79D71B4CB0A89ULL) >> 58];
#endif
}

/* Index of the k-th set bit (k from 0) of x, which has more than k set: no
 * branch, as the k of a random move is unpredictable. With BMI2, PDEP
 * deposits 1 << k on the k-th set bit (fast on Intel and on AMD from Zen 3).
 * Without, a broadword select: the bytes' running popcounts find the byte,
 * the same again on that byte's bits finds the bit. Both give the same bit. */
WTS_INLINE int wts_select64(uint64_t x, int k) {
#if ((defined(__GNUC__) || defined(__clang__)) && defined(__BMI2__)) \
    || (defined(_MSC_VER) && defined(_M_X64) && WTS_KERNEL_LEVEL >= 3)
    return wts_ctz64(_pdep_u64(1ULL << k, x));
#else
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t s = x - ((x >> 1) & 0x5555555555555555ULL);
    uint64_t sums, below, byte, bits;
    int place, rank;
    s = (s & 0x3333333333333333ULL) + ((s >> 2) & 0x3333333333333333ULL);
    s = (s + (s >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    sums = s * ones;                                     /* byte i: bits set in bytes 0..i */
    below = (((uint64_t)k * ones | highs) - sums) & highs;  /* top bit of byte i: sum <= k */
    place = (int)((((below >> 7) * ones) >> 53) & ~7ULL);   /* 8 x the bytes before the bit */
    rank = k - (int)(((sums << 8) >> place) & 0xFF);     /* the bit's rank in its byte */
    byte = (x >> place) & 0xFF;
    bits = (((byte * ones) & 0x8040201008040201ULL) + 0x7F7F7F7F7F7F7F7FULL) & highs;
    sums = (bits >> 7) * ones;                           /* byte i: bits 0..i of the byte set */
    below = (((uint64_t)rank * ones | highs) - sums) & highs;
    return place + (int)(((below >> 7) * ones) >> 56);
#endif
}

/* ---- 128-bit boards --------------------------------------------------- */

#define WTS_VALID_LO 0xF7FDFF7FDFF7FDFFULL
#define WTS_VALID_HI 0x0000000001FF7FDFULL

WTS_INLINE wts_board wts_board_make(uint64_t lo, uint64_t hi) {
    wts_board b;
    b.lo = lo;
    b.hi = hi;
    return b;
}

WTS_INLINE wts_board wts_valid(void) { return wts_board_make(WTS_VALID_LO, WTS_VALID_HI); }
WTS_INLINE wts_board wts_and(wts_board a, wts_board b) { return wts_board_make(a.lo & b.lo, a.hi & b.hi); }
WTS_INLINE wts_board wts_or(wts_board a, wts_board b) { return wts_board_make(a.lo | b.lo, a.hi | b.hi); }
WTS_INLINE wts_board wts_xor(wts_board a, wts_board b) { return wts_board_make(a.lo ^ b.lo, a.hi ^ b.hi); }
WTS_INLINE wts_board wts_andnot(wts_board a, wts_board b) { return wts_board_make(a.lo & ~b.lo, a.hi & ~b.hi); }
WTS_INLINE int wts_any(wts_board a) { return (a.lo | a.hi) != 0; }
WTS_INLINE int wts_equal(wts_board a, wts_board b) { return a.lo == b.lo && a.hi == b.hi; }
WTS_INLINE int wts_popcount(wts_board a) { return wts_popcount64(a.lo) + wts_popcount64(a.hi); }

/* Shifts toward higher bits (<<) and lower bits (>>); 0 <= k < 64. The bits
 * crossing words move in two steps, so that k = 0 never shifts by 64 (undefined
 * in C); with a constant k the compiler folds the two into one. */
WTS_INLINE wts_board wts_shl(wts_board a, int k) {
    return wts_board_make(a.lo << k, (a.hi << k) | ((a.lo >> 1) >> (63 - k)));
}
WTS_INLINE wts_board wts_shr(wts_board a, int k) {
    return wts_board_make((a.lo >> k) | ((a.hi << 1) << (63 - k)), a.hi >> k);
}

/* Public square index (rank * 9 + file) <-> padded bit (rank * 10 + file). */
WTS_INLINE int wts_square_bit(int square) { return square + square / 9; }
WTS_INLINE int wts_bit_square(int bit) { return bit - bit / 10; }

/* Written so compilers pick the word with a conditional move, not a branch:
 * the bits of random moves are unpredictable. */
WTS_INLINE wts_board wts_bit_board(int bit) {
    uint64_t one = 1ULL << (bit & 63);
    uint64_t high = (uint64_t)(bit >> 6);
    return wts_board_make(one & (high - 1u), one & (0u - high));
}
WTS_INLINE wts_board wts_square_board(int square) { return wts_bit_board(wts_square_bit(square)); }
WTS_INLINE int wts_test_bit(wts_board a, int bit) {
    uint64_t word = bit < 64 ? a.lo : a.hi;
    return (int)((word >> (bit & 63)) & 1);
}

/* Lowest set bit of a non-empty board, and the board without it. */
WTS_INLINE int wts_lowest_bit(wts_board a) {
    return a.lo ? wts_ctz64(a.lo) : 64 + wts_ctz64(a.hi);
}
WTS_INLINE wts_board wts_clear_lowest(wts_board a) {
    if (a.lo) {
        a.lo &= a.lo - 1;
    } else {
        a.hi &= a.hi - 1;
    }
    return a;
}

/* The k-th set bit (from 0) of a board with more than k bits set. The word is
 * chosen by masks, not a branch (k is random). */
WTS_INLINE int wts_select(wts_board a, int k) {
    int low = wts_popcount64(a.lo);
    uint64_t high = (uint64_t)0 - (uint64_t)(k >= low);   /* all ones: the bit is in hi */
    uint64_t word = (a.lo & ~high) | (a.hi & high);
    int skip = low & (int)high;
    return (int)(high & 64) + wts_select64(word, k - skip);
}

/* ---- Two boards at once: both players' ------------------------------- */

/* A pair of boards (a, b) with the board operations above, each applied to
 * both: one 256-bit vector with AVX2, two 128-bit ones on any other x86-64
 * (SSE2 is its baseline), two scalar boards elsewhere. Every build gives the
 * same bits. A shift moves each board's two words as wts_shl and wts_shr do:
 * the words by k, and the bits crossing words by 64 - k from the other word,
 * which the byte shift by 8 puts in place; 0 < k < 64. */
#if defined(__AVX2__)
typedef __m256i wts_pair;  /* a.lo, a.hi, b.lo, b.hi */
WTS_INLINE wts_pair wts_pair_make(wts_board a, wts_board b) {
    return _mm256_set_epi64x((long long)b.hi, (long long)b.lo, (long long)a.hi, (long long)a.lo);
}
WTS_INLINE wts_board wts_pair_first(wts_pair p) {
    __m128i a = _mm256_castsi256_si128(p);
    return wts_board_make((uint64_t)_mm_cvtsi128_si64(a), (uint64_t)_mm_extract_epi64(a, 1));
}
WTS_INLINE wts_board wts_pair_second(wts_pair p) {
    __m128i b = _mm256_extracti128_si256(p, 1);
    return wts_board_make((uint64_t)_mm_cvtsi128_si64(b), (uint64_t)_mm_extract_epi64(b, 1));
}
#define wts_pair_and _mm256_and_si256
#define wts_pair_or _mm256_or_si256
WTS_INLINE int wts_pair_any(wts_pair p) { return !_mm256_testz_si256(p, p); }
WTS_INLINE wts_pair wts_pair_shl(wts_pair p, int k) {
    return _mm256_or_si256(_mm256_slli_epi64(p, k),
                           _mm256_srli_epi64(_mm256_slli_si256(p, 8), 64 - k));
}
WTS_INLINE wts_pair wts_pair_shr(wts_pair p, int k) {
    return _mm256_or_si256(_mm256_srli_epi64(p, k),
                           _mm256_slli_epi64(_mm256_srli_si256(p, 8), 64 - k));
}
#elif defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
typedef struct {
    __m128i a, b;  /* lo, hi */
} wts_pair;
WTS_INLINE __m128i wts_board_vector(wts_board a) {
    return _mm_set_epi64x((long long)a.hi, (long long)a.lo);
}
WTS_INLINE wts_board wts_vector_board(__m128i v) {
    return wts_board_make((uint64_t)_mm_cvtsi128_si64(v),
                          (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)));
}
WTS_INLINE wts_pair wts_pair_make(wts_board a, wts_board b) {
    wts_pair p;
    p.a = wts_board_vector(a);
    p.b = wts_board_vector(b);
    return p;
}
WTS_INLINE wts_board wts_pair_first(wts_pair p) { return wts_vector_board(p.a); }
WTS_INLINE int wts_pair_any(wts_pair p) {
    __m128i either = _mm_or_si128(p.a, p.b);
    return _mm_movemask_epi8(_mm_cmpeq_epi8(either, _mm_setzero_si128())) != 0xFFFF;
}
WTS_INLINE wts_board wts_pair_second(wts_pair p) { return wts_vector_board(p.b); }
WTS_INLINE wts_pair wts_pair_and(wts_pair p, wts_pair q) {
    p.a = _mm_and_si128(p.a, q.a);
    p.b = _mm_and_si128(p.b, q.b);
    return p;
}
WTS_INLINE wts_pair wts_pair_or(wts_pair p, wts_pair q) {
    p.a = _mm_or_si128(p.a, q.a);
    p.b = _mm_or_si128(p.b, q.b);
    return p;
}
WTS_INLINE __m128i wts_vector_shl(__m128i v, int k) {
    return _mm_or_si128(_mm_slli_epi64(v, k), _mm_srli_epi64(_mm_slli_si128(v, 8), 64 - k));
}
WTS_INLINE __m128i wts_vector_shr(__m128i v, int k) {
    return _mm_or_si128(_mm_srli_epi64(v, k), _mm_slli_epi64(_mm_srli_si128(v, 8), 64 - k));
}
WTS_INLINE wts_pair wts_pair_shl(wts_pair p, int k) {
    p.a = wts_vector_shl(p.a, k);
    p.b = wts_vector_shl(p.b, k);
    return p;
}
WTS_INLINE wts_pair wts_pair_shr(wts_pair p, int k) {
    p.a = wts_vector_shr(p.a, k);
    p.b = wts_vector_shr(p.b, k);
    return p;
}
#else
typedef struct {
    wts_board a, b;
} wts_pair;
WTS_INLINE wts_pair wts_pair_make(wts_board a, wts_board b) {
    wts_pair p;
    p.a = a;
    p.b = b;
    return p;
}
WTS_INLINE wts_board wts_pair_first(wts_pair p) { return p.a; }
WTS_INLINE int wts_pair_any(wts_pair p) { return wts_any(p.a) | wts_any(p.b); }
WTS_INLINE wts_board wts_pair_second(wts_pair p) { return p.b; }
WTS_INLINE wts_pair wts_pair_and(wts_pair p, wts_pair q) {
    return wts_pair_make(wts_and(p.a, q.a), wts_and(p.b, q.b));
}
WTS_INLINE wts_pair wts_pair_or(wts_pair p, wts_pair q) {
    return wts_pair_make(wts_or(p.a, q.a), wts_or(p.b, q.b));
}
WTS_INLINE wts_pair wts_pair_shl(wts_pair p, int k) {
    return wts_pair_make(wts_shl(p.a, k), wts_shl(p.b, k));
}
WTS_INLINE wts_pair wts_pair_shr(wts_pair p, int k) {
    return wts_pair_make(wts_shr(p.a, k), wts_shr(p.b, k));
}
#endif

/* ---- Random numbers: xoshiro256** seeded by splitmix64 ----------------- */

typedef struct {
    uint64_t s[4];
} wts_rng;

WTS_INLINE uint64_t wts_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

WTS_INLINE void wts_rng_seed(wts_rng *rng, uint64_t seed) {
    uint64_t x = seed;
    int i;
    for (i = 0; i < 4; i++) rng->s[i] = wts_splitmix64(&x);
}

WTS_INLINE uint64_t wts_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

WTS_INLINE uint64_t wts_rng_next(wts_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = wts_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = wts_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), 0 < n < 2^32, from the 32 random bits r: Lemire's
 * multiply-shift. The few r that would bias it (2^32 mod n of them, so with
 * probability below n / 2^32) are replaced by fresh draws from rng. The
 * multiplies are 32x32->64, so no 128-bit type is needed. */
WTS_INLINE uint32_t wts_rng_below_from(wts_rng *rng, uint32_t n, uint32_t r) {
    uint64_t m = (uint64_t)r * n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (uint32_t)(0u - n) % n;
        while ((uint32_t)m < threshold) {
            m = (uint64_t)(uint32_t)(wts_rng_next(rng) >> 32) * n;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform in [0, n), 0 < n < 2^32, from the high half of the next output. */
WTS_INLINE uint32_t wts_rng_below(wts_rng *rng, uint32_t n) {
    return wts_rng_below_from(rng, n, (uint32_t)(wts_rng_next(rng) >> 32));
}

#endif /* WTS_BITS_H */
