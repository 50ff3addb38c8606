"""The argparse converters every ``wts`` command shares, and its messages' one-line form.

Each converter takes the text of one option and returns its value, or raises
``argparse.ArgumentTypeError`` saying what was expected, so argparse prints
the usage and the message and the command exits with 2. The bounds are the
ones the API checks, so a value the parser takes never makes a call fail
later with a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import math
from collections.abc import Callable

from wts.limits import MAX_GAMES, MAX_THREADS, SEED_MAX
from wts.players.agents import MAX_TIME_LIMIT, check_agent
from wts.players.specs import LEVELS, AgentSpec

__all__ = [
    "integer",
    "real",
    "seed",
    "level",
    "threads",
    "jobs",
    "turn",
    "pixels",
    "time_limit",
    "game_count",
    "agent_spec",
    "fuzz_seconds",
    "holdout",
    "ridge",
    "jobs_or_all",
    "engine_class",
    "add_backend_arguments",
    "one_line",
]


def _bound(value: int | float) -> str:
    """A bound for a message: the largest seed by its formula, not its 20 digits."""
    if value == SEED_MAX:
        return "2**64 - 1"
    return f"{value:g}" if isinstance(value, float) else f"{value:,}"


def _span(low: int | float, high: int | float | None, low_open: bool = False) -> str:
    if high is None:
        return f"above {_bound(low)}" if low_open else f"of at least {_bound(low)}"
    if low_open:
        return f"above {_bound(low)} and at most {_bound(high)}"
    return f"from {_bound(low)} to {_bound(high)}"


def integer(what: str, low: int, high: int | None = None, *,
            digit_groups: bool = False) -> Callable[[str], int]:
    """A converter to an int from ``low`` to ``high`` (None: no limit); with
    ``digit_groups``, ``1_000_000`` and ``1,000,000`` are taken too."""

    def convert(text: str) -> int:
        digits = text.replace("_", "").replace(",", "") if digit_groups else text
        try:
            value = int(digits)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                f"expected {what} {_span(low, high)}, got {text!r}")
        return value

    return convert


def real(what: str, low: float, high: float, *,
         low_open: bool = False) -> Callable[[str], float]:
    """A converter to a finite number from ``low`` (excluded with ``low_open``)
    to ``high``; NaN and infinities are refused."""

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        low_ok = value > low if low_open else value >= low
        if not (math.isfinite(value) and low_ok and value <= high):
            raise argparse.ArgumentTypeError(
                f"expected {what} {_span(low, high, low_open)}, got {text!r}")
        return value

    return convert


seed = integer("an integer seed", 0, SEED_MAX)
level = integer("an MCTS level", min(LEVELS), max(LEVELS))
threads = integer("a number of threads", 1, MAX_THREADS)
jobs = integer("a number of jobs", 1, MAX_THREADS)
turn = integer("a turn number", 0)
pixels = integer("a size in pixels", 16, 10_000)
time_limit = real("a number of seconds", 0.0, MAX_TIME_LIMIT, low_open=True)
fuzz_seconds = real("a number of seconds", 0.0, 366 * 86_400.0, low_open=True)
holdout = real("a share of the games", 0.0, 0.9)
ridge = real("a ridge penalty", 0.0, 1e6)
jobs_or_all = integer("a number of jobs (0: one per CPU)", 0, MAX_THREADS)


def game_count(minimum: int) -> Callable[[str], int]:
    """A converter to a number of games, at least ``minimum`` and at most
    :data:`wts.limits.MAX_GAMES`, digit groups allowed."""
    return integer("a number of games", minimum, MAX_GAMES, digit_groups=True)


def agent_spec(text: str) -> AgentSpec:
    """An agent as ``wts tournament`` names it: ``random``, ``greedy``, ``mcts``, ``mcts:3``,
    ``openspiel-mcts``, ``openspiel-mcts:1000``, or an engine program, ``engine:CMD``
    (kept as written: a command's case matters), parsed once, here, and its
    options' values checked: a bad one is a bad argument."""
    try:
        return check_agent(text)
    except (ValueError, ImportError) as exc:  # ImportError: a missing extra (OpenSpiel)
        raise argparse.ArgumentTypeError(str(exc)) from None


def engine_class(text: str) -> type:
    """A game class named ``MODULE:CLASS``, as ``wts fuzz --candidate`` takes it."""
    module_name, _, attr = text.partition(":")
    if not module_name or not attr:
        raise argparse.ArgumentTypeError(f"expected MODULE:CLASS, got {text!r}")
    try:
        value: object = importlib.import_module(module_name)
        for part in attr.split("."):
            value = getattr(value, part)
    except (ImportError, AttributeError) as exc:
        raise argparse.ArgumentTypeError(f"cannot load {text!r}: {exc}") from None
    if not isinstance(value, type):
        raise argparse.ArgumentTypeError(f"{text!r} is not a class")
    return value



workers = integer("a number of workers", 1, 4096)


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """``--backend``, ``--workers`` and ``--address``: where a run's games are played
    (:mod:`wts.runtime.backends`)."""
    parser.add_argument("--backend", choices=("local", "process", "ray"), default="local",
                        help="local: this process; process: a pool over this machine's "
                        "cores; ray: Ray tasks (default local)")
    parser.add_argument("--workers", type=workers, default=None,
                        help="processes or Ray tasks at once (default: the cores here)")
    parser.add_argument("--address", default=None,
                        help="the Ray cluster to join ('auto': the one `ray start` made "
                        "here); without it the ray backend starts a local Ray")


def one_line(text: str) -> str:
    """``text`` as one line of plain characters: a message may quote a file's
    contents (a column's name, say), whose control characters are escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
