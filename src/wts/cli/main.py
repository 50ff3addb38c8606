"""The ``wts`` command line: ``wts simulate``, ``demo``, ``bench``, ``fuzz``,
``play``, ``replay``, ``tournament``, ``ladder``, ``selfplay``, ``fit-prior``,
``engine`` and ``engine-check`` (:mod:`wts.cli.engine`), and ``serve``.

``main(argv)`` returns the exit status instead of raising ``SystemExit``:
0 on success, 1 when the fuzzer finds a mismatch, 2 on bad arguments (with
argparse's message, never a traceback), 3 when a fuzz run leaves a rule
branch unreached, 130 when Ctrl-C stopped the command (with one line,
``wts simulate: interrupted``, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import TextIO

import wts
from wts._interrupts import report_interrupt
from wts.cli import arguments
from wts.cli import engine as engines_cli
from wts.cli import ladder as ladder_cli
from wts.cli import play as terminal
from wts.cli import tournament as tournament_cli
from wts.devtools import fuzz
from wts.engine import text
from wts.errors import WtsError
from wts.limits import MATCH_TURNS, MAX_THREADS


def play_demo(seed: int, out: TextIO) -> None:
    """Play one game between two uniform random players, printing every turn
    as ``wts play`` does."""
    rng = random.Random(seed)
    game = wts.Game()
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
    print(terminal.describe_result(game), file=out)


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


def one_line(text: str) -> str:
    """``text`` as one line of plain characters: a message may quote a file's
    contents (a column's name, say), whose control characters are escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def add_selfplay_arguments(parser: argparse.ArgumentParser) -> None:
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


def run_selfplay(args: argparse.Namespace, out: TextIO) -> int:
    """Play and write the self-play run ``args`` describe; print what was written."""
    from wts.scale.selfplay import SelfplayProgress, selfplay

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
        rows.append(("played again", "; ".join(one_line(r) for r in report.replayed[:3])
                     + (" ..." if len(report.replayed) > 3 else "")))
    if report.failures:
        rows.append(("skipped", ", ".join(f"game {f.game} ({f.error})"
                                          for f in report.failures[:5])
                     + (" ..." if len(report.failures) > 5 else "")))
    for name, value in rows:
        print(f"  {name:<12} {value}", file=out)
    return 0


def add_fit_prior_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``wts fit-prior``."""
    parser.add_argument("run", metavar="DIR", help="a wts selfplay run's directory")
    parser.add_argument("--holdout", type=arguments.holdout, default=0.2,
                        help="share of the games, the last ones, kept out of the fit to "
                        "measure it (default 0.2)")
    parser.add_argument("--ridge", type=arguments.ridge, default=1e-3,
                        help="penalty on the squared weights (default 0.001)")
    parser.add_argument("--out", metavar="FILE", default=None,
                        help="also write the weights and the figures as JSON")


def run_fit_prior(args: argparse.Namespace, out: TextIO) -> int:
    """Fit the prior's weights to a self-play run and print them."""
    import dataclasses
    import json
    from pathlib import Path

    from wts.players.prior import FEATURES
    from wts.runtime.files import write_atomically
    from wts.scale.prior_fit import fit
    from wts.scale.selfplay import load

    target = None if args.out is None else Path(args.out)
    if target is not None:  # refused before the fit, not after it
        folder = target.parent
        if target.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
            raise WtsError(f"cannot write {args.out}: not a file in a folder this user can "
                           "write to")
    data = load(args.run)
    result = fit(data, holdout=args.holdout, ridge=args.ridge)
    print(f"wts fit-prior: {len(data):,} examples of {data.agent} in {args.run}", file=out)
    print(result.table(), file=out)
    print(f"weights: {', '.join(f'{w:.3f}' for w in result.weights)}", file=out)
    if target is not None:
        document = {"features": list(FEATURES), **dataclasses.asdict(result)}
        write_atomically(target, (json.dumps(document, indent=1) + "\n").encode("utf-8"))
    return 0


def run_serve(args: argparse.Namespace) -> int:
    """Serve the web app until Ctrl-C."""
    try:
        from wts.serve.launch import run
    except ImportError as exc:
        raise ImportError(f"{exc.name or exc} is missing: wts serve needs the serve extra, "
                          "pip install 'wts[serve]'") from None
    run(host=args.host, port=args.port, db=args.db, open_browser=args.open,
        allowed_hosts=args.allowed_host, forwarded_allow_ips=args.forwarded_allow_ips)
    return 0


def add_fuzz_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``wts fuzz``."""
    parser.add_argument(
        "--seconds", type=arguments.fuzz_seconds, default=None,
        help="time budget in seconds (default: 10 unless --games is given)",
    )
    parser.add_argument(
        "--seed", type=arguments.seed, default=0, help="seed of the game sequence (default: 0)"
    )
    parser.add_argument("--games", type=arguments.game_count(1), default=None,
                        help="stop after this many games")
    parser.add_argument(
        "--jobs", type=arguments.jobs_or_all, default=1,
        help="worker processes (default: 1; 0 means one per CPU)",
    )
    engines = parser.add_mutually_exclusive_group()
    engines.add_argument(
        "--candidate", type=arguments.engine_class, default=None, metavar="MODULE:CLASS",
        help="the engine to test against wts.reference:Game (default: wts:Game)",
    )
    engines.add_argument(
        "--against", default=None, metavar="CMD",
        help="fuzz the rules part of the engine program CMD (docs/protocol.md) against "
        "wts.reference:Game instead",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the summary and the table")


def run_fuzz_command(args: argparse.Namespace, out: TextIO) -> int:
    """``wts fuzz``: 0 when the engines agree and every rule branch was reached,
    1 on a mismatch, 3 when a branch was never reached. Ctrl-C raises
    KeyboardInterrupt."""
    reference = wts.reference.Game
    candidate = args.candidate or wts.Game
    if args.against is not None:
        from wts.protocol.rules import rules_game_class

        candidate = rules_game_class(args.against)
        candidate.engine()  # a program that cannot start, or has no rules part, says so now
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

    try:
        report = fuzz.run_fuzz(reference, candidate, args.seed, args.games, seconds, jobs,
                               progress)
        text, status = fuzz.describe_end(report, candidate, args.quiet)
    finally:
        close = getattr(candidate, "close", None)  # a program's rules part: its process
        if args.against is not None and close is not None:
            close()
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
        "--seed", type=arguments.seed, default=None,
        help="seed of the players' random moves (default: a fresh one, printed)",
    )
    simulate = commands.add_parser(
        "simulate", help="play many random games in C and report the speed",
        description="Play GAMES games between two uniform random players in the C core, "
        "without the GIL, and print wins, draws, turns and turns per second. The result "
        "depends only on --games and --seed, not on --threads.",
    )
    simulate.add_argument("--games", type=arguments.game_count(0), default=1_000_000,
                          help="number of games (default 1,000,000)")
    simulate.add_argument("--seed", type=arguments.seed, default=0, help="random seed (default 0)")
    simulate.add_argument("--threads", type=arguments.threads,
                          default=min(os.cpu_count() or 1, MAX_THREADS),
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
    bench.add_argument("--scaling", action="store_true",
                       help="instead, self-play games/s on the local, process and ray backends "
                       "with 1 and 2 workers (about a minute)")
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
    replay = commands.add_parser(
        "replay", help="show a saved game record turn by turn, or draw it as SVG pictures",
        description="Read a game record, check every turn, and print the board and what "
        "happened after each turn (or only after --turn N), or write one SVG picture per "
        "turn with --svg DIR.",
    )
    terminal.add_replay_arguments(replay)
    tournament_parser = commands.add_parser(
        "tournament", help="play a match between two agents and estimate the Elo difference",
        description="Play GAMES games of agent A against agent B (random, greedy, mcts, "
        "mcts:LEVEL, or OpenSpiel's MCTSBot as openspiel-mcts:SIMULATIONS, seated so that it "
        "never sees the other side's move of the turn; options after commas, as "
        "mcts:1,threads=2,reuse=false), A black in every other game, and "
        "print wins by colour, draws, A's score, the Elo difference with a 95% interval, "
        "and the searches' playouts per second.",
    )
    tournament_cli.add_arguments(tournament_parser)
    ladder_parser = commands.add_parser(
        "ladder", help="rate the MCTS levels against each other and fixed anchors (Elo)",
        description="Play each MCTS level against its neighbours and against fixed anchors "
        "(random, greedy, OpenSpiel's MCTSBot), GAMES games a pairing, and print every "
        "pairing's score and an Elo table with 95% intervals, the first anchor rated 0. "
        "The results depend only on the players, --games and --seed, not on the backend.",
    )
    ladder_cli.add_arguments(ladder_parser)
    selfplay_parser = commands.add_parser(
        "selfplay", help="play an agent against itself and write training data (Parquet)",
        description="Play GAMES games of an agent against itself and write, shard by shard, "
        "each game's record and every turn's training examples (observations, the search's "
        "policy, the move, the outcome) as Parquet files in DIR, with a manifest. The data "
        "depends only on the agent, --games, --seed, --shard-size and --max-turns: every "
        "backend and number of workers writes the same bytes. Run it again to resume.",
    )
    add_selfplay_arguments(selfplay_parser)
    fit_prior = commands.add_parser(
        "fit-prior", help="fit the search's prior over the squares to self-play data",
        description="Fit the weights of the linear prior over the squares (wts.players.prior) "
        "to a wts selfplay run by Newton's method, matching the search's final strategy at "
        "each turn, and print them with the cross-entropy on held-out games.",
    )
    add_fit_prior_arguments(fit_prior)
    engines_cli.add_parsers(commands)
    serve = commands.add_parser(
        "serve", help="play in a web browser: against the bot, at one screen, or online",
        description="Serve What the Shell as a web app (needs the serve extra: pip install "
        "'wts[serve]'). It listens on 127.0.0.1 unless --host says otherwise; games live in "
        "the SQLite file --db, so a restarted server resumes them. The protocol is in "
        "docs/serve.md.",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=arguments.integer("a port", 0, 65535), default=8000,
                       help="the port (default 8000; 0: a free one, which the first line "
                       "printed names)")
    serve.add_argument("--db", default="wts-games.sqlite3", metavar="PATH",
                       help="the games' database (default wts-games.sqlite3)")
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                       help="a name the pages may be reached by, besides --host and this "
                       "machine's loopback names (repeat for more)")
    serve.add_argument("--forwarded-allow-ips", default=None, metavar="ADDRESSES",
                       help="the reverse proxies (comma-separated addresses) whose "
                       "X-Forwarded-For names the client; by default it is not believed")
    for command in commands.choices.values():  # for the errors found after parsing
        command.set_defaults(subparser=command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        parser = build_parser()
        args, unknown = parser.parse_known_args(argv)
        if unknown:  # the command's own usage says what it takes, not the top level's
            args.subparser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exc:  # argparse printed the help or the error
        return exc.code if isinstance(exc.code, int) else 2
    except KeyboardInterrupt:  # before the command began
        return report_interrupt("wts")
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

            rows = (bench_module.run_scaling() if args.scaling
                    else bench_module.run(quick=args.quick))
            print(bench_module.main_table(rows))
            print(bench_module.verdict(rows, quick=args.quick))
            return 0
        if args.command == "play":
            return terminal.run_play(args)
        if args.command == "replay":
            return terminal.run_replay(args)
        if args.command == "tournament":
            return tournament_cli.run(args)
        if args.command == "ladder":
            return ladder_cli.run(args)
        if args.command == "selfplay":
            return run_selfplay(args, sys.stdout)
        if args.command == "fit-prior":
            return run_fit_prior(args, sys.stdout)
        if args.command in engines_cli.COMMANDS:
            return engines_cli.run(args, sys.stdout)
        if args.command == "serve":
            return run_serve(args)
        return run_fuzz_command(args, sys.stdout)
    except KeyboardInterrupt:
        return report_interrupt(f"wts {args.command}")
    except (WtsError, ImportError) as exc:  # a run's directory, a missing extra, a lost worker
        print(f"wts {args.command}: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (``wts demo | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
