"""The ``wts`` command line: ``wts demo`` and ``wts fuzz``.

``main(argv)`` returns the exit status instead of raising ``SystemExit``:
0 on success, 1 when the fuzzer finds a mismatch, 2 on bad arguments (with
argparse's message, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from typing import Optional, TextIO

import wts
from wts import fuzz
from wts.events import TurnResult
from wts.squares import SQUARE_NAMES


def describe_turn(result: TurnResult) -> str:
    """One line saying what a turn did: moves, collision, captures, dissolves, hatches, status."""
    names = SQUARE_NAMES
    parts = [f"black {names[result.black_move]}, white {names[result.white_move]}"]
    if result.collision is not None:
        parts.append(f"collision on {names[result.collision]}: egg laid")
    if result.captures:
        captures = []
        for capture in result.captures:
            text = f"{capture.color.value} {'+'.join(names[sq] for sq in capture.squares)}"
            if capture.round:
                text += f" (wave {capture.round})"
            captures.append(text)
        parts.append("captures: " + ", ".join(captures))
    if result.dissolved:
        parts.append("dissolved: " + ", ".join(names[sq] for sq in result.dissolved))
    if result.hatched:
        parts.append("hatched: " + ", ".join(
            f"{names[h.square]} {h.color.value} (wave {h.wave})" for h in result.hatched
        ))
    status = f"status {result.status.value}"
    black, white = result.winning_counts
    if black or white:
        status += f" (winning turtles: black {black}, white {white})"
    parts.append(status)
    return "; ".join(parts)


def play_demo(seed: int, out: TextIO) -> None:
    """Play one game between two uniform random players, printing every turn."""
    rng = random.Random(seed)
    game = wts.Game()
    print(f"What the Shell: a demo game between two random players (seed {seed})", file=out)
    print(game, file=out)
    while not game.is_over():
        legal = game.legal_moves()
        result = game.play(rng.choice(legal), rng.choice(legal))
        print(f"\nturn {game.turn}: {describe_turn(result)}", file=out)
        print(game, file=out)
    black, white = game.winning_counts
    verdict = "a draw" if game.winner is None else f"{game.winner.value} wins"
    print(
        f"\nresult: {verdict} after {game.turn} turns "
        f"(winning turtles: black {black}, white {white})",
        file=out,
    )


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``wts`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="wts", description="What the Shell: the engine's command line."
    )
    parser.add_argument("--version", action="version", version=f"wts {wts.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    demo = commands.add_parser(
        "demo", help="play and print one game between two random players",
        description="Play one game between two uniform random players and print the board "
        "and a summary of events after every turn, then the result.",
    )
    demo.add_argument(
        "--seed", type=_seed, default=None,
        help="seed of the players' random moves (default: a fresh one, printed)",
    )
    fuzz_parser = commands.add_parser(
        "fuzz", help="differential fuzzing of wts.Game against the reference engine",
        description="Play seeded games on the fast engine and the reference side by side, "
        "compare everything after every turn, and shrink the first mismatch to a reproducer.",
    )
    fuzz.add_arguments(fuzz_parser)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse printed the help or the error
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "demo":
            seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
            play_demo(seed, sys.stdout)
            return 0
        return fuzz.run(args)
    except BrokenPipeError:
        # The reader went away (``wts demo | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
