"""``wts fuzz``: differential fuzzing of an engine against the reference rules."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, TextIO

from wts.cli import arguments
from wts.devtools import fuzz
from wts.engine import reference
from wts.engine.game import Game

__all__ = ["add_parser", "add_arguments", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``fuzz`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "fuzz", help="differential fuzzing of wts.Game against the reference engine",
        description="Play seeded games on the fast engine and the reference side by side, "
        "compare everything after every turn, and shrink the first mismatch to a reproducer "
        "(exit 1). A run that leaves a rule branch of the coverage table unreached exits 3.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``wts fuzz``."""
    parser.add_argument(
        "--seconds", type=arguments.fuzz_seconds, default=None,
        help="time budget in seconds (default: 10 unless --games is given)",
    )
    parser.add_argument(
        "--seed", type=arguments.seed, default=0, help="seed of the game sequence (default: 0)"
    )
    parser.add_argument("--games", type=arguments.game_count(1), default=None,
                        help="stop after this many games")
    parser.add_argument(
        "--jobs", type=arguments.jobs_or_all, default=1,
        metavar="J", help="worker processes, each with its own copy of the engines (a count, "
        "default 1; 0 means one per CPU core)",
    )
    engines = parser.add_mutually_exclusive_group()
    engines.add_argument(
        "--candidate", type=arguments.engine_class, default=None, metavar="MODULE:CLASS",
        help="the engine to test against wts.reference:Game (default: wts:Game)",
    )
    engines.add_argument(
        "--against", default=None, metavar="CMD",
        help="fuzz the rules part of the engine program CMD (docs/protocol.md) against "
        "wts.reference:Game instead",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the summary and the table")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``wts fuzz``: 0 when the engines agree and every rule branch was reached,
    1 on a mismatch, 3 when a branch was never reached. Ctrl-C raises
    KeyboardInterrupt."""
    out = sys.stdout if out is None else out
    candidate = args.candidate or Game
    if args.against is not None:
        from wts.protocol.rules import rules_game_class

        candidate = rules_game_class(args.against)
        candidate.engine()  # a program that cannot start, or has no rules part, says so now
    seconds = args.seconds if args.seconds is not None or args.games is not None else 10.0
    jobs = args.jobs or os.cpu_count() or 1

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    say(fuzz.describe_start(reference.Game, candidate, args.seed, seconds, args.games, jobs))
    last = [time.monotonic()]

    def progress(report: fuzz.FuzzReport) -> None:
        if not args.quiet and time.monotonic() - last[0] >= 2.0:
            last[0] = time.monotonic()
            say(fuzz.describe_progress(report))

    try:
        report = fuzz.run_fuzz(reference.Game, candidate, args.seed, args.games, seconds, jobs,
                               progress)
        text, status = fuzz.describe_end(report, candidate, args.quiet)
    finally:
        close = getattr(candidate, "close", None)  # a program's rules part: its process
        if args.against is not None and close is not None:
            close()
    say(text)
    return status
