# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""Many games in one C array, stepped together for vectorised agents."""

from cpython.mem cimport PyMem_Free, PyMem_Malloc

cdef extern from "Python.h":
    const Py_ssize_t PY_SSIZE_T_MAX
from libc.stdint cimport int32_t, int64_t, uint8_t
from wts._core cimport (
    WTS_BLACK, WTS_BLACK_TURTLE, WTS_EGG, WTS_EMPTY, WTS_WHITE_TURTLE, wts_copy, wts_init,
    wts_is_over, wts_piece_at, wts_resolve_turn, wts_state, wts_turn_record,
)
from wts._game cimport GameCore


# What a bad move in game i is, found in C before any game changes.
cdef enum:
    MOVES_OK = 0
    MOVE_AFTER_END = 1
    MOVE_ILLEGAL = 2


cdef int _check_move(const wts_state *state, int64_t move) noexcept nogil:
    if move < 0 or move >= 81:
        return MOVE_ILLEGAL
    return MOVES_OK if wts_piece_at(state, <int>move) == WTS_EMPTY else MOVE_ILLEGAL


cdef class BatchCore:
    """``n`` game states in one C array; :class:`wts.BatchGame` adds the checks."""

    cdef wts_state *states
    cdef Py_ssize_t n

    def __cinit__(self, Py_ssize_t n=0):
        cdef Py_ssize_t i
        if n < 0:
            raise ValueError(f"a batch holds zero or more games, not {n}")
        if n > PY_SSIZE_T_MAX // sizeof(wts_state):
            raise MemoryError(f"a batch of {n} games does not fit in memory")
        self.states = <wts_state *>PyMem_Malloc(max(n, 1) * sizeof(wts_state))
        if self.states == NULL:
            raise MemoryError()
        self.n = n
        for i in range(n):
            wts_init(&self.states[i])

    def __dealloc__(self):
        PyMem_Free(self.states)

    def __len__(self):
        return self.n

    def _get_state(self, Py_ssize_t index, GameCore game):
        wts_copy(&game.state, &self.states[index])

    def _set_state(self, Py_ssize_t index, GameCore game):
        wts_copy(&self.states[index], &game.state)

    def _first_bad_move(self, const int64_t[::1] black, const int64_t[::1] white):
        """(index, kind) of the first game whose moves cannot be played, else (-1, 0)."""
        cdef Py_ssize_t i
        cdef int kind = MOVES_OK
        with nogil:
            for i in range(self.n):
                if wts_is_over(&self.states[i]):
                    if black[i] != -1 or white[i] != -1:
                        kind = MOVE_AFTER_END
                else:
                    kind = _check_move(&self.states[i], black[i])
                    if kind == MOVES_OK:
                        kind = _check_move(&self.states[i], white[i])
                if kind != MOVES_OK:
                    break
        if kind == MOVES_OK:
            return (-1, kind)
        return (i, kind)

    def _step(self, const int64_t[::1] black, const int64_t[::1] white, uint8_t[::1] status,
              int32_t[:, ::1] captures, int32_t[::1] hatches):
        """Play every game not over; moves were checked by ``_first_bad_move``."""
        cdef Py_ssize_t i
        cdef int j, black_captures
        cdef wts_turn_record record
        with nogil:
            for i in range(self.n):
                if wts_is_over(&self.states[i]):
                    captures[i, 0] = captures[i, 1] = hatches[i] = 0
                else:
                    wts_resolve_turn(&self.states[i], <int>black[i], <int>white[i], &record)
                    black_captures = 0
                    for j in range(record.n_captures):
                        black_captures += record.captures[j].color == WTS_BLACK
                    captures[i, 0] = black_captures
                    captures[i, 1] = record.n_captures - black_captures
                    hatches[i] = record.n_hatched
                status[i] = self.states[i].status

    def _status(self, uint8_t[::1] out):
        cdef Py_ssize_t i
        for i in range(self.n):
            out[i] = self.states[i].status

    def _counts(self, int32_t[:, ::1] counts, int64_t[::1] turns):
        cdef Py_ssize_t i
        for i in range(self.n):
            counts[i, 0] = self.states[i].black_count
            counts[i, 1] = self.states[i].white_count
            turns[i] = self.states[i].turn

    def _legal_mask(self, uint8_t[:, ::1] out):
        cdef Py_ssize_t i
        cdef int sq
        with nogil:
            for i in range(self.n):
                if wts_is_over(&self.states[i]):
                    for sq in range(81):
                        out[i, sq] = 0
                else:
                    for sq in range(81):
                        out[i, sq] = wts_piece_at(&self.states[i], sq) == WTS_EMPTY

    def _observation(self, uint8_t[:, :, ::1] out):
        """Planes black, white, eggs (0/1) and egg age (1 = oldest), each 81 squares."""
        cdef Py_ssize_t i
        cdef int sq, piece, k
        with nogil:
            for i in range(self.n):
                for sq in range(81):
                    piece = wts_piece_at(&self.states[i], sq)
                    out[i, 0, sq] = piece == WTS_BLACK_TURTLE
                    out[i, 1, sq] = piece == WTS_WHITE_TURTLE
                    out[i, 2, sq] = piece == WTS_EGG
                    out[i, 3, sq] = 0
                for k in range(self.states[i].egg_count):
                    out[i, 3, self.states[i].egg_queue[k]] = <uint8_t>(k + 1)

    def _reset(self, const uint8_t[::1] mask):
        cdef Py_ssize_t i
        for i in range(self.n):
            if mask[i]:
                wts_init(&self.states[i])
