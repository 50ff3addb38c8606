/* Random games in lanes: WTS_LANES games advance together, one turn a step.
 *
 * A step draws both moves of every lane, places them and proves the turn
 * simple: no collision, no bracket closed by either arrival, no run of five
 * after it, more than two empty squares before it, no rejected draw and not
 * the last turn number. Then the turn is played: two turtles more, status
 * still ongoing. Every other lane is left as it was and reported, with its
 * draw, for the core's scalar turn to play (_core.pyx), so each lane follows
 * its game's generator exactly as wts_playout would.
 *
 * The proof alone (wts_lane_ends and wts_lanes_place) also serves turns of
 * given moves: wts_lanes_put_moves loads them.
 *
 * Boards and generators are held in structure-of-arrays form: with AVX2 four
 * lanes are one vector.
 */
#ifndef WTS_LANES_H
#define WTS_LANES_H

#include "wts_bits.h"
#if defined(__AVX2__)
#include <immintrin.h>
#define WTS_LANES_SIMD 1
#else
#define WTS_LANES_SIMD 0
#endif

#define WTS_LANES 8           /* two vectors of four */

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
    return (count <= 2) | (turn + 1u == WTS_MAX_TURN);
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

/* ---- Four lanes a vector ------------------------------------------------ */
#if WTS_LANES_SIMD

/* A board of four lanes: the low words in one vector, the high in another. */
typedef struct {
    __m256i lo, hi;
} wts_quad;

#define WTS_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define WTS_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), (v))

WTS_INLINE wts_quad wts_quad_load(const uint64_t *lo, const uint64_t *hi) {
    wts_quad q;
    q.lo = WTS_LOAD(lo);
    q.hi = WTS_LOAD(hi);
    return q;
}
WTS_INLINE wts_quad wts_quad_make(__m256i lo, __m256i hi) {
    wts_quad q;
    q.lo = lo;
    q.hi = hi;
    return q;
}
WTS_INLINE wts_quad wts_quad_and(wts_quad a, wts_quad b) {
    return wts_quad_make(_mm256_and_si256(a.lo, b.lo), _mm256_and_si256(a.hi, b.hi));
}
WTS_INLINE wts_quad wts_quad_or(wts_quad a, wts_quad b) {
    return wts_quad_make(_mm256_or_si256(a.lo, b.lo), _mm256_or_si256(a.hi, b.hi));
}
/* Shifts by a constant 0 < k < 64, as wts_shl and wts_shr. */
#define WTS_QUAD_SHL(a, k) wts_quad_make(_mm256_slli_epi64((a).lo, (k)), \
    _mm256_or_si256(_mm256_slli_epi64((a).hi, (k)), _mm256_srli_epi64((a).lo, 64 - (k))))
#define WTS_QUAD_SHR(a, k) wts_quad_make(_mm256_or_si256(_mm256_srli_epi64((a).lo, (k)), \
    _mm256_slli_epi64((a).hi, 64 - (k))), _mm256_srli_epi64((a).hi, (k)))

WTS_INLINE __m256i wts_quad_rotl(__m256i x, int k) {
    return _mm256_or_si256(_mm256_slli_epi64(x, k), _mm256_srli_epi64(x, 64 - k));
}

/* wts_rng_next of four lanes: x * 5 and x * 9 as a shift and an add. */
WTS_INLINE __m256i wts_quad_rng_next(uint64_t *s0p, uint64_t *s1p, uint64_t *s2p, uint64_t *s3p) {
    __m256i s0 = WTS_LOAD(s0p), s1 = WTS_LOAD(s1p), s2 = WTS_LOAD(s2p), s3 = WTS_LOAD(s3p);
    __m256i x = wts_quad_rotl(_mm256_add_epi64(_mm256_slli_epi64(s1, 2), s1), 7);
    __m256i result = _mm256_add_epi64(_mm256_slli_epi64(x, 3), x);
    __m256i t = _mm256_slli_epi64(s1, 17);
    s2 = _mm256_xor_si256(s2, s0);
    s3 = _mm256_xor_si256(s3, s1);
    s1 = _mm256_xor_si256(s1, s2);
    s0 = _mm256_xor_si256(s0, s3);
    s2 = _mm256_xor_si256(s2, t);
    s3 = wts_quad_rotl(s3, 45);
    WTS_STORE(s0p, s0);
    WTS_STORE(s1p, s1);
    WTS_STORE(s2p, s2);
    WTS_STORE(s3p, s3);
    return result;
}

/* The board of one padded bit per lane: a variable shift of 64 or more gives
 * 0, so the word not holding the bit comes out empty. */
WTS_INLINE wts_quad wts_quad_bit(const uint64_t *bits) {
    __m256i bit = WTS_LOAD(bits), one = _mm256_set1_epi64x(1);
    return wts_quad_make(_mm256_sllv_epi64(one, bit),
                         _mm256_sllv_epi64(one, _mm256_sub_epi64(bit, _mm256_set1_epi64x(64))));
}

/* Adds to ``found`` the brackets ``arrival`` closes along shift k, both ways
 * (point 4): ``pairs`` marks each foe with a foe k higher, so a bracket going
 * up starts k below a pair, one going down 2k above one. */
#define WTS_QUAD_CLOSES_ALONG(found, arrival, foe, own, k) do { \
    wts_quad pairs_ = wts_quad_and(foe, WTS_QUAD_SHR(foe, k)); \
    wts_quad up_ = wts_quad_and(WTS_QUAD_SHR(pairs_, k), WTS_QUAD_SHR(own, 3 * (k))); \
    wts_quad down_ = wts_quad_and(WTS_QUAD_SHL(pairs_, 2 * (k)), WTS_QUAD_SHL(own, 3 * (k))); \
    wts_quad closed_ = wts_quad_and(arrival, wts_quad_or(up_, down_)); \
    found = _mm256_or_si256(found, _mm256_or_si256(closed_.lo, closed_.hi)); \
} while (0)

/* Non-zero in the lanes where ``arrival`` (one bit a lane) closes a bracket
 * in any direction. */
WTS_INLINE __m256i wts_quad_closes(wts_quad arrival, wts_quad foe, wts_quad own) {
    __m256i found = _mm256_setzero_si256();
    WTS_QUAD_CLOSES_ALONG(found, arrival, foe, own, 1);
    WTS_QUAD_CLOSES_ALONG(found, arrival, foe, own, 9);
    WTS_QUAD_CLOSES_ALONG(found, arrival, foe, own, 10);
    WTS_QUAD_CLOSES_ALONG(found, arrival, foe, own, 11);
    return found;
}

/* Adds to ``found`` the starts of runs of five of ``t`` along shift k (point 10). */
#define WTS_QUAD_FIVES_ALONG(found, t, k) do { \
    wts_quad pairs_ = wts_quad_and(t, WTS_QUAD_SHR(t, k)); \
    wts_quad starts_ = wts_quad_and(wts_quad_and(pairs_, WTS_QUAD_SHR(pairs_, 2 * (k))), \
                                    WTS_QUAD_SHR(t, 4 * (k))); \
    found = _mm256_or_si256(found, _mm256_or_si256(starts_.lo, starts_.hi)); \
} while (0)

/* Non-zero in the lanes where ``t`` holds a run of five. */
WTS_INLINE __m256i wts_quad_fives(wts_quad t) {
    __m256i found = _mm256_setzero_si256();
    WTS_QUAD_FIVES_ALONG(found, t, 1);
    WTS_QUAD_FIVES_ALONG(found, t, 9);
    WTS_QUAD_FIVES_ALONG(found, t, 10);
    WTS_QUAD_FIVES_ALONG(found, t, 11);
    return found;
}

/* Places and tests the moves of lanes first..first+3; all ones where the
 * turn is not simple (or ``sent`` is set already). Simple lanes get their new
 * boards. The boards are read again where needed, not kept: sixteen vector
 * registers do not hold them all and spilling them costs more. */
WTS_INLINE __m256i wts_quad_place(wts_lanes *lanes, int first, __m256i sent) {
    wts_quad eggs = wts_quad_load(lanes->eggs_lo + first, lanes->eggs_hi + first);
    wts_quad black_arrival = wts_quad_bit(lanes->black_bit + first);
    wts_quad white_arrival = wts_quad_bit(lanes->white_bit + first);
    wts_quad new_black = wts_quad_or(
        wts_quad_load(lanes->black_lo + first, lanes->black_hi + first), black_arrival);
    wts_quad new_white = wts_quad_or(
        wts_quad_load(lanes->white_lo + first, lanes->white_hi + first), white_arrival);
    __m256i found = _mm256_or_si256(
        wts_quad_closes(black_arrival, wts_quad_or(new_white, eggs), new_black),
        wts_quad_closes(white_arrival, wts_quad_or(new_black, eggs), new_white));
    __m256i keep;
    found = _mm256_or_si256(found, _mm256_or_si256(wts_quad_fives(new_black),
                                                   wts_quad_fives(new_white)));
    keep = _mm256_or_si256(
        _mm256_or_si256(sent, _mm256_cmpeq_epi64(WTS_LOAD(lanes->black_bit + first),
                                                 WTS_LOAD(lanes->white_bit + first))),
        _mm256_xor_si256(_mm256_cmpeq_epi64(found, _mm256_setzero_si256()),
                         _mm256_set1_epi64x(-1)));
    WTS_STORE(lanes->black_lo + first,
              _mm256_blendv_epi8(new_black.lo, WTS_LOAD(lanes->black_lo + first), keep));
    WTS_STORE(lanes->black_hi + first,
              _mm256_blendv_epi8(new_black.hi, WTS_LOAD(lanes->black_hi + first), keep));
    WTS_STORE(lanes->white_lo + first,
              _mm256_blendv_epi8(new_white.lo, WTS_LOAD(lanes->white_lo + first), keep));
    WTS_STORE(lanes->white_hi + first,
              _mm256_blendv_epi8(new_white.hi, WTS_LOAD(lanes->white_hi + first), keep));
    return keep;
}

/* Places and tests the moves of every lane; bit l of ``scalar`` set sends
 * lane l to the scalar turn whatever the test says. Returns ``scalar`` with
 * the lanes whose turn is not simple added; the others get their new boards. */
WTS_INLINE uint32_t wts_lanes_place_simd(wts_lanes *lanes, uint32_t scalar) {
    int first;
    for (first = 0; first < WTS_LANES; first += 4) {
        /* A lane already sent to the scalar turn keeps its boards too. */
        __m256i sent = _mm256_cmpgt_epi64(
            _mm256_and_si256(_mm256_set1_epi64x((long long)(scalar >> first)),
                             _mm256_setr_epi64x(1, 2, 4, 8)), _mm256_setzero_si256());
        scalar |= (uint32_t)_mm256_movemask_pd(
            _mm256_castsi256_pd(wts_quad_place(lanes, first, sent))) << first;
    }
    return scalar;
}

WTS_INLINE uint32_t wts_lanes_step_simd(wts_lanes *lanes) {
    const __m256i valid_lo = _mm256_set1_epi64x((long long)WTS_VALID_LO);
    const __m256i valid_hi = _mm256_set1_epi64x((long long)WTS_VALID_HI);
    uint64_t empty_lo[WTS_LANES], empty_hi[WTS_LANES];
    uint32_t scalar = 0;
    int first, lane;
    for (first = 0; first < WTS_LANES; first += 4) {
        WTS_STORE(lanes->draw + first, wts_quad_rng_next(lanes->s0 + first, lanes->s1 + first,
                                                         lanes->s2 + first, lanes->s3 + first));
        WTS_STORE(empty_lo + first, _mm256_andnot_si256(
            _mm256_or_si256(_mm256_or_si256(WTS_LOAD(lanes->black_lo + first),
                                            WTS_LOAD(lanes->white_lo + first)),
                            WTS_LOAD(lanes->eggs_lo + first)), valid_lo));
        WTS_STORE(empty_hi + first, _mm256_andnot_si256(
            _mm256_or_si256(_mm256_or_si256(WTS_LOAD(lanes->black_hi + first),
                                            WTS_LOAD(lanes->white_hi + first)),
                            WTS_LOAD(lanes->eggs_hi + first)), valid_hi));
    }
    for (lane = 0; lane < WTS_LANES; lane++) {
        scalar |= (uint32_t)wts_lane_moves(
            lanes, lane, wts_board_make(empty_lo[lane], empty_hi[lane])) << lane;
    }
    scalar = wts_lanes_place_simd(lanes, scalar);
    for (lane = 0; lane < WTS_LANES; lane++) {
        lanes->turn[lane] += ((scalar >> lane) & 1u) ^ 1u;
    }
    return scalar;
}
#endif

/* One step of every lane; bit l of the result set when lane l's turn is left
 * to the scalar turn: its boards and turn as the step began, its generator
 * past the step's draw (``draw``), as wts_playout holds them mid-turn.
 * Without SIMD the core plays one game at a time and never steps lanes (a
 * lane-by-lane form of this step measured slower than wts_playout): every
 * lane would go to the scalar turn. */
WTS_INLINE uint32_t wts_lanes_step(wts_lanes *lanes) {
#if WTS_LANES_SIMD
    return wts_lanes_step_simd(lanes);
#else
    (void)lanes;
    return (1u << WTS_LANES) - 1u;
#endif
}

/* wts_lanes_place_simd; without SIMD every lane goes to the scalar turn. */
WTS_INLINE uint32_t wts_lanes_place(wts_lanes *lanes, uint32_t scalar) {
#if WTS_LANES_SIMD
    return wts_lanes_place_simd(lanes, scalar);
#else
    (void)lanes;
    (void)scalar;
    return (1u << WTS_LANES) - 1u;
#endif
}

#endif /* WTS_LANES_H */
