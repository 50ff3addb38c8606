"""The fast core: What the Shell's rules on packed bitboards.

Every kernel is ``noexcept nogil`` on a plain :c:type:`wts_state`; the
declarations other Cython code cimports are in ``_core.pxd``. The rules are
the ones :mod:`wts.reference` spells out; the comments cite the numbered
points of ``docs/rules.md``.

One module, one C file, in four parts (included, so that the compiler sees
every kernel at once and inlines across them):

- ``_tables.pxi``: directions, neighbours, lines of five, keys, symmetries;
- ``_rules.pxi``: the rules of a turn, in turn order, each once;
- ``_drivers.pxi``: many turns at a time (BatchGame.step, playouts), in SIMD
  lanes where the build has them;
- here: the state's own small API (a new game, a copy, over or not, a piece).
"""

from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from wts.engine._bits cimport (
    wts_and, wts_andnot, wts_bit_board, wts_ctz64, wts_or, wts_rng_below_from,
    wts_rng_next, wts_select, wts_shl, wts_shr, wts_splitmix64, wts_square_board, wts_valid,
    wts_xor,
)
from wts.engine._drivers cimport wts_drivers
from wts.engine._predicates cimport (
    wts_any_run_of_both, wts_bracket_beyond, wts_bracket_down, wts_bracket_up, wts_ends_drawn,
    wts_line_gaps, wts_line_gaps_of_both, wts_pairs, wts_run_cells, wts_run_starts,
    wts_trappable,
)

from wts.engine.keys import KEY_SEED as _KEY_SEED
from wts.engine.pieces import Status

# The Status of each C status code, indexed by the code: the one place the two
# are matched. Every module that reads a code from the core reads it here.
STATUSES = tuple({
    WTS_ONGOING: Status.ONGOING,
    WTS_SUDDEN_DEATH: Status.SUDDEN_DEATH,
    WTS_BLACK_WINS: Status.BLACK_WINS,
    WTS_WHITE_WINS: Status.WHITE_WINS,
    WTS_DRAW: Status.DRAW,
}[code] for code in range(len(Status)))

include "_tables.pxi"
include "_rules.pxi"
include "_drivers.pxi"


cdef void wts_init(wts_state *state) noexcept nogil:
    """The empty board at turn 0."""
    state.black.lo = state.black.hi = 0
    state.white.lo = state.white.hi = 0
    state.eggs.lo = state.eggs.hi = 0
    state.egg_count = 0
    state.status = WTS_ONGOING
    state.black_count = 0
    state.white_count = 0
    state.turn = 0
    state.key = 0


cdef void wts_copy(wts_state *dest, const wts_state *src) noexcept nogil:
    memcpy(dest, src, sizeof(wts_state))


cdef bint wts_is_over(const wts_state *state) noexcept nogil:
    return state.status >= WTS_BLACK_WINS


cdef int wts_piece_at(const wts_state *state, int square) noexcept nogil:
    cdef int bit = wts_square_bit(square)
    if wts_test_bit(state.black, bit):
        return WTS_BLACK_TURTLE
    if wts_test_bit(state.white, bit):
        return WTS_WHITE_TURTLE
    if wts_test_bit(state.eggs, bit):
        return WTS_EGG
    return WTS_EMPTY


def state_size():
    """Bytes in one ``wts_state``: a game's whole position."""
    return sizeof(wts_state)
