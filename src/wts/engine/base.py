"""What both engines share: argument checking, equality and the text board.

The rules themselves live in :mod:`wts.reference` (literal) and in the Cython
core (fast); this module only holds the API around them, so both engines
accept the same input, raise the same errors and print the same board.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from wts.engine import svg, text
from wts.engine.events import TurnResult
from wts.engine.notation import STARTING_FEN, format_fen, parse_fen
from wts.engine.pieces import MAX_TURN, Color, Piece, Status
from wts.engine.squares import SQUARE_NAMES, Square, to_square
from wts.engine.symmetry import Symmetry, SymmetryLike
from wts.errors import (
    GameOverError,
    IllegalMoveError,
    NoTurnError,
    SetupError,
    SquareError,
    WtsError,
)
from wts.params import describe_int

if TYPE_CHECKING:
    from typing_extensions import Self

    from wts.engine._history import History
    from wts.engine.api import GameAPI as _Declared
else:
    _Declared = object

_PIECE_WORDS = {
    Piece.BLACK: "a black turtle",
    Piece.WHITE: "a white turtle",
    Piece.EGG: "an egg",
}


def move_square(color: Color, move: object) -> Square | IllegalMoveError:
    """``move`` as a square, or the error that says why it is none (not raised)."""
    try:
        return to_square(move)
    except SquareError as exc:
        return IllegalMoveError(f"{color.value}'s move is illegal: {exc}")


def game_over_error(status: Status) -> GameOverError:
    return GameOverError(f"the game is over ({status.words}): no move can be played")


def occupied_error(color: Color, square: Square, piece: Piece) -> IllegalMoveError:
    return IllegalMoveError(
        f"{color.value}'s move {SQUARE_NAMES[square]} is illegal: "
        f"the square holds {_PIECE_WORDS[piece]}"
    )


def move_error(
    status: Status, black: Square | IllegalMoveError, white: Square | IllegalMoveError,
    legal: Callable[[Square], bool], piece_at: Callable[[Square], Piece],
) -> WtsError | None:
    """The error point 3 asks for, or None if both moves may be played; both
    engines check a turn's moves here, in this order: the game is not over;
    black's move is a square; white's move is a square; black's square is
    legal; white's square is legal (``legal``: the engine's own rule)."""
    if status.is_over:
        return game_over_error(status)
    if isinstance(black, IllegalMoveError):
        return black
    if isinstance(white, IllegalMoveError):
        return white
    if not legal(black):
        return occupied_error(Color.BLACK, black, piece_at(black))
    if not legal(white):
        return occupied_error(Color.WHITE, white, piece_at(white))
    return None


def check_moves(game: GameBase, black_move: object, white_move: object) -> tuple[Square, Square]:
    """Both moves as squares, or the error of :func:`move_error`, raised."""
    black = move_square(Color.BLACK, black_move)
    white = move_square(Color.WHITE, white_move)
    error = move_error(game.status, black, white, game.legal_moves().__contains__, game.piece_at)
    if error is not None:
        raise error
    assert not isinstance(black, IllegalMoveError) and not isinstance(white, IllegalMoveError)
    return black, white


def check_setup(
    black: Iterable[object], white: Iterable[object], eggs: Iterable[object]
) -> tuple[tuple[Square, ...], tuple[Square, ...], tuple[Square, ...]]:
    """The three lists of a set-up position as squares (point 13)."""
    seen: dict[Square, str] = {}
    lists = []
    for label, items in (("black", black), ("white", white), ("eggs", eggs)):
        if isinstance(items, (str, bytes)):
            raise SetupError(
                f"{label} must be a collection of squares, not a single {type(items).__name__}"
            )
        try:
            entries = list(items)
        except TypeError:
            raise SetupError(
                f"{label} must be a collection of squares, not {type(items).__name__}"
            ) from None
        squares = []
        for position, item in enumerate(entries):
            try:
                sq = to_square(item)
            except SquareError as exc:
                raise SetupError(f"{label}[{position}]: {exc}") from None
            if sq in seen:
                where = (
                    "twice in " + label if seen[sq] == label else f"in {seen[sq]} and in {label}"
                )
                raise SetupError(f"{SQUARE_NAMES[sq]} is listed {where}")
            seen[sq] = label
            squares.append(sq)
        lists.append(tuple(squares))
    return lists[0], lists[1], lists[2]


def check_turn(turn: object) -> int:
    """The turn number of a set-up position: an int from 0 up."""
    try:
        if isinstance(turn, bool):
            raise TypeError
        number = operator.index(turn)  # type: ignore[arg-type]
    except TypeError:
        raise SetupError(f"turn must be an int, not {type(turn).__name__}") from None
    if not 0 <= number <= MAX_TURN:
        raise SetupError(f"turn must be from 0 to {MAX_TURN} (2**32 - 1), "
                         f"not {describe_int(number)}")
    return number


class GameBase(_Declared):
    """The API both ``wts.Game`` and ``wts.reference.Game`` present, declared
    in :class:`wts.engine.api.GameAPI` (a base class here for type checkers
    only).

    Engines provide the position (``black``, ``white``, ``eggs``,
    ``piece_at``, ``turn``, ``status``, ``winning_counts``, ``winning_turtles``,
    ``key``), the rules (``legal_moves``, ``play``, ``pop``), ``copy`` and
    ``from_setup``; everything derived from those lives here.
    """

    __slots__ = ()

    if TYPE_CHECKING:
        def _current_history(self) -> History: ...

    def fen(self) -> str:
        """The position as one line of text (``docs/notation.md``): the board,
        the eggs oldest first and the turn number.

        >>> import wts
        >>> wts.Game.from_setup(black=["E5", "H5"], white=["A1"], eggs=["C3"]).fen()
        '9/9/9/9/4x2x1/9/2e6/9/o8 C3 0'
        """
        position = self.copy()  # one read of the whole position, whatever other threads play
        return format_fen(position.black, position.white, position.eggs, position.turn)

    @classmethod
    def from_fen(cls, fen: str) -> Self:
        """The game at the position a position string describes, with an empty
        history; raises :class:`wts.NotationError` naming the first bad
        character (``"position 17: expected ..."``)."""
        return cls.from_setup(*parse_fen(fen))

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, for Jupyter (:func:`wts.svg.board`)."""
        return svg.board(self)

    @property
    def winner(self) -> Color | None:
        """The colour that has won, or None (ongoing, sudden death or a draw)."""
        return self.status.winner

    def is_over(self) -> bool:
        """True once the game is won or drawn."""
        return self.status.is_over

    def _position_key(self) -> tuple[frozenset[Square], frozenset[Square], tuple[Square, ...], int]:
        position = self.copy()  # one read of the whole position
        return (position.black, position.white, position.eggs, position.turn)

    def __eq__(self, other: Any) -> bool:
        """Same turtles, same eggs in the same age order, same turn number."""
        if not isinstance(other, GameBase):
            return NotImplemented
        return self._position_key() == other._position_key()

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        # The class and its own rebuilder: a pickle names only the public class.
        position = self.copy()  # the position and its history as of one turn
        return (
            type(self)._unpickle,
            (
                tuple(sorted(position.black)),
                tuple(sorted(position.white)),
                position.eggs,
                position.turn,
                position.history,
                position._root_fen(),
            ),
        )

    @classmethod
    def _unpickle(cls, black: tuple[Square, ...], white: tuple[Square, ...],
                  eggs: tuple[Square, ...], turn: int, history: tuple[TurnResult, ...] = (),
                  root: str | None = None) -> Self:
        """Rebuild a pickled game. A history is replayed from its root (a position
        string, or None for a new game) and must reproduce every turn and the
        position; anything else raises :class:`wts.SetupError`."""
        game = cls.from_setup(black=black, white=white, eggs=eggs, turn=turn)
        if not history:
            return game
        try:
            replayed = cls() if root is None else cls.from_fen(root)
        except WtsError as exc:
            raise SetupError(f"the pickled history's start is not a position: {exc}") from None
        if not isinstance(history, tuple):
            raise SetupError(f"a pickled history is a tuple of turns, not {type(history).__name__}")
        for index, turn_result in enumerate(history):
            if not isinstance(turn_result, TurnResult):
                raise SetupError(f"pickled history turn {index + 1} is a "
                                 f"{type(turn_result).__name__}, not a TurnResult")
            try:
                played = replayed.play(turn_result.black_move, turn_result.white_move)
            except WtsError as exc:
                raise SetupError(f"pickled history turn {index + 1} cannot be played: "
                                 f"{exc}") from None
            if played != turn_result:
                raise SetupError(f"pickled history turn {index + 1} does not match the rules: "
                                 f"it says {turn_result!r}, the moves give {played!r}")
        if replayed != game:
            raise SetupError("the pickled history does not lead to the pickled position: "
                             f"it leads to {replayed.fen()!r}, not {game.fen()!r}")
        return replayed

    @property
    def history(self) -> tuple[TurnResult, ...]:
        """The turns played on this game, oldest first; empty for a game just set up."""
        return self._current_history().turns()

    def root(self) -> Self:
        """A copy of the game before the first turn of its history, with an empty
        history (a copy of this game when the history is empty)."""
        history = self._current_history()
        if not history:
            return self.copy()
        if history.root is None:
            return type(self)()
        root: Self = history.root.copy()
        return root

    def push(self, black_move: Square | str, white_move: Square | str) -> TurnResult:
        """Play a turn, as :meth:`play` does, named as python-chess names it.
        Any turn can be undone by :meth:`pop`; on the fast engine ``push``
        also saves the position it replaces, so that popping it is a struct
        copy rather than a replay of the history.

        >>> import wts
        >>> game = wts.Game()
        >>> game.push("E5", "D4").black_move
        40
        >>> game.pop().white_move, game.turn
        (30, 0)
        """
        return self.play(black_move, white_move)

    def peek(self) -> TurnResult:
        """The last turn played, which :meth:`pop` would undo; raises
        :class:`wts.NoTurnError` if none was played since the game's start."""
        last = self._current_history().last
        if last is None:
            raise NoTurnError("no turn to peek at: none was played since the game's start")
        turn: TurnResult = last
        return turn

    def canonical(self) -> tuple[int, Symmetry]:
        """(key, symmetry): the least :meth:`key` among the position's eight
        images, and the first :class:`wts.Symmetry` that reaches it. Positions
        that are images of each other have the same canonical key, so one
        transposition-table entry or one training example serves all eight."""
        position = self.copy()
        return min((position._image(symmetry).key(), symmetry) for symmetry in Symmetry)

    def _image(self, symmetry: SymmetryLike) -> Self:
        """The position (not its history) seen through ``symmetry``."""
        chosen = Symmetry.of(symmetry)
        position = self.copy()
        return type(self).from_setup(
            black=chosen.squares(tuple(position.black)),
            white=chosen.squares(tuple(position.white)),
            eggs=chosen.squares(position.eggs), turn=position.turn)

    def transform(self, symmetry: SymmetryLike) -> Self:
        """This game seen through ``symmetry``: its start transformed and every
        turn of its history played again on the image, so the history, the
        key and :meth:`pop` work on the image as on the game.

        >>> import wts
        >>> game = wts.Game()
        >>> _ = game.play("A1", "B1")
        >>> sorted(game.transform(wts.Symmetry.FLIP_FILES).black)
        [8]
        """
        chosen = Symmetry.of(symmetry)
        position = self.copy()  # one read of the position and its history
        history = position._current_history()
        if not history:
            return position._image(chosen)
        image = type(self)() if history.root is None else history.root._image(chosen)
        for turn in history.turns():
            image.play(chosen.square(turn.black_move), chosen.square(turn.white_move))
        return image

    def _root_fen(self) -> str | None:
        """The position string the history starts from; None for a new game."""
        if not self.history:
            return None
        fen = self.root().fen()
        return None if fen == STARTING_FEN else fen

    def __copy__(self) -> GameBase:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> GameBase:
        return self.copy()

    def __str__(self) -> str:
        """The board as text, the last turn and a win marked (:func:`wts.engine.text.board`)."""
        # One read of the game, whatever other threads play.
        return text.board(self.copy())

    def __repr__(self) -> str:
        def names(squares: Iterable[Square]) -> str:
            return "[" + ", ".join(SQUARE_NAMES[s] for s in squares) + "]"

        game = self.copy()  # one read of the whole position
        return (
            f"<{type(self).__module__}.{type(self).__qualname__} turn={game.turn} "
            f"{game.status.value} black={names(sorted(game.black))} "
            f"white={names(sorted(game.white))} eggs={names(game.eggs)}>"
        )
