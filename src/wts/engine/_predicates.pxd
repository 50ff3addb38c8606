"""The rules' predicates on the scalar board (``wts_predicates.h``): what a
bracket traps, a bracket's closers, runs of five, the end of a game with no
winner. For the core's rules (``_rules.pxi``) and the players' compiled
modules; each shift ``k`` is a constant step along a line (1, 9, 10, 11)."""

from libc.stdint cimport uint32_t
from wts.engine._bits cimport wts_board

cdef extern from "wts_predicates.h" nogil:
    # What a turtle's brackets trap: the opponent's turtles and the eggs.
    wts_board wts_trappable(wts_board opponent, wts_board eggs)
    # The trapped pieces with another k higher.
    wts_board wts_pairs(wts_board trapped, int k)
    # The cells that would close a bracket of ``pairs`` (wts_pairs) against
    # ``anchor``, toward higher bits and toward lower bits.
    wts_board wts_bracket_up(wts_board pairs, wts_board anchor, int k)
    wts_board wts_bracket_down(wts_board pairs, wts_board anchor, int k)
    # From a closer one ``step`` before ``next``, a trapped piece: whether the
    # bracket is whole (padded bits; step +-1, 9, 10, 11).
    bint wts_bracket_beyond(wts_board trapped, wts_board anchor, int next, int step)
    # The turtles that start a run of five or more along k, the cells of the
    # runs ``starts`` begin, and the cells where one more completes a five.
    wts_board wts_run_starts(wts_board turtles, int k)
    wts_board wts_run_cells(wts_board starts, int k)
    # Whether either board has a run of five.
    bint wts_any_run_of_both(wts_board a, wts_board b)
    wts_board wts_run_gaps(wts_board turtles, int k)
    # The cells where one more completes a five along any line: of one board,
    # and of two at once (written to ``a_gaps`` and ``b_gaps``).
    wts_board wts_line_gaps(wts_board turtles)
    void wts_line_gaps_of_both(wts_board a, wts_board b, wts_board *a_gaps, wts_board *b_gaps)
    # The last turn number, and a game with no winner drawn: a full board or the last turn.
    bint wts_last_turn(uint32_t turn)
    bint wts_ends_drawn(wts_board occupied, uint32_t turn)
