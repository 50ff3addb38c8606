"""The playouts of :mod:`wts.players._search`: a game finished from a
position, by uniformly random moves or by tactical ones (the core's
wts_playout and wts_tactical_playout). Inline, so the search's loop compiles
into one C file with them."""

from wts.engine._bits cimport wts_rng
from wts.engine._core cimport (
    WTS_BLACK_WINS, WTS_WHITE_WINS, wts_copy, wts_playout, wts_state, wts_tactical_playout,
)

cdef enum:
    PLAYOUT_RANDOM = 0
    PLAYOUT_TACTICAL = 1
    PLAYOUT_CAPTURES = 2
    # A tactical playout still going after this many turns stops there (and
    # counts as a draw).
    MAX_PLAYOUT_TURNS = 1000


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
        wts_tactical_playout(&s, rng, playout == PLAYOUT_CAPTURES, MAX_PLAYOUT_TURNS)
    else:
        wts_playout(&s, rng)
    return result(&s)
