"""The ``wts`` command line: ``wts simulate``, ``demo``, ``bench``, ``fuzz``,
``play``, ``replay`` and ``tournament``.

``main(argv)`` returns the exit status instead of raising ``SystemExit``:
0 on success, 1 when the fuzzer finds a mismatch, 2 on bad arguments (with
argparse's message, never a traceback), 3 when a fuzz run leaves a rule
branch unreached, 130 when Ctrl-C stopped the command (with one line,
``wts simulate: interrupted``, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

import wts
from wts._interrupts import report_interrupt
from wts.devtools import fuzz
from wts.engine.events import TurnResult
from wts.engine.squares import SQUARE_NAMES
from wts.interfaces import terminal
from wts.players import tournament


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
        result = wts.simulate(games, seed=seed, threads=threads, progress=callback)
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


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _games(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of games, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected zero or more games, got {value}")
    return value


def _seed64(text: str) -> int:
    value = _seed(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"the seed must be from 0 to 2**64 - 1, got {value}")
    return value


def _fuzz_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _fuzz_count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {value}")
        return value

    return parse


def _fuzz_engine(text: str) -> type:
    module_name, _, attr = text.partition(":")
    if not module_name or not attr:
        raise argparse.ArgumentTypeError(f"expected MODULE:CLASS, got {text!r}")
    try:
        value: object = importlib.import_module(module_name)
        for part in attr.split("."):
            value = getattr(value, part)
    except (ImportError, AttributeError) as exc:
        raise argparse.ArgumentTypeError(f"cannot load {text!r}: {exc}") from None
    if not isinstance(value, type):
        raise argparse.ArgumentTypeError(f"{text!r} is not a class")
    return value


def add_fuzz_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``wts fuzz``."""
    parser.add_argument(
        "--seconds", type=_fuzz_seconds, default=None,
        help="time budget in seconds (default: 10 unless --games is given)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the game sequence (default: 0)"
    )
    parser.add_argument("--games", type=_fuzz_count(1), default=None,
                        help="stop after this many games")
    parser.add_argument(
        "--jobs", type=_fuzz_count(0), default=1,
        help="worker processes (default: 1; 0 means one per CPU)",
    )
    parser.add_argument(
        "--candidate", type=_fuzz_engine, default=None, metavar="MODULE:CLASS",
        help="the engine to test against wts.reference:Game (default: wts:Game)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the summary and the table")


def run_fuzz_command(args: argparse.Namespace, out: TextIO) -> int:
    """``wts fuzz``: 0 when the engines agree and every rule branch was reached,
    1 on a mismatch, 3 when a branch was never reached. Ctrl-C raises
    KeyboardInterrupt."""
    reference = wts.reference.Game
    candidate = args.candidate or wts.Game
    seconds = args.seconds if args.seconds is not None or args.games is not None else 10.0
    jobs = args.jobs or os.cpu_count() or 1

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    say(fuzz.describe_start(reference, candidate, args.seed, seconds, args.games, jobs))
    last = [time.monotonic()]

    def progress(report: fuzz.FuzzReport) -> None:
        if not args.quiet and time.monotonic() - last[0] >= 2.0:
            last[0] = time.monotonic()
            say(fuzz.describe_progress(report))

    report = fuzz.run_fuzz(reference, candidate, args.seed, args.games, seconds, jobs, progress)
    text, status = fuzz.describe_end(report, candidate, args.quiet)
    say(text)
    return status


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
    simulate = commands.add_parser(
        "simulate", help="play many random games in C and report the speed",
        description="Play GAMES games between two uniform random players in the C core, "
        "without the GIL, and print wins, draws, turns and turns per second. The result "
        "depends only on --games and --seed, not on --threads.",
    )
    simulate.add_argument("--games", type=_games, default=1_000_000,
                          help="number of games (default 1,000,000)")
    simulate.add_argument("--seed", type=_seed64, default=0, help="random seed (default 0)")
    simulate.add_argument("--threads", type=_positive, default=os.cpu_count() or 1,
                          help="OS threads sharing the games (default: every core)")
    simulate.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                          help="show a progress bar (default: on a terminal, for long runs)")
    bench = commands.add_parser(
        "bench", help="measure the engine's speed and print one table",
        description="Measure Game.play against the reference, simulate on 1 and 2 threads, "
        "BatchGame.step and the size of a game state, side by side in one run, and print "
        "one table with the targets.",
    )
    bench.add_argument("--quick", action="store_true", help="smaller workloads (noisier)")
    fuzz_parser = commands.add_parser(
        "fuzz", help="differential fuzzing of wts.Game against the reference engine",
        description="Play seeded games on the fast engine and the reference side by side, "
        "compare everything after every turn, and shrink the first mismatch to a reproducer "
        "(exit 1). A run that leaves a rule branch of the coverage table unreached exits 3.",
    )
    add_fuzz_arguments(fuzz_parser)
    play = commands.add_parser(
        "play", help="play a game in the terminal: against a bot, two bots, or two people",
        description="Play What the Shell in the terminal. Each human types a square like E5 "
        "at the prompt (two people at one keyboard type theirs hidden, one after the other); "
        "bots choose at the same time. The board and what happened are shown after every "
        "turn. Type 'help' at the prompt for the other commands.",
    )
    terminal.add_play_arguments(play)
    play.set_defaults(subparser=play)
    replay = commands.add_parser(
        "replay", help="show a saved game record turn by turn, or draw it as SVG pictures",
        description="Read a game record, check every turn, and print the board and what "
        "happened after each turn (or only after --turn N), or write one SVG picture per "
        "turn with --svg DIR.",
    )
    terminal.add_replay_arguments(replay)
    tournament_parser = commands.add_parser(
        "tournament", help="play a match between two agents and estimate the Elo difference",
        description="Play GAMES games of agent A against agent B (random, greedy, mcts or "
        "mcts:LEVEL), A black in every other game, and print wins by colour, draws, A's "
        "score, the Elo difference with a 95%% interval, and MCTS playouts per second.",
    )
    tournament.add_arguments(tournament_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
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
        if args.command == "simulate":
            progress = args.progress
            if progress is None:
                progress = sys.stderr.isatty() and args.games >= 200_000
            run_simulate(args.games, args.seed, args.threads, progress, sys.stdout)
            return 0
        if args.command == "bench":
            from wts.devtools import bench as bench_module

            print(bench_module.main_table(bench_module.run(quick=args.quick)))
            return 0
        if args.command == "play":
            return terminal.run_play(args)
        if args.command == "replay":
            return terminal.run_replay(args)
        if args.command == "tournament":
            return tournament.run(args)
        return run_fuzz_command(args, sys.stdout)
    except KeyboardInterrupt:
        return report_interrupt(f"wts {args.command}")
    except BrokenPipeError:
        # The reader went away (``wts demo | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
