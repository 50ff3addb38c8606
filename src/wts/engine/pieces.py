"""Colours, pieces, game statuses and the turn counter's limit."""

from __future__ import annotations

from enum import Enum

from wts.errors import ParameterError

#: The last turn number. A game that reaches it is drawn unless a side has won
#: (docs/rules.md, "wts rulings"): the counter never wraps on either engine.
MAX_TURN = 2**32 - 1


class Color(Enum):
    """The colour of a player and of their turtles."""

    BLACK = "black"
    WHITE = "white"

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    def __repr__(self) -> str:
        return f"Color.{self.name}"


def check_color(color: object) -> Color:
    """``color`` as a :class:`Color`: a Color, or ``"black"`` or ``"white"`` in
    any case; anything else raises ParameterError."""
    if isinstance(color, Color):
        return color
    if isinstance(color, str) and color.strip().lower() in ("black", "white"):
        return Color(color.strip().lower())
    raise ParameterError(f"expected a colour (wts.Color, 'black' or 'white'), got {color!r}")


class Piece(Enum):
    """What stands on a square."""

    EMPTY = "empty"
    BLACK = "black"
    WHITE = "white"
    EGG = "egg"

    @classmethod
    def turtle(cls, color: Color) -> Piece:
        """The turtle of a colour."""
        return cls.BLACK if color is Color.BLACK else cls.WHITE

    def __repr__(self) -> str:
        return f"Piece.{self.name}"


class Status(Enum):
    """The state of a game, read off the board after every turn (CLARIFICATIONS 11-12)."""

    ONGOING = "ongoing"
    SUDDEN_DEATH = "sudden_death"
    BLACK_WINS = "black_wins"
    WHITE_WINS = "white_wins"
    DRAW = "draw"

    @property
    def is_over(self) -> bool:
        """True for a won or drawn game."""
        return self in (Status.BLACK_WINS, Status.WHITE_WINS, Status.DRAW)

    @property
    def words(self) -> str:
        """The status as a person says it: ``white wins``, not ``white_wins``."""
        return {"sudden_death": "sudden death", "black_wins": "black wins",
                "white_wins": "white wins", "draw": "a draw"}.get(self.value, self.value)

    @property
    def winner(self) -> Color | None:
        """The winning colour, or None."""
        if self is Status.BLACK_WINS:
            return Color.BLACK
        if self is Status.WHITE_WINS:
            return Color.WHITE
        return None

    def __repr__(self) -> str:
        return f"Status.{self.name}"
