# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""Perft on the core: every joint move to a fixed depth, counted in C."""

from libc.stdint cimport uint64_t
from wts._core cimport (
    WTS_BLACK_WINS, WTS_DRAW, WTS_SUDDEN_DEATH, WTS_WHITE_WINS, wts_any, wts_bit_square,
    wts_board, wts_clear_lowest, wts_copy, wts_legal_moves, wts_lowest_bit, wts_resolve_turn,
    wts_state, wts_turn_record,
)
from wts._game cimport GameCore


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


cdef void _perft(const wts_state *state, int depth, leaf_counts *counts,
                 wts_turn_record *record) noexcept nogil:
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
            wts_resolve_turn(&child, black, white, record)
            if depth == 1:
                _count_leaf(counts, &child, record)
            else:
                _perft(&child, depth - 1, counts, record)


def perft_counts(GameCore game, int depth):
    """The perft counts of ``game`` as a tuple in the order of :class:`wts.PerftCounts`."""
    cdef leaf_counts counts
    cdef wts_turn_record record
    counts.leaves = counts.collisions = counts.captures = counts.dissolves = 0
    counts.hatches = counts.black_wins = counts.white_wins = counts.draws = 0
    counts.sudden_deaths = 0
    if depth == 0:
        counts.leaves = 1
    else:
        with nogil:
            _perft(&game.state, depth, &counts, &record)
    return (counts.leaves, counts.collisions, counts.captures, counts.dissolves, counts.hatches,
            counts.black_wins, counts.white_wins, counts.draws, counts.sudden_deaths)
