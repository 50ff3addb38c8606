"""Start positions that steer games toward the rare rule branches.

Each builder draws a position from a seeded ``random.Random``: near-complete
rows (sudden death, wins), both rows of five already standing (sudden death
held, broken or won), many eggs with capture motifs around the oldest ones
(dissolves, hatching cascades), the two oldest eggs hatching together
(brackets closed from both ends), and nearly full boards (draws, and wins on
the turn that fills the board), and positions a few turns short of the turn
cap (a draw at turn ``wts.MAX_TURN``, or sudden death drawn there). No
builder leaves a row of five unless it means to: a decided start position
would waste the game.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from wts.engine.pieces import MAX_TURN, Color, Piece
from wts.engine.reference import DIRECTIONS, is_trappable, step
from wts.engine.squares import NUM_SQUARES

from .board import LINES_OF_FIVE, RAYS, in_row_of_five
from .compare import Setup

__all__ = ["SETUPS", "SETUP_WEIGHTS", "Builder"]

_COLORS = (Color.BLACK, Color.WHITE)


class Builder:
    """A board being filled for a set-up position, refusing rows of five."""

    def __init__(self) -> None:
        self.board = [Piece.EMPTY] * NUM_SQUARES
        self.eggs: list[int] = []

    def empty(self, sq: int | None) -> bool:
        return sq is not None and self.board[sq] is Piece.EMPTY

    def put(self, sq: int | None, piece: Piece, allow_five: bool = False) -> bool:
        """Place ``piece`` on an empty ``sq``; refuse a turtle that makes a row of five."""
        if sq is None or self.board[sq] is not Piece.EMPTY:
            return False
        self.board[sq] = piece
        if piece is Piece.EGG:
            self.eggs.append(sq)
        elif not allow_five and in_row_of_five(self.board, sq):
            self.board[sq] = Piece.EMPTY
            return False
        return True

    def trappable(self, sq: int | None, color: Color, rng: random.Random) -> bool:
        """Make ``sq`` hold something a turtle of ``color`` can bracket."""
        if sq is None:
            return False
        if is_trappable(self.board[sq], color):
            return True
        piece = Piece.EGG if rng.random() < 0.4 else Piece.turtle(color.opponent)
        return self.put(sq, piece) or self.put(sq, Piece.EGG)

    def motif(
        self, arrival: int, color: Color, rng: random.Random,
        ray: tuple[int, int, int] | None = None,
    ) -> bool:
        """A bracket that a turtle of ``color`` arriving on ``arrival`` would close,
        along ``ray`` (one of ``RAYS[arrival]``) or a random direction."""
        if ray is None:
            if not RAYS[arrival]:
                return False
            ray = rng.choice(RAYS[arrival])
        a, b, anchor = ray
        own = Piece.turtle(color)
        if self.board[anchor] not in (Piece.EMPTY, own) or own in (self.board[a], self.board[b]):
            return False
        if self.board[anchor] is Piece.EMPTY and not self.put(anchor, own):
            return False
        return self.trappable(a, color, rng) and self.trappable(b, color, rng)

    def put_random(self, sq: int, rng: random.Random, egg_share: float) -> None:
        """An egg or a random turtle on an empty ``sq``; a turtle that would make
        a row of five becomes the other colour, or else an egg."""
        if rng.random() < egg_share:
            self.put(sq, Piece.EGG)
            return
        color = rng.choice(_COLORS)
        if not (self.put(sq, Piece.turtle(color)) or self.put(sq, Piece.turtle(color.opponent))):
            self.put(sq, Piece.EGG)

    def scatter(self, count: int, rng: random.Random, egg_share: float = 0.15) -> None:
        """Up to ``count`` random pieces on empty squares, no rows of five."""
        empties = [sq for sq in range(NUM_SQUARES) if self.board[sq] is Piece.EMPTY]
        rng.shuffle(empties)
        for sq in empties[:count]:
            self.put_random(sq, rng, egg_share)

    def setup(self, rng: random.Random, shuffle_eggs: bool = False) -> Setup:
        eggs = list(self.eggs)
        if shuffle_eggs:
            rng.shuffle(eggs)
        black = [sq for sq in range(NUM_SQUARES) if self.board[sq] is Piece.BLACK]
        white = [sq for sq in range(NUM_SQUARES) if self.board[sq] is Piece.WHITE]
        rng.shuffle(black)  # the order of a colour's list must not matter
        rng.shuffle(white)
        return Setup(tuple(black), tuple(white), tuple(eggs))


def _setup_sparse(rng: random.Random) -> Setup:
    builder = Builder()
    builder.scatter(rng.randint(1, 24), rng)
    return builder.setup(rng)


def _near_line(
    builder: Builder, color: Color, rng: random.Random, through: int | None = None
) -> tuple[int, ...] | None:
    """Four of a line of five for ``color`` (one gap, sometimes two), maybe through a square."""
    own = Piece.turtle(color)
    lines = [ln for ln in LINES_OF_FIVE if through is None or through in ln]
    for _ in range(20):
        line = rng.choice(lines)
        if all(builder.board[sq] in (Piece.EMPTY, own) for sq in line):
            gaps = set(rng.sample(line, 2 if rng.random() < 0.2 else 1))
            gaps -= {through}
            if not gaps:
                continue
            for sq in line:
                if sq not in gaps:
                    builder.put(sq, own)
            return line
    return None


def _setup_lines(rng: random.Random) -> Setup:
    """Near-complete rows for both colours, often crossing, plus noise and eggs."""
    builder = Builder()
    for color in rng.sample(_COLORS, 2):
        line = _near_line(builder, color, rng)
        if line is not None and rng.random() < 0.5:
            _near_line(builder, color, rng, through=rng.choice(line))  # a crossing row
    for _ in range(rng.randint(0, 4)):
        builder.motif(rng.randrange(NUM_SQUARES), rng.choice(_COLORS), rng)
    builder.scatter(rng.randint(0, 10), rng, egg_share=0.3)
    return builder.setup(rng)


def _setup_sudden_death(rng: random.Random) -> Setup:
    """Both colours hold a row of exactly five, and each can capture out of the other's."""
    builder = Builder()
    rows: dict[Color, tuple[int, ...]] = {}
    for color in _COLORS:
        for _ in range(30):
            line = rng.choice(LINES_OF_FIVE)
            if all(builder.board[sq] is Piece.EMPTY for sq in line):
                for sq in line:
                    builder.put(sq, Piece.turtle(color), allow_five=True)
                rows[color] = line
                break
    for color in _COLORS:
        if color.opponent not in rows:
            continue
        # One to three captures out of the other's row (arrival p, a row turtle,
        # a trappable, an anchor), retried: both rows break only if both capture.
        wanted = rng.randint(1, 3)
        for _ in range(4 * wanted):
            target = rng.choice(rows[color.opponent])
            _name, df, dr = rng.choice(DIRECTIONS)
            p, t1, anchor = (step(target, df, dr, k) for k in (-1, 1, 2))
            if builder.empty(p) and builder.empty(anchor) and builder.trappable(t1, color, rng):
                builder.put(anchor, Piece.turtle(color))
                wanted -= 1
                if not wanted:
                    break
    for _ in range(rng.randint(0, 4)):
        builder.put(rng.randrange(NUM_SQUARES), Piece.EGG)
    builder.scatter(rng.randint(0, 8), rng)
    return builder.setup(rng, shuffle_eggs=True)


def _oldest_eggs_in_a_row(builder: Builder, rng: random.Random) -> None:
    """The two oldest eggs three apart with two eggs between: when one wave
    hatches both, their turtles bracket the two from both ends."""
    for _ in range(10):
        sq = rng.randrange(NUM_SQUARES)
        if not RAYS[sq]:
            continue
        a, b, c = rng.choice(RAYS[sq])
        if all(builder.empty(x) for x in (sq, a, b, c)):
            for egg in (sq, c, a, b):
                builder.put(egg, Piece.EGG)
            return


def _double_capture(builder: Builder, rng: random.Random) -> None:
    """A square where one colour captures twice: wave 1 then hatches two eggs."""
    color = rng.choice(_COLORS)
    for _ in range(10):
        arrival = rng.randrange(NUM_SQUARES)
        if builder.empty(arrival) and len(RAYS[arrival]) >= 2:
            for ray in rng.sample(RAYS[arrival], 2):
                builder.motif(arrival, color, rng, ray)
            return


def _setup_eggs(rng: random.Random) -> Setup:
    """Many eggs and capture motifs around the oldest ones, for hatching cascades."""
    builder = Builder()
    if rng.random() < 0.6:
        _oldest_eggs_in_a_row(builder, rng)
        _double_capture(builder, rng)
    for _ in range(rng.randint(6, 18)):
        builder.put(rng.randrange(NUM_SQUARES), Piece.EGG)
    oldest = builder.eggs[:4]
    for _ in range(rng.randint(3, 10)):
        color = rng.choice(_COLORS)
        if oldest and rng.random() < 0.6:
            arrival = rng.choice(oldest)
        else:
            arrival = rng.randrange(NUM_SQUARES)
        builder.motif(arrival, color, rng)
    builder.scatter(rng.randint(0, 20), rng, egg_share=0.2)
    return builder.setup(rng)


def _setup_both_ends(rng: random.Random) -> Setup:
    """The oldest eggs in a row and one double capture, little else: with no
    capture for the other colour to answer with, the two eggs hatch together
    and close a bracket from both ends."""
    builder = Builder()
    _oldest_eggs_in_a_row(builder, rng)
    _double_capture(builder, rng)
    for _ in range(rng.randint(0, 6)):
        builder.put(rng.randrange(NUM_SQUARES), Piece.EGG)
    builder.scatter(rng.randint(0, 6), rng)
    return builder.setup(rng)


def _setup_near_full(rng: random.Random) -> Setup:
    """A board with only 3-10 empty squares and no row of five."""
    builder = Builder()
    empties = set(rng.sample(range(NUM_SQUARES), rng.randint(3, 10)))
    order = [sq for sq in range(NUM_SQUARES) if sq not in empties]
    rng.shuffle(order)
    egg_share = rng.choice((0.05, 0.15, 0.3))
    for sq in order:
        builder.put_random(sq, rng, egg_share)
    return builder.setup(rng)


def _setup_full_win(rng: random.Random) -> Setup:
    """A full board but for two gaps: one colour's six in a row missing one
    turtle, the other's five missing one. Both filled, the board is full and
    six beats five: a win stands on a full board (point 11)."""
    builder = Builder()
    longer = rng.choice(_COLORS)
    gaps = []
    for color in (longer, longer.opponent):
        for _ in range(30):
            line = list(rng.choice(LINES_OF_FIVE))
            if color is longer:
                df, dr = line[1] % 9 - line[0] % 9, line[1] // 9 - line[0] // 9
                beyond = step(line[-1], df, dr, 1)
                if beyond is None:
                    continue
                line.append(beyond)
            if all(builder.empty(sq) for sq in line):
                gap = rng.choice(line[:5])
                for sq in line:
                    if sq != gap:
                        builder.put(sq, Piece.turtle(color), allow_five=True)
                gaps.append((gap, color))
                break
    # The gaps' own turtles around them: a turtle arriving there brackets
    # nothing, so the filling turn captures nothing and the board stays full.
    holes = {gap for gap, _color in gaps}
    for gap, color in gaps:
        for _name, df, dr in DIRECTIONS:
            near = step(gap, df, dr, 1)
            if near not in holes:
                builder.put(near, Piece.turtle(color))
    order = [sq for sq in range(NUM_SQUARES) if builder.empty(sq) and sq not in holes]
    rng.shuffle(order)
    egg_share = rng.choice((0.05, 0.15, 0.3))
    for sq in order:
        builder.put_random(sq, rng, egg_share)
    return builder.setup(rng)


def _setup_turn_cap(rng: random.Random) -> Setup:
    """One to four turns before the turn cap: a few pieces, near rows, or two
    rows of five in sudden death, which the cap draws if it holds."""
    base = rng.choice((_setup_sparse, _setup_lines, _setup_sudden_death))(rng)
    return dataclasses.replace(base, turn=MAX_TURN - rng.randint(1, 4))


SETUPS: dict[str, Callable[[random.Random], Setup]] = {
    "empty": lambda rng: Setup(),
    "sparse": _setup_sparse,
    "lines": _setup_lines,
    "sudden_death": _setup_sudden_death,
    "eggs": _setup_eggs,
    "both_ends": _setup_both_ends,
    "near_full": _setup_near_full,
    "full_win": _setup_full_win,
    "turn_cap": _setup_turn_cap,
}
"""Start-position generators by name."""

SETUP_WEIGHTS = {
    "empty": 19, "sparse": 9, "lines": 20, "sudden_death": 15, "eggs": 16, "both_ends": 6,
    "near_full": 6, "full_win": 6, "turn_cap": 3,
}
"""How often each generator starts a game (in percent)."""
