# cython: language_level=3
from wts._core cimport wts_state


cdef class GameCore:
    cdef wts_state state
    # The turns played, as a persistent list: None, or (earlier history, TurnResult),
    # so that copy() shares it and play() only prepends one pair.
    cdef object _history
    # The position before the first turn of the history: None for a new game.
    cdef GameCore _root
