"""Random playouts in C, without the GIL, one independent generator per game."""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from wts.engine._core cimport wts_state
from wts.engine._drivers cimport wts_drivers, wts_load_drivers
from wts.engine._game cimport GameCore

cdef extern from "Python.h":
    const Py_ssize_t PY_SSIZE_T_MAX

from wts.params import check_int, check_seed

cdef const wts_drivers *DRIVERS = wts_load_drivers()

cdef class Playouts:
    """The random games of one run: ``Playouts(origin, seed)`` copies ``origin``'s
    position once, at construction (never again: ``__cinit__`` runs once), so a
    game changed meanwhile by another thread changes no game of the run;
    ``play`` plays any range of the run's games, from any number of threads at
    once. Game ``i`` is the same whichever call, thread or order plays it."""

    cdef wts_state start
    cdef uint64_t seed

    def __cinit__(self, GameCore origin not None, seed):
        self.seed = check_seed(seed)
        origin.snapshot(&self.start)

    def play(self, first, stop, int32_t[::1] lengths not None, uint8_t[::1] statuses not None):
        """Play games ``first``..``stop-1`` without the GIL; write game ``first + k``'s
        length (turns from the start) to ``lengths[k]`` and its final status code
        (an index into :data:`wts.STATUSES`) to ``statuses[k]``."""
        cdef Py_ssize_t begin = check_int(first, "first", 0, PY_SSIZE_T_MAX)
        cdef Py_ssize_t end = check_int(stop, "stop", begin, PY_SSIZE_T_MAX)
        if lengths.shape[0] < end - begin or statuses.shape[0] < end - begin:
            raise ValueError(f"lengths and statuses need room for {end - begin} games")
        if end == begin:
            return
        with nogil:
            DRIVERS.playout_range(&self.start, self.seed, <uint64_t>begin, <uint64_t>end,
                                  &lengths[0], &statuses[0])
