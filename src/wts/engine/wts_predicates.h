/* The rules' predicates on bitboards, each written once: what a bracket is
 * and what it traps, a run of five, and the end of a game with no winner.
 * The fast core's rules (_rules.pxi) decide with them, the SIMD lanes
 * (wts_lanes.h) prove turns simple with them, and the players' compiled
 * modules read them through the C API (wts_capturing_moves) or
 * _predicates.pxd. The reference engine (reference.py) states the same
 * rules plainly.
 *
 * A predicate over whole boards is a macro over a board type: B names the
 * board's operations B##_and, B##_or, B##_shl and B##_shr, as wts_bits.h
 * gives them for the scalar board (B = wts) and wts_lanes.h for a vector of
 * lanes (B = wts_vboard). The shifts k are constants (1, 9, 10, 11: a step
 * along a line, wts_bits.h), so that vector code can take them as immediates;
 * an argument that is shifted may be expanded more than once, so pass a
 * variable. The scalar board's instances follow each macro.
 */
#ifndef WTS_PREDICATES_H
#define WTS_PREDICATES_H

#include "wts_bits.h"

/* ---- Points 4-5: a bracket, and what it traps ---------------------------- */

/* What a turtle's brackets trap: the opponent's turtles and the eggs. */
#define WTS_TRAPPABLE(B, opponent, eggs) B##_or((opponent), (eggs))

/* A bracket along shift k: the closer (the arriving turtle) at cell p, two
 * trapped pieces at p + k and p + 2k, and an anchor (a turtle of the
 * closer's colour) at p + 3k; or the mirror image, toward lower bits. Found
 * from the pairs: each trapped piece with another k higher. */
#define WTS_PAIRS(B, trapped, k) B##_and((trapped), B##_shr((trapped), (k)))
/* The cells that would close a bracket going toward higher bits. */
#define WTS_BRACKET_UP(B, pairs, anchor, k) \
    B##_and(B##_shr((pairs), (k)), B##_shr((anchor), 3 * (k)))
/* The cells that would close one going toward lower bits. */
#define WTS_BRACKET_DOWN(B, pairs, anchor, k) \
    B##_and(B##_shl((pairs), 2 * (k)), B##_shl((anchor), 3 * (k)))

WTS_INLINE wts_board wts_trappable(wts_board opponent, wts_board eggs) {
    return WTS_TRAPPABLE(wts, opponent, eggs);
}
WTS_INLINE wts_board wts_pairs(wts_board trapped, int k) { return WTS_PAIRS(wts, trapped, k); }
WTS_INLINE wts_board wts_bracket_up(wts_board pairs, wts_board anchor, int k) {
    return WTS_BRACKET_UP(wts, pairs, anchor, k);
}
WTS_INLINE wts_board wts_bracket_down(wts_board pairs, wts_board anchor, int k) {
    return WTS_BRACKET_DOWN(wts, pairs, anchor, k);
}

/* The same bracket from one closer, a step at a time: with a trapped piece
 * at padded bit ``next``, one ``step`` (+-1, 9, 10, 11) from the closer,
 * whether ``next + step`` holds the second and ``next + 2 step`` the anchor.
 * A step off the board lands on padding or outside bits 0..89, never on a
 * square. */
WTS_INLINE int wts_bracket_beyond(wts_board trapped, wts_board anchor, int next, int step) {
    /* Early returns: GCC makes one && chain of them into more instructions
     * in the playout loop (callgrind: 0.3% of simulate's). */
    if (next + 2 * step < 0 || next + 2 * step >= 90) return 0;
    if (!wts_test_bit(trapped, next + step)) return 0;
    return wts_test_bit(anchor, next + 2 * step);
}

/* ---- Point 10: a run of five --------------------------------------------- */

/* The turtles that start a run of five or more along shift k: cells p to
 * p + 4k, a pair at p and at p + 2k and a turtle at p + 4k (``pairs`` is
 * WTS_PAIRS of the same turtles). */
#define WTS_RUN_STARTS(B, turtles, pairs, k) \
    B##_and(B##_and((pairs), B##_shr((pairs), 2 * (k))), B##_shr((turtles), 4 * (k)))

WTS_INLINE wts_board wts_run_starts(wts_board turtles, int k) {
    wts_board pairs = WTS_PAIRS(wts, turtles, k);
    return WTS_RUN_STARTS(wts, turtles, pairs, k);
}

/* Whether either of two boards has a run of five, looked for in both at once:
 * nearly every turn has none. */
WTS_INLINE int wts_any_run_of_both(wts_board a, wts_board b) {
    wts_pair p = wts_pair_make(a, b), pairs, starts, run;
    pairs = WTS_PAIRS(wts_pair, p, 1);
    starts = WTS_RUN_STARTS(wts_pair, p, pairs, 1);
    pairs = WTS_PAIRS(wts_pair, p, 10);
    run = WTS_RUN_STARTS(wts_pair, p, pairs, 10);
    starts = wts_pair_or(starts, run);
    pairs = WTS_PAIRS(wts_pair, p, 11);
    run = WTS_RUN_STARTS(wts_pair, p, pairs, 11);
    starts = wts_pair_or(starts, run);
    pairs = WTS_PAIRS(wts_pair, p, 9);
    run = WTS_RUN_STARTS(wts_pair, p, pairs, 9);
    return wts_pair_any(wts_pair_or(starts, run));
}

/* Every cell of the runs that ``starts`` (along shift k) begin. */
WTS_INLINE wts_board wts_run_cells(wts_board starts, int k) {
    wts_board pairs = wts_or(starts, wts_shl(starts, k));
    return wts_or(wts_or(pairs, wts_shl(pairs, 2 * k)), wts_shl(starts, 4 * k));
}

/* The cells where one more of ``turtles`` completes a run of five along
 * shift k: for each gap j of a window of five, the window starts whose other
 * four cells hold turtles, moved onto the gap (occupied cells included). */
#define WTS_RUN_GAPS(B, T)                                                          \
    WTS_INLINE T B##_run_gaps(T turtles, int k) {                                  \
        T own1 = B##_shr(turtles, k), own2 = B##_shr(turtles, 2 * k);                \
        T own3 = B##_shr(turtles, 3 * k), own4 = B##_shr(turtles, 4 * k);            \
        T head = B##_and(turtles, own1), tail = B##_and(own3, own4);                 \
        T gaps = B##_and(B##_and(own1, own2), tail);                     /* gap 0 */ \
        gaps = B##_or(gaps, B##_shl(B##_and(B##_and(turtles, own2), tail), k));  /* 1 */ \
        gaps = B##_or(gaps, B##_shl(B##_and(head, tail), 2 * k));               /* 2 */ \
        gaps = B##_or(gaps, B##_shl(B##_and(B##_and(head, own2), own4), 3 * k)); /* 3 */ \
        return B##_or(gaps, B##_shl(B##_and(B##_and(head, own2), own3), 4 * k)); /* 4 */ \
    }
WTS_RUN_GAPS(wts, wts_board)
/* Both players' at once (wts_pair, wts_bits.h). */
WTS_RUN_GAPS(wts_pair, wts_pair)

/* The gaps of all four lines, of one board and of a pair. */
WTS_INLINE wts_board wts_line_gaps(wts_board turtles) {
    return wts_or(wts_or(wts_run_gaps(turtles, 1), wts_run_gaps(turtles, 10)),
                  wts_or(wts_run_gaps(turtles, 11), wts_run_gaps(turtles, 9)));
}
WTS_INLINE void wts_line_gaps_of_both(wts_board a, wts_board b, wts_board *a_gaps,
                                      wts_board *b_gaps) {
    wts_pair p = wts_pair_make(a, b);
    wts_pair gaps = wts_pair_or(wts_pair_or(wts_pair_run_gaps(p, 1), wts_pair_run_gaps(p, 10)),
                                wts_pair_or(wts_pair_run_gaps(p, 11), wts_pair_run_gaps(p, 9)));
    *a_gaps = wts_pair_first(gaps);
    *b_gaps = wts_pair_second(gaps);
}

/* ---- Points 11-12 and ruling 8: the end of a game with no winner -------- */

/* Turn number WTS_MAX_TURN is the last: a game that reaches it is drawn. */
WTS_INLINE int wts_last_turn(uint32_t turn) { return turn == WTS_MAX_TURN; }

/* With neither player ahead in winning turtles, the game is drawn once the
 * board is full or at the last turn number. */
WTS_INLINE int wts_ends_drawn(wts_board occupied, uint32_t turn) {
    return wts_equal(occupied, wts_valid()) | wts_last_turn(turn);
}

#endif /* WTS_PREDICATES_H */
