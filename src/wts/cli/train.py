"""``wts train``: the expert-iteration loop that trains the network player."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from wts.cli import arguments

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``train`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "train", help="train the network player by self-play (needs the train extra)",
        description="Train a policy and value network by expert iteration into DIR: "
        "generation 0 learns from --bootstrap self-play data (wts selfplay runs); each later "
        "generation plays --games self-play games with the best network, trains on the last "
        "--window generations' games and is promoted only if an SPRT against the best "
        "accepts H1. Run it again to resume; docs/network.md has the loop and its figures.",
    )
    parser.add_argument("out", metavar="DIR", help="the run's folder; a run there is resumed")
    whole = arguments.integer
    parser.add_argument("--generations", type=whole("a number of generations", 0, 10_000),
                        default=10, help="generations after generation 0 (default 10)")
    parser.add_argument("--games", type=whole("a number of games", 1, 1_000_000), default=200,
                        help="self-play games a generation (default 200)")
    parser.add_argument("--playouts", type=whole("a number of playouts", 1, 1_000_000),
                        default=200, help="the search's descents a move in self-play and "
                        "in the gate (default 200)")
    parser.add_argument("--steps", type=whole("a number of steps", 1, 100_000_000),
                        default=2000, help="training steps a generation (default 2000)")
    parser.add_argument("--batch-size", type=whole("a batch size", 1, 65_536), default=256,
                        help="examples a training step (default 256)")
    parser.add_argument("--window", type=whole("a number of generations", 1, 10_000),
                        default=4, help="generations of games trained on (default 4)")
    parser.add_argument("--learning-rate", type=float, default=1e-3,
                        help="AdamW's learning rate (default 0.001)")
    parser.add_argument("--blocks", type=whole("a number of blocks", 0, 40), default=4,
                        help="residual blocks of the network (default 4)")
    parser.add_argument("--channels", type=whole("a number of channels", 1, 512), default=32,
                        help="channels of each convolution (default 32)")
    parser.add_argument("--gate-pairs", type=whole("a number of pairs", 0, 100_000),
                        default=100, help="most game pairs of the gate's SPRT (0: always "
                        "promote; default 100)")
    parser.add_argument("--elo1", type=float, default=50.0,
                        help="the gate's H1 (H0 is 0 Elo; default 50)")
    parser.add_argument("--bootstrap", action="append", default=[], metavar="RUN",
                        help="a wts selfplay run generation 0 learns from (repeatable)")
    parser.add_argument("--seed", type=arguments.seed, default=0, help="run seed (default 0)")
    arguments.add_backend_arguments(parser)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show progress (default: on a terminal)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run or resume the loop; print each generation's loss and gate."""
    try:
        from wts.train.loop import TrainProgress, TrainSettings, train
    except ImportError as exc:
        raise SystemExit(f"wts train needs the train extra ({exc.name} is missing): "
                         'pip install "wts[train]"') from None
    out = sys.stdout if out is None else out
    show = sys.stderr.isatty() if args.progress is None else args.progress
    settings = TrainSettings(
        generations=args.generations, games=args.games, playouts=args.playouts,
        steps=args.steps, batch_size=args.batch_size, window=args.window,
        learning_rate=args.learning_rate, blocks=args.blocks, channels=args.channels,
        gate_pairs=args.gate_pairs, elo1=args.elo1, seed=args.seed,
        bootstrap=tuple(args.bootstrap))
    bar: Any = None

    def callback(progress: TrainProgress) -> None:
        nonlocal bar
        from tqdm import tqdm

        label = f"gen {progress.generation} {progress.stage}"
        if bar is None or bar.desc != label:
            if bar is not None:
                bar.close()
            bar = tqdm(total=progress.total, desc=label, file=sys.stderr, leave=False)
        bar.update(progress.done - bar.n)

    before = _generations_done(args.out)
    try:
        document = train(args.out, settings, backend=args.backend, workers=args.workers,
                         address=args.address, progress=callback if show else None)
    finally:
        if bar is not None:
            bar.close()
    for entry in document["generations"]:
        gate = entry.get("gate")
        verdict = ("" if gate is None else
                   f", gate {gate['verdict'] or 'undecided'} after {gate['pairs']} pairs "
                   f"({gate['elo']:+.0f} Elo)")
        print(f"generation {entry['generation']}: loss {entry['loss']['loss']:.4f} on "
              f"{entry['examples']:,} examples{verdict}"
              f"{', promoted' if entry['promoted'] else ''}", file=out)
    if len(document["generations"]) == before:
        print(f"{args.out} already holds generations 0 to {before - 1}: nothing to train "
              f"(--generations {args.generations}); a larger --generations goes on",
              file=out)
    print(f"best network: {args.out}/gen-{document['best']:03d}/network.wtsnet", file=out)
    return 0


def _generations_done(out: str) -> int:
    """How many generations the run in ``out`` holds (0 for a new run); the
    loop itself checks the file."""
    try:
        document = json.loads((Path(out) / "train.json").read_bytes())
        return len(document["generations"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0
