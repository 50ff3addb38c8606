"""Differential fuzzer: the fast engine against the reference, turn by turn.

Both engines are driven side by side with the same moves. After every turn the
whole position (turtles, eggs in age order, turn, status, winning counts,
legal moves and the printed board) and every field of the :class:`TurnResult`
must agree; an illegal move must raise the same exception type and message in
both and leave both positions unchanged.

Games come from seeded move policies that provoke the rare branches of the
rules (collisions, captures, dissolves, hatching cascades, sudden death,
full-board draws); every game is reproducible from ``(seed, game index)``.
Reached branches are counted in a coverage table. On the first mismatch the
game is shrunk to a short reproducer (set-up position plus moves), printed as
runnable Python.

Run it as ``python -m wts.devtools.fuzz --seconds 60`` or ``wts fuzz --seconds 60``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import importlib
import multiprocessing
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

import wts
import wts.engine.reference
from wts._interrupts import report_interrupt, stop_pool
from wts.engine.events import TurnResult
from wts.engine.pieces import Color, Status
from wts.engine.reference import DIRECTIONS, LINE_DIRECTIONS
from wts.engine.squares import BOARD_SIZE, NUM_SQUARES, SQUARE_NAMES

__all__ = [
    "BRANCHES",
    "Difference",
    "EnginePair",
    "FuzzReport",
    "Failure",
    "Script",
    "Setup",
    "add_arguments",
    "compare_engines",
    "format_coverage",
    "main",
    "play_game",
    "replay",
    "reproducer",
    "run",
    "run_fuzz",
    "shrink",
    "unreached",
]

EngineClass = Any
"""A class with the ``wts.Game`` API (``from_setup``, ``play``, ``copy``, ...)."""

Move = tuple[object, object]
"""What one step feeds to ``play``: black's move and white's move, as given."""


# --- Coverage -------------------------------------------------------------------

BRANCHES: dict[str, str] = {
    "collision": "collision (egg laid)",
    "both_capture": "captures by both players in one turn",
    "dissolve": "egg dissolved",
    "wave1": "hatching wave depth 1",
    "wave2": "hatching wave depth >= 2",
    "wave3": "hatching wave depth >= 3",
    "both_ends": "bracket closed from both ends",
    "captured_egg": "egg captured",
    "anticipatory": "anticipatory capture",
    "shared_piece": "piece in two brackets",
    "unpaid": "capture with no egg left to hatch",
    "won": "won in normal play",
    "sd_entered": "sudden death entered",
    "sd_held": "sudden death held",
    "sd_broken": "both rows broken (back to normal play)",
    "sd_won": "won from sudden death",
    "draw": "full-board draw",
    "illegal": "illegal move rejected",
    "game_over": "move after the game is over rejected",
}
"""Every branch of the rules the coverage table counts: key -> description."""

_WINS = (Status.BLACK_WINS, Status.WHITE_WINS)


def classify_turn(
    result: TurnResult, before_status: Status, before_eggs: Iterable[int]
) -> list[str]:
    """The branches (keys of :data:`BRANCHES`) one turn reached.

    ``before_status`` and ``before_eggs`` describe the position before the
    turn; everything else is read off the reference engine's result.
    """
    hit: list[str] = []
    if result.collision is not None:
        hit.append("collision")
    captures = result.captures
    status = result.status
    if captures:
        colors = {c.color for c in captures}
        if len(colors) == 2:
            hit.append("both_capture")
        eggs_before = set(before_eggs)
        if any(sq in eggs_before for c in captures for sq in c.squares):
            hit.append("captured_egg")
        placed = {Color.BLACK: result.white_move, Color.WHITE: result.black_move}
        if any(c.round == 0 and placed[c.color] in c.squares for c in captures):
            hit.append("anticipatory")
        per_round: Counter[int] = Counter()
        seen: set[tuple[int, int]] = set()
        shared = False
        for c in captures:
            per_round[c.round] += 1
            for sq in c.squares:
                key = (c.round, sq)
                shared = shared or key in seen
                seen.add(key)
        if shared:
            hit.append("shared_piece")
        # Eggs a turn's captures could claim: max(cb, cw) in placement (pairs
        # dissolve one egg each), then one per wave capture; fewer used means lost.
        black0 = sum(1 for c in captures if c.round == 0 and c.color is Color.BLACK)
        needed = max(black0, per_round[0] - black0) + sum(
            n for r, n in per_round.items() if r > 0
        )
        if len(result.dissolved) + len(result.hatched) < needed:
            hit.append("unpaid")
    if result.dissolved:
        hit.append("dissolve")
    if result.hatched:
        depth = max(h.wave for h in result.hatched)
        hit.append("wave1" if depth == 1 else "wave2")
        if depth >= 3:
            hit.append("wave3")
        hatched_in = {(h.wave, h.square) for h in result.hatched}
        if any(c.round >= 1 and (c.round, c.anchor) in hatched_in for c in captures):
            hit.append("both_ends")
    if before_status is Status.ONGOING:
        if status is Status.SUDDEN_DEATH:
            hit.append("sd_entered")
        elif status in _WINS:
            hit.append("won")
    elif before_status is Status.SUDDEN_DEATH:
        if status is Status.SUDDEN_DEATH:
            hit.append("sd_held")
        elif status is Status.ONGOING:
            hit.append("sd_broken")
        elif status in _WINS:
            hit.append("sd_won")
    if status is Status.DRAW:
        hit.append("draw")
    return hit


def unreached(counts: Counter[str] | dict[str, int]) -> list[str]:
    """The keys of :data:`BRANCHES` that ``counts`` never reached."""
    return [key for key in BRANCHES if not counts.get(key)]


def format_coverage(counts: Counter[str] | dict[str, int]) -> str:
    """The coverage table: one aligned row per branch with its count."""
    width = max(len(text) for text in BRANCHES.values())
    numbers = [str(counts.get(key, 0)) for key in BRANCHES]
    num_width = max(5, *(len(n) for n in numbers))
    lines = [f"{'branch':<{width}}  {'count':>{num_width}}", f"{'-' * width}  {'-' * num_width}"]
    for (key, text), number in zip(BRANCHES.items(), numbers):
        mark = "" if counts.get(key) else "  <- never reached"
        lines.append(f"{text:<{width}}  {number:>{num_width}}{mark}")
    return "\n".join(lines)


# --- Positions, scripts and differences -----------------------------------------

class _Raised(NamedTuple):
    """An exception an engine raised, compared by type and message."""

    type: type
    message: str

    def __repr__(self) -> str:
        return f"{self.type.__name__}({self.message!r})"


_POSITION_GETTERS: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("black", lambda game: game.black),
    ("white", lambda game: game.white),
    ("eggs", lambda game: game.eggs),
    ("turn", lambda game: game.turn),
    ("status", lambda game: game.status),
    ("winning_counts", lambda game: game.winning_counts),
    ("legal_moves", lambda game: game.legal_moves()),
    ("str", str),
)

POSITION_FIELDS = tuple(name for name, _get in _POSITION_GETTERS)
"""The parts of a position compared after every step, in order."""

Snapshot = tuple[Any, ...]


def snapshot(game: Any) -> Snapshot:
    """The whole position of ``game``, one entry per :data:`POSITION_FIELDS`.

    A part that raises is recorded as the exception (type and message), so a
    broken engine shows up as a difference in that part.
    """
    values = []
    for _name, get in _POSITION_GETTERS:
        try:
            values.append(get(game))
        except Exception as exc:
            values.append(_Raised(type(exc), str(exc)))
    return tuple(values)


@dataclass(frozen=True)
class Setup:
    """A start position: turtles of each colour and the eggs, oldest first."""

    black: tuple[int, ...] = ()
    white: tuple[int, ...] = ()
    eggs: tuple[int, ...] = ()

    def build(self, engine: EngineClass) -> Any:
        """A game of ``engine`` in this position (``engine()`` when empty)."""
        if not (self.black or self.white or self.eggs):
            return engine()
        return engine.from_setup(black=self.black, white=self.white, eggs=self.eggs)

    def pieces(self) -> int:
        """How many turtles and eggs the position holds."""
        return len(self.black) + len(self.white) + len(self.eggs)

    def python(self) -> str:
        """The Python expression that builds this position with a ``Game`` class."""
        if not self.pieces():
            return "Game()"

        def names(squares: tuple[int, ...]) -> str:
            return "[" + ", ".join(f'"{SQUARE_NAMES[s]}"' for s in squares) + "]"

        return (
            f"Game.from_setup(black={names(self.black)}, white={names(self.white)}, "
            f"eggs={names(self.eggs)})"
        )


@dataclass(frozen=True)
class Script:
    """A start position and the steps fed to both engines, in order."""

    setup: Setup
    steps: tuple[Move, ...]


@dataclass(frozen=True)
class Difference:
    """Where the two engines disagreed.

    ``step`` is the index of the step in the script (-1: the start position);
    ``field`` names what differed, e.g. ``"TurnResult.hatched"``,
    ``"position.str"``, ``"error"`` or ``"position after error.eggs"``.
    """

    step: int
    field: str
    reference: Any
    candidate: Any

    def describe(self) -> str:
        """Several lines saying what differed, with both values."""
        where = "the start position" if self.step < 0 else f"step {self.step + 1}"
        return (
            f"{self.field} differs at {where}\n"
            f"  reference: {_show(self.reference)}\n"
            f"  candidate: {_show(self.candidate)}"
        )


def _show(value: Any) -> str:
    text = repr(value)
    if isinstance(value, str) and "\n" in value:
        text = "\n    " + value.replace("\n", "\n    ")
    return text


def _move_text(move: object) -> str:
    """A move as Python source: ``"E5"`` for a plain string, else its repr."""
    if isinstance(move, str) and move.isprintable() and not set(move) & {'"', "\\"}:
        return f'"{move}"'
    return repr(move)


def _call(func: Callable[[], Any]) -> tuple[Any, _Raised | None]:
    try:
        return func(), None
    except Exception as exc:  # the candidate may fail in any way: that is a finding
        return None, _Raised(type(exc), str(exc))


def _first_difference(
    step: int, prefix: str, names: Sequence[str], ref: Sequence[Any], cand: Sequence[Any]
) -> Difference | None:
    for name, a, b in zip(names, ref, cand):
        if a != b:
            return Difference(step, f"{prefix}.{name}", a, b)
    return None


class _Missing:
    """Stands for a TurnResult field the candidate's result lacks."""

    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()


def _compare_results(step: int, ref: TurnResult, cand: Any) -> Difference | None:
    values = [getattr(cand, name, _MISSING) for name in TurnResult._fields]
    found = _first_difference(step, "TurnResult", TurnResult._fields, ref, values)
    if found is None and ref != cand:
        found = Difference(step, "TurnResult", ref, cand)
    return found


class EnginePair:
    """One game held by two engines at once, compared after every step.

    ``difference`` is the first disagreement found (None while they agree);
    ``ref_position`` and ``cand_position`` are the snapshots after the last
    step. Once a difference is found the pair should not be stepped again.
    """

    def __init__(self, reference: EngineClass, candidate: EngineClass, setup: Setup) -> None:
        self.ref: Any = None
        self.cand: Any = None
        self.difference: Difference | None = None
        self.ref_position: Snapshot = ()
        self.cand_position: Snapshot = ()
        ref, ref_err = _call(lambda: setup.build(reference))
        cand, cand_err = _call(lambda: setup.build(candidate))
        if ref_err or cand_err:  # both refusing the position alike leaves nothing to play
            if ref_err != cand_err:
                self.difference = Difference(-1, "from_setup", ref_err or "ok", cand_err or "ok")
            return
        self.ref, self.cand = ref, cand
        self.ref_position, self.cand_position = self._positions(-1, "position")

    def _positions(self, step: int, prefix: str) -> tuple[Snapshot, Snapshot]:
        ref_pos, cand_pos = snapshot(self.ref), snapshot(self.cand)
        if ref_pos != cand_pos:
            self.difference = _first_difference(step, prefix, POSITION_FIELDS, ref_pos, cand_pos)
        return ref_pos, cand_pos

    @property
    def ready(self) -> bool:
        """Both engines hold a game and agree so far."""
        return self.ref is not None and self.difference is None

    def step(self, index: int, black_move: object, white_move: object) -> tuple[
        TurnResult | None, _Raised | None
    ]:
        """Play one step on both engines and compare.

        Returns the reference's result, or the exception it raised (then the
        candidate must have raised the same and both positions are unchanged).
        Sets :attr:`difference` on any disagreement.
        """
        ref_result, ref_err = _call(lambda: self.ref.play(black_move, white_move))
        cand_result, cand_err = _call(lambda: self.cand.play(black_move, white_move))
        if ref_err or cand_err:
            if ref_err != cand_err:
                self.difference = Difference(
                    index, "error", ref_err or ref_result, cand_err or cand_result
                )
                return ref_result, ref_err
            ref_before, cand_before = self.ref_position, self.cand_position
            ref_after, cand_after = self._positions(index, "position after error")
            if self.difference is None:
                self.difference = _first_difference(
                    index, "candidate position changed by error", POSITION_FIELDS,
                    cand_before, cand_after,
                ) or _first_difference(
                    index, "reference position changed by error", POSITION_FIELDS,
                    ref_before, ref_after,
                )
            return None, ref_err
        self.difference = _compare_results(index, ref_result, cand_result)
        if self.difference is None:
            self.ref_position, self.cand_position = self._positions(index, "position")
        return ref_result, None


def replay(
    reference: EngineClass, candidate: EngineClass, script: Script
) -> tuple[Difference | None, list[int]]:
    """Feed ``script`` to both engines; the first difference, and the steps used.

    The steps used are those the reference accepted, plus the step where the
    engines differed: the others were illegal in both alike and changed nothing.
    """
    pair = EnginePair(reference, candidate, script.setup)
    used: list[int] = []
    if not pair.ready:
        return pair.difference, used
    for index, (black_move, white_move) in enumerate(script.steps):
        _result, error = pair.step(index, black_move, white_move)
        if pair.difference is not None:
            used.append(index)
            return pair.difference, used
        if error is None:
            used.append(index)
    return None, used


def compare_engines(
    reference: EngineClass,
    candidate: EngineClass,
    setup: Setup | None = None,
    moves: Iterable[Move] = (),
) -> Difference | None:
    """Play ``moves`` from ``setup`` on both engines; the first difference or None."""
    return replay(reference, candidate, Script(setup or Setup(), tuple(moves)))[0]


# --- Board geometry for the policies ---------------------------------------------

EMPTY, BLACK, WHITE, EGG = 0, 1, 2, 3
_CODE = {Color.BLACK: BLACK, Color.WHITE: WHITE}


def _offset(sq: int, df: int, dr: int, k: int) -> int | None:
    f, r = sq % BOARD_SIZE + df * k, sq // BOARD_SIZE + dr * k
    if 0 <= f < BOARD_SIZE and 0 <= r < BOARD_SIZE:
        return r * BOARD_SIZE + f
    return None


def _rays() -> list[list[tuple[int, int, int]]]:
    rays: list[list[tuple[int, int, int]]] = []
    for sq in range(NUM_SQUARES):
        row = []
        for _name, df, dr in DIRECTIONS:
            far = _offset(sq, df, dr, 3)
            if far is not None:
                row.append((sq + (far - sq) // 3, sq + 2 * (far - sq) // 3, far))
        rays.append(row)
    return rays


_RAYS = _rays()
"""Per square, the (p+d, p+2d, p+3d) of every direction that stays on the board."""

_LINES5: list[tuple[int, ...]] = [
    tuple(sq + k * (end - sq) // 4 for k in range(5))
    for sq in range(NUM_SQUARES)
    for df, dr in LINE_DIRECTIONS
    if (end := _offset(sq, df, dr, 4)) is not None
]
"""Every line of five squares on the board."""


def _run_through(board: list[int], sq: int, code: int) -> int:
    """The longest run of ``code`` through ``sq`` if ``sq`` held ``code``."""
    best = 1
    for df, dr in LINE_DIRECTIONS:
        run = 1
        for sign in (1, -1):
            k = 1
            while (nxt := _offset(sq, sign * df, sign * dr, k)) is not None and board[nxt] == code:
                run += 1
                k += 1
        best = max(best, run)
    return best


def _board_of(black: Iterable[int], white: Iterable[int], eggs: Iterable[int]) -> list[int]:
    board = [EMPTY] * NUM_SQUARES
    for sq in black:
        board[sq] = BLACK
    for sq in white:
        board[sq] = WHITE
    for sq in eggs:
        board[sq] = EGG
    return board


def _bracket_count(board: list[int], sq: int, code: int) -> int:
    """How many brackets a turtle of ``code`` arriving on ``sq`` would close."""
    foe = BLACK + WHITE - code
    count = 0
    for a, b, c in _RAYS[sq]:
        x, y = board[a], board[b]
        if x in (EGG, foe) and y in (EGG, foe) and board[c] == code:
            count += 1
    return count


# --- Set-up positions ----------------------------------------------------------


class _Builder:
    """A board being filled for a set-up position, refusing rows of five."""

    def __init__(self) -> None:
        self.board = [EMPTY] * NUM_SQUARES
        self.eggs: list[int] = []

    def empty(self, sq: int | None) -> bool:
        return sq is not None and self.board[sq] == EMPTY

    def put(self, sq: int | None, code: int, allow_five: bool = False) -> bool:
        """Place ``code`` on an empty ``sq``; refuse a turtle that makes a row of five."""
        if sq is None or self.board[sq] != EMPTY:
            return False
        if code != EGG and not allow_five and _run_through(self.board, sq, code) >= 5:
            return False
        self.board[sq] = code
        if code == EGG:
            self.eggs.append(sq)
        return True

    def trappable(self, sq: int | None, code: int, rng: random.Random) -> bool:
        """Make ``sq`` hold something a turtle of ``code`` can bracket."""
        if sq is None:
            return False
        if self.board[sq] in (EGG, BLACK + WHITE - code):
            return True
        piece = EGG if rng.random() < 0.4 else BLACK + WHITE - code
        return self.put(sq, piece) or self.put(sq, EGG)

    def motif(
        self, arrival: int, code: int, rng: random.Random,
        ray: tuple[int, int, int] | None = None,
    ) -> bool:
        """A bracket that a turtle of ``code`` arriving on ``arrival`` would close,
        along ``ray`` (one of ``_RAYS[arrival]``) or a random direction."""
        if ray is None:
            if not _RAYS[arrival]:
                return False
            ray = rng.choice(_RAYS[arrival])
        a, b, c = ray
        if self.board[c] not in (EMPTY, code) or self.board[a] == code or self.board[b] == code:
            return False
        if self.board[c] == EMPTY and not self.put(c, code):
            return False
        return self.trappable(a, code, rng) and self.trappable(b, code, rng)

    def put_random(self, sq: int, rng: random.Random, egg_share: float) -> None:
        """An egg or a random turtle on an empty ``sq``; a turtle that would make
        a row of five becomes the other colour, or else an egg."""
        if rng.random() < egg_share:
            self.put(sq, EGG)
            return
        code = rng.choice((BLACK, WHITE))
        if not (self.put(sq, code) or self.put(sq, BLACK + WHITE - code)):
            self.put(sq, EGG)

    def scatter(self, count: int, rng: random.Random, egg_share: float = 0.15) -> None:
        """Up to ``count`` random pieces on empty squares, no rows of five."""
        empties = [sq for sq in range(NUM_SQUARES) if self.board[sq] == EMPTY]
        rng.shuffle(empties)
        for sq in empties[:count]:
            self.put_random(sq, rng, egg_share)

    def setup(self, rng: random.Random, shuffle_eggs: bool = False) -> Setup:
        eggs = list(self.eggs)
        if shuffle_eggs:
            rng.shuffle(eggs)
        black = [sq for sq in range(NUM_SQUARES) if self.board[sq] == BLACK]
        white = [sq for sq in range(NUM_SQUARES) if self.board[sq] == WHITE]
        rng.shuffle(black)  # the order of a colour's list must not matter
        rng.shuffle(white)
        return Setup(tuple(black), tuple(white), tuple(eggs))


def _setup_sparse(rng: random.Random) -> Setup:
    builder = _Builder()
    builder.scatter(rng.randint(1, 24), rng)
    return builder.setup(rng)


def _near_line(
    builder: _Builder, code: int, rng: random.Random, through: int | None = None
) -> tuple[int, ...] | None:
    """Four of a line of five for ``code`` (one gap, sometimes two), optionally through a square."""
    lines = [ln for ln in _LINES5 if through is None or through in ln]
    for _ in range(20):
        line = rng.choice(lines)
        if all(builder.board[sq] in (EMPTY, code) for sq in line):
            gaps = set(rng.sample(line, 2 if rng.random() < 0.2 else 1))
            gaps -= {through}
            if not gaps:
                continue
            for sq in line:
                if sq not in gaps:
                    builder.put(sq, code)
            return line
    return None


def _setup_lines(rng: random.Random) -> Setup:
    """Near-complete rows for both colours, often crossing, plus noise and eggs."""
    builder = _Builder()
    for code in rng.sample((BLACK, WHITE), 2):
        line = _near_line(builder, code, rng)
        if line is not None and rng.random() < 0.5:
            _near_line(builder, code, rng, through=rng.choice(line))  # a crossing row
    for _ in range(rng.randint(0, 4)):
        builder.motif(rng.randrange(NUM_SQUARES), rng.choice((BLACK, WHITE)), rng)
    builder.scatter(rng.randint(0, 10), rng, egg_share=0.3)
    return builder.setup(rng)


def _setup_sudden_death(rng: random.Random) -> Setup:
    """Both colours hold a row of exactly five, and each can capture out of the other's."""
    builder = _Builder()
    rows: dict[int, tuple[int, ...]] = {}
    for code in (BLACK, WHITE):
        for _ in range(30):
            line = rng.choice(_LINES5)
            if all(builder.board[sq] == EMPTY for sq in line) and all(
                _run_through(builder.board, sq, code) < 5 for sq in line
            ):
                for sq in line:
                    builder.put(sq, code, allow_five=True)
                rows[code] = line
                break
    for code, foe in ((BLACK, WHITE), (WHITE, BLACK)):
        if foe not in rows:
            continue
        for _ in range(rng.randint(1, 3)):
            # arrival p, then a row turtle, then a trappable, then an anchor of ``code``
            target = rng.choice(rows[foe])
            _name, df, dr = rng.choice(DIRECTIONS)
            p, t1, anchor = (_offset(target, df, dr, k) for k in (-1, 1, 2))
            if builder.empty(p) and builder.empty(anchor) and builder.trappable(t1, code, rng):
                builder.put(anchor, code)
    for _ in range(rng.randint(0, 4)):
        builder.put(rng.randrange(NUM_SQUARES), EGG)
    builder.scatter(rng.randint(0, 8), rng)
    return builder.setup(rng, shuffle_eggs=True)


def _setup_eggs(rng: random.Random) -> Setup:
    """Many eggs and capture motifs around the oldest ones, for hatching cascades."""
    builder = _Builder()
    if rng.random() < 0.6:
        # The two oldest eggs three apart with eggs between, and a square where
        # one colour captures twice: wave 1 hatches both old eggs at once and
        # their bracket closes from both ends.
        for _ in range(10):
            sq = rng.randrange(NUM_SQUARES)
            if not _RAYS[sq]:
                continue
            a, b, c = rng.choice(_RAYS[sq])
            if all(builder.empty(x) for x in (sq, a, b, c)):
                for egg in (sq, c, a, b):
                    builder.put(egg, EGG)
                break
        code = rng.choice((BLACK, WHITE))
        for _ in range(10):
            arrival = rng.randrange(NUM_SQUARES)
            if builder.empty(arrival) and len(_RAYS[arrival]) >= 2:
                for ray in rng.sample(_RAYS[arrival], 2):
                    builder.motif(arrival, code, rng, ray)
                break
    for _ in range(rng.randint(6, 18)):
        builder.put(rng.randrange(NUM_SQUARES), EGG)
    oldest = builder.eggs[:4]
    for _ in range(rng.randint(3, 10)):
        code = rng.choice((BLACK, WHITE))
        if oldest and rng.random() < 0.6:
            arrival = rng.choice(oldest)
        else:
            arrival = rng.randrange(NUM_SQUARES)
        builder.motif(arrival, code, rng)
    builder.scatter(rng.randint(0, 20), rng, egg_share=0.2)
    return builder.setup(rng)


def _setup_near_full(rng: random.Random) -> Setup:
    """A board with only 3-10 empty squares and no row of five."""
    builder = _Builder()
    empties = set(rng.sample(range(NUM_SQUARES), rng.randint(3, 10)))
    order = [sq for sq in range(NUM_SQUARES) if sq not in empties]
    rng.shuffle(order)
    egg_share = rng.choice((0.05, 0.15, 0.3))
    for sq in order:
        builder.put_random(sq, rng, egg_share)
    return builder.setup(rng)


SETUPS: dict[str, Callable[[random.Random], Setup]] = {
    "empty": lambda rng: Setup(),
    "sparse": _setup_sparse,
    "lines": _setup_lines,
    "sudden_death": _setup_sudden_death,
    "eggs": _setup_eggs,
    "near_full": _setup_near_full,
}
"""Start-position generators by name."""

_SETUP_WEIGHTS = {
    "empty": 24, "sparse": 10, "lines": 22, "sudden_death": 14, "eggs": 18, "near_full": 12,
}


# --- Move policies ------------------------------------------------------------


@dataclass
class Plan:
    """How one game is played: its start and the tactics of both players.

    ``tactics`` weighs ``"random"``, ``"capture"`` and ``"line"`` for each
    player's move; ``collide`` is the chance both name the same square;
    ``opening`` is a number of collision turns first (egg-dense games),
    counted down as they are played;
    ``max_turns`` caps the game; ``probe`` is the chance of an illegal move.
    """

    name: str
    setup_kind: str
    tactics: dict[str, float]
    collide: float
    opening: int
    max_turns: int
    probe: float


_POLICIES: dict[str, dict[str, float]] = {
    "uniform": {"random": 1.0},
    "collisions": {"random": 1.0},
    "captures": {"capture": 0.8, "random": 0.2},
    "egg_dense": {"capture": 0.6, "random": 0.4},
    "lines": {"line": 0.6, "capture": 0.25, "random": 0.15},
    "mixed": {"line": 0.3, "capture": 0.4, "random": 0.3},
}
"""Move policies by name: the weights of each tactic."""


def draw_plan(rng: random.Random) -> Plan:
    """The plan of one game, drawn from ``rng``."""
    setup_kind = rng.choices(list(_SETUP_WEIGHTS), weights=list(_SETUP_WEIGHTS.values()))[0]
    name = rng.choice(list(_POLICIES))
    if setup_kind == "sudden_death" and rng.random() < 0.7:
        name = "captures"
    collide = {"collisions": 0.4, "uniform": 0.02}.get(name, 0.08)
    opening = rng.randint(3, 12) if name == "egg_dense" else 0
    max_turns = rng.choice((24, 40, NUM_SQUARES))
    return Plan(name, setup_kind, _POLICIES[name], collide, opening, max_turns, probe=0.03)


class View(NamedTuple):
    """What a policy sees: the candidate game and its compared position."""

    game: Any
    black: frozenset[int]
    white: frozenset[int]
    eggs: tuple[int, ...]
    legal: list[int]


def _own_captures(game: Any, black_move: int, white_move: int, color: Color) -> int:
    """Captures ``color`` makes in the turn, tried on a copy of the fast engine."""
    try:
        result = game.copy().play(black_move, white_move)
    except Exception:  # a broken candidate is caught by the comparison, not here
        return 0
    return sum(1 for c in result.captures if c.color is color)


def _pick(view: View, color: Color, tactic: str, other: int, rng: random.Random) -> int:
    """A move for ``color`` by ``tactic``, given the other player's (tentative) move."""
    legal = view.legal
    if tactic == "random":
        return rng.choice(legal)
    code = _CODE[color]
    board = _board_of(view.black, view.white, view.eggs)
    if tactic == "line":
        best: list[int] = []
        top = 0
        for line in _LINES5:
            own = empty = 0
            for sq in line:
                if board[sq] == code:
                    own += 1
                elif board[sq] == EMPTY:
                    empty += 1
            if own + empty == 5 and own >= 3 and own >= top:
                if own > top:
                    best, top = [], own
                best.extend(sq for sq in line if board[sq] == EMPTY and sq != other)
        return rng.choice(best) if best else rng.choice(legal)
    # capture: squares that bracket on the board with the other move already
    # placed, so anticipatory captures count too
    if other >= 0:
        board[other] = BLACK + WHITE - code
    counts = [(n, sq) for sq in legal if sq != other and (n := _bracket_count(board, sq, code))]
    if not counts:
        return rng.choice(legal)
    rng.shuffle(counts)
    counts.sort(key=lambda item: -item[0])
    for _n, sq in counts[:2]:
        moves = (sq, other) if color is Color.BLACK else (other, sq)
        if _own_captures(view.game, *moves, color):
            return sq
    return rng.choice(legal)


def choose_moves(view: View, plan: Plan, rng: random.Random) -> tuple[int, int]:
    """Both players' moves for one turn under ``plan``."""
    legal = view.legal
    if plan.opening > 0:
        plan.opening -= 1
        sq = rng.choice(legal)
        return sq, sq
    tactics, weights = list(plan.tactics), list(plan.tactics.values())
    black_tactic, white_tactic = rng.choices(tactics, weights=weights, k=2)
    if rng.random() < plan.collide:
        # both after the same square: a random one, or a gap both rows need
        tactic = "line" if black_tactic == "line" else "random"
        sq = _pick(view, Color.BLACK, tactic, -1, rng)
        return sq, sq
    tentative = rng.choice(legal)
    black = _pick(view, Color.BLACK, black_tactic, tentative, rng)
    white = _pick(view, Color.WHITE, white_tactic, black, rng)
    return black, white


_NOT_SQUARES: tuple[object, ...] = ("J1", "E0", "I10", "", "5E", "E 5", 81, -1, True, None, 4.0)
_SPELLINGS: tuple[Callable[[int], object], ...] = (
    lambda sq: SQUARE_NAMES[sq],
    lambda sq: SQUARE_NAMES[sq].lower(),
    lambda sq: f" {SQUARE_NAMES[sq]} ",
)


def _illegal_move(view: View, rng: random.Random) -> Move:
    """A step that must be refused: an occupied square or something that is not a square."""
    occupied = sorted(view.black | view.white) + list(view.eggs)
    legal = view.legal

    def bad() -> object:
        if occupied and rng.random() < 0.7:
            return rng.choice(occupied)
        return rng.choice(_NOT_SQUARES)

    roll = rng.random()
    if roll < 0.4:
        return bad(), rng.choice(legal)
    if roll < 0.8:
        return rng.choice(legal), bad()
    return bad(), bad()


def _spell(move: int, rng: random.Random) -> object:
    """A legal move, sometimes as a name in another accepted spelling."""
    if rng.random() < 0.1:
        return rng.choice(_SPELLINGS)(move)
    return move


# --- Playing games -------------------------------------------------------------


def game_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index`` under ``seed``."""
    return random.Random(f"wts-fuzz:{seed}:{index}")


@dataclass
class GameRecord:
    """One fuzzed game: its plan, the script fed to both engines and what it reached."""

    index: int
    plan: Plan
    script: Script
    turns: int
    coverage: Counter[str]
    difference: Difference | None


def play_game(
    reference: EngineClass, candidate: EngineClass, seed: int, index: int
) -> GameRecord:
    """Play game ``index`` of ``seed`` on both engines, comparing after every step."""
    rng = game_rng(seed, index)
    plan = draw_plan(rng)
    setup = SETUPS[plan.setup_kind](rng)
    for _ in range(5):  # a start that is already decided wastes the game
        try:
            if not setup.build(candidate).status.is_over:
                break
        except Exception:
            break  # the comparison reports it
        setup = SETUPS[plan.setup_kind](rng)
    pair = EnginePair(reference, candidate, setup)
    steps: list[Move] = []
    coverage: Counter[str] = Counter()
    turns = 0
    while pair.ready:
        before = pair.ref_position
        status: Status = before[4]
        cand_pos = pair.cand_position
        view = View(pair.cand, cand_pos[0], cand_pos[1], cand_pos[2], cand_pos[6])
        if status.is_over or turns >= plan.max_turns:
            if status.is_over and rng.random() < 0.3:
                move: Move = (rng.randrange(NUM_SQUARES), rng.randrange(NUM_SQUARES))
                steps.append(move)
                _result, error = pair.step(len(steps) - 1, *move)
                if error is not None and pair.difference is None:
                    coverage["game_over"] += 1
            break
        if not view.legal:  # the candidate disagrees; the comparison already said so
            break
        if rng.random() < plan.probe:
            move = _illegal_move(view, rng)
            steps.append(move)
            _result, error = pair.step(len(steps) - 1, *move)
            if error is not None and pair.difference is None:
                coverage["illegal"] += 1
            continue
        black_move, white_move = choose_moves(view, plan, rng)
        # The policies try moves on copies of the candidate: a copy() that shares
        # state with the original would have changed the live game.
        now = (pair.cand.black, pair.cand.white, pair.cand.eggs, pair.cand.turn)
        if now != tuple(cand_pos[:4]):
            pair.difference = Difference(
                len(steps) - 1, "candidate changed by plays on its copy()", cand_pos[:4], now
            )
            break
        move = (_spell(black_move, rng), _spell(white_move, rng))
        steps.append(move)
        result, _error = pair.step(len(steps) - 1, *move)
        if result is not None:
            turns += 1
            coverage.update(classify_turn(result, status, before[2]))
    return GameRecord(index, plan, Script(setup, tuple(steps)), turns, coverage, pair.difference)


# --- Shrinking -----------------------------------------------------------------


class _Shrinker:
    """Greedy shrinking of a failing script, re-checking every candidate."""

    def __init__(self, reference: EngineClass, candidate: EngineClass, deadline: float) -> None:
        self.reference = reference
        self.candidate = candidate
        self.deadline = deadline
        self.replays = 0

    def check(self, script: Script) -> tuple[Script, Difference] | None:
        """The script cut to the steps that matter, if it still fails."""
        self.replays += 1
        difference, used = replay(self.reference, self.candidate, script)
        if difference is None:
            return None
        if len(used) == len(script.steps):
            return script, difference
        # Steps both engines refused alike changed nothing: drop them, and make
        # sure the shorter script still fails (a candidate might keep hidden state).
        return self.check(Script(script.setup, tuple(script.steps[i] for i in used)))

    def out_of_time(self) -> bool:
        return time.monotonic() > self.deadline

    def drop_chunks(
        self, best: tuple[Script, Difference], items: Callable[[Script], list[Any]],
        rebuild: Callable[[Script, list[Any]], Script],
    ) -> tuple[tuple[Script, Difference], bool]:
        """Remove runs of items (halving the run length down to one) while the failure stays."""
        changed = False
        chunk = max(1, len(items(best[0])) // 2)
        while chunk >= 1 and not self.out_of_time():
            i = 0
            while i < len(items(best[0])) and not self.out_of_time():
                current = items(best[0])
                attempt = self.check(rebuild(best[0], current[:i] + current[i + chunk:]))
                if attempt is not None and _size(attempt[0]) < _size(best[0]):
                    best, changed = attempt, True
                else:
                    i += chunk
            chunk //= 2
        return best, changed

    def drop_pairs(
        self, best: tuple[Script, Difference], items: Callable[[Script], list[Any]],
        rebuild: Callable[[Script, list[Any]], Script], limit: int = 40,
    ) -> tuple[tuple[Script, Difference], bool]:
        """Remove two items at once: a sudden-death position survives losing one
        turtle of each row, though it is decided by losing either alone."""
        current = items(best[0])
        if len(current) > limit:
            return best, False
        for i in range(len(current)):
            for j in range(i + 1, len(current)):
                if self.out_of_time():
                    return best, False
                rest = current[:i] + current[i + 1:j] + current[j + 1:]
                attempt = self.check(rebuild(best[0], rest))
                if attempt is not None and _size(attempt[0]) < _size(best[0]):
                    return attempt, True
        return best, False


def _size(script: Script) -> tuple[int, int]:
    return len(script.steps), script.setup.pieces()


def _setup_items(script: Script) -> list[tuple[str, int]]:
    s = script.setup
    return [("black", sq) for sq in s.black] + [("white", sq) for sq in s.white] + [
        ("eggs", sq) for sq in s.eggs
    ]


def _with_setup_items(script: Script, items: list[tuple[str, int]]) -> Script:
    def pick(kind: str) -> tuple[int, ...]:
        return tuple(sq for k, sq in items if k == kind)

    return Script(Setup(pick("black"), pick("white"), pick("eggs")), script.steps)


def _as_name(move: object) -> object:
    if type(move) is int and 0 <= move < NUM_SQUARES:
        return SQUARE_NAMES[move]
    if isinstance(move, str) and move.strip(" ").upper() in SQUARE_NAMES:
        return move.strip(" ").upper()
    return move


def shrink(
    reference: EngineClass,
    candidate: EngineClass,
    script: Script,
    seconds: float = 60.0,
) -> tuple[Script, Difference]:
    """A shorter script that still makes the engines differ.

    Drops trailing steps, runs of steps and single steps (steps that became
    illegal are skipped), then set-up pieces, re-checking after every change
    that a difference persists; finally writes moves as square names if the
    difference survives that. Raises ValueError if ``script`` does not fail.
    """
    shrinker = _Shrinker(reference, candidate, time.monotonic() + seconds)
    best = shrinker.check(script)
    if best is None:
        raise ValueError("the script does not make the engines differ")
    changed = True
    while changed and not shrinker.out_of_time():
        best, steps_changed = shrinker.drop_chunks(
            best, lambda s: list(s.steps), lambda s, items: Script(s.setup, tuple(items))
        )
        best, setup_changed = shrinker.drop_chunks(best, _setup_items, _with_setup_items)
        changed = steps_changed or setup_changed
        if not changed:
            best, changed = shrinker.drop_pairs(best, _setup_items, _with_setup_items)
    named = Script(best[0].setup, tuple((_as_name(b), _as_name(w)) for b, w in best[0].steps))
    if named != best[0]:
        attempt = shrinker.check(named)
        if attempt is not None:
            best = attempt
    return best


def reproducer(script: Script, difference: Difference, candidate: EngineClass) -> str:
    """Runnable Python that replays ``script``; the last step is where the engines differ."""
    cand_name = f"{candidate.__module__}.{candidate.__qualname__}"
    lines = [
        f"# Engines differ: {difference.field}. Run this with the reference engine, then",
        f"# with Game = {cand_name}, and compare the output of the last step.",
        "from wts.engine.reference import Game",
        "",
        f"game = {script.setup.python()}",
    ]
    steps = script.steps
    for black_move, white_move in steps[:-1]:
        lines.append(f"game.play({_move_text(black_move)}, {_move_text(white_move)})")
    if steps and difference.step >= 0:
        black_move, white_move = steps[-1]
        lines += [
            "try:",
            f"    print(game.play({_move_text(black_move)}, {_move_text(white_move)}))",
            "except Exception as exc:",
            '    print(f"{type(exc).__name__}: {exc}")',
        ]
    part = difference.field.rpartition(".")[2]
    if part in POSITION_FIELDS and part != "str":
        call = "()" if part == "legal_moves" else ""
        lines.append(f"print(repr(game.{part}{call}))  # this differs")
    lines.append("print(game)")
    return "\n".join(lines)


# --- Running the fuzzer -----------------------------------------------------------


@dataclass
class Failure:
    """The first game where the engines differed, before and after shrinking."""

    seed: int
    index: int
    script: Script
    difference: Difference
    shrunk: Script
    shrunk_difference: Difference
    reproducible: bool = True
    """False when replaying the moves alone shows no difference (see :func:`shrink`)."""


@dataclass
class FuzzReport:
    """What a fuzz run did: games, turns, branch coverage and the first failure."""

    seed: int
    games: int = 0
    turns: int = 0
    seconds: float = 0.0
    coverage: Counter[str] = field(default_factory=Counter)
    setups: Counter[str] = field(default_factory=Counter)
    policies: Counter[str] = field(default_factory=Counter)
    failure: Failure | None = None


class _Chunk(NamedTuple):
    games: int
    turns: int
    coverage: Counter[str]
    setups: Counter[str]
    policies: Counter[str]
    failed: int | None


class _Flag(Protocol):
    def is_set(self) -> bool: ...


def _run_indices(
    reference: EngineClass, candidate: EngineClass, seed: int, indices: Iterable[int],
    deadline: float | None, stop: _Flag | None = None,
) -> _Chunk:
    games = turns = 0
    coverage: Counter[str] = Counter()
    setups: Counter[str] = Counter()
    policies: Counter[str] = Counter()
    for index in indices:
        if deadline is not None and time.time() > deadline:
            break
        if stop is not None and stop.is_set():  # Ctrl-C in the parent
            break
        record = play_game(reference, candidate, seed, index)
        games += 1
        turns += record.turns
        coverage.update(record.coverage)
        setups[record.plan.setup_kind] += 1
        policies[record.plan.name] += 1
        if record.difference is not None:
            return _Chunk(games, turns, coverage, setups, policies, index)
    return _Chunk(games, turns, coverage, setups, policies, None)


_WORKER_ENGINES: tuple[EngineClass, EngineClass] | None = None
_WORKER_STOP: _Flag | None = None


def _init_worker(reference: EngineClass, candidate: EngineClass, stop: _Flag) -> None:
    global _WORKER_ENGINES, _WORKER_STOP
    _WORKER_ENGINES = (reference, candidate)
    _WORKER_STOP = stop
    # Ctrl-C is the parent's to handle: it sets ``stop`` and joins the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _worker_chunk(seed: int, start: int, stop: int, deadline: float | None) -> _Chunk:
    assert _WORKER_ENGINES is not None
    return _run_indices(*_WORKER_ENGINES, seed, range(start, stop), deadline, _WORKER_STOP)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold SIGINT back while worker processes start: they inherit the mask and
    unblock it only once they ignore SIGINT, so a Ctrl-C sent to the whole
    process group then reaches only this process (on leaving the block)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def run_fuzz(
    reference: EngineClass,
    candidate: EngineClass,
    seed: int = 0,
    games: int | None = None,
    seconds: float | None = None,
    jobs: int = 1,
    progress: Callable[[FuzzReport], None] | None = None,
    shrink_seconds: float = 60.0,
) -> FuzzReport:
    """Fuzz ``candidate`` against ``reference`` until ``games`` or ``seconds`` run out.

    Games 0, 1, 2, ... of ``seed`` are played (in chunks over ``jobs``
    processes when ``jobs > 1``). Stops at the first difference, which is
    shrunk and stored in :attr:`FuzzReport.failure`. On Ctrl-C the worker
    processes finish the game they are playing and are joined (within about
    0.1 s), then the KeyboardInterrupt goes on.
    """
    if games is None and seconds is None:
        raise ValueError("give a number of games, a time budget, or both")
    start = time.time()
    deadline = None if seconds is None else start + seconds
    report = FuzzReport(seed)
    failed: list[int] = []
    chunk_size = 25

    def merge(chunk: _Chunk) -> None:
        report.games += chunk.games
        report.turns += chunk.turns
        report.coverage.update(chunk.coverage)
        report.setups.update(chunk.setups)
        report.policies.update(chunk.policies)
        if chunk.failed is not None:
            failed.append(chunk.failed)
        report.seconds = time.time() - start
        if progress is not None:
            progress(report)

    def chunks() -> Iterable[tuple[int, int]]:
        first = 0
        while games is None or first < games:
            stop = first + chunk_size if games is None else min(first + chunk_size, games)
            yield first, stop
            first = stop

    if jobs <= 1:
        for first, stop in chunks():
            merge(_run_indices(reference, candidate, seed, range(first, stop), deadline))
            if failed or (deadline is not None and time.time() > deadline):
                break
    else:
        context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
        stop_workers = context.Event()
        pool = concurrent.futures.ProcessPoolExecutor(
            jobs, mp_context=context, initializer=_init_worker,
            initargs=(reference, candidate, stop_workers),
        )
        pending: set[concurrent.futures.Future[_Chunk]] = set()
        source = iter(chunks())
        exhausted = False

        def refill() -> None:
            nonlocal exhausted
            while not exhausted and len(pending) < 2 * jobs:
                if failed or (deadline is not None and time.time() > deadline):
                    exhausted = True
                    return
                try:
                    first, stop = next(source)
                except StopIteration:
                    exhausted = True
                    return
                pending.add(pool.submit(_worker_chunk, seed, first, stop, deadline))

        try:
            with _sigint_held():
                refill()  # the first submit starts the workers
            while pending:
                done, _ = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED
                )
                for future in done:
                    pending.discard(future)
                    merge(future.result())
                refill()
        except BaseException:
            stop_workers.set()
            stop_pool(pool, pending)
            raise
        pool.shutdown(wait=True)
    report.seconds = time.time() - start
    if failed:
        index = min(failed)
        record = play_game(reference, candidate, seed, index)
        # A flaky candidate may agree on the second run.
        difference = record.difference or Difference(
            -1, "flaky candidate", "a difference on the first run", "none on a second run"
        )
        try:
            shrunk, shrunk_difference = shrink(reference, candidate, record.script, shrink_seconds)
            reproducible = True
        except ValueError:  # only the live game (with its trial plays) shows it
            shrunk, shrunk_difference, reproducible = record.script, difference, False
        report.failure = Failure(
            seed, index, record.script, difference, shrunk, shrunk_difference, reproducible
        )
    return report


# --- Command line --------------------------------------------------------------


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {value}")
        return value

    return parse


def _engine(text: str) -> EngineClass:
    module_name, _, attr = text.partition(":")
    if not module_name or not attr:
        raise argparse.ArgumentTypeError(f"expected MODULE:CLASS, got {text!r}")
    try:
        value: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            value = getattr(value, part)
    except (ImportError, AttributeError) as exc:
        raise argparse.ArgumentTypeError(f"cannot load {text!r}: {exc}") from None
    if not isinstance(value, type):
        raise argparse.ArgumentTypeError(f"{text!r} is not a class")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The fuzzer's options, shared by ``python -m wts.devtools.fuzz`` and ``wts fuzz``."""
    parser.add_argument(
        "--seconds", type=_positive_float, default=None,
        help="time budget in seconds (default: 10 unless --games is given)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the game sequence (default: 0)"
    )
    parser.add_argument("--games", type=_count(1), default=None, help="stop after this many games")
    parser.add_argument(
        "--jobs", type=_count(0), default=1,
        help="worker processes (default: 1; 0 means one per CPU)",
    )
    parser.add_argument(
        "--candidate", type=_engine, default=None, metavar="MODULE:CLASS",
        help="the engine to test against wts.reference:Game (default: wts:Game)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the summary and the table")


def run(
    args: argparse.Namespace,
    reference: EngineClass | None = None,
    candidate: EngineClass | None = None,
    out: Any = None,
) -> int:
    """Run the fuzzer for parsed ``args``; 0 when the engines agree, 1 on a mismatch.
    Ctrl-C raises KeyboardInterrupt (the callers turn it into exit status 130)."""
    out = out or sys.stdout
    reference = reference or wts.reference.Game
    candidate = candidate or args.candidate or wts.Game
    seconds = args.seconds if args.seconds is not None or args.games is not None else 10.0
    jobs = args.jobs or os.cpu_count() or 1

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    budget = []
    if seconds is not None:
        budget.append(f"{seconds:g} s")
    if args.games is not None:
        budget.append(f"{args.games} games")
    say(
        f"wts fuzz: {candidate.__module__}.{candidate.__qualname__} against "
        f"{reference.__module__}.{reference.__qualname__}, seed {args.seed}, "
        f"budget {' or '.join(budget)}, {jobs} job{'s' if jobs != 1 else ''}"
    )
    last = [time.monotonic()]

    def progress(report: FuzzReport) -> None:
        if not args.quiet and time.monotonic() - last[0] >= 2.0:
            last[0] = time.monotonic()
            say(f"  {report.games} games, {report.turns} turns, {report.seconds:.1f} s")

    report = run_fuzz(reference, candidate, args.seed, args.games, seconds, jobs, progress)
    rate = report.turns / report.seconds if report.seconds else 0.0
    say(
        f"played {report.games} games, {report.turns} turns in {report.seconds:.1f} s "
        f"({rate:.0f} turns/s)"
    )
    if not args.quiet:
        for kind, counts in (("setup", report.setups), ("policy", report.policies)):
            say(f"games by {kind}: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    say(format_coverage(report.coverage))
    missing = unreached(report.coverage)
    if missing:
        say(f"never reached: {', '.join(missing)}")
    failure = report.failure
    if failure is None:
        say("no mismatch")
        return 0
    say("")
    say(f"MISMATCH in game {failure.index} of seed {failure.seed}: {failure.difference.describe()}")
    if not failure.reproducible:
        say(
            "replaying the moves alone shows no difference: it needs the fuzzer's own trial "
            f"plays on copy(). Rerun with --seed {failure.seed} --games {failure.index + 1} "
            "to replay the game"
        )
        return 1
    shrunk = failure.shrunk
    say(
        f"shrunk from {len(failure.script.steps)} steps and {failure.script.setup.pieces()} set-up "
        f"pieces to {len(shrunk.steps)} steps and {shrunk.setup.pieces()} pieces: "
        f"{failure.shrunk_difference.describe()}"
    )
    say("reproducer:")
    say(reproducer(shrunk, failure.shrunk_difference, candidate))
    return 1


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``python -m wts.devtools.fuzz``."""
    parser = argparse.ArgumentParser(
        prog=prog or "python -m wts.devtools.fuzz",
        description="Differential fuzzer: play seeded games on the fast engine and the "
        "reference side by side and stop at the first difference.",
    )
    add_arguments(parser)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    reference: EngineClass | None = None,
    candidate: EngineClass | None = None,
) -> int:
    """Command line entry point: 0 clean, 1 on a mismatch, 2 on bad arguments,
    130 on Ctrl-C.

    ``reference`` and ``candidate`` override the engines (for tests that
    inject a deliberately broken one).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the message or the help
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return run(args, reference, candidate)
    except KeyboardInterrupt:
        return report_interrupt(parser.prog)


if __name__ == "__main__":
    sys.exit(main())
