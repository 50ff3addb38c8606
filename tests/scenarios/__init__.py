"""Rule scenarios as data: a set-up position, the turns played from it, and
what each turn must report and leave on the board.

One row is one scenario (``Scenario``); ``play_through`` runs a row on one
engine, and the tests run every row on both. Positions and expectations use the
vocabulary of ``tests.support.games``: squares by name, ``cap`` and ``hatch`` for events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.support.games import names, snapshot, turn
from wts import Capture, GameOverError, Hatch, Piece, Status, TurnResult


@dataclass(frozen=True)
class Board:
    """Turtles and eggs (oldest first) by square name. With ``empty`` given, every
    square not named anywhere holds an egg too, younger than ``eggs``: a full or
    nearly full board in one line."""

    black: str = ""
    white: str = ""
    eggs: str = ""
    empty: str | None = None
    turn: int = 0

    def egg_squares(self) -> tuple[int, ...]:
        eggs = names(self.eggs)
        if self.empty is None:
            return tuple(eggs)
        named = set(names(self.black) + names(self.white) + names(self.empty) + eggs)
        return tuple(eggs + [sq for sq in range(81) if sq not in named])

    def build(self, Game: Any) -> Any:
        return Game.from_setup(black=names(self.black), white=names(self.white),
                               eggs=self.egg_squares(), turn=self.turn)


@dataclass(frozen=True)
class Play:
    """One turn and what it must give: the whole TurnResult (the keywords of
    ``tests.support.games.turn``), then optionally the board it leaves and the legal moves."""

    black: str
    white: str
    collision: str | None = None
    captures: tuple[Capture, ...] = ()
    dissolved: str = ""
    hatched: tuple[Hatch, ...] = ()
    status: Status = Status.ONGOING
    counts: tuple[int, int] = (0, 0)
    board: Board | None = None
    legal: str | None = None

    def result(self) -> TurnResult:
        return turn(self.black, self.white, collision=self.collision, captures=self.captures,
                    dissolved=self.dissolved, hatched=self.hatched, status=self.status,
                    counts=self.counts)


@dataclass(frozen=True)
class Scenario:
    """A rule, the position it starts from (with its status and, when given,
    its legal moves), and the turns played from there."""

    name: str
    says: str
    start: Board
    plays: tuple[Play, ...] = ()
    status: Status = Status.ONGOING
    counts: tuple[int, int] = (0, 0)
    legal: str | None = None


def ids(table: list[Scenario]) -> list[str]:
    """The pytest ids of a table: its rows' names, which must not repeat."""
    assert len({row.name for row in table}) == len(table), "two rows share a name"
    return [row.name for row in table]


def check_state(game: Any, status: Status, counts: tuple[int, int], board: Board | None,
                legal: str | None) -> None:
    """The status and everything read off it, the board square by square, and the
    legal moves: none once over, else the given ones or every empty square."""
    assert (game.status, game.winning_counts) == (status, counts)
    assert game.is_over() is status.is_over and game.winner is status.winner
    if board is not None:
        assert game.black == frozenset(names(board.black))
        assert game.white == frozenset(names(board.white))
        assert game.eggs == board.egg_squares()
        pieces = {**dict.fromkeys(game.black, Piece.BLACK),
                  **dict.fromkeys(game.white, Piece.WHITE), **dict.fromkeys(game.eggs, Piece.EGG)}
        assert [game.piece_at(sq) for sq in range(81)] == [
            pieces.get(sq, Piece.EMPTY) for sq in range(81)]
    if status.is_over:
        assert game.legal_moves() == []
    elif legal is not None:
        assert game.legal_moves() == names(legal)
    elif board is not None:
        assert game.legal_moves() == [sq for sq in range(81) if game.piece_at(sq) is Piece.EMPTY]
    else:
        assert game.legal_moves()


def play_through(Game: Any, scenario: Scenario) -> None:
    """Set up the row's position, check it, play its turns checking each, and once
    the game is over check that the last moves again are refused and change nothing."""
    game = scenario.start.build(Game)
    assert game.turn == scenario.start.turn
    check_state(game, scenario.status, scenario.counts, scenario.start, scenario.legal)
    for play in scenario.plays:
        before = game.turn
        assert game.play(play.black, play.white) == play.result()
        assert game.turn == before + 1
        check_state(game, play.status, play.counts, play.board, play.legal)
    if scenario.plays and game.is_over():
        last, frozen = scenario.plays[-1], snapshot(game)
        with pytest.raises(GameOverError):
            game.play(last.black, last.white)
        assert snapshot(game) == frozen
