"""What ``wts fuzz`` prints about a run, and the exit status it ends with."""

from __future__ import annotations

from collections.abc import Callable

from .branches import describe_unreached, format_coverage
from .compare import ENGINE_FAILURE, Difference, EngineClass, Script
from .runner import FuzzReport
from .shrink import reproducer

__all__ = ["EXIT_MISMATCH", "EXIT_UNREACHED", "describe_start", "describe_progress",
           "describe_end"]

EXIT_MISMATCH = 1
"""The engines differed, or the candidate program failed (crashed, hung, or
answered something malformed): a shrunk reproducer is printed."""

EXIT_UNREACHED = 3
"""The engines agreed, but some rule branch was never reached, so never compared."""


def _name(engine: EngineClass) -> str:
    named = getattr(engine, "engine_name", None)  # an engine program's rules (--against)
    if isinstance(named, str):
        return named
    return f"{engine.__module__}.{engine.__qualname__}"


def describe_start(
    reference: EngineClass, candidate: EngineClass, seed: int, seconds: float | None,
    games: int | None, jobs: int,
) -> str:
    """The first line: the engines, the seed, the budget and the workers."""
    budget = []
    if seconds is not None:
        budget.append(f"{seconds:g} s")
    if games is not None:
        budget.append(f"{games} games")
    return (
        f"wts fuzz: {_name(candidate)} against {_name(reference)}, seed {seed}, "
        f"budget {' or '.join(budget)}, {jobs} job{'s' if jobs != 1 else ''}"
    )


def _reproducer(script: Script, difference: Difference, candidate: EngineClass) -> str:
    """The shrunk script as the candidate's authors can run it: Python for a Game
    class, a position and moves with the protocol's requests for an engine program."""
    describe = getattr(candidate, "describe_script", None)
    if describe is not None:
        return str(describe(script, difference))
    return reproducer(script, difference, candidate)


def describe_progress(report: FuzzReport) -> str:
    """A progress line while the run goes on."""
    return f"  {report.games} games, {report.turns} turns, {report.seconds:.1f} s"


def describe_end(report: FuzzReport, candidate: EngineClass, quiet: bool) -> tuple[str, int]:
    """The summary, the coverage table and the verdict; and the exit status:
    0, :data:`EXIT_MISMATCH` or :data:`EXIT_UNREACHED`."""
    rate = report.turns / report.seconds if report.seconds else 0.0
    lines = [
        f"played {report.games} games, {report.turns} turns in {report.seconds:.1f} s "
        f"({rate:.0f} turns/s)"
    ]
    if not quiet:
        for kind, counts in (("setup", report.setups), ("policy", report.policies)):
            lines.append(
                f"games by {kind}: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))
            )
    lines.append(format_coverage(report.coverage))
    failure = report.failure
    if failure is None:
        lines.append("no mismatch")
        incomplete = describe_unreached(report.coverage, report.games)
        if incomplete is None:
            return "\n".join(lines), 0
        return "\n".join([*lines, incomplete]), EXIT_UNREACHED
    describe = _describer(candidate)
    finding = ("ENGINE FAILURE" if failure.difference.field == ENGINE_FAILURE
               else "MISMATCH")
    lines += [
        "",
        f"{finding} in game {failure.index} of seed {failure.seed}: "
        f"{describe(failure.difference)}",
    ]
    if not failure.reproducible and finding == "ENGINE FAILURE":
        lines.append(
            "replaying the moves does not make the program fail again: it failed after "
            "many requests, not at one (the failing request is above). Rerun with "
            f"--seed {failure.seed} --games {failure.index + 1} to replay the game"
        )
        return "\n".join(lines), EXIT_MISMATCH
    if not failure.reproducible:
        lines.append(
            "replaying the moves alone shows no difference: it needs the fuzzer's own trial "
            f"plays on copy(). Rerun with --seed {failure.seed} --games {failure.index + 1} "
            "to replay the game"
        )
        return "\n".join(lines), EXIT_MISMATCH
    shrunk = failure.shrunk
    lines += [
        f"shrunk from {len(failure.script.steps)} steps and {failure.script.setup.pieces()} "
        f"set-up pieces to {len(shrunk.steps)} steps and {shrunk.setup.pieces()} pieces: "
        f"{describe(failure.shrunk_difference)}",
        "reproducer:",
        _reproducer(shrunk, failure.shrunk_difference, candidate),
    ]
    return "\n".join(lines), EXIT_MISMATCH


def _describer(candidate: EngineClass) -> Callable[[Difference], str]:
    """How a difference is told: in the protocol's words for an engine program's
    rules part (``describe_difference``), else as Python values."""
    describe = getattr(candidate, "describe_difference", None)
    if callable(describe):
        return lambda difference: str(describe(difference))
    return Difference.describe
