# Pickled by GameBase.__reduce__, under its public path, not by Cython's own.
# cython: auto_pickle=False
"""The Python face of the core: a game held in one ``wts_state`` struct.

Only argument conversion and building :class:`wts.TurnResult` happen here;
the rules run in the ``noexcept nogil`` kernels of :mod:`wts._core`. Bad
input gets the errors both engines share (:mod:`wts.base`).

Threads: the game's mutex guards the position, its history and a version
number, so a game shared between threads is never seen half-played. No Python
object is made or freed while the mutex is held: making one may run the
garbage collector, and a finaliser that reads the same game would then wait
on the mutex forever. So a turn reads the position under the mutex, is checked
and resolved on that copy without it, and is published only if the version
has not moved meanwhile; otherwise it is tried again on the new position.
"""

from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from libc.stdint cimport uint32_t, uint64_t
from wts.engine._bits cimport (
    wts_any, wts_bit_square, wts_board, wts_clear_lowest, wts_equal, wts_lowest_bit, wts_or,
    wts_square_board,
)
from wts.engine._core cimport (
    WTS_NUM_DIRECTIONS, WTS_NUM_SQUARES,
    wts_canonical_key, wts_capture, wts_copy, wts_init, wts_is_legal,
    wts_is_over, wts_legal_moves, wts_piece_at, wts_resolve_turn, wts_settle, wts_state,
    wts_transform, wts_turn_record, wts_winning_turtles,
)

from wts.engine._core import STATUSES as _CORE_STATUSES
from wts.engine._history import NEW_GAME as _NEW_GAME
from wts.engine.base import check_setup, check_turn, move_error, move_square
from wts.engine.events import Capture, Hatch, TurnResult
from wts.engine.pieces import Color, Piece, check_color
from wts.engine.squares import to_square
from wts.engine.symmetry import Symmetry
from wts.errors import NoTurnError

cdef tuple STATUSES = _CORE_STATUSES
cdef tuple COLORS = (Color.BLACK, Color.WHITE)
cdef tuple PIECES = (Piece.EMPTY, Piece.BLACK, Piece.WHITE, Piece.EGG)
# Public-index step of each direction of point 14: E, W, N, S, NE, SW, NW, SE.
cdef int SQUARE_STEP[WTS_NUM_DIRECTIONS]
SQUARE_STEP[:] = [1, -1, 9, -9, 10, -10, 8, -8]
cdef tuple NO_EVENTS = ()
cdef History NEW_GAME = _NEW_GAME


cdef inline frozenset _squares(wts_board board):
    cdef list squares = []
    while wts_any(board):
        squares.append(wts_bit_square(wts_lowest_bit(board)))
        board = wts_clear_lowest(board)
    return frozenset(squares)


cdef inline object _move_square(object move, int color):
    """``move`` as a Python int 0..80, or the IllegalMoveError that says why not
    (``color`` 0 black, 1 white). A plain int in range, the common case, costs
    no Python call."""
    cdef long square
    cdef int overflow = 0
    if type(move) is int:
        square = PyLong_AsLongAndOverflow(move, &overflow)
        if not overflow and 0 <= square < WTS_NUM_SQUARES:
            return move
    return move_square(COLORS[color], move)


cdef object _move_error(const wts_state *position, object black, object white):
    """The error base.move_error names for moves that cannot both be played on
    ``position`` (each a square or the error _move_square gave)."""
    cdef frozenset legal = _squares(wts_legal_moves(position))
    cdef dict pieces = {square: PIECES[wts_piece_at(position, square)]
                        for square in (black, white) if type(square) is int}
    return move_error(STATUSES[position.status], black, white, legal.__contains__,
                      pieces.__getitem__)


cdef inline bint _is_new(const wts_state *state):
    """The position of a new game: an empty board at turn 0."""
    return state.turn == 0 and not wts_any(wts_or(wts_or(state.black, state.white), state.eggs))


cdef bint _same_position(const wts_state *a, const wts_state *b):
    cdef int i
    if not (a.turn == b.turn and a.egg_count == b.egg_count and wts_equal(a.black, b.black)
            and wts_equal(a.white, b.white) and wts_equal(a.eggs, b.eggs)):
        return False
    for i in range(a.egg_count):
        if a.egg_queue[i] != b.egg_queue[i]:
            return False
    return True


cdef History _history_to_extend(type game_type, History history, const wts_state *state):
    """The history a turn from ``state`` extends: ``history`` if it has turns,
    else one starting from ``state``: NEW_GAME for a new game, ``history`` if it
    already starts there, else a snapshot of ``state`` (made once and then shared
    by the copies made before the first turn)."""
    cdef GameCore root
    if history.length:
        return history
    if _is_new(state):
        return NEW_GAME
    if history.root is not None and _same_position(&(<GameCore>history.root).state, state):
        return history
    root = game_type()
    wts_copy(&root.state, state)
    return History(root)


cdef void _replay(History history, wts_state *out) except *:
    """The position ``history`` leads to, by playing its turns from its root."""
    if history.root is None:
        wts_init(out)
    else:
        (<GameCore>history.root).snapshot(out)
    for turn in history.turns():
        wts_resolve_turn(out, turn.black_move, turn.white_move, NULL)


cdef object _turn_result(int black_move, int white_move, const wts_turn_record *record,
                         const wts_state *state):
    cdef list captures, hatched
    cdef const wts_capture *c
    cdef int i, step, closer
    cdef object events_captures = NO_EVENTS, events_dissolved = NO_EVENTS
    cdef object events_hatched = NO_EVENTS
    if record.n_captures:
        captures = []
        for i in range(record.n_captures):
            c = &record.captures[i]
            closer = c.closer
            step = SQUARE_STEP[c.direction]
            captures.append(tuple.__new__(Capture, (
                COLORS[c.color], c.round, (closer + step, closer + 2 * step),
                closer, closer + 3 * step)))
        events_captures = tuple(captures)
    if record.n_dissolved:
        events_dissolved = tuple([record.dissolved[i] for i in range(record.n_dissolved)])
    if record.n_hatched:
        hatched = []
        for i in range(record.n_hatched):
            hatched.append(tuple.__new__(Hatch, (
                record.hatched[i].square, COLORS[record.hatched[i].color],
                record.hatched[i].wave)))
        events_hatched = tuple(hatched)
    return tuple.__new__(TurnResult, (
        black_move, white_move, None if record.collision < 0 else record.collision,
        events_captures, events_dissolved, events_hatched, STATUSES[state.status],
        (state.black_count, state.white_count)))


cdef class GameCore:
    """A game held in a C struct; :class:`wts.Game` adds the shared API."""

    def __cinit__(self):
        wts_init(&self.state)
        self._history = NEW_GAME

    def __init__(self):
        """A new game. Called again on a game, it starts that game afresh (the
        empty board, no history), as :class:`wts.reference.Game` does."""
        cdef wts_state fresh
        cdef bint new
        with self._lock:
            new = (_is_new(&self.state) and self._history is NEW_GAME
                   and self._undo_length == 0)
        if not new:  # a game played on or set up: start it again
            wts_init(&fresh)
            self.load(&fresh)

    def __dealloc__(self):
        PyMem_Free(self._undo)

    cdef bint _reserve_undo(self) noexcept:
        cdef Py_ssize_t capacity
        cdef _Saved *grown
        if self._undo_length < self._undo_capacity:
            return True
        capacity = max(4, 2 * self._undo_capacity)
        grown = <_Saved *>PyMem_Realloc(self._undo, capacity * sizeof(_Saved))
        if grown == NULL:
            return False
        self._undo = grown
        self._undo_capacity = capacity
        return True

    cdef void snapshot(self, wts_state *out) noexcept:
        with self._lock:
            wts_copy(out, &self.state)

    cdef void load(self, const wts_state *state) noexcept:
        cdef History _released = None
        with self._lock:
            wts_copy(&self.state, state)
            _released = self._history  # freed after the mutex is released
            self._history = NEW_GAME
            self._undo_length = 0
            self._version += 1

    @classmethod
    def from_setup(cls, black=(), white=(), eggs=(), turn=0):
        """Any arrangement of turtles and eggs (eggs oldest first), ``turn`` turns
        into a game; its status follows at once, as if a turn had just ended
        (point 13)."""
        black_squares, white_squares, egg_squares = check_setup(black, white, eggs)
        turn = check_turn(turn)
        cdef GameCore game = cls()
        game.state.turn = turn
        cdef int sq, i = 0
        for sq in black_squares:
            game.state.black = wts_or(game.state.black, wts_square_board(sq))
        for sq in white_squares:
            game.state.white = wts_or(game.state.white, wts_square_board(sq))
        for sq in egg_squares:
            game.state.eggs = wts_or(game.state.eggs, wts_square_board(sq))
            game.state.egg_queue[i] = sq
            i += 1
        game.state.egg_count = i
        wts_settle(&game.state)
        return game

    def copy(self):
        """An independent copy of this game (a struct copy; the history is shared
        and immutable)."""
        cdef GameCore game = type(self)()
        cdef History base = None, history, _released = None
        cdef uint64_t version
        with self._lock:  # the copy keeps no saved positions: pop() replays
            wts_copy(&game.state, &self.state)
            base = self._history
            version = self._version
        history = _history_to_extend(type(self), base, &game.state)
        if history is not base:
            # Copies tried and thrown away share one snapshot of the start.
            with self._lock:
                if self._version == version:
                    _released = self._history
                    self._history = history
        game._history = history
        return game

    def _current_history(self):
        cdef History history = None
        with self._lock:
            history = self._history
        return history

    @property
    def black(self):
        """The squares of black's turtles."""
        cdef wts_state s
        self.snapshot(&s)
        return _squares(s.black)

    @property
    def white(self):
        """The squares of white's turtles."""
        cdef wts_state s
        self.snapshot(&s)
        return _squares(s.white)

    @property
    def eggs(self):
        """The squares of the eggs, oldest first."""
        cdef wts_state s
        self.snapshot(&s)
        return tuple([s.egg_queue[i] for i in range(s.egg_count)])

    @property
    def turn(self):
        """The number of turns played."""
        cdef uint32_t turn
        with self._lock:
            turn = self.state.turn
        return turn

    @property
    def status(self):
        """The game's status after the last turn."""
        cdef int status
        with self._lock:
            status = self.state.status
        return STATUSES[status]

    @property
    def winning_counts(self):
        """(black, white): the turtles of each colour in a line of five or more."""
        cdef int black, white
        with self._lock:
            black = self.state.black_count
            white = self.state.white_count
        return (black, white)

    def winning_turtles(self, color):
        """The squares of ``color``'s turtles in a line of five or more: the
        rules' winning turtles, whose numbers decide the game."""
        cdef wts_state s
        cdef bint black = check_color(color) is Color.BLACK
        self.snapshot(&s)
        return _squares(wts_winning_turtles(s.black if black else s.white))

    def is_over(self):
        """True once the game is won or drawn."""
        cdef bint over
        with self._lock:
            over = wts_is_over(&self.state)
        return over

    def piece_at(self, square):
        """What stands on ``square`` (an index or a name)."""
        cdef int sq, piece
        if type(square) is int and 0 <= square < WTS_NUM_SQUARES:
            sq = square
        else:
            sq = to_square(square)
        with self._lock:
            piece = wts_piece_at(&self.state, sq)
        return PIECES[piece]

    def legal_moves(self):
        """The squares either player may name this turn, ascending; empty once the game is over."""
        cdef wts_board legal
        cdef list squares = []
        with self._lock:
            legal = wts_legal_moves(&self.state)
        while wts_any(legal):
            squares.append(wts_bit_square(wts_lowest_bit(legal)))
            legal = wts_clear_lowest(legal)
        return squares

    def play(self, black_move, white_move):
        """Resolve one turn; both moves are revealed at once.

        Raises :class:`wts.IllegalMoveError` (or :class:`wts.GameOverError`)
        and changes nothing if either move is not allowed (point 3).
        """
        return self._play(black_move, white_move, False)

    def push(self, black_move, white_move):
        """:meth:`play`, saving the position it replaces so that :meth:`pop`
        is a struct copy (a turn by ``play`` is undone by replaying the history)."""
        return self._play(black_move, white_move, True)

    cdef object _play(self, object black_move, object white_move, bint save):
        cdef wts_turn_record record
        cdef wts_state position
        cdef History base, history, _released
        cdef uint64_t version
        cdef int b, w
        black_square = _move_square(black_move, 0)
        white_square = _move_square(white_move, 1)
        # -1, never legal, for a move that is no square: one test a move.
        b = black_square if type(black_square) is int else -1
        w = white_square if type(white_square) is int else -1
        while True:
            base = _released = None  # no reference is dropped under the mutex
            with self._lock:
                wts_copy(&position, &self.state)
                base = self._history
                version = self._version
            if not (wts_is_legal(&position, b) and wts_is_legal(&position, w)):
                raise _move_error(&position, black_square, white_square)
            history = _history_to_extend(type(self), base, &position)
            wts_resolve_turn(&position, b, w, &record)
            result = _turn_result(b, w, &record, &position)
            history = history.then(result)
            with self._lock:
                if self._version == version:
                    if save:
                        if not self._reserve_undo():
                            break
                        self._undo[self._undo_length].played = base.length
                        wts_copy(&self._undo[self._undo_length].position, &self.state)
                        self._undo_length += 1
                    wts_copy(&self.state, &position)
                    _released = self._history
                    self._history = history
                    self._version += 1
                    return result
        raise MemoryError("no memory left to save this turn's position for pop()")

    def pop(self):
        """Undo the last turn and return it: the position, its key, the status
        and the history are again what they were before it.

        Raises :class:`wts.NoTurnError` if no turn was played since the start.
        """
        cdef wts_state previous
        cdef History base, _released
        cdef uint64_t version
        cdef bint saved
        while True:
            base = _released = None
            with self._lock:
                base = self._history
                version = self._version
                # Saved positions are of turns still in the history: pop drops
                # them with their turn, and play or a copy adds none.
                saved = (self._undo_length > 0
                         and self._undo[self._undo_length - 1].played == base.length - 1)
                if saved:
                    wts_copy(&previous, &self._undo[self._undo_length - 1].position)
            if not base.length:
                raise NoTurnError("no turn to undo: none was played since the game's start")
            shorter = base.previous()
            if not saved:
                _replay(shorter, &previous)
            with self._lock:
                if self._version == version:
                    wts_copy(&self.state, &previous)
                    if saved:
                        self._undo_length -= 1
                    _released = self._history
                    self._history = shorter
                    self._version += 1
                    return (<tuple>base._last)[1]  # the last turn

    def key(self):
        """The position's 64-bit key (see :mod:`wts.engine.keys`), kept by every turn."""
        cdef uint64_t key
        with self._lock:
            key = self.state.key
        return key

    def canonical(self):
        """(key, symmetry): the least key among the position's eight images and
        the first :class:`wts.Symmetry` that reaches it."""
        cdef wts_state s
        cdef int symmetry
        self.snapshot(&s)
        cdef uint64_t key = wts_canonical_key(&s, &symmetry)
        return key, Symmetry(symmetry)

    def _image(self, symmetry):
        """The position (not its history) seen through ``symmetry``."""
        cdef int chosen = Symmetry.of(symmetry)
        cdef wts_state s
        cdef GameCore image = type(self)()
        self.snapshot(&s)
        wts_transform(&image.state, &s, chosen)
        return image
