"""``wts demo``: one game between two random players, printed as ``wts play`` prints one."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from wts.cli import arguments
from wts.engine import text
from wts.engine.game import Game

__all__ = ["add_parser", "play_demo", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``demo`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "demo", help="play and print one game between two random players",
        description="Play one game between two uniform random players and print the board "
        "and a summary of events after every turn, then the result.",
    )
    parser.add_argument(
        "--seed", type=arguments.seed, default=None,
        help="seed of the players' random moves (default: a fresh one, printed)",
    )
    parser.set_defaults(run=run)
    return parser


def play_demo(seed: int, out: TextIO) -> None:
    """Play one game between two uniform random players, printing every turn
    as ``wts play`` does."""
    rng = random.Random(seed)
    game = Game()
    print(f"What the Shell: a demo game between two random players (seed {seed})", file=out)
    print(text.board(game), file=out)
    previous = game.status
    while not game.is_over():
        legal = game.legal_moves()
        result = game.play(rng.choice(legal), rng.choice(legal))
        print("", file=out)
        print("\n".join(text.describe_turn(result, game, previous)), file=out)
        print(text.board(game), file=out)
        previous = result.status
    print("", file=out)
    print(text.describe_result(game), file=out)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``wts demo``: play and print the game of ``--seed``, or of a fresh seed."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    play_demo(seed, sys.stdout if out is None else out)
    return 0
