cimport cython

from wts.engine._core cimport wts_state
from wts.engine._history cimport History


ctypedef struct _Saved:
    wts_state position
    Py_ssize_t played       # the history's length before the turn


cdef class GameCore:
    cdef wts_state state
    # The turns played and the position before them, shared by copies.
    cdef History _history
    # Bumped whenever the position changes; a turn is published only on the
    # version it was computed from.
    cdef unsigned long long _version
    # The positions push() replaced, for pop(); ``played`` before each, oldest
    # first. A turn by play(), or a copy, saves none: pop() then replays.
    cdef _Saved *_undo
    cdef Py_ssize_t _undo_length
    cdef Py_ssize_t _undo_capacity
    # Held while the position, history or version is read or changed, never
    # while a Python object is made or freed.
    cdef cython.pymutex _lock

    # A consistent copy of the position, for the kernels of other modules.
    cdef void snapshot(self, wts_state *out) noexcept
    # Replace the position (and forget the history), as from_setup would.
    cdef void load(self, const wts_state *state) noexcept
    # Room for one more saved position; False if memory ran out. Mutex held.
    cdef bint _reserve_undo(self) noexcept
    cdef object _play(self, object black_move, object white_move, bint save)
