"""The rule branches a fuzz run must reach, read off each turn's TurnResult.

A branch no game reaches is a branch the comparison never tested: a bug copied
into both engines that kills it would go unseen. So a run whose coverage table
leaves one unreached fails (see :func:`describe_unreached`).

An *anticipatory capture* is a placement capture that holds the turtle the
opponent placed on the same turn: both turtles land at once (rules point 14),
so the new turtle is already there to be captured.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from wts.engine.events import TurnResult
from wts.engine.pieces import MAX_TURN, Color, Status

__all__ = ["BRANCHES", "classify_turn", "unreached", "format_coverage", "describe_unreached"]

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
    "turn_cap": "draw at the turn cap (turn 4294967295)",
    "won_full": "won on the turn that filled the board",
    "illegal": "illegal move rejected",
    "game_over": "move after the game is over rejected",
}
"""Every branch of the rules the coverage table counts: key -> description."""

_WINS = (Status.BLACK_WINS, Status.WHITE_WINS)


def classify_turn(
    result: TurnResult, before_status: Status, before_eggs: Iterable[int],
    board_full: bool = False, turn: int | None = None,
) -> list[str]:
    """The branches (keys of :data:`BRANCHES`) one turn reached.

    Everything is read off the reference engine's ``result``; the position
    before the turn adds only what a TurnResult cannot say: the status it
    came from, and which captured squares held eggs; ``board_full`` says that no
    empty square is left after the turn, ``turn`` is the turn number after it
    (a draw at :data:`~wts.MAX_TURN` on a board with room left is the turn cap's).
    """
    hit: list[str] = []
    captures = result.captures
    if result.collision is not None:
        hit.append("collision")
    if captures:
        if len({c.color for c in captures}) == 2:
            hit.append("both_capture")
        eggs_before = set(before_eggs)
        if any(sq in eggs_before for c in captures for sq in c.squares):
            hit.append("captured_egg")
        # A placement capture holding the opponent's own new turtle.
        placed_by_opponent = {Color.BLACK: result.white_move, Color.WHITE: result.black_move}
        if any(c.round == 0 and placed_by_opponent[c.color] in c.squares for c in captures):
            hit.append("anticipatory")
        taken = [(c.round, sq) for c in captures for sq in c.squares]
        if len(set(taken)) < len(taken):
            hit.append("shared_piece")
        if _hatched_short(result):
            hit.append("unpaid")
    if result.dissolved:
        hit.append("dissolve")
    if result.hatched:
        depth = max(h.wave for h in result.hatched)
        hit.append("wave1" if depth == 1 else "wave2")
        if depth >= 3:
            hit.append("wave3")
        # A wave capture whose anchor hatched in the same wave: both ends arrived.
        hatched_in = {(h.wave, h.square) for h in result.hatched}
        if any(c.round >= 1 and (c.round, c.anchor) in hatched_in for c in captures):
            hit.append("both_ends")
    hit += _status_branches(before_status, result.status)
    if result.status is Status.DRAW:
        hit.append("turn_cap" if turn == MAX_TURN and not board_full else "draw")
    if board_full and result.status in _WINS:
        hit.append("won_full")
    return hit


def _hatched_short(result: TurnResult) -> bool:
    """Some capture of the turn was owed an egg it did not get.

    The placement step's captures are owed max(black, white) eggs (a pair
    dissolves one, the surplus hatches wave 1); the captures of wave k are
    owed the eggs of wave k + 1.
    """
    by_round = Counter(c.round for c in result.captures)
    black_placement = sum(1 for c in result.captures if c.round == 0 and c.color is Color.BLACK)
    owed = max(black_placement, by_round[0] - black_placement)
    owed += sum(n for round_, n in by_round.items() if round_ > 0)
    return len(result.dissolved) + len(result.hatched) < owed


def _status_branches(before: Status, after: Status) -> list[str]:
    if before is Status.ONGOING:
        if after is Status.SUDDEN_DEATH:
            return ["sd_entered"]
        if after in _WINS:
            return ["won"]
    elif before is Status.SUDDEN_DEATH:
        if after is Status.SUDDEN_DEATH:
            return ["sd_held"]
        if after is Status.ONGOING:
            return ["sd_broken"]
        if after in _WINS:
            return ["sd_won"]
    return []


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


def describe_unreached(counts: Counter[str] | dict[str, int], games: int) -> str | None:
    """Why a run's coverage fails, naming each unreached branch; None when complete."""
    missing = unreached(counts)
    if not missing:
        return None
    names = "; ".join(f"{BRANCHES[key]} ({key})" for key in missing)
    return (
        f"COVERAGE INCOMPLETE: {len(missing)} of {len(BRANCHES)} rule branches never reached "
        f"in {games} game{'s' if games != 1 else ''}: {names}. The engines were not compared "
        "there: a longer run (--seconds 60 reaches every branch) may reach them; if it does "
        "not, both engines may have lost the branch."
    )
