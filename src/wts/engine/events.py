"""What happened in a turn: :class:`TurnResult` and the events inside it.

Events are listed in the order of point 14: placement first, then
hatching wave 1, 2, ...; within a step black's captures before white's, each
colour's by arriving square, then by direction (E, W, N, S, NE, SW, NW, SE).
"""

from __future__ import annotations

from typing import NamedTuple

from wts.engine.pieces import Color, Status
from wts.engine.squares import SQUARE_NAMES, Square


def _names(squares: tuple[Square, ...]) -> str:
    inner = ", ".join(SQUARE_NAMES[s] for s in squares)
    return f"({inner},)" if len(squares) == 1 else f"({inner})"


class Capture(NamedTuple):
    """One bracket that closed: two enemy pieces removed by ``color``.

    ``round`` is 0 for the placement step and k for the k-th hatching wave;
    ``squares`` are the two removed squares, nearest the closer first;
    ``closer`` is the arriving turtle that closed the bracket and ``anchor``
    the turtle of the same colour at its far end.
    """

    color: Color
    round: int
    squares: tuple[Square, Square]
    closer: Square
    anchor: Square

    def __repr__(self) -> str:
        return (
            f"Capture({self.color!r}, round={self.round}, squares={_names(self.squares)}, "
            f"closer={SQUARE_NAMES[self.closer]}, anchor={SQUARE_NAMES[self.anchor]})"
        )


class Hatch(NamedTuple):
    """An egg on ``square`` hatched into a turtle of ``color`` in hatching wave ``wave``."""

    square: Square
    color: Color
    wave: int

    def __repr__(self) -> str:
        return f"Hatch({SQUARE_NAMES[self.square]}, {self.color!r}, wave={self.wave})"


class TurnResult(NamedTuple):
    """Everything one turn did, and the state it left.

    ``collision`` is the square where both players' moves met (an egg was
    laid there), else None. ``dissolved`` are the eggs claimed by both
    players at once, oldest first.
    """

    black_move: Square
    white_move: Square
    collision: Square | None
    captures: tuple[Capture, ...]
    dissolved: tuple[Square, ...]
    hatched: tuple[Hatch, ...]
    status: Status
    winning_counts: tuple[int, int]

    def __repr__(self) -> str:
        collision = "None" if self.collision is None else SQUARE_NAMES[self.collision]
        return (
            f"TurnResult(black_move={SQUARE_NAMES[self.black_move]}, "
            f"white_move={SQUARE_NAMES[self.white_move]}, collision={collision}, "
            f"captures={self.captures!r}, "
            f"dissolved={_names(self.dissolved) if self.dissolved else '()'}, "
            f"hatched={self.hatched!r}, status={self.status!r}, "
            f"winning_counts={self.winning_counts!r})"
        )
