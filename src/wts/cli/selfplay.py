"""``wts selfplay``: an agent plays itself; the records and training examples go to Parquet."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from wts.cli import arguments
from wts.limits import MATCH_TURNS

__all__ = ["add_parser", "add_arguments", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``selfplay`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "selfplay", help="play an agent against itself and write training data (Parquet)",
        description="Play GAMES games of an agent against itself and write, shard by shard, "
        "each game's record and every turn's training examples (observations, the search's "
        "policy, the move, the outcome) as Parquet files in DIR, with a manifest. The data "
        "depends only on the agent, --games, --seed, --shard-size and --max-turns: every "
        "backend and number of workers writes the same bytes. Run it again to resume.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``wts selfplay``."""
    parser.add_argument("--agent", type=arguments.agent_spec, default="mcts:2",
                        help="the agent that plays itself (default mcts:2)")
    parser.add_argument("--games", type=arguments.game_count(1), required=True,
                        help="games to play")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="the run's directory; a run already there is resumed")
    parser.add_argument("--seed", type=arguments.seed, default=0, help="run seed (default 0)")
    parser.add_argument("--shard-size", type=arguments.integer("a shard size", 1, 1 << 20),
                        default=16, metavar="GAMES", help="games a shard holds (default 16)")
    parser.add_argument("--max-turns", type=arguments.integer("a number of turns", 1),
                        default=MATCH_TURNS, help="a game still going then is cut, a draw")
    parser.add_argument("--on-error", choices=("stop", "skip"), default="stop",
                        help="a game that raises stops the run (default) or is skipped "
                        "(and played again when the run is resumed)")
    parser.add_argument("--mixed-versions", action="store_true",
                        help="resume a run written by another version of wts (or of "
                        "OpenSpiel, for its agent), whose players may choose other moves")
    arguments.add_backend_arguments(parser)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar (default: on a terminal)")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play and write the self-play run ``args`` describe; print what was written."""
    from wts.scale.selfplay import SelfplayProgress, selfplay

    out = sys.stdout if out is None else out
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = None
    callback = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=sys.stderr, leave=False)

        def callback(progress: SelfplayProgress) -> None:
            if bar.n == 0 and progress.games > progress.new_games:
                bar.reset(total=progress.total - (progress.games - progress.new_games))
            bar.update(progress.new_games - bar.n)
            bar.set_postfix(examples=f"{progress.examples:,}", refresh=False)

    try:
        report = selfplay(args.out, args.games, agent=args.agent, seed=args.seed,
                          backend=args.backend, workers=args.workers, address=args.address,
                          shard_size=args.shard_size, max_turns=args.max_turns,
                          on_error=args.on_error, mixed_versions=args.mixed_versions,
                          progress=callback)
    finally:
        if bar is not None:
            bar.close()
    noun = "game" if report.games == 1 else "games"
    print(f"wts selfplay: {report.games:,} {noun} of {args.agent}, seed {args.seed}, "
          f"in {report.out}", file=out)
    rows = [
        ("examples", f"{report.examples:,}"),
        ("shards", f"{report.shards:,}"),
        ("played now", f"{report.played:,} games in {report.seconds:.1f} s"),
        ("speed", f"{report.games_per_second:.2f} games/s"),
    ]
    if report.replayed:
        rows.append(("played again", "; ".join(arguments.one_line(r) for r in report.replayed[:3])
                     + (" ..." if len(report.replayed) > 3 else "")))
    if report.failures:
        rows.append(("skipped", ", ".join(f"game {f.game} ({f.error})"
                                          for f in report.failures[:5])
                     + (" ..." if len(report.failures) > 5 else "")))
    for name, value in rows:
        print(f"  {name:<12} {value}", file=out)
    return 0
