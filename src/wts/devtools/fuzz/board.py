"""The board as the set-up builders and the move policies read it.

Nothing here decides a rule: squares are stepped with the reference engine's
:func:`~wts.reference.step` along its ``DIRECTIONS`` and
``LINE_DIRECTIONS``, a row of five is whatever its
:func:`~wts.reference.winning_turtles` says, and what a turn would
capture is asked of the fast engine by playing it on a copy.
"""

from __future__ import annotations

from collections.abc import Iterable

from wts.engine.game import Game
from wts.engine.pieces import Color, Piece
from wts.engine.reference import DIRECTIONS, LINE_DIRECTIONS, step, winning_turtles
from wts.engine.squares import NUM_SQUARES

__all__ = ["Board", "RAYS", "LINES_OF_FIVE", "piece_board", "in_row_of_five", "captures_by"]

Board = list[Piece]
"""A board as :mod:`wts.engine.reference` holds it: one Piece per square."""


def _rays() -> list[list[tuple[int, int, int]]]:
    rays: list[list[tuple[int, int, int]]] = []
    for sq in range(NUM_SQUARES):
        row = []
        for _name, df, dr in DIRECTIONS:
            near, middle, far = (step(sq, df, dr, k) for k in (1, 2, 3))
            if near is not None and middle is not None and far is not None:
                row.append((near, middle, far))
        rays.append(row)
    return rays


RAYS = _rays()
"""Per square, the (p+d, p+2d, p+3d) of every direction that stays on the board:
where a bracket closed from that square would lie."""


def _lines_of_five() -> list[tuple[int, ...]]:
    lines = []
    for sq in range(NUM_SQUARES):
        for df, dr in LINE_DIRECTIONS:
            line = [step(sq, df, dr, k) for k in range(5)]
            if line[-1] is not None:
                lines.append(tuple(s for s in line if s is not None))
    return lines


LINES_OF_FIVE = _lines_of_five()
"""Every line of five squares on the board."""


def piece_board(black: Iterable[int], white: Iterable[int], eggs: Iterable[int]) -> Board:
    """The board holding these turtles and eggs."""
    board = [Piece.EMPTY] * NUM_SQUARES
    for squares, piece in ((black, Piece.BLACK), (white, Piece.WHITE), (eggs, Piece.EGG)):
        for sq in squares:
            board[sq] = piece
    return board


def in_row_of_five(board: Board, sq: int) -> bool:
    """Whether the turtle on ``sq`` stands in a row of five, by the reference engine."""
    piece = board[sq]
    if piece is Piece.BLACK:
        return sq in winning_turtles(board, Color.BLACK)
    if piece is Piece.WHITE:
        return sq in winning_turtles(board, Color.WHITE)
    return False


def captures_by(
    position: Game, color: Color, moves: Iterable[int], other: int
) -> list[tuple[int, int]]:
    """(placement captures, move) for each of ``color``'s ``moves`` against the
    other player's move ``other``, played on copies of ``position``."""
    found = []
    for move in moves:
        black_move, white_move = (move, other) if color is Color.BLACK else (other, move)
        result = position.copy().play(black_move, white_move)
        found.append((sum(1 for c in result.captures if c.round == 0 and c.color is color), move))
    return found
