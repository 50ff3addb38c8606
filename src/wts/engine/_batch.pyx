"""Many games in one C array, stepped together for vectorised agents."""

cimport cython

from cpython.buffer cimport (
    PyBUF_C_CONTIGUOUS, PyBUF_RECORDS_RO, PyBUF_WRITABLE, PyBuffer_IsContiguous,
    PyBuffer_Release, PyObject_CheckBuffer, PyObject_GetBuffer,
)
from cpython.mem cimport PyMem_Free, PyMem_Malloc

cdef extern from "Python.h":
    const Py_ssize_t PY_SSIZE_T_MAX
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from wts.engine._bits cimport (
    wts_any, wts_bit_square, wts_board, wts_clear_lowest, wts_lowest_bit, wts_or, wts_square_bit,
    wts_square_board, wts_test_bit,
)
from wts.engine._core cimport (
    WTS_BLACK_TURTLE, WTS_EGG, WTS_NUM_SQUARES, WTS_WHITE_TURTLE, wts_copy, wts_init,
    wts_canonical_key, wts_is_over, wts_legal_moves, wts_piece_at, wts_state,
)
from wts.engine._drivers cimport wts_drivers, wts_load_drivers
from wts.engine._game cimport GameCore
from wts.engine._planes cimport NET_PLANES, network_planes

from wts.params import check_int

cdef const wts_drivers *DRIVERS = wts_load_drivers()


cdef bint _int64_row(object array, Py_ssize_t n, Py_buffer *view) except -1:
    """Whether ``array`` exposes ``n`` native int64 in one C-contiguous row; if
    so ``view`` holds its buffer, to be released."""
    cdef const char *format
    if not PyObject_CheckBuffer(array):
        return False
    try:
        PyObject_GetBuffer(array, view, PyBUF_RECORDS_RO)
    except Exception:  # an exporter that refuses: the caller converts it
        return False
    format = view.format
    if format != NULL and (format[0] == b"@" or format[0] == b"="):
        format += 1
    # numpy's int64 is "l" on most platforms and "q" on Windows.
    if (view.ndim == 1 and view.shape[0] == n and view.itemsize == 8
            and PyBuffer_IsContiguous(view, b"C") and format != NULL
            and (format[0] == b"l" or format[0] == b"q") and format[1] == 0):
        return True
    PyBuffer_Release(view)
    return False


# The buffers a step holds: its results, then the two players' moves.
cdef enum:
    STATUS_VIEW, CAPTURES_VIEW, HATCHES_VIEW, BLACK_VIEW, WHITE_VIEW, NUM_VIEWS


cdef int _output(object array, Py_ssize_t n, Py_ssize_t itemsize, Py_buffer *view) except -1:
    """Holds in ``view`` the buffer of ``array``, a writable C-contiguous array
    of ``n`` items of ``itemsize`` bytes, to be released; raises ValueError if
    it is not. Cheaper than a typed memoryview, which makes an object."""
    PyObject_GetBuffer(array, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)
    if view.itemsize != itemsize or view.len != n * itemsize:
        PyBuffer_Release(view)
        raise ValueError("the arrays must have one entry per game")
    return 0


cdef class BatchCore:
    """``n`` game states in one C array; :class:`wts.BatchGame` adds the checks.

    Every method holds the batch's mutex, so a batch shared between threads
    steps, reads and resets whole, one call at a time. No Python object is made
    or freed under it (a finaliser run by the collector could wait on it forever).
    """

    cdef wts_state *states
    # Each game's status beside its state, always equal to it: a step finds the
    # games over without reading them.
    cdef uint8_t *statuses
    cdef Py_ssize_t n
    # A step's own copy of the moves (black's n, then white's), read under the
    # mutex twice (to check, then to play), and the scratch space of the turns.
    cdef int64_t *moves
    cdef Py_ssize_t *live
    cdef cython.pymutex _lock

    def __cinit__(self, n=0):
        cdef Py_ssize_t i, size = check_int(n, "n", 0, PY_SSIZE_T_MAX)
        if size > PY_SSIZE_T_MAX // <Py_ssize_t>(sizeof(wts_state) + 4 * sizeof(int64_t)):
            raise MemoryError(f"a batch of {size} games does not fit in memory")
        self.states = <wts_state *>PyMem_Malloc(max(size, 1) * sizeof(wts_state))
        self.statuses = <uint8_t *>PyMem_Malloc(max(size, 1))
        self.moves = <int64_t *>PyMem_Malloc(max(size, 1) * 2 * sizeof(int64_t))
        self.live = <Py_ssize_t *>PyMem_Malloc(max(size, 1) * sizeof(Py_ssize_t))
        if (self.states == NULL or self.statuses == NULL or self.moves == NULL
                or self.live == NULL):
            raise MemoryError(f"cannot allocate a batch of {size} games")
        self.n = size
        for i in range(size):
            self._put(i, NULL)

    def __dealloc__(self):
        PyMem_Free(self.states)
        PyMem_Free(self.statuses)
        PyMem_Free(self.moves)
        PyMem_Free(self.live)

    cdef inline void _put(self, Py_ssize_t index, const wts_state *state) noexcept nogil:
        """Game ``index`` becomes ``state``, or a new game if NULL; the one way in."""
        if state == NULL:
            wts_init(&self.states[index])
        else:
            wts_copy(&self.states[index], state)
        self.statuses[index] = self.states[index].status

    def __len__(self):
        return self.n

    cdef Py_ssize_t _index(self, Py_ssize_t index) except -1:
        if not 0 <= index < self.n:
            raise IndexError(f"game {index} is out of range for a batch of {self.n}")
        return index

    def _get_state(self, Py_ssize_t index, GameCore game not None):
        cdef wts_state state
        index = self._index(index)  # before the mutex: raising makes an object
        with self._lock:
            wts_copy(&state, &self.states[index])
        game.load(&state)

    def _set_state(self, Py_ssize_t index, GameCore game not None):
        cdef wts_state state
        index = self._index(index)
        game.snapshot(&state)
        with self._lock:
            self._put(index, &state)

    def _step(self, black, white, status, captures, hatches, new_game):
        """Play every game not over, if every move can be played, and return
        None; else change nothing and return the first game that cannot, as
        (index, a copy of it made by ``new_game()``, black's move, white's).
        False, nothing done, unless ``black`` and ``white`` each expose one
        C-contiguous row of ``n`` native int64. ``status`` (n uint8),
        ``captures`` (n pairs of int32) and ``hatches`` (n int32) receive the
        results."""
        cdef Py_ssize_t first_bad = -1, n = self.n
        cdef int64_t black_move = 0, white_move = 0
        cdef wts_state state
        cdef GameCore bad
        cdef Py_buffer views[NUM_VIEWS]
        cdef int k
        # A view not (or no longer) held has no object: releasing it does nothing.
        memset(views, 0, sizeof(views))
        try:
            _output(status, n, 1, &views[STATUS_VIEW])
            _output(captures, 2 * n, 4, &views[CAPTURES_VIEW])
            _output(hatches, n, 4, &views[HATCHES_VIEW])
            if not (_int64_row(black, n, &views[BLACK_VIEW])
                    and _int64_row(white, n, &views[WHITE_VIEW])):
                return False
            with self._lock:
                # The caller's arrays may change under another thread: this copy
                # is what gets checked, played and named in an error.
                memcpy(self.moves, views[BLACK_VIEW].buf, n * sizeof(int64_t))
                memcpy(self.moves + n, views[WHITE_VIEW].buf, n * sizeof(int64_t))
                with nogil:
                    first_bad = DRIVERS.resolve_turns(self.states, self.statuses, self.moves,
                                                      self.moves + n, n, self.live,
                                                      <int32_t *>views[CAPTURES_VIEW].buf,
                                                      <int32_t *>views[HATCHES_VIEW].buf)
                    if first_bad >= 0:
                        wts_copy(&state, &self.states[first_bad])
                        black_move = self.moves[first_bad]
                        white_move = self.moves[n + first_bad]
                    elif n:
                        memcpy(views[STATUS_VIEW].buf, self.statuses, n)
        finally:
            for k in range(NUM_VIEWS):
                PyBuffer_Release(&views[k])
        if first_bad < 0:
            return None
        bad = new_game()
        bad.load(&state)
        return first_bad, bad, black_move, white_move

    def _status(self, uint8_t[::1] out):
        cdef Py_ssize_t i
        self._check_length(out.shape[0])
        with self._lock:
            for i in range(self.n):
                out[i] = self.states[i].status

    def _over(self, uint8_t[::1] out):
        cdef Py_ssize_t i
        self._check_length(out.shape[0])
        with self._lock:
            for i in range(self.n):
                out[i] = wts_is_over(&self.states[i])

    def _counts(self, int32_t[:, ::1] counts, int64_t[::1] turns):
        cdef Py_ssize_t i
        self._check_length(counts.shape[0])
        self._check_length(turns.shape[0])
        with self._lock:
            for i in range(self.n):
                counts[i, 0] = self.states[i].black_count
                counts[i, 1] = self.states[i].white_count
                turns[i] = self.states[i].turn

    def _legal_mask(self, uint8_t[:, ::1] out):
        cdef Py_ssize_t i
        cdef int sq
        cdef wts_board legal
        self._check_length(out.shape[0])
        if out.shape[1] != WTS_NUM_SQUARES:
            raise ValueError("a legal mask has 81 squares a game")
        with self._lock:
            with nogil:
                for i in range(self.n):
                    legal = wts_legal_moves(&self.states[i])
                    for sq in range(WTS_NUM_SQUARES):
                        out[i, sq] = wts_test_bit(legal, wts_square_bit(sq))

    def _observation(self, uint8_t[:, :, ::1] out):
        """Planes black, white, eggs (0/1) and egg age (1 = oldest), each 81 squares."""
        cdef Py_ssize_t i
        cdef int sq, piece, k
        self._check_length(out.shape[0])
        if out.shape[1] != 4 or out.shape[2] != WTS_NUM_SQUARES:
            raise ValueError("an observation has 4 planes of 81 squares a game")
        with self._lock:
            with nogil:
                for i in range(self.n):
                    for sq in range(WTS_NUM_SQUARES):
                        piece = wts_piece_at(&self.states[i], sq)
                        out[i, 0, sq] = piece == WTS_BLACK_TURTLE
                        out[i, 1, sq] = piece == WTS_WHITE_TURTLE
                        out[i, 2, sq] = piece == WTS_EGG
                        out[i, 3, sq] = 0
                    for k in range(self.states[i].egg_count):
                        out[i, 3, self.states[i].egg_queue[k]] = <uint8_t>(k + 1)

    def _keys(self, uint64_t[::1] keys):
        cdef Py_ssize_t i
        self._check_length(keys.shape[0])
        with self._lock:
            for i in range(self.n):
                keys[i] = self.states[i].key

    def _canonical(self, uint64_t[::1] keys, uint8_t[::1] symmetries):
        cdef Py_ssize_t i
        cdef int symmetry
        self._check_length(keys.shape[0])
        self._check_length(symmetries.shape[0])
        with self._lock:
            with nogil:
                for i in range(self.n):
                    keys[i] = wts_canonical_key(&self.states[i], &symmetry)
                    symmetries[i] = <uint8_t>symmetry

    def _reset(self, const uint8_t[::1] mask):
        cdef Py_ssize_t i
        self._check_length(mask.shape[0])
        with self._lock:
            for i in range(self.n):
                if mask[i]:
                    self._put(i, NULL)

    cdef int _check_length(self, Py_ssize_t length) except -1:
        if length != self.n:
            raise ValueError(f"the array has {length} entries, the batch {self.n} games")
        return 0

    def _player_planes(self, uint8_t[:, :, :, ::1] out, int first, uint8_t[:, ::1] legal):
        """The planes of ``out.shape[1]`` (1 or 2) sides, the first that of colour
        ``first`` (0 black, 1 white), each own turtles, opponent turtles, eggs
        and egg age over 81 squares; and the legal squares. One pass over the
        set bits, for learners that want both every step."""
        cdef Py_ssize_t i
        cdef int j, k, side, sides = out.shape[1]
        cdef wts_board boards[2]
        cdef wts_board board
        cdef const wts_state *state
        self._check_length(out.shape[0])
        self._check_length(legal.shape[0])
        if not (1 <= sides <= 2 and 0 <= first <= 1 and out.shape[2] == 4
                and out.shape[3] == WTS_NUM_SQUARES and legal.shape[1] == WTS_NUM_SQUARES):
            raise ValueError("planes are (n, 1 or 2, 4, 81), the legal squares (n, 81)")
        with self._lock:
            with nogil:
                for i in range(self.n):
                    state = &self.states[i]
                    memset(&out[i, 0, 0, 0], 0, sides * 4 * WTS_NUM_SQUARES)
                    memset(&legal[i, 0], 0, WTS_NUM_SQUARES)
                    boards[0] = state.black
                    boards[1] = state.white
                    for j in range(sides):
                        side = (first + j) & 1
                        for k in range(2):  # own turtles, then the opponent's
                            board = boards[side ^ k]
                            while wts_any(board):
                                out[i, j, k, wts_bit_square(wts_lowest_bit(board))] = 1
                                board = wts_clear_lowest(board)
                        for k in range(state.egg_count):
                            out[i, j, 2, state.egg_queue[k]] = 1
                            out[i, j, 3, state.egg_queue[k]] = <uint8_t>(k + 1)
                    board = wts_legal_moves(state)
                    while wts_any(board):
                        legal[i, wts_bit_square(wts_lowest_bit(board))] = 1
                        board = wts_clear_lowest(board)

    def _network_planes(self, float[:, :, ::1] out):
        """Each game's network planes (``_planes.pxd``), (n, 81, NET_PLANES)."""
        cdef Py_ssize_t i
        self._check_length(out.shape[0])
        if out.shape[1] != WTS_NUM_SQUARES or out.shape[2] != NET_PLANES:
            raise ValueError(f"network planes are (n, 81, {NET_PLANES})")
        with self._lock:
            with nogil:
                for i in range(self.n):
                    network_planes(&self.states[i], &out[i, 0, 0])


#: How many planes the network sees (``_planes.pxd``).
NETWORK_PLANE_COUNT = NET_PLANES


def _observation_network_planes(const uint8_t[:, :, ::1] observations, float[:, :, ::1] out):
    """The network planes of positions given as black's observation planes
    (black, white, eggs, egg age 1 = oldest; (n, 4, 81)), as self-play
    shards store them: the egg queue is read back from the ages. Returns the
    index of the first observation that is no position (a square with two
    pieces, ages that are not 1..eggs each once), or -1."""
    cdef Py_ssize_t i, n = observations.shape[0], bad = -1
    cdef int sq, age, count
    cdef wts_state state
    cdef wts_board bit
    if observations.shape[1] != 4 or observations.shape[2] != WTS_NUM_SQUARES:
        raise ValueError("observations are (n, 4, 81)")
    if out.shape[0] != n or out.shape[1] != WTS_NUM_SQUARES or out.shape[2] != NET_PLANES:
        raise ValueError(f"network planes are (n, 81, {NET_PLANES})")
    with nogil:
        for i in range(n):
            wts_init(&state)
            memset(state.egg_queue, 0xFF, WTS_NUM_SQUARES)
            count = 0
            for sq in range(WTS_NUM_SQUARES):
                if (observations[i, 0, sq] != 0) + (observations[i, 1, sq] != 0) + (
                        observations[i, 2, sq] != 0) > 1:
                    bad = i
                if observations[i, 2, sq]:
                    count += 1
            for sq in range(WTS_NUM_SQUARES):
                age = observations[i, 3, sq]
                if (age != 0) != (observations[i, 2, sq] != 0) or age > count:
                    bad = i
                    break
                if age:
                    if state.egg_queue[age - 1] != 0xFF:
                        bad = i
                        break
                    state.egg_queue[age - 1] = <uint8_t>sq
                bit = wts_square_board(sq)
                if observations[i, 0, sq]:
                    state.black = wts_or(state.black, bit)
                elif observations[i, 1, sq]:
                    state.white = wts_or(state.white, bit)
                elif observations[i, 2, sq]:
                    state.eggs = wts_or(state.eggs, bit)
            if bad >= 0:
                break
            state.egg_count = <uint8_t>count
            network_planes(&state, &out[i, 0, 0])
    return bad
