"""How the fuzzed players choose their moves.

A :class:`Plan` draws, per game, a start-position kind and a mix of tactics:
random moves, captures (including anticipatory ones, found by trying the turn
on the fast engine) and filling rows; collisions on purpose, opening runs of
collisions for egg-dense games, and now and then an illegal move or a legal
one spelled another way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from wts.engine.game import Game
from wts.engine.pieces import Color, Piece
from wts.engine.squares import NUM_SQUARES, SQUARE_NAMES

from .board import LINES_OF_FIVE, captures_by, piece_board
from .compare import Move
from .setups import SETUP_WEIGHTS

__all__ = ["Plan", "POLICIES", "draw_plan", "View", "choose_moves", "illegal_move", "spell",
           "LookAheadFailed"]


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


POLICIES: dict[str, dict[str, float]] = {
    "uniform": {"random": 1.0},
    "collisions": {"random": 1.0},
    "captures": {"capture": 0.8, "random": 0.2},
    "egg_dense": {"capture": 0.6, "random": 0.4},
    "lines": {"line": 0.6, "capture": 0.25, "random": 0.15},
    "mixed": {"line": 0.3, "capture": 0.4, "random": 0.3},
}
"""Move policies by name: the weights of each tactic."""


_STEERED: dict[str, tuple[str, float]] = {
    "sudden_death": ("captures", 0.7),  # capturing out of a row breaks it
    "both_ends": ("captures", 0.8),  # the double capture must be played
    "lines": ("lines", 0.5),  # both filling their rows enters sudden death
    "near_full": ("egg_dense", 0.5),  # collisions fill the board: a draw
    "full_win": ("lines", 0.9),  # both rows' gaps, played as the board fills
}
"""The policy a start-position kind needs to reach its branch, and how often it gets it."""


def draw_plan(rng: random.Random) -> Plan:
    """The plan of one game, drawn from ``rng``."""
    setup_kind = rng.choices(list(SETUP_WEIGHTS), weights=list(SETUP_WEIGHTS.values()))[0]
    name = rng.choice(list(POLICIES))
    steered = _STEERED.get(setup_kind)
    if steered is not None and rng.random() < steered[1]:
        name = steered[0]
    collide = {"collisions": 0.4, "uniform": 0.02}.get(name, 0.08)
    opening = rng.randint(3, 12) if name == "egg_dense" else 0
    max_turns = rng.choice((24, 40, NUM_SQUARES))
    return Plan(name, setup_kind, POLICIES[name], collide, opening, max_turns, probe=0.03)


class View(NamedTuple):
    """What a policy sees: the candidate game and its compared position."""

    game: Any
    black: frozenset[int]
    white: frozenset[int]
    eggs: tuple[int, ...]
    legal: list[int]


class LookAheadFailed(Exception):
    """A turn tried on a copy of the candidate raised: the game plays that turn
    next, for real, so the comparison reports the failure with a reproducer."""

    def __init__(self, moves: tuple[int, int]) -> None:
        super().__init__(f"the turn {SQUARE_NAMES[moves[0]]} {SQUARE_NAMES[moves[1]]} "
                         "raised on a copy of the candidate")
        self.moves = moves


def _candidate_captures(game: Any, black_move: int, white_move: int, color: Color) -> int:
    """Captures ``color`` makes in the turn, tried on a copy of the candidate.

    Trying moves on the candidate's copies also tests ``copy()``: a copy that
    shares state with the game changes the live game, which the caller checks.
    Both moves are legal in the candidate's own position, so a failure is a
    finding: :class:`LookAheadFailed`.
    """
    try:
        result = game.copy().play(black_move, white_move)
    except Exception:
        raise LookAheadFailed((black_move, white_move)) from None
    return sum(1 for c in result.captures if c.color is color)


def _line_move(view: View, color: Color, avoid: int, rng: random.Random) -> int:
    """A gap of one of ``color``'s fullest open lines (three or more of five)."""
    board = piece_board(view.black, view.white, view.eggs)
    own = Piece.turtle(color)
    best: list[int] = []
    top = 0
    for line in LINES_OF_FIVE:
        mine = empty = 0
        for sq in line:
            if board[sq] is own:
                mine += 1
            elif board[sq] is Piece.EMPTY:
                empty += 1
        if mine + empty == 5 and mine >= 3 and mine >= top:
            if mine > top:
                best, top = [], mine
            best.extend(sq for sq in line if board[sq] is Piece.EMPTY and sq != avoid)
    return rng.choice(best) if best else rng.choice(view.legal)


def _capture_move(view: View, color: Color, other: int, rng: random.Random) -> int:
    """One of the moves that capture most against the other player's move ``other``."""
    position = Game.from_setup(black=view.black, white=view.white, eggs=view.eggs)
    tried = captures_by(position, color, (sq for sq in view.legal if sq != other), other)
    counts = [(n, sq) for n, sq in tried if n]
    if not counts:
        return rng.choice(view.legal)
    rng.shuffle(counts)
    counts.sort(key=lambda item: -item[0])
    for _n, sq in counts[:2]:
        moves = (sq, other) if color is Color.BLACK else (other, sq)
        if _candidate_captures(view.game, *moves, color):
            return sq
    return rng.choice(view.legal)


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
        line = black_tactic == "line"
        sq = _line_move(view, Color.BLACK, -1, rng) if line else rng.choice(legal)
        return sq, sq
    tentative = rng.choice(legal)
    black = _pick(view, Color.BLACK, black_tactic, tentative, rng)
    white = _pick(view, Color.WHITE, white_tactic, black, rng)
    return black, white


def _pick(view: View, color: Color, tactic: str, other: int, rng: random.Random) -> int:
    """A move for ``color`` by ``tactic``, given the other player's (tentative) move."""
    if tactic == "line":
        return _line_move(view, color, other, rng)
    if tactic == "capture":
        return _capture_move(view, color, other, rng)
    return rng.choice(view.legal)


_NOT_SQUARES: tuple[object, ...] = ("J1", "E0", "I10", "", "5E", "E 5", 81, -1, True, None, 4.0)
_SPELLINGS: tuple[Callable[[int], object], ...] = (
    lambda sq: SQUARE_NAMES[sq],
    lambda sq: SQUARE_NAMES[sq].lower(),
    lambda sq: f" {SQUARE_NAMES[sq]} ",
)


def illegal_move(view: View, rng: random.Random) -> Move:
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


def spell(move: int, rng: random.Random) -> object:
    """A legal move, sometimes as a name in another accepted spelling."""
    if rng.random() < 0.1:
        return rng.choice(_SPELLINGS)(move)
    return move
