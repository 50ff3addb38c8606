"""The core's drivers, for the engine's own modules; not the public C API
(``_core.pxd``): one turn in many games for ``BatchGame.step``, and ranges of
random playouts for ``simulate``. They live in the core (``_drivers.pxi``),
built for each CPU kernel, which hands them over in a capsule:
``wts_load_drivers()``, once when a module is imported."""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from wts.engine._state cimport wts_state

ctypedef struct wts_drivers:
    # One turn in each of ``n`` games, if every game's moves can be taken, and
    # -1: wts_resolve_turn on every game not over (games over are left as they
    # are; their moves must be -1, "no move"). ``statuses[i]`` must hold
    # ``states[i].status`` and is kept so. Game i's captures by black and by
    # white go to ``captures[2 * i]`` and ``captures[2 * i + 1]``, its hatched
    # eggs to ``hatches[i]`` (all 0 for a game over). Otherwise the first game
    # whose moves cannot be taken (a game not over with a move that is not one
    # of its legal squares, or a game over with a move other than -1), with
    # nothing written. ``live`` is scratch space for ``n`` indices.
    Py_ssize_t (*resolve_turns)(
        wts_state *states, uint8_t *statuses, const int64_t *black_moves,
        const int64_t *white_moves, Py_ssize_t n, Py_ssize_t *live, int32_t *captures,
        int32_t *hatches) noexcept nogil
    # Games ``first``..``stop-1`` of the run ``seed`` played out from ``start`` (as
    # wts_playout on wts_game_rng's generator, several at a time where the build
    # has SIMD lanes); game g's turns and final status go to ``lengths[g - first]``
    # and ``statuses[g - first]``.
    void (*playout_range)(
        const wts_state *start, uint64_t seed, uint64_t first, uint64_t stop,
        int32_t *lengths, uint8_t *statuses) noexcept nogil


cdef inline const wts_drivers *wts_load_drivers() except NULL:
    """The drivers of the core ``wts`` loaded (the CPU kernel chosen at import)."""
    from wts.engine import _core
    return <const wts_drivers *>PyCapsule_GetPointer(_core.DRIVERS, "wts.engine._core.DRIVERS")
