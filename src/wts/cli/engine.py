"""The command lines of engines: ``wts engine`` and ``wts engine-check`` (:mod:`wts.protocol`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from wts.cli import arguments

__all__ = ["COMMANDS", "add_parsers", "run"]

COMMANDS = ("engine", "engine-check")


def add_parsers(commands: Any) -> None:
    """Add ``engine`` and ``engine-check`` to the ``wts`` subcommands."""
    engine = commands.add_parser(
        "engine", help="be an engine: any wts player over the engine protocol on stdin/stdout",
        description="Speak the engine protocol (docs/protocol.md) on standard input and "
        "output, choosing squares with the given player, so that any client (wts.protocol, "
        "a match runner, a GUI) can run it. It also answers the rules part, resolving turns "
        "with --rules.",
    )
    engine.add_argument("--agent", type=arguments.agent_spec, default="mcts:3",
                        help="the player: random, greedy, mcts, mcts:LEVEL, ... (default mcts:3)")
    engine.add_argument("--rules", type=arguments.engine_class, default=None,
                        metavar="MODULE:CLASS",
                        help="the Game class that answers the rules part (default wts:Game; "
                        "wts.reference:Game for the reference engine)")
    check = commands.add_parser(
        "engine-check", help="check that a program speaks the engine protocol correctly",
        description="Run a program as an engine and check it against the protocol: the "
        "handshake, options, games from set-up positions and sudden death, time limits, "
        "stop, isready, quit, and answers to malformed input; for an engine that declares "
        "'feature rules', also its rules part against this package's rules. Prints a "
        "report; exits 1 if a check failed.",
    )
    check.add_argument("program", metavar="CMD",
                       help="the engine's command line, as one argument (split like a shell)")
    check.add_argument("--positions", type=arguments.integer("a number of positions", 1,
                                                             100_000), default=300,
                       help="positions to ask a move in (default 300)")
    check.add_argument("--seed", type=arguments.seed, default=0,
                       help="seed of the positions (default 0)")
    check.add_argument("--movetime", type=arguments.real("a number of seconds", 0.0, 60.0,
                                                         low_open=True), default=0.05,
                       metavar="SECONDS", help="movetime of each go (default 0.05)")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``wts engine`` or ``wts engine-check``; returns the exit status."""
    if args.command == "engine":
        from wts.protocol.server import serve

        return serve(args.agent, args.rules)
    from wts.protocol.check import check_engine

    report = check_engine(args.program, positions=args.positions, seed=args.seed,
                          movetime=args.movetime, progress=lambda line: print(
                              line, file=sys.stderr, flush=True))
    print(report.format(), file=out)
    return 0 if report.passed else 1
