"""The command line of matches: ``wts tournament A B``, its arguments and its report.

The match itself is :func:`wts.tournament.play_match`, the paired
sequential test :func:`wts.players.pairs.play_sprt`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from wts.cli import arguments
from wts.errors import ParameterError, WtsError
from wts.players import tournament
from wts.players.sprt import parse_sprt

#: The pairs --sprt plays at most unless --max-pairs says.
MAX_PAIRS = 1000

__all__ = ["add_parser", "add_arguments", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``tournament`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "tournament", help="play a match between two agents and estimate the Elo difference",
        description="Play GAMES games of agent A against agent B (random, greedy, mcts, "
        "mcts:LEVEL, the network player az or az:LEVEL, or OpenSpiel's MCTSBot as "
        "openspiel-mcts:SIMULATIONS, seated so that it never sees the other side's move of "
        "the turn; options after commas, as mcts:1,threads=2,reuse=false), A black in "
        "every other game, and print wins by colour, draws, A's score, the Elo difference "
        "with a 95% interval, and the searches' playouts per second.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``wts tournament``."""
    parser.add_argument("a", type=arguments.agent_spec, metavar="A",
                        help="first agent: random, greedy, mcts, mcts:LEVEL, az, az:LEVEL, "
                        "openspiel-mcts, openspiel-mcts:SIMULATIONS, or engine:CMD, a "
                        "program speaking the engine protocol (docs/protocol.md; CMD split "
                        "like a shell)")
    parser.add_argument("b", type=arguments.agent_spec, metavar="B",
                        help="second agent, the same way")
    parser.add_argument("--games", type=arguments.game_count(1), default=100,
                        help="games to play, A black in every other one (default 100)")
    parser.add_argument("--seed", type=arguments.seed, default=0, help="match seed (default 0)")
    parser.add_argument("--level", type=arguments.level, default=None,
                        help="level of an mcts agent given without one (default 3)")
    parser.add_argument("--time-limit", type=arguments.time_limit, default=None,
                        metavar="SECONDS",
                        help="MCTS searches this long per move instead of a playout budget, "
                        "and an engine:CMD gets it as its movetime (default for an engine: 1 s, "
                        "plus 1 s of margin before it forfeits on time); results then depend "
                        "on the machine")
    parser.add_argument("--jobs", type=arguments.jobs, default=1,
                        help="games played at once on threads, local backend (default 1)")
    arguments.add_backend_arguments(parser)
    parser.add_argument("--restart", choices=tournament.RESTARTS, default="failure",
                        help="when an engine:CMD starts again: after a failure only, kept "
                        "running between games with newgame (failure, the default), or for "
                        "every game (game)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar with the time left (default: on a terminal)")
    parser.add_argument("--sprt", type=_sprt, default=None, metavar="elo0=E0,elo1=E1,...",
                        help="play openings in pairs, colours swapped, until a sequential "
                        "test decides: elo0, elo1, alpha, beta (default 0, 5, 0.05, 0.05); "
                        "--games is then ignored")
    parser.add_argument("--openings", type=_openings, default=None, metavar="FILE|N",
                        help="--sprt plays the openings of FILE (one position string a line, "
                        "# comments), or the first N of the stored suite of 100 balanced "
                        "openings (default: all of them)")
    parser.add_argument("--max-pairs", type=arguments.integer("a number of pairs", 1, 1_000_000),
                        default=None,
                        help=f"--sprt stops after this many pairs (default {MAX_PAIRS})")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="--sprt saves every pair and the test's status here as JSON, and "
                        "resumes a match saved there")


def _openings(text: str) -> int | str:
    """A count (digits only: give ``./50`` for a file named 50) or a file's path."""
    if text.isdigit():
        return arguments.integer("a number of openings", 1, 100_000)(text)
    return text


def _sprt(text: str) -> object:
    try:
        return parse_sprt(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play the match ``args`` describe and print the report; returns 0. The
    report's first line is printed before the first game, and a progress bar
    (on standard error) counts the games with the time left."""
    out = sys.stdout if out is None else out
    if args.sprt is None:
        given = [name for name, value in (("--openings", args.openings),
                                          ("--max-pairs", args.max_pairs), ("--out", args.out))
                 if value is not None]
        if given:
            verb = "goes" if len(given) == 1 else "go"
            raise ParameterError(f"{' and '.join(given)} {verb} only with --sprt")
    tournament.check_where(args.jobs, args.backend, args.workers, args.address)
    if args.sprt is not None:
        from wts.players.pairs import format_sprt, play_sprt

        if args.jobs != 1:
            raise ParameterError("--sprt plays pairs on the process or ray backend "
                                 "(--workers), not on --jobs threads")
        if isinstance(args.openings, str):  # a bad file is a bad argument: exit 2
            from wts.players.openings import read_openings

            try:
                read_openings(args.openings)
            except WtsError as exc:
                print(f"wts tournament: error: --openings {exc}", file=sys.stderr)
                return 2
        max_pairs = MAX_PAIRS if args.max_pairs is None else args.max_pairs
        decided = play_sprt(args.a, args.b, args.sprt, seed=args.seed, suite=args.openings,
                            max_pairs=max_pairs, level=args.level, time_limit=args.time_limit,
                            backend=args.backend, workers=args.workers,
                            address=args.address, out=args.out, restart=args.restart)
        print(format_sprt(decided), file=out)
        return 0
    print(tournament.format_header(args.a, args.b, args.games, args.seed, args.level), file=out,
          flush=True)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=sys.stderr, leave=False)
    try:
        result = tournament.play_match(args.a, args.b, args.games, args.seed, level=args.level,
                            time_limit=args.time_limit, jobs=args.jobs, backend=args.backend,
                            workers=args.workers, address=args.address, restart=args.restart,
                            progress=None if bar is None else (lambda done: bar.update(
                                done - bar.n)))
    finally:
        if bar is not None:
            bar.close()
    print(tournament.format_result(result, args.level).partition("\n")[2], file=out)
    return 0
