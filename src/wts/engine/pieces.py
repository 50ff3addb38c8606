"""The game's vocabulary: colours, pieces, game statuses and what a status
means (its winner, its words, its Result tag, each side's reward and points),
the directions in the order a turn's captures are reported, and the turn
counter's limit.

Every other module reads these meanings here rather than matching statuses
itself; ``tests/test_vocabulary.py`` holds the C core's codes
(``wts_status.h``, ``_core.pxd``) and the web app's script to them.
"""

from __future__ import annotations

from enum import Enum

from wts.errors import ParameterError
from wts.limits import MAX_TURN

__all__ = ["MAX_TURN", "DIRECTIONS", "Color", "Piece", "Status", "check_color"]

#: The eight directions as (name, file step, rank step), in the order of
#: point 14 (a turn's captures from one square are reported in it);
#: N points to rank 9. The C core numbers them 0..7 in this order.
DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("E", 1, 0),
    ("W", -1, 0),
    ("N", 0, 1),
    ("S", 0, -1),
    ("NE", 1, 1),
    ("SW", -1, -1),
    ("NW", -1, 1),
    ("SE", 1, -1),
)


class Color(Enum):
    """The colour of a player and of their turtles."""

    BLACK = "black"
    WHITE = "white"

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def index(self) -> int:
        """0 for black, 1 for white: the order of every pair by colour
        (``winning_counts``, a turn's moves, OpenSpiel's players) and the C
        core's ``WTS_BLACK`` and ``WTS_WHITE``."""
        return 0 if self is Color.BLACK else 1

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
    """The state of a game, read off the board after every turn (points 11-12)."""

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
        return _WORDS[self]

    @property
    def winner(self) -> Color | None:
        """The winning colour, or None."""
        return _WINNERS.get(self)

    @classmethod
    def for_winner(cls, winner: Color | None) -> Status:
        """The status of a game won by ``winner``; None: a draw.

        >>> Status.for_winner(Color.WHITE), Status.for_winner(None)
        (Status.WHITE_WINS, Status.DRAW)
        """
        if winner is None:
            return cls.DRAW
        return cls.BLACK_WINS if check_color(winner) is Color.BLACK else cls.WHITE_WINS

    @property
    def result(self) -> str:
        """The game record's Result tag: ``1-0`` black won, ``0-1`` white won,
        ``1/2-1/2`` a draw, ``*`` not decided (play or sudden death goes on).
        Black is named first, as in the record's tags."""
        return _RESULTS.get(self, "*")

    @classmethod
    def from_result(cls, result: str) -> Status | None:
        """The decided status a Result tag records (``1-0``, ``0-1`` or
        ``1/2-1/2``); None for ``*`` or any other text."""
        return next((status for status, tag in _RESULTS.items() if tag == result), None)

    def reward(self, color: Color) -> int:
        """``color``'s reward: +1 if it has won, -1 if it has lost, 0 for a draw
        or a game not decided (the environments and OpenSpiel pay this)."""
        winner = self.winner
        if winner is None:
            return 0
        return 1 if winner is check_color(color) else -1

    def points(self, color: Color) -> float:
        """``color``'s points: 1 a win, 0 a loss, 1/2 a draw or a game stopped
        before it was decided (a match's scoring)."""
        return (self.reward(color) + 1) / 2

    def __repr__(self) -> str:
        return f"Status.{self.name}"


_WORDS = {Status.ONGOING: "ongoing", Status.SUDDEN_DEATH: "sudden death",
          Status.BLACK_WINS: "black wins", Status.WHITE_WINS: "white wins",
          Status.DRAW: "a draw"}
_WINNERS = {Status.BLACK_WINS: Color.BLACK, Status.WHITE_WINS: Color.WHITE}
_RESULTS = {Status.BLACK_WINS: "1-0", Status.WHITE_WINS: "0-1", Status.DRAW: "1/2-1/2"}
