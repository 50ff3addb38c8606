"""``wts engine``: any wts player as an engine, over the protocol of :mod:`wts.protocol`."""

from __future__ import annotations

import argparse
from typing import Any

from wts.cli import arguments

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``engine`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "engine", help="be an engine: any wts player over the engine protocol on stdin/stdout",
        description="Speak the engine protocol (docs/protocol.md) on standard input and "
        "output, choosing squares with the given player, so that any client (wts.protocol, "
        "a match runner, a GUI) can run it. It also answers the rules part, resolving turns "
        "with --rules.",
    )
    parser.add_argument("--agent", type=arguments.agent_spec, default="mcts:3",
                        help="the player: random, greedy, mcts, mcts:LEVEL, az, az:LEVEL, ... "
                        "(default mcts:3)")
    parser.add_argument("--rules", type=arguments.engine_class, default=None,
                        metavar="MODULE:CLASS",
                        help="the Game class that answers the rules part (default wts:Game; "
                        "wts.reference:Game for the reference engine)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """``wts engine``: serve the protocol until ``quit`` or the end of input."""
    from wts.protocol.server import serve

    return serve(args.agent, args.rules)
