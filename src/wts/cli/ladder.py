"""The command line of the Elo ladder: ``wts ladder``, its arguments, its time
estimate and its progress bar. The ladder itself is :mod:`wts.players.ladder`'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from wts.cli import arguments
from wts.players import ladder
from wts.players.specs import LEVELS, AgentSpec
from wts.players.tournament import _label

__all__ = ["add_parser", "add_arguments", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``ladder`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "ladder", help="rate the MCTS levels against each other and fixed anchors (Elo)",
        description="Play each MCTS level against its neighbours and against fixed anchors "
        "(random, greedy, OpenSpiel's MCTSBot), GAMES games a pairing, and print every "
        "pairing's score and an Elo table with 95% intervals, the first anchor rated 0. "
        "The results depend only on the players, --games and --seed, not on the backend.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)
    return parser


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _levels(text: str) -> list[int]:
    """``--levels 1,2,3`` or ``1-3`` as a list of levels."""
    first, dash, last = text.partition("-")
    parts = [first, last] if dash else text.split(",")
    try:
        levels = [arguments.level(part.strip()) for part in parts]
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"expected MCTS levels from {min(LEVELS)} to {max(LEVELS)} as 1,2,3 or 1-3, "
            f"got {text!r}") from None
    if dash:
        levels = list(range(levels[0], levels[1] + 1))
    if not levels or len(set(levels)) != len(levels):
        raise argparse.ArgumentTypeError(f"expected distinct MCTS levels, got {text!r}")
    return levels


def _even_games(text: str) -> int:
    """``--games``: a number of games a pairing, even."""
    games = arguments.game_count(2)(text)
    if games % 2:
        raise argparse.ArgumentTypeError(f"expected an even number of games, got {text!r}")
    return games


def _anchors(text: str) -> list[AgentSpec]:
    """``--anchors random,greedy,openspiel-mcts:200`` as a list of specs. An
    anchor's options follow it (``random,mcts:1,policy=rm``): a part holding
    ``=`` is an option of the anchor before it, since no agent name has one. An
    engine program (``engine:CMD``) is one anchor up to the next comma."""
    parts: list[str] = []
    for part in (part.strip() for part in text.split(",")):
        if "=" in part and parts and not part.lower().startswith("engine:"):
            parts[-1] += "," + part
        elif part:
            parts.append(part)
    anchors = [arguments.agent_spec(part) for part in parts]
    if not anchors:
        raise argparse.ArgumentTypeError(f"expected agent specs separated by commas, got {text!r}")
    return anchors


#: ``wts ladder`` with no options: minutes on one core, not hours.
CLI_LEVELS = (1, 2, 3)
CLI_ANCHORS = ("random", "greedy")
CLI_GAMES = 8


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``wts ladder``."""
    parser.add_argument("--levels", type=_levels, default=list(CLI_LEVELS),
                        help="MCTS levels, as 1,2,3 or 1-3 (default 1-3)")
    parser.add_argument("--anchors", type=_anchors, default=list(CLI_ANCHORS),
                        help="fixed players every level meets, the first rated 0; any "
                        "agent, engine:CMD included (a program speaking the engine protocol, "
                        "movetime 1 s plus 1 s of margin) (default "
                        f"{','.join(CLI_ANCHORS)}; openspiel-mcts:1000 is the yardstick, "
                        "at about 6 s a move)")
    parser.add_argument("--games", type=_even_games, default=CLI_GAMES,
                        help=f"games a pairing, even: each side black in half (default "
                        f"{CLI_GAMES})")
    parser.add_argument("--seed", type=arguments.seed, default=0, help="ladder seed (default 0)")
    parser.add_argument("--jobs", type=arguments.jobs, default=1,
                        help="games played at once on threads, local backend (default 1)")
    arguments.add_backend_arguments(parser)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar (default: on a terminal)")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play the ladder ``args`` describe and print the report; returns 0.

    First it says, on standard error, how long the ladder should take here (a
    short search measures this machine); its progress bar counts the work of
    the searches, not games, so a level-5 game weighs what it costs."""
    out = sys.stdout if out is None else out
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = None
    if show:
        from tqdm import tqdm

        pairs = ladder.ladder_pairings(args.levels, [_label(a, None) for a in args.anchors])
        turns = ladder.ESTIMATED_TURNS
        weights = [turns * (ladder.move_cost(a) + ladder.move_cost(b)) + 1.0 for a, b in pairs]
        rate = ladder.playouts_per_second()
        parallel = max(1, args.jobs if args.backend == "local" else (args.workers or 1))
        seconds = sum(weights) * args.games / rate / parallel
        games = len(pairs) * args.games
        print(f"wts ladder: {games:,} games in {len(pairs)} pairings; about "
              f"{_duration(seconds)} here (at {rate:,.0f} playouts/s, {turns} turns "
              "a game)", file=sys.stderr, flush=True)

        bar = tqdm(total=round(seconds, 1), unit="s", file=sys.stderr,
                   bar_format="{l_bar}{bar}| {elapsed} < {remaining}")

    def progress(label: str, done: int, total: int) -> None:
        if bar is not None:
            pair = min((done - 1) // args.games, len(pairs) - 1)
            work = sum(weights[:pair]) * args.games + (done - pair * args.games) * weights[pair]
            bar.set_description(label, refresh=False)
            bar.update(round(work / rate / parallel, 1) - bar.n)

    try:
        result = ladder.run_ladder(args.levels, args.anchors, args.games, args.seed,
                                   jobs=args.jobs, backend=args.backend, workers=args.workers,
                                   address=args.address, progress=progress)
    finally:
        if bar is not None:
            bar.close()
    print(ladder.format_ladder(result), file=out)
    return 0
