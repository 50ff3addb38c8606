"""The playouts of :mod:`wts.players._search`: a game finished from a
position, by uniformly random moves or by tactical ones. Inline, so the
search's loop compiles into one C file with them."""

from libc.stdint cimport uint64_t
from wts.engine._bits cimport wts_any, wts_board, wts_rng
from wts.engine._core cimport (
    WTS_BLACK, WTS_BLACK_WINS, WTS_WHITE, WTS_WHITE_WINS, wts_capturing_moves, wts_copy,
    wts_empty_squares, wts_is_over, wts_playout, wts_resolve_turn, wts_state, wts_winning_moves,
)
from wts.players._sampling cimport random_square

cdef enum:
    PLAYOUT_RANDOM = 0
    PLAYOUT_TACTICAL = 1
    PLAYOUT_CAPTURES = 2
    MAX_PLAYOUT_TURNS = 1000


cdef inline int tactical_move(wts_board own_wins, wts_board foe_wins, wts_board empty,
                              wts_rng *rng) noexcept nogil:
    if wts_any(own_wins):
        return random_square(own_wins, rng)
    if wts_any(foe_wins):
        return random_square(foe_wins, rng)
    return random_square(empty, rng)


cdef inline void tactical_playout(wts_state *state, wts_rng *rng, bint captures) noexcept nogil:
    """Play to the end: each player completes a five when it can, else blocks
    the opponent's, else (with ``captures``) captures when it can, else moves
    uniformly at random. A playout still going after MAX_PLAYOUT_TURNS turns
    stops there (and counts as a draw)."""
    cdef wts_board empty, black_wins, white_wins
    cdef wts_board black_free, white_free
    cdef int black, white
    cdef uint64_t stop = <uint64_t>state.turn + MAX_PLAYOUT_TURNS  # no wrap near WTS_MAX_TURN
    while not wts_is_over(state) and state.turn < stop:
        empty = wts_empty_squares(state)
        black_wins = wts_winning_moves(state.black, empty)
        white_wins = wts_winning_moves(state.white, empty)
        black_free = white_free = empty
        if captures:
            black_free = wts_capturing_moves(state, WTS_BLACK)
            white_free = wts_capturing_moves(state, WTS_WHITE)
            if not wts_any(black_free):
                black_free = empty
            if not wts_any(white_free):
                white_free = empty
        black = tactical_move(black_wins, white_wins, black_free, rng)
        white = tactical_move(white_wins, black_wins, white_free, rng)
        wts_resolve_turn(state, black, white, NULL)


cdef inline double result(const wts_state *state) noexcept nogil:
    """Black's reward in a finished game: 1 black wins, 0 white wins, 0.5 a draw."""
    if state.status == WTS_BLACK_WINS:
        return 1.0
    if state.status == WTS_WHITE_WINS:
        return 0.0
    return 0.5


cdef inline double playout_from(const wts_state *state, int playout, wts_rng *rng) noexcept nogil:
    """Black's reward at the end of a ``playout`` (PLAYOUT_*) from ``state``."""
    cdef wts_state s
    wts_copy(&s, state)
    if playout != PLAYOUT_RANDOM:
        tactical_playout(&s, rng, playout == PLAYOUT_CAPTURES)
    else:
        wts_playout(&s, rng)
    return result(&s)
