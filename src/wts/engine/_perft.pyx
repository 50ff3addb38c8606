"""Perft on the core: every joint move to a fixed depth, counted in C."""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from wts.engine._bits cimport (
    wts_any, wts_bit_square, wts_board, wts_clear_lowest, wts_lowest_bit,
)
from wts.engine._core cimport (
    WTS_BLACK_WINS, WTS_DRAW, WTS_SUDDEN_DEATH, WTS_WHITE_WINS, wts_copy, wts_legal_moves,
    wts_resolve_turn, wts_state, wts_turn_record,
)
from wts.engine._game cimport GameCore

cdef enum:
    # Turns resolved between two looks at Ctrl-C: about 10 ms of walking.
    CHECK_EVERY = 65536


ctypedef struct leaf_counts:
    uint64_t leaves
    uint64_t collisions
    uint64_t captures
    uint64_t dissolves
    uint64_t hatches
    uint64_t black_wins
    uint64_t white_wins
    uint64_t draws
    uint64_t sudden_deaths


ctypedef struct walk:
    leaf_counts counts
    wts_turn_record record
    uint64_t turns_to_check  # turns left before the next look at Ctrl-C


cdef void _count_leaf(leaf_counts *counts, const wts_state *state,
                      const wts_turn_record *record) noexcept nogil:
    counts.leaves += 1
    counts.collisions += record.collision >= 0
    counts.captures += record.n_captures
    counts.dissolves += record.n_dissolved
    counts.hatches += record.n_hatched
    counts.black_wins += state.status == WTS_BLACK_WINS
    counts.white_wins += state.status == WTS_WHITE_WINS
    counts.draws += state.status == WTS_DRAW
    counts.sudden_deaths += state.status == WTS_SUDDEN_DEATH


cdef int _check_signals(walk *w) except -1 nogil:
    """Every CHECK_EVERY turns, take the GIL and raise what Ctrl-C left pending."""
    w.turns_to_check -= 1
    if w.turns_to_check == 0:
        w.turns_to_check = CHECK_EVERY
        with gil:
            PyErr_CheckSignals()
    return 0


cdef int _perft(const wts_state *state, int depth, walk *w) except -1 nogil:
    cdef wts_board legal = wts_legal_moves(state)
    cdef wts_board replies
    cdef wts_state child
    cdef int black, white
    while wts_any(legal):
        black = wts_bit_square(wts_lowest_bit(legal))
        legal = wts_clear_lowest(legal)
        replies = wts_legal_moves(state)
        while wts_any(replies):
            white = wts_bit_square(wts_lowest_bit(replies))
            replies = wts_clear_lowest(replies)
            wts_copy(&child, state)
            wts_resolve_turn(&child, black, white, &w.record)
            _check_signals(w)
            if depth == 1:
                _count_leaf(&w.counts, &child, &w.record)
            else:
                _perft(&child, depth - 1, w)
    return 0


def perft_counts(GameCore game not None, int depth):
    """The perft counts of ``game`` as a tuple in the order of :class:`wts.PerftCounts`.
    The walk runs without the GIL and raises KeyboardInterrupt within about
    10 ms of Ctrl-C (in the main thread)."""
    cdef wts_state root
    cdef walk w
    cdef leaf_counts *counts = &w.counts
    counts.leaves = counts.collisions = counts.captures = counts.dissolves = 0
    counts.hatches = counts.black_wins = counts.white_wins = counts.draws = 0
    counts.sudden_deaths = 0
    w.turns_to_check = CHECK_EVERY
    game.snapshot(&root)
    if depth == 0:
        counts.leaves = 1
    else:
        with nogil:
            _perft(&root, depth, &w)
    return (counts.leaves, counts.collisions, counts.captures, counts.dissolves, counts.hatches,
            counts.black_wins, counts.white_wins, counts.draws, counts.sudden_deaths)
