"""Games as the rule and API tests write them: squares by name, set-up
positions, the events a turn is expected to report, snapshots of a game,
random reachable games."""

from __future__ import annotations

import random
from typing import Any

from wts import Capture, Color, Hatch, Status, TurnResult, parse_square


def names(text: str) -> list[int]:
    """Squares from space-separated names: ``names("E5 A1") == [40, 0]``."""
    return [parse_square(n) for n in text.split()]


def setup(Game: Any, black: str = "", white: str = "", eggs: str = "") -> Any:
    """A set-up position from space-separated names (eggs oldest first)."""
    return Game.from_setup(black=names(black), white=names(white), eggs=names(eggs))


def play_for(game: Any, color: Color, move: object, other: object) -> TurnResult:
    """``color`` plays ``move`` while the opponent plays ``other``."""
    return game.play(move, other) if color is Color.BLACK else game.play(other, move)


def cap(color: Color, round_: int, closer: str, trapped: str, anchor: str) -> Capture:
    """A capture: ``closer`` brackets ``trapped`` (nearest first) against ``anchor``."""
    first, second = names(trapped)
    return Capture(color, round_, (first, second), parse_square(closer), parse_square(anchor))


def hatch(square: str, color: Color, wave: int) -> Hatch:
    return Hatch(parse_square(square), color, wave)


def turn(
    black_move: str,
    white_move: str,
    *,
    collision: str | None = None,
    captures: tuple[Capture, ...] = (),
    dissolved: str = "",
    hatched: tuple[Hatch, ...] = (),
    status: Status = Status.ONGOING,
    counts: tuple[int, int] = (0, 0),
) -> TurnResult:
    """The TurnResult a turn is expected to return."""
    return TurnResult(
        parse_square(black_move),
        parse_square(white_move),
        None if collision is None else parse_square(collision),
        captures,
        tuple(names(dissolved)),
        hatched,
        status,
        counts,
    )


def assert_board(game: Any, black: str = "", white: str = "", eggs: str = "") -> None:
    """The game holds exactly these turtles, and these eggs in this age order."""
    assert game.black == frozenset(names(black))
    assert game.white == frozenset(names(white))
    assert game.eggs == tuple(names(eggs))


def snapshot(game: Any) -> tuple[Any, ...]:
    """Everything observable about a game's state."""
    return (
        game.black,
        game.white,
        game.eggs,
        game.turn,
        game.status,
        game.winning_counts,
        game.legal_moves(),
        str(game),
    )


def random_game(Game: Any, seed: int, turns: int | None = None, *, start: Any = None,
                collide: float = 0.2) -> Any:
    """A reachable game: random turns from ``start`` (a new game by default) until
    it ends or ``turns`` were played; each turn is a collision with chance ``collide``."""
    rng = random.Random(seed)
    game = start.copy() if start is not None else Game()
    played = 0
    while not game.is_over() and (turns is None or played < turns):
        legal = game.legal_moves()
        black = rng.choice(legal)
        game.play(black, black if rng.random() < collide else rng.choice(legal))
        played += 1
    return game


def random_positions(Game: Any, count: int, seed: int) -> list[Any]:
    """``count`` positions met in random games (none over), in play order, a
    new game started where one ends; a tenth of the turns are collisions."""
    rng = random.Random(seed)
    positions: list[Any] = []
    game = Game()
    while len(positions) < count:
        if game.is_over():
            game = Game()
        positions.append(game.copy())
        legal = game.legal_moves()
        black = rng.choice(legal)
        game.play(black, black if rng.random() < 0.1 else rng.choice(legal))
    return positions
