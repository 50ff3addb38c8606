# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""Random playouts in C, without the GIL, one independent generator per game."""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from wts._core cimport (
    wts_copy, wts_playout, wts_rng, wts_rng_seed, wts_state,
)
from wts._game cimport GameCore

# Odd constant spreading game indices over the generator's seed space.
cdef uint64_t GAME_STRIDE = 0xD1B54A32D192ED03ULL


cdef inline void playout_rng(wts_rng *rng, uint64_t seed, uint64_t game) noexcept nogil:
    """Game ``game`` of a run with ``seed`` plays from its own xoshiro256** stream."""
    wts_rng_seed(rng, seed ^ (game * GAME_STRIDE))


def run_playouts(GameCore origin, uint64_t seed, Py_ssize_t first, Py_ssize_t stop,
                 int32_t[::1] lengths, uint8_t[::1] statuses):
    """Play games ``first``..``stop-1`` from ``origin``; write each game's length
    (turns from the start) and final status code. Releases the GIL."""
    cdef const wts_state *start = &origin.state
    cdef wts_state state
    cdef wts_rng rng
    cdef Py_ssize_t game
    with nogil:
        for game in range(first, stop):
            wts_copy(&state, start)
            playout_rng(&rng, seed, <uint64_t>game)
            wts_playout(&state, &rng)
            lengths[game] = <int32_t>(state.turn - start.turn)
            statuses[game] = state.status
