"""``wts bench``: the engine's speeds measured side by side, in one table with the targets."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from wts.cli import arguments

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``bench`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "bench", help="measure the engine's speed and print one table",
        description="Measure Game.play against the reference, simulate on 1 and 2 threads, "
        "BatchGame.step and the size of a game state, side by side in one run, and print "
        "one table with the targets.",
    )
    parser.add_argument("--quick", action="store_true", help="smaller workloads (noisier)")
    parser.add_argument("--scaling", action="store_true",
                        help="instead, self-play games/s on the local, process and ray backends "
                        "with 1 and 2 workers (about a minute)")
    parser.add_argument("--agent", type=arguments.agent_spec, default="mcts:1",
                        help="the self-play agent of --scaling (default mcts:1; "
                        "az,playouts=100 for the network player)")
    parser.add_argument("--network", action="store_true",
                        help="instead, the network player: the forward pass against this "
                        "machine's sgemm peak, evaluations/s by batch size, the search's "
                        "descents/s and the learner's steps/s (under a minute)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``wts bench``: measure, then print the table and the verdict."""
    from wts.devtools import bench  # the benchmarks' imports, only for this command

    out = sys.stdout if out is None else out
    if args.network:
        from wts.devtools.bench_network import run_network

        rows = run_network(quick=args.quick)
    else:
        rows = (bench.run_scaling(agent=str(args.agent)) if args.scaling
                else bench.run(quick=args.quick))
    print(bench.main_table(rows), file=out)
    print(bench.verdict(rows, quick=args.quick), file=out)
    return 0
