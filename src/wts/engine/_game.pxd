# cython: language_level=3
cimport cython

from wts.engine._core cimport wts_state


cdef class GameCore:
    cdef wts_state state
    # The turns played, as a persistent list: None, or (earlier history, TurnResult),
    # so that copy() shares it and play() only prepends one pair.
    cdef object _history
    # The position before the first turn of the history: None for a new game.
    cdef GameCore _root
    # Held while the position is read or changed, so no thread sees half a turn.
    cdef cython.pymutex _lock

    # A consistent copy of the position, for the kernels of other modules.
    cdef void snapshot(self, wts_state *out) noexcept
    # Replace the position (and forget the history), as from_setup would.
    cdef void load(self, const wts_state *state) noexcept
