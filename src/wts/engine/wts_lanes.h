/* Random games in lanes: WTS_LANES games advance together, one turn a step.
 *
 * A step draws both moves of every lane, places them and proves the turn
 * simple: more than two empty squares before it, no rejected draw, not the
 * last turn number, no run of five once both moves are on the board, and no
 * bracket closed by either arrival; or else a collision, or brackets in a
 * game with no egg (whose captured pieces the caller removes). Then the turn
 * is played: two turtles more, or one egg more, and no five. Every other
 * lane is left as it was and reported, with its draw, for the core's scalar
 * turn to play (_resolve_turn in _rules.pxi, from _drivers.pxi), so each
 * lane follows its game's generator exactly as wts_playout would.
 *
 * The proof alone (wts_lane_ends and wts_lanes_place) also serves turns of
 * given moves: wts_lanes_put_moves loads them.
 *
 * The proof is wts_lane_ends, wts_lane_moves and wts_vboard_place below; the
 * rules themselves live once, in _rules.pxi, and their predicates (a
 * bracket, what it traps, a run of five, the last turn) in wts_predicates.h, which
 * the lanes apply to vectors of boards to decide nothing but "simple, or to
 * the scalar turn". It relies on four facts
 * of the rules: only an arriving turtle closes a bracket (points 4-6), so
 * arrivals that close none capture nothing; without a capture nothing
 * dissolves or hatches, nor with one in a game with no egg (point 8); with
 * no run of five on the board both counts are 0, so the game goes on (points
 * 10-12) unless the board fills or the turn is the last, which
 * wts_lane_ends rules out. tests/engine/test_kernels.py and tests/engine/test_lanes_builds.py
 * hold every build's games to the scalar turn's, turn by turn.
 *
 * Boards and generators are held in structure-of-arrays form, one vector of
 * WTS_VEC lanes at a time, two vectors a step (the second one's work hides
 * the first one's latency). The proof is written once over the few vector
 * operations below. The vectors are 256-bit in the AVX2 build, eight games
 * a step, and 512-bit in the AVX-512 build, with its mask registers, rotates
 * and masked stores, sixteen games a step: on the AMD EPYC (Zen 4) of
 * docs/speed.md that plays 1.13x the turns a second of the same build's
 * 256-bit vectors ("512-bit lanes"). -DWTS_VEC=4 builds 256-bit vectors with
 * AVX-512 too; -DWTS_LANES sets the games a step. On AArch64
 * (-DWTS_NEON_LANES) they are NEON's 128-bit ones, four a step.
 */
#ifndef WTS_LANES_H
#define WTS_LANES_H

#include <stddef.h>

#include "wts_bits.h"
#include "wts_predicates.h"
#if defined(WTS_NEON_LANES)
/* AArch64 always has NEON, so the baseline build could use it too: the lanes
 * are a build of their own (setup.py, "aarch64-neon") for a choice at import. */
#if !(defined(__aarch64__) && defined(__ARM_NEON) && (defined(__GNUC__) || defined(__clang__)))
#error "WTS_NEON_LANES needs an AArch64 target with NEON, built by GCC or Clang"
#endif
#include <arm_neon.h>
#define WTS_LANES_SIMD 1
#define WTS_LANES_NEON 1
#undef WTS_VEC
#define WTS_VEC 2
#elif defined(__AVX2__)
#include <immintrin.h>
#define WTS_LANES_SIMD 1
#else
#define WTS_LANES_SIMD 0
#endif

#ifndef WTS_VEC
#if defined(__AVX512F__)
#define WTS_VEC 8
#else
#define WTS_VEC 4
#endif
#endif
#if WTS_VEC == 8 && !defined(__AVX512F__)
#undef WTS_VEC
#define WTS_VEC 4  /* 512-bit vectors need AVX-512F, which this build lacks */
#endif
#if WTS_VEC != 2 && WTS_VEC != 4 && WTS_VEC != 8
#error "WTS_VEC is the lanes of one vector: 2 (NEON), 4 (256-bit) or 8 (512-bit)"
#endif
#ifndef WTS_LANES
/* Two vectors in flight: 8 games in 256-bit ones, 16 in 512-bit ones; 8 in four NEON ones. */
#define WTS_LANES (WTS_VEC == 2 ? 8 : 2 * WTS_VEC)
#endif
#if WTS_LANES % WTS_VEC != 0 || WTS_LANES < WTS_VEC || WTS_LANES > 16
#error "WTS_LANES must be a multiple of WTS_VEC, from WTS_VEC to 16"
#endif

typedef struct {
    uint64_t black_lo[WTS_LANES], black_hi[WTS_LANES];
    uint64_t white_lo[WTS_LANES], white_hi[WTS_LANES];
    uint64_t eggs_lo[WTS_LANES], eggs_hi[WTS_LANES];
    uint64_t s0[WTS_LANES], s1[WTS_LANES], s2[WTS_LANES], s3[WTS_LANES];  /* xoshiro256** */
    uint64_t draw[WTS_LANES];    /* the step's generator output */
    uint64_t black_bit[WTS_LANES], white_bit[WTS_LANES];  /* the step's moves, padded bits */
    uint32_t turn[WTS_LANES];
} wts_lanes;

/* ---- One lane in and out ---------------------------------------------- */

WTS_INLINE void wts_lanes_put_boards(wts_lanes *lanes, int lane, wts_board black,
                                     wts_board white, wts_board eggs) {
    lanes->black_lo[lane] = black.lo;
    lanes->black_hi[lane] = black.hi;
    lanes->white_lo[lane] = white.lo;
    lanes->white_hi[lane] = white.hi;
    lanes->eggs_lo[lane] = eggs.lo;
    lanes->eggs_hi[lane] = eggs.hi;
}

WTS_INLINE void wts_lanes_put(wts_lanes *lanes, int lane, wts_board black, wts_board white,
                              wts_board eggs, uint32_t turn, const wts_rng *rng) {
    wts_lanes_put_boards(lanes, lane, black, white, eggs);
    lanes->turn[lane] = turn;
    lanes->s0[lane] = rng->s[0];
    lanes->s1[lane] = rng->s[1];
    lanes->s2[lane] = rng->s[2];
    lanes->s3[lane] = rng->s[3];
}

WTS_INLINE void wts_lanes_get(const wts_lanes *lanes, int lane, wts_board *black,
                              wts_board *white, wts_board *eggs, uint32_t *turn, wts_rng *rng) {
    *black = wts_board_make(lanes->black_lo[lane], lanes->black_hi[lane]);
    *white = wts_board_make(lanes->white_lo[lane], lanes->white_hi[lane]);
    *eggs = wts_board_make(lanes->eggs_lo[lane], lanes->eggs_hi[lane]);
    *turn = lanes->turn[lane];
    rng->s[0] = lanes->s0[lane];
    rng->s[1] = lanes->s1[lane];
    rng->s[2] = lanes->s2[lane];
    rng->s[3] = lanes->s3[lane];
}

WTS_INLINE uint64_t wts_lanes_draw(const wts_lanes *lanes, int lane) { return lanes->draw[lane]; }
/* The padded bits of one lane's moves in the last step, and its turtles. */
WTS_INLINE int wts_lanes_black_bit(const wts_lanes *lanes, int lane) {
    return (int)lanes->black_bit[lane];
}
WTS_INLINE int wts_lanes_white_bit(const wts_lanes *lanes, int lane) {
    return (int)lanes->white_bit[lane];
}
WTS_INLINE void wts_lanes_turtles(const wts_lanes *lanes, int lane, wts_board *black,
                                  wts_board *white) {
    *black = wts_board_make(lanes->black_lo[lane], lanes->black_hi[lane]);
    *white = wts_board_make(lanes->white_lo[lane], lanes->white_hi[lane]);
}

/* One lane's boards and the padded bits of its two moves, for
 * wts_lanes_place; the turn and generator are not touched. */
WTS_INLINE void wts_lanes_put_moves(wts_lanes *lanes, int lane, wts_board black,
                                    wts_board white, wts_board eggs, int black_bit,
                                    int white_bit) {
    wts_lanes_put_boards(lanes, lane, black, white, eggs);
    lanes->black_bit[lane] = (uint64_t)black_bit;
    lanes->white_bit[lane] = (uint64_t)white_bit;
}

/* 1 if a turn from ``count`` empty squares at turn number ``turn`` cannot be
 * simple whatever its moves: it may fill the board, or it reaches the last
 * turn number (both draw). */
WTS_INLINE int wts_lane_ends(uint32_t count, uint32_t turn) {
    return (count <= 2) | wts_last_turn(turn + 1u);
}

/* The moves of one lane from its draw and empty squares (at least one: a
 * lane with fewer never plays a simple turn, an idle one holds the empty
 * board), as
 * wts_rng_below_from and wts_select pick them; 1 if the lane must go to the
 * scalar turn instead (a draw that Lemire's method might reject, two empty
 * squares or fewer, the last turn). The moves are written either way. */
WTS_INLINE int wts_lane_moves(wts_lanes *lanes, int lane, wts_board empty) {
    uint32_t count = (uint32_t)wts_popcount(empty);
    uint64_t black = (uint64_t)(uint32_t)(lanes->draw[lane] >> 32) * count;
    uint64_t white = (uint64_t)(uint32_t)lanes->draw[lane] * count;
    lanes->black_bit[lane] = (uint64_t)wts_select(empty, (int)(black >> 32));
    lanes->white_bit[lane] = (uint64_t)wts_select(empty, (int)(white >> 32));
    return ((uint32_t)black < count) | ((uint32_t)white < count)
           | wts_lane_ends(count, lanes->turn[lane]);
}

/* ---- The vector operations ---------------------------------------------- */
#if WTS_LANES_SIMD

#if defined(WTS_LANES_NEON)
typedef uint64x2_t wts_vec;
#define WTS_VLOAD(p) vld1q_u64((const uint64_t *)(p))
#define WTS_VSTORE(p, v) vst1q_u64((uint64_t *)(p), (v))
#define WTS_VSHL(v, k) vshlq_n_u64((v), (k))
#define WTS_VSHR(v, k) vshrq_n_u64((v), (k))
/* Shift right and insert: the high bits of v << k kept, v >> (64 - k) below. */
#define WTS_VROTL(v, k) vsriq_n_u64(vshlq_n_u64((v), (k)), (v), 64 - (k))
#define wts_vand vandq_u64
#define wts_vor vorrq_u64
#define wts_vxor veorq_u64
#define wts_vadd vaddq_u64
#define wts_vandnot(a, b) vbicq_u64((b), (a))  /* ~a & b */
/* USHL reads a count's low byte as signed: a negative one shifts right. So
 * counts from -64 to -1 and from 64 to 127 give 0, as AVX2's do, and
 * wts_vboard_bit's counts (a padded bit, 0-89, and that bit less 64) are
 * all in that range. */
#define wts_vshlv(v, k) vshlq_u64((v), vreinterpretq_s64_u64(k))
#define wts_vset1(x) vdupq_n_u64((uint64_t)(x))
#define wts_vzero() vdupq_n_u64(0)
WTS_INLINE uint32_t wts_vbits(uint64x2_t all_or_none) {
    return (uint32_t)(vgetq_lane_u64(all_or_none, 0) & 1u)
           | (uint32_t)(vgetq_lane_u64(all_or_none, 1) & 2u);
}
#define wts_vnonzero(v) wts_vbits(vtstq_u64((v), (v)))
#define wts_vequal(a, b) wts_vbits(vceqq_u64((a), (b)))
#define WTS_VSTORE_WHERE(p, bits, v) do { \
    const uint64x2_t lane_ = vcombine_u64(vcreate_u64(1), vcreate_u64(2)); \
    uint64x2_t where_ = vtstq_u64(vdupq_n_u64((uint64_t)(bits)), lane_); \
    WTS_VSTORE((p), vbslq_u64(where_, (v), WTS_VLOAD(p))); \
} while (0)
#elif WTS_VEC == 8
typedef __m512i wts_vec;
#define WTS_VLOAD(p) _mm512_loadu_si512((const void *)(p))
#define WTS_VSTORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define WTS_VSHL(v, k) _mm512_slli_epi64((v), (k))
#define WTS_VSHR(v, k) _mm512_srli_epi64((v), (k))
#define WTS_VROTL(v, k) _mm512_rol_epi64((v), (k))
#define wts_vand _mm512_and_si512
#define wts_vor _mm512_or_si512
#define wts_vxor _mm512_xor_si512
#define wts_vadd _mm512_add_epi64
#define wts_vandnot _mm512_andnot_si512   /* ~a & b */
#define wts_vshlv _mm512_sllv_epi64
#define wts_vset1(x) _mm512_set1_epi64((long long)(x))
#define wts_vzero _mm512_setzero_si512
/* Bit l set where lane l of ``v`` is not zero; where ``a`` and ``b`` are equal. */
#define wts_vnonzero(v) ((uint32_t)_mm512_test_epi64_mask((v), (v)))
#define wts_vequal(a, b) ((uint32_t)_mm512_cmpeq_epi64_mask((a), (b)))
/* Stores the lanes of ``v`` whose bit is set in ``bits``, the others untouched. */
#define WTS_VSTORE_WHERE(p, bits, v) _mm512_mask_storeu_epi64((void *)(p), (__mmask8)(bits), (v))
#else
typedef __m256i wts_vec;
#define WTS_VLOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define WTS_VSTORE(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define WTS_VSHL(v, k) _mm256_slli_epi64((v), (k))
#define WTS_VSHR(v, k) _mm256_srli_epi64((v), (k))
#define WTS_VROTL(v, k) _mm256_or_si256(_mm256_slli_epi64((v), (k)), \
                                        _mm256_srli_epi64((v), 64 - (k)))
#define wts_vand _mm256_and_si256
#define wts_vor _mm256_or_si256
#define wts_vxor _mm256_xor_si256
#define wts_vadd _mm256_add_epi64
#define wts_vandnot _mm256_andnot_si256
#define wts_vshlv _mm256_sllv_epi64
#define wts_vset1(x) _mm256_set1_epi64x((long long)(x))
#define wts_vzero _mm256_setzero_si256
#if defined(__AVX512VL__)
#undef WTS_VROTL
#define WTS_VROTL(v, k) _mm256_rol_epi64((v), (k))
#define wts_vnonzero(v) ((uint32_t)_mm256_test_epi64_mask((v), (v)))
#define wts_vequal(a, b) ((uint32_t)_mm256_cmpeq_epi64_mask((a), (b)))
#define WTS_VSTORE_WHERE(p, bits, v) _mm256_mask_storeu_epi64((void *)(p), (__mmask8)(bits), (v))
#else
#define wts_vequal(a, b) \
    ((uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64((a), (b)))))
#define wts_vnonzero(v) (wts_vequal((v), _mm256_setzero_si256()) ^ 0xFu)
/* AVX2's masked store is slow on some CPUs: blend with the old values instead. */
#define WTS_VSTORE_WHERE(p, bits, v) do { \
    const __m256i lane_ = _mm256_setr_epi64x(1, 2, 4, 8); \
    __m256i where_ = _mm256_cmpeq_epi64( \
        _mm256_and_si256(_mm256_set1_epi64x((long long)(bits)), lane_), lane_); \
    WTS_VSTORE((p), _mm256_blendv_epi8(WTS_VLOAD(p), (v), where_)); \
} while (0)
#endif
#endif

/* ---- The proof, one vector of lanes at a time ---------------------------- */

/* A board of WTS_VEC lanes: the low words in one vector, the high in another. */
typedef struct {
    wts_vec lo, hi;
} wts_vboard;

WTS_INLINE wts_vboard wts_vboard_make(wts_vec lo, wts_vec hi) {
    wts_vboard q;
    q.lo = lo;
    q.hi = hi;
    return q;
}
WTS_INLINE wts_vboard wts_vboard_load(const uint64_t *lo, const uint64_t *hi) {
    return wts_vboard_make(WTS_VLOAD(lo), WTS_VLOAD(hi));
}
WTS_INLINE wts_vboard wts_vboard_and(wts_vboard a, wts_vboard b) {
    return wts_vboard_make(wts_vand(a.lo, b.lo), wts_vand(a.hi, b.hi));
}
WTS_INLINE wts_vboard wts_vboard_or(wts_vboard a, wts_vboard b) {
    return wts_vboard_make(wts_vor(a.lo, b.lo), wts_vor(a.hi, b.hi));
}
/* Shifts by a constant 0 < k < 64, as wts_shl and wts_shr; ``a`` is expanded
 * twice. The lower-case names are wts_predicates.h's B##_shl and B##_shr. */
#define WTS_VBOARD_SHL(a, k) wts_vboard_make(WTS_VSHL((a).lo, (k)), \
    wts_vor(WTS_VSHL((a).hi, (k)), WTS_VSHR((a).lo, 64 - (k))))
#define WTS_VBOARD_SHR(a, k) wts_vboard_make(wts_vor(WTS_VSHR((a).lo, (k)), \
    WTS_VSHL((a).hi, 64 - (k))), WTS_VSHR((a).hi, (k)))
#define wts_vboard_shl WTS_VBOARD_SHL
#define wts_vboard_shr WTS_VBOARD_SHR

/* wts_rng_next of a vector of lanes: x * 5 and x * 9 as a shift and an add. */
WTS_INLINE wts_vec wts_vrng_next(uint64_t *s0p, uint64_t *s1p, uint64_t *s2p, uint64_t *s3p) {
    wts_vec s0 = WTS_VLOAD(s0p), s1 = WTS_VLOAD(s1p), s2 = WTS_VLOAD(s2p), s3 = WTS_VLOAD(s3p);
    wts_vec x = WTS_VROTL(wts_vadd(WTS_VSHL(s1, 2), s1), 7);
    wts_vec result = wts_vadd(WTS_VSHL(x, 3), x);
    wts_vec t = WTS_VSHL(s1, 17);
    s2 = wts_vxor(s2, s0);
    s3 = wts_vxor(s3, s1);
    s1 = wts_vxor(s1, s2);
    s0 = wts_vxor(s0, s3);
    s2 = wts_vxor(s2, t);
    s3 = WTS_VROTL(s3, 45);
    WTS_VSTORE(s0p, s0);
    WTS_VSTORE(s1p, s1);
    WTS_VSTORE(s2p, s2);
    WTS_VSTORE(s3p, s3);
    return result;
}

/* The board of one padded bit per lane: a variable shift of 64 or more gives
 * 0, so the word not holding the bit comes out empty. */
WTS_INLINE wts_vboard wts_vboard_bit(const uint64_t *bits) {
    wts_vec bit = WTS_VLOAD(bits), one = wts_vset1(1);
    return wts_vboard_make(wts_vshlv(one, bit), wts_vshlv(one, wts_vadd(bit, wts_vset1(-64))));
}

/* Adds to ``found`` the brackets ``arrival`` closes along shift k, both ways
 * (wts_predicates.h). */
#define WTS_VBOARD_CLOSES_ALONG(found, arrival, trapped, anchor, k) do { \
    wts_vboard pairs_ = WTS_PAIRS(wts_vboard, trapped, k); \
    wts_vboard closed_ = wts_vboard_and(arrival, wts_vboard_or( \
        WTS_BRACKET_UP(wts_vboard, pairs_, anchor, k), \
        WTS_BRACKET_DOWN(wts_vboard, pairs_, anchor, k))); \
    found = wts_vor(found, wts_vor(closed_.lo, closed_.hi)); \
} while (0)

/* Non-zero in the lanes where ``arrival`` (one bit a lane) closes a bracket
 * in any direction on ``trapped`` against ``anchor``. */
WTS_INLINE wts_vec wts_vboard_closes(wts_vboard arrival, wts_vboard trapped,
                                     wts_vboard anchor) {
    wts_vec found = wts_vzero();
    WTS_VBOARD_CLOSES_ALONG(found, arrival, trapped, anchor, 1);
    WTS_VBOARD_CLOSES_ALONG(found, arrival, trapped, anchor, 9);
    WTS_VBOARD_CLOSES_ALONG(found, arrival, trapped, anchor, 10);
    WTS_VBOARD_CLOSES_ALONG(found, arrival, trapped, anchor, 11);
    return found;
}

/* Adds to ``found`` the starts of runs of five of ``t`` along shift k
 * (wts_predicates.h). */
#define WTS_VBOARD_FIVES_ALONG(found, t, k) do { \
    wts_vboard pairs_ = WTS_PAIRS(wts_vboard, t, k); \
    wts_vboard starts_ = WTS_RUN_STARTS(wts_vboard, t, pairs_, k); \
    found = wts_vor(found, wts_vor(starts_.lo, starts_.hi)); \
} while (0)

/* Non-zero in the lanes where ``t`` holds a run of five. */
WTS_INLINE wts_vec wts_vboard_fives(wts_vboard t) {
    wts_vec found = wts_vzero();
    WTS_VBOARD_FIVES_ALONG(found, t, 1);
    WTS_VBOARD_FIVES_ALONG(found, t, 9);
    WTS_VBOARD_FIVES_ALONG(found, t, 10);
    WTS_VBOARD_FIVES_ALONG(found, t, 11);
    return found;
}

/* Places and tests the moves of lanes first..first+WTS_VEC-1; bit l of
 * ``sent`` set sends lane first+l to the scalar turn whatever the test says.
 * Returns ``sent`` with the lanes whose turn is not simple added; the others
 * get their new boards. The boards are read again where needed, not kept:
 * the vector registers do not hold them all and spilling them costs more.
 *
 * Two more kinds of turn are simple. A collision lays its egg on the lane's board and sets the
 * lane's bit in *laid: the caller adds the egg to the game's queue, which the
 * lanes do not hold. A turn that closes a bracket in a game with no egg, and
 * leaves no five even before its captures, gets both turtles placed and its
 * bit in *captured: the caller removes the captured pieces, which is the
 * whole of points 6-8 with no egg to dissolve or hatch. (Finding them for
 * the one lane that captures costs less than for a vector of lanes.) */
WTS_INLINE uint32_t wts_vboard_place(wts_lanes *lanes, int first, uint32_t sent,
                                     uint32_t *laid, uint32_t *captured) {
    const uint32_t all = (1u << WTS_VEC) - 1u;
    wts_vboard eggs = wts_vboard_load(lanes->eggs_lo + first, lanes->eggs_hi + first);
    wts_vboard black_arrival = wts_vboard_bit(lanes->black_bit + first);
    wts_vboard white_arrival = wts_vboard_bit(lanes->white_bit + first);
    wts_vboard new_black = wts_vboard_or(
        wts_vboard_load(lanes->black_lo + first, lanes->black_hi + first), black_arrival);
    wts_vboard new_white = wts_vboard_or(
        wts_vboard_load(lanes->white_lo + first, lanes->white_hi + first), white_arrival);
    uint32_t simple, resolved, collided = wts_vequal(WTS_VLOAD(lanes->black_bit + first),
                                                     WTS_VLOAD(lanes->white_bit + first));
    uint32_t egg, capturing = wts_vnonzero(wts_vor(
        wts_vboard_closes(black_arrival, WTS_TRAPPABLE(wts_vboard, new_white, eggs), new_black),
        wts_vboard_closes(white_arrival, WTS_TRAPPABLE(wts_vboard, new_black, eggs), new_white)));
    resolved = capturing & ~collided & wts_vequal(wts_vor(eggs.lo, eggs.hi), wts_vzero());
    /* A collision's boards here hold its square as both turtles: brackets or
     * a five on them send it to the scalar turn, which is never wrong. */
    sent |= (capturing & ~resolved)
            | wts_vnonzero(wts_vor(wts_vboard_fives(new_black), wts_vboard_fives(new_white)));
    simple = ~(sent | collided) & all;
    WTS_VSTORE_WHERE(lanes->black_lo + first, simple, new_black.lo);
    WTS_VSTORE_WHERE(lanes->black_hi + first, simple, new_black.hi);
    WTS_VSTORE_WHERE(lanes->white_lo + first, simple, new_white.lo);
    WTS_VSTORE_WHERE(lanes->white_hi + first, simple, new_white.hi);
    egg = collided & ~sent & all;
    if (egg) {
        WTS_VSTORE_WHERE(lanes->eggs_lo + first, egg, wts_vor(eggs.lo, black_arrival.lo));
        WTS_VSTORE_WHERE(lanes->eggs_hi + first, egg, wts_vor(eggs.hi, black_arrival.hi));
    }
    *laid |= egg << first;
    *captured |= (resolved & ~sent) << first;
    return sent;
}

/* Places and tests the moves of every lane; bit l of ``scalar`` set sends
 * lane l to the scalar turn whatever the test says. Returns ``scalar`` with
 * the lanes whose turn is not simple added; the others get their new boards.
 * ``laid`` and ``captured``: as wts_vboard_place, set here to 0 first. */
WTS_INLINE uint32_t wts_lanes_place_simd(wts_lanes *lanes, uint32_t scalar, uint32_t *laid,
                                         uint32_t *captured) {
    const uint32_t vector = (1u << WTS_VEC) - 1u;
    uint32_t result = 0;
    int first;
    *laid = *captured = 0;
    for (first = 0; first < WTS_LANES; first += WTS_VEC) {
        result |= wts_vboard_place(lanes, first, (scalar >> first) & vector, laid, captured)
                  << first;
    }
    return result;
}

WTS_INLINE uint32_t wts_lanes_step_simd(wts_lanes *lanes, uint32_t *laid, uint32_t *captured) {
    const wts_vec valid_lo = wts_vset1(WTS_VALID_LO), valid_hi = wts_vset1(WTS_VALID_HI);
    uint64_t empty_lo[WTS_LANES], empty_hi[WTS_LANES];
    uint32_t scalar = 0;
    int first, lane;
    for (first = 0; first < WTS_LANES; first += WTS_VEC) {
        WTS_VSTORE(lanes->draw + first, wts_vrng_next(lanes->s0 + first, lanes->s1 + first,
                                                      lanes->s2 + first, lanes->s3 + first));
        WTS_VSTORE(empty_lo + first, wts_vandnot(
            wts_vor(wts_vor(WTS_VLOAD(lanes->black_lo + first), WTS_VLOAD(lanes->white_lo + first)),
                    WTS_VLOAD(lanes->eggs_lo + first)), valid_lo));
        WTS_VSTORE(empty_hi + first, wts_vandnot(
            wts_vor(wts_vor(WTS_VLOAD(lanes->black_hi + first), WTS_VLOAD(lanes->white_hi + first)),
                    WTS_VLOAD(lanes->eggs_hi + first)), valid_hi));
    }
    for (lane = 0; lane < WTS_LANES; lane++) {
        scalar |= (uint32_t)wts_lane_moves(
            lanes, lane, wts_board_make(empty_lo[lane], empty_hi[lane])) << lane;
    }
    scalar = wts_lanes_place_simd(lanes, scalar, laid, captured);
    for (lane = 0; lane < WTS_LANES; lane++) {
        lanes->turn[lane] += ((scalar >> lane) & 1u) ^ 1u;
    }
    return scalar;
}
#endif

/* One step of every lane; bit l of the result set when lane l's turn is left
 * to the scalar turn: its boards and turn as the step began, its generator
 * past the step's draw (``draw``), as wts_playout holds them mid-turn. Bit l
 * of *laid set when lane l's turn was a collision, played here but for the
 * egg queue: its egg is the square of ``wts_lanes_black_bit``. Bit l of
 * *captured set when lane l's turn was played here but for its captures
 * (see wts_vboard_place).
 * Without SIMD the core plays one game at a time and never steps lanes (a
 * lane-by-lane form of this step measured slower than wts_playout): every
 * lane would go to the scalar turn. */
WTS_INLINE uint32_t wts_lanes_step(wts_lanes *lanes, uint32_t *laid, uint32_t *captured) {
#if WTS_LANES_SIMD
    return wts_lanes_step_simd(lanes, laid, captured);
#else
    (void)lanes;
    *laid = *captured = 0;
    return (1u << WTS_LANES) - 1u;
#endif
}

/* wts_lanes_place_simd; without SIMD every lane goes to the scalar turn. */
WTS_INLINE uint32_t wts_lanes_place(wts_lanes *lanes, uint32_t scalar, uint32_t *laid,
                                    uint32_t *captured) {
#if WTS_LANES_SIMD
    return wts_lanes_place_simd(lanes, scalar, laid, captured);
#else
    (void)lanes;
    (void)scalar;
    *laid = *captured = 0;
    return (1u << WTS_LANES) - 1u;
#endif
}

#endif /* WTS_LANES_H */
