"""The reference engine: the rules of What the Shell, written out plainly.

Slow on purpose. Each rule step is one function, in the order a turn
resolves; the comments cite the numbered points of ``docs/rules.md``. This
module is the ground truth the fast core is held to by the differential tests.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from wts._public import publish
from wts.engine._history import NEW_GAME, History
from wts.engine.base import GameBase, check_moves, check_setup, check_turn
from wts.engine.events import Capture, Hatch, TurnResult
from wts.engine.keys import position_key
from wts.engine.pieces import DIRECTIONS, MAX_TURN, Color, Piece, Status, check_color
from wts.engine.squares import BOARD_SIZE, NUM_SQUARES, Square, SquareLike, to_square
from wts.errors import NoTurnError

__all__ = ["Game", "DIRECTIONS"]

# The four line directions for rows of five (each line counted from one end).
LINE_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (-1, 1))

Board = list[Piece]


def step(square: Square, file_step: int, rank_step: int, distance: int) -> Square | None:
    """The square ``distance`` steps away, or None off the board (lines never wrap: point 4)."""
    file = square % BOARD_SIZE + file_step * distance
    rank = square // BOARD_SIZE + rank_step * distance
    if 0 <= file < BOARD_SIZE and 0 <= rank < BOARD_SIZE:
        return rank * BOARD_SIZE + file
    return None


def is_trappable(piece: Piece, color: Color) -> bool:
    """An opponent turtle or an egg can sit inside a bracket of ``color`` (point 4)."""
    return piece is Piece.EGG or piece is Piece.turtle(color.opponent)


# --- Legal moves ----------------------------------------------------------------


def legal_squares(board: Board, status: Status) -> list[Square]:
    """Point 3: either player may name any empty square; none once the game is over."""
    if status.is_over:
        return []
    return [sq for sq in range(NUM_SQUARES) if board[sq] is Piece.EMPTY]


# --- Placement ----------------------------------------------------------------


def lay_egg(board: Board, eggs: list[Square], square: Square) -> None:
    """A collision lays an egg, newest in the queue (point 9)."""
    board[square] = Piece.EGG
    eggs.append(square)


def place(board: Board, black_move: Square, white_move: Square) -> None:
    """Both turtles land on their squares."""
    board[black_move] = Piece.BLACK
    board[white_move] = Piece.WHITE


# --- Captures -----------------------------------------------------------------


def find_brackets(board: Board, arrivals: list[tuple[Square, Color]], round_: int) -> list[Capture]:
    """Every bracket closed by an arrival of this step, in the order of point 14.

    The board is read as it stands after all arrivals landed and before any
    removal (point 6). Only arrivals close brackets (point 5).
    """
    captures: list[Capture] = []
    for color in (Color.BLACK, Color.WHITE):
        closers = sorted(sq for sq, c in arrivals if c is color)
        for closer in closers:
            for _name, df, dr in DIRECTIONS:
                first = step(closer, df, dr, 1)
                second = step(closer, df, dr, 2)
                anchor = step(closer, df, dr, 3)
                if first is None or second is None or anchor is None:
                    continue
                if not (is_trappable(board[first], color) and is_trappable(board[second], color)):
                    continue
                if board[anchor] is not Piece.turtle(color):
                    continue
                # Point 6: a bracket whose two ends both arrived this step counts
                # once; it is reported from the end met first (the lower square).
                if any(c.closer == anchor and c.anchor == closer for c in captures):
                    continue
                captures.append(Capture(color, round_, (first, second), closer, anchor))
    return captures


def remove_captured(board: Board, eggs: list[Square], captures: list[Capture]) -> None:
    """Every captured piece leaves at once, each once (point 6); captured eggs
    leave the egg queue before anything dissolves or hatches (point 7)."""
    captured = {sq for capture in captures for sq in capture.squares}
    for sq in captured:
        board[sq] = Piece.EMPTY
    eggs[:] = [sq for sq in eggs if sq not in captured]


# --- Hatching -----------------------------------------------------------------


def dissolve(
    board: Board, eggs: list[Square], black_captures: int, white_captures: int
) -> list[Square]:
    """Each pair of a black and a white capture dissolves the oldest egg (point 8)."""
    count = min(black_captures, white_captures, len(eggs))
    dissolved = eggs[:count]
    del eggs[:count]
    for sq in dissolved:
        board[sq] = Piece.EMPTY
    return dissolved


def hatch_wave(
    board: Board, eggs: list[Square], captures: int, color: Color, wave: int
) -> list[Hatch]:
    """Each capture hatches the oldest egg left into ``color``; no egg, no hatch (point 8)."""
    count = min(captures, len(eggs))
    hatching = eggs[:count]
    del eggs[:count]
    for sq in hatching:
        board[sq] = Piece.turtle(color)
    return [Hatch(sq, color, wave) for sq in hatching]


# --- Winning ------------------------------------------------------------------


def winning_turtles(board: Board, color: Color) -> set[Square]:
    """The distinct turtles of ``color`` in a line of five or more (point 10)."""
    turtle = Piece.turtle(color)
    winners: set[Square] = set()
    for start in range(NUM_SQUARES):
        if board[start] is not turtle:
            continue
        for df, dr in LINE_DIRECTIONS:
            line = [start]
            for distance in range(1, 5):
                sq = step(start, df, dr, distance)
                if sq is None or board[sq] is not turtle:
                    break
                line.append(sq)
            if len(line) == 5:
                winners.update(line)
    return winners


def decide_status(board: Board, black_count: int, white_count: int, turn: int) -> Status:
    """Points 11 and 12: more winning turtles wins; equal and non-zero is sudden
    death; a full board without a winner is a draw, and so is a game at the
    last turn number (a wts ruling)."""
    if black_count > white_count:
        return Status.BLACK_WINS
    if white_count > black_count:
        return Status.WHITE_WINS
    if all(piece is not Piece.EMPTY for piece in board) or turn == MAX_TURN:
        return Status.DRAW
    if black_count > 0:
        return Status.SUDDEN_DEATH
    return Status.ONGOING


# --- The game -----------------------------------------------------------------


class Game(GameBase):
    """A game of What the Shell, resolved by the literal rules above.

    >>> game = Game()
    >>> result = game.play("E5", "E5")
    >>> result.collision == 40, game.eggs
    (True, (40,))
    """

    __slots__ = ("_board", "_eggs", "_turn", "_status", "_counts", "_history", "_lock")

    def __init__(self) -> None:
        """A new game; called again, it starts the game afresh, as ``wts.Game`` does."""
        # Serialises play, copy and the readers of the whole board across threads;
        # kept by a second __init__, which another thread may be waiting on.
        if getattr(self, "_lock", None) is None:
            self._lock = threading.RLock()
        with self._lock:
            self._board: Board = [Piece.EMPTY] * NUM_SQUARES
            self._eggs: list[Square] = []
            self._turn = 0
            self._status = Status.ONGOING
            self._counts = (0, 0)
            # The turns played on this game (and the copies it came from), and the
            # position before the first of them; shared by copies.
            self._history: History = NEW_GAME

    @classmethod
    def from_setup(
        cls,
        black: Iterable[SquareLike] = (),
        white: Iterable[SquareLike] = (),
        eggs: Iterable[SquareLike] = (),
        turn: int = 0,
    ) -> Game:
        """Any arrangement of turtles and eggs (eggs oldest first), ``turn`` turns
        into a game; its status follows at once, as if a turn had just ended (point 13)."""
        black_squares, white_squares, egg_squares = check_setup(black, white, eggs)
        turn = check_turn(turn)
        game = cls()
        game._turn = turn
        for sq in black_squares:
            game._board[sq] = Piece.BLACK
        for sq in white_squares:
            game._board[sq] = Piece.WHITE
        for sq in egg_squares:
            game._board[sq] = Piece.EGG
        game._eggs = list(egg_squares)
        game._settle()
        return game

    def copy(self) -> Game:
        """An independent copy of this game."""
        game = type(self)()
        with self._lock:
            game._board = list(self._board)
            game._eggs = list(self._eggs)
            game._turn = self._turn
            game._status = self._status
            game._counts = self._counts
            game._history = self._history
        return game

    def _current_history(self) -> History:
        with self._lock:
            return self._history

    @property
    def black(self) -> frozenset[Square]:
        """The squares of black's turtles."""
        with self._lock:
            return frozenset(sq for sq, p in enumerate(self._board) if p is Piece.BLACK)

    @property
    def white(self) -> frozenset[Square]:
        """The squares of white's turtles."""
        with self._lock:
            return frozenset(sq for sq, p in enumerate(self._board) if p is Piece.WHITE)

    @property
    def eggs(self) -> tuple[Square, ...]:
        """The squares of the eggs, oldest first."""
        with self._lock:
            return tuple(self._eggs)

    @property
    def turn(self) -> int:
        """The number of turns played."""
        return self._turn

    @property
    def status(self) -> Status:
        """The game's status after the last turn."""
        return self._status

    @property
    def winning_counts(self) -> tuple[int, int]:
        """(black, white): the turtles of each colour in a line of five or more."""
        return self._counts

    def winning_turtles(self, color: Color | str) -> frozenset[Square]:
        """The squares of ``color``'s turtles in a line of five or more: the
        rules' winning turtles, whose numbers decide the game."""
        return frozenset(winning_turtles(self._board, check_color(color)))

    def piece_at(self, square: SquareLike) -> Piece:
        """What stands on ``square`` (an index or a name)."""
        return self._board[to_square(square)]

    def legal_moves(self) -> list[Square]:
        """The squares either player may name this turn, ascending; empty once the game is over."""
        with self._lock:
            return legal_squares(self._board, self._status)

    def play(self, black_move: SquareLike, white_move: SquareLike) -> TurnResult:
        """Resolve one turn; both moves are revealed at once.

        Raises :class:`wts.IllegalMoveError` (or :class:`wts.GameOverError`)
        and changes nothing if either move is not allowed (point 3).
        """
        with self._lock:
            return self._play(black_move, white_move)

    def _play(self, black_move: SquareLike, white_move: SquareLike) -> TurnResult:
        b, w = check_moves(self, black_move, white_move)
        history = self._history
        if not history:  # the first turn: the history starts from this position
            history = NEW_GAME if self._is_new() else History(Game.copy(self))
        captures: list[Capture] = []
        dissolved: list[Square] = []
        hatched: list[Hatch] = []
        collision: Square | None = None
        if b == w:
            # Point 9: no turtle arrives, so nothing captures or hatches.
            collision = b
            lay_egg(self._board, self._eggs, b)
        else:
            place(self._board, b, w)
            step_captures = find_brackets(self._board, [(b, Color.BLACK), (w, Color.WHITE)], 0)
            remove_captured(self._board, self._eggs, step_captures)
            captures += step_captures
            black_captures = sum(c.color is Color.BLACK for c in step_captures)
            white_captures = len(step_captures) - black_captures
            dissolved = dissolve(self._board, self._eggs, black_captures, white_captures)
            # Point 8: only the player with more captures hatches, and only
            # that colour can capture in the waves that follow.
            color = Color.BLACK if black_captures > white_captures else Color.WHITE
            pending = abs(black_captures - white_captures)
            wave = 0
            while pending:
                wave += 1
                wave_hatches = hatch_wave(self._board, self._eggs, pending, color, wave)
                if not wave_hatches:
                    break
                hatched += wave_hatches
                wave_captures = find_brackets(
                    self._board, [(h.square, color) for h in wave_hatches], wave
                )
                remove_captured(self._board, self._eggs, wave_captures)
                captures += wave_captures
                pending = len(wave_captures)
        self._turn += 1
        self._settle()
        result = TurnResult(
            b, w, collision, tuple(captures), tuple(dissolved), tuple(hatched),
            self._status, self._counts,
        )
        self._history = history.then(result)
        return result

    def pop(self) -> TurnResult:
        """Undo the last turn and return it: the position is rebuilt by playing
        the history again from its start, without that turn."""
        with self._lock:
            history = self._history
            if not history:
                raise NoTurnError("no turn to undo: none was played since the game's start")
            shorter = history.previous()
            game = Game() if shorter.root is None else shorter.root.copy()
            for turn in shorter.turns():
                game._play(turn.black_move, turn.white_move)
            self._board, self._eggs, self._turn = game._board, game._eggs, game._turn
            self._status, self._counts = game._status, game._counts
            self._history = shorter
            last = history.last
            assert last is not None  # a history with a turn to take back has a last one
            return last

    def key(self) -> int:
        """The position's 64-bit key (:mod:`wts.engine.keys`), computed from the board."""
        with self._lock:
            return position_key(
                (sq for sq, piece in enumerate(self._board) if piece is Piece.BLACK),
                (sq for sq, piece in enumerate(self._board) if piece is Piece.WHITE),
                self._eggs)

    def _is_new(self) -> bool:
        """The position of a new game: an empty board at turn 0."""
        return self._turn == 0 and all(piece is Piece.EMPTY for piece in self._board)

    def _settle(self) -> None:
        """Count winning turtles and read the status off the board (points 10-12)."""
        black = len(winning_turtles(self._board, Color.BLACK))
        white = len(winning_turtles(self._board, Color.WHITE))
        self._counts = (black, white)
        self._status = decide_status(self._board, black, white, self._turn)


# Shown and pickled under the documented path, whatever module holds the code.
publish("wts.reference", __all__, globals())
