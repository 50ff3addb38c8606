# cython: language_level=3
from wts._core cimport wts_state


cdef class GameCore:
    cdef wts_state state
