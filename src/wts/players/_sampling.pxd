"""Random draws both players' kernels make: inline, so each module that
cimports them gets its own copy and the calls cost nothing."""

from libc.stdint cimport uint32_t
from wts.engine._bits cimport (
    wts_bit_square, wts_board, wts_popcount, wts_rng, wts_rng_below, wts_rng_next, wts_select,
)


cdef inline double uniform(wts_rng *rng) noexcept nogil:
    """A uniform double in [0, 1)."""
    return <double>(wts_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int random_square(wts_board squares, wts_rng *rng) noexcept nogil:
    """A uniformly random square of a non-empty board."""
    return wts_bit_square(wts_select(squares, <int>wts_rng_below(
        rng, <uint32_t>wts_popcount(squares))))
