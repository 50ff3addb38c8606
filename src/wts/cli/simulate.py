"""``wts simulate``: random playouts in the C core, with their result and speed."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from wts.cli import arguments
from wts.engine import simulate as simulation
from wts.limits import MAX_THREADS

__all__ = ["add_parser", "run", "run_simulate"]

#: A progress bar is shown on a terminal from this many games on.
PROGRESS_FROM = 200_000


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``simulate`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "simulate", help="play many random games in C and report the speed",
        description="Play GAMES games between two uniform random players in the C core, "
        "without the GIL, and print wins, draws, turns and turns per second. The result "
        "depends only on --games and --seed, not on --threads.",
    )
    parser.add_argument("--games", type=arguments.game_count(0), default=1_000_000,
                        help="number of games (default 1,000,000)")
    parser.add_argument("--seed", type=arguments.seed, default=0, help="random seed (default 0)")
    parser.add_argument("--threads", type=arguments.threads,
                        default=min(os.cpu_count() or 1, MAX_THREADS),
                        help="OS threads sharing the games (default: every core)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar (default: on a terminal, for long runs)")
    parser.set_defaults(run=run)
    return parser


def run_simulate(games: int, seed: int, threads: int, progress: bool, out: TextIO) -> None:
    """Play random games in C and print the result and the speed."""
    print(f"wts simulate: {games:,} random games, seed {seed}, {threads} thread(s)", file=out)
    bar = None
    callback = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", unit_scale=True, file=sys.stderr, leave=False)

        def callback(done: int) -> None:
            bar.update(done - bar.n)

    try:
        result = simulation.simulate(games, seed=seed, threads=threads, progress=callback)
    finally:
        if bar is not None:
            bar.close()
    rows = [
        ("games", f"{result.games:,}"),
        ("turns", f"{result.turns:,}"),
        ("black wins", f"{result.black_wins:,}"),
        ("white wins", f"{result.white_wins:,}"),
        ("draws", f"{result.draws:,}"),
        ("mean length", f"{result.mean_length:.2f} turns" if result.games else "-"),
        ("time", f"{result.seconds:.3f} s"),
        ("speed", f"{result.turns_per_second / 1e6:.2f} M turns/s"),
    ]
    for name, value in rows:
        print(f"  {name:<12} {value:>18}", file=out)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``wts simulate``: the bar on a terminal for long runs unless told otherwise."""
    progress = args.progress
    if progress is None:
        progress = sys.stderr.isatty() and args.games >= PROGRESS_FROM
    run_simulate(args.games, args.seed, args.threads, progress,
                 sys.stdout if out is None else out)
    return 0
