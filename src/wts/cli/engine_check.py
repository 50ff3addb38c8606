"""``wts engine-check``: a program run through the engine protocol, and the report."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from wts.cli import arguments

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``engine-check`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "engine-check", help="check that a program speaks the engine protocol correctly",
        description="Run a program as an engine and check it against the protocol: the "
        "handshake, options, games from set-up positions and sudden death, time limits, "
        "stop, isready, quit, and answers to malformed input; for an engine that declares "
        "'feature rules', also its rules part against this package's rules. Prints a "
        "report; exits 1 if a check failed.",
    )
    parser.add_argument("program", metavar="CMD",
                        help="the engine's command line, as one argument (split like a shell)")
    parser.add_argument("--positions", type=arguments.integer("a number of positions", 1,
                                                              100_000), default=300,
                        metavar="N", help="set-up positions to ask a move in, one go each "
                        "(a count, default 300), besides 3 whole games")
    parser.add_argument("--seed", type=arguments.seed, default=0,
                        help="seed of the positions (default 0)")
    parser.add_argument("--movetime", type=arguments.real("a number of seconds", 0.0, 60.0,
                                                          low_open=True), default=0.05,
                        metavar="SECONDS", help="the movetime of each go, in seconds "
                        "(default 0.05, sent as movetime 50, in milliseconds)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``wts engine-check``: the report on ``out``, progress on standard error; 1 if a
    check failed."""
    from wts.protocol.check import check_engine

    report = check_engine(args.program, positions=args.positions, seed=args.seed,
                          movetime=args.movetime, progress=lambda line: print(
                              line, file=sys.stderr, flush=True))
    print(report.format(), file=sys.stdout if out is None else out)
    return 0 if report.passed else 1
