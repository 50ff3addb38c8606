"""Shrinking a failing script to a short reproducer, printed as runnable Python."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from wts.engine.squares import NUM_SQUARES, SQUARE_NAMES

from .compare import POSITION_FIELDS, Difference, EngineClass, Script, Setup, replay

__all__ = ["shrink", "reproducer"]


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

    return Script(Setup(pick("black"), pick("white"), pick("eggs"), script.setup.turn),
                  script.steps)


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


def _move_text(move: object) -> str:
    """A move as Python source: ``"E5"`` for a plain string, else its repr."""
    if isinstance(move, str) and move.isprintable() and not set(move) & {'"', "\\"}:
        return f'"{move}"'
    return repr(move)
