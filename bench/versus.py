"""Two builds of wts side by side: ``python bench/versus.py OLD_SRC [NEW_SRC]``.

Each ``*_SRC`` is a directory that holds an importable, built ``wts`` package
(a checkout's ``src`` after ``python setup.py build_ext --inplace``); NEW_SRC
defaults to this checkout's. The builds run alternately, each in its own
process, so a busy machine slows both alike; every figure is the best of
``--runs`` runs in each of ``--rounds`` rounds. Only the public API is used,
so an older release can be measured too: check it out with ``git worktree``,
build it, and pass its ``src``.

It prints ``simulate``'s turns a second on one thread and ``BatchGame.step``'s
time a game-turn on 1,024 games, each with its ratio to ``simulate``: random
legal moves recorded once and replayed by each build, the calls to ``step``
timed. Two workloads, as ``wts bench`` has them: every game in play (a game
over restarts, and the recording begins after 120 such steps, so that the
games are at every stage) and new games played 60 turns, those over taking
``NO_MOVE`` (half the games are over by the end). The child repeats
``wts.devtools.bench``'s recording in the public API, which every release
has. Then ``Game.play``'s time a turn, replaying 30 random games, and the
search's time a playout: ``MCTSAgent`` choosing a move with
4,000 playouts in each of 8 positions (the start and 7 of the recorded games
in play), without a prior and with the learned one (a build without either
shows "-"). With ``--levels``, ``MCTSAgent`` at levels 3, 4 and 5 and at
level 4 on two threads, each from the empty board and after three turns,
once a round; with ``--engines``, a 12-game match of two engine programs
(``wts engine --agent random``), games a second. A terminal sees which
round is running; Ctrl-C stops the run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from wts.cli.arguments import integer

CHILD = r"""
import json, sys, time
import numpy as np
import wts

games, steps, runs = 1024, 60, int(sys.argv[1])


def record(restart):
    rng = np.random.default_rng(5)
    batch = wts.BatchGame(games)
    def one_step():
        legal = batch.legal_mask()
        live = legal.any(axis=1)
        black = (rng.random(legal.shape) * legal).argmax(axis=1)
        white = (rng.random(legal.shape) * legal).argmax(axis=1)
        black[~live] = white[~live] = -1
        batch.step(black, white)
        over = batch.is_over() if restart else None
        if over is not None:
            batch.reset(over)
        return (black, white, over), int(live.sum())
    for _ in range(2 * steps if restart else 0):
        one_step()
    start = [batch[i] for i in range(games)]
    recorded = [one_step() for _ in range(steps)]
    return start, [step for step, _ in recorded], sum(turns for _, turns in recorded)


def replay(start, moves):
    batch = wts.BatchGame.from_games(start)
    seconds = 0.0
    for black, white, over in moves:
        began = time.perf_counter()
        batch.step(black, white)
        seconds += time.perf_counter() - began
        if over is not None:
            batch.reset(over)
    return seconds


def record_games(count):
    rng = np.random.default_rng(7)
    games = []
    for _ in range(count):
        game, moves = wts.Game(), []
        while not game.is_over():
            legal = game.legal_moves()
            pair = (legal[rng.integers(len(legal))], legal[rng.integers(len(legal))])
            game.play(*pair)
            moves.append(pair)
        games.append(moves)
    return games


def play_seconds(games):
    began = time.perf_counter()
    for moves in games:
        game = wts.Game()
        for black, white in moves:
            game.play(black, white)
    return time.perf_counter() - began


def search(prior, positions, playouts=4_000):
    try:
        from wts.agents import MCTSAgent
        agent = MCTSAgent(seed=1, playouts=playouts, reuse=False, prior=prior)
    except (ImportError, TypeError, ValueError):  # a build without it
        return float("nan")
    seconds = 0.0
    for game in positions:
        began = time.perf_counter()
        agent.select(game, "black")
        seconds += time.perf_counter() - began
    return seconds / (playouts * len(positions))


workloads = {"step": record(False), "step_playing": record(True)}
positions = [wts.Game()] + [game for game in workloads["step_playing"][0][:50]
                            if not game.is_over()][:7]
recorded = record_games(30)
played_turns = sum(len(moves) for moves in recorded)
best = {key: float("inf") for key in ("simulate", *workloads, "play", "mcts", "mcts_prior")}
for _ in range(runs):
    for key, (start, moves, game_turns) in workloads.items():
        best[key] = min(best[key], replay(start, moves) / game_turns)
    result = wts.simulate(60_000, seed=11, threads=1)
    best["simulate"] = min(best["simulate"], result.seconds / result.turns)
    best["play"] = min(best["play"], play_seconds(recorded) / played_turns)
    for key, prior in (("mcts", "none"), ("mcts_prior", "learned")):
        seconds = search(prior, positions)
        best[key] = seconds if seconds != seconds else min(best[key], seconds)  # NaN: none
extras = sys.argv[2].split(",")
if "engines" in extras:
    import shlex
    from wts.tournament import play_match
    engine = "engine:" + shlex.join([sys.executable, "-m", "wts", "engine", "--agent", "random"])
    began = time.perf_counter()
    match = play_match(engine, engine, 12, seed=1)
    best["engine_games"] = (time.perf_counter() - began) / match.games
if "levels" in extras:
    from wts.agents import MCTSAgent
    opened = wts.Game()
    for black, white in ((40, 41), (30, 50), (32, 49)):
        opened.play(black, white)
    for key, level, threads in (("level3", 3, 1), ("level4", 4, 1), ("level5", 5, 1),
                                ("level4_threads2", 4, 2)):
        seconds = playouts = 0
        for game in (wts.Game(), opened):
            agent = MCTSAgent(level=level, seed=1, threads=threads)
            began = time.perf_counter()
            agent.select(game, "black")
            seconds += time.perf_counter() - began
            playouts += agent.playouts
        best[key] = seconds / playouts
best["kernel"] = wts.cpu_kernel() if hasattr(wts, "cpu_kernel") else "single build"
print(json.dumps(best))
"""


# The figures, in seconds a turn, game-turn or playout: simulate; step with
# the games over left; step with every game in play; Game.play; the search
# without a prior and with the learned one (NaN where the build has none).
FIGURES = ("simulate", "step", "step_playing", "play", "mcts", "mcts_prior")
# With --levels, seconds a playout of MCTSAgent at levels 3, 4 and 5 (one
# thread) and at level 4 on two threads, from the empty board and after three
# turns: each search once a round.
LEVEL_FIGURES = ("level3", "level4", "level5", "level4_threads2")
# With --engines, seconds a game of a 12-game match of two engine programs
# (``wts engine --agent random``), which measures the engines' start and end.
ENGINE_FIGURES = ("engine_games",)


def measure(source: Path, runs: int, extras: list[str]) -> dict[str, float | str]:
    """One child process's figures for the wts under ``source``; ``extras``
    names the optional ones ("levels", "engines")."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(runs),
                           ",".join(extras) or "-"], env=env, cwd=source,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"versus: the build in {source} failed:\n{done.stderr}")
    figures: dict[str, float | str] = json.loads(done.stdout)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="source directory of the build to compare with")
    parser.add_argument("new", type=Path, nargs="?",
                        default=Path(__file__).resolve().parent.parent / "src",
                        help="source directory of the build measured (default: this checkout)")
    parser.add_argument("--rounds", type=integer("a number of rounds", 1), default=4,
                        help="rounds, each measuring both builds (default 4)")
    parser.add_argument("--runs", type=integer("a number of runs", 1), default=5,
                        help="runs of each figure in one process, the best kept (default 5)")
    parser.add_argument("--levels", action="store_true",
                        help="also time MCTSAgent at levels 3-5, and level 4 on two threads")
    parser.add_argument("--engines", action="store_true",
                        help="also time a match of two engine programs, games a second")
    args = parser.parse_args(argv)
    extras = [name for name, wanted in (("levels", args.levels), ("engines", args.engines))
              if wanted]
    figures_kept = (FIGURES + (LEVEL_FIGURES if args.levels else ())
                    + (ENGINE_FIGURES if args.engines else ()))
    for source in (args.old, args.new):
        if not (source / "wts" / "__init__.py").is_file():
            parser.error(f"{source} holds no wts package (expected {source}/wts/__init__.py)")
    best: dict[str, dict[str, float | str]] = {}
    shown = sys.stderr.isatty()
    for round_ in range(args.rounds):
        for name, source in (("old", args.old), ("new", args.new)):
            if shown:
                print(f"\rround {round_ + 1} of {args.rounds}: {name} build ", end="",
                      file=sys.stderr, flush=True)
            figures = measure(source.resolve(), args.runs, extras)
            kept = best.setdefault(name, figures)
            for key in figures_kept:
                kept[key] = min(float(kept[key]), float(figures[key]))
    if shown:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    print("build  kernel        simulate, 1 thread  BatchGame.step, 1,024 games: all in play"
          "          those over left over  MCTS playouts: no prior  learned prior")
    for name in ("old", "new"):
        turn = float(best[name]["simulate"])
        steps = [float(best[name][key]) for key in ("step_playing", "step")]
        searches = [float(best[name][key]) for key in ("mcts", "mcts_prior")]
        print(f"{name:<5}  {best[name]['kernel']!s:<12}  {1 / turn / 1e6:10.2f} M turns/s  "
              + "  ".join(f"{step * 1e9:10.1f} ns/game-turn ({step / turn:.2f}x)"
                          for step in steps)
              + "".join(f"  {1 / playout / 1e3:8.1f} k/s" if playout == playout else "         -"
                        for playout in searches))
    for name in ("old", "new"):
        print(f"{name:<5}  Game.play {float(best[name]['play']) * 1e6:.3f} us/turn")
    speedups = {key: float(best["old"][key]) / float(best["new"][key]) for key in FIGURES}
    print(f"new / old: simulate {speedups['simulate']:.3f}x as fast, BatchGame.step "
          f"{speedups['step_playing']:.3f}x all in play, {speedups['step']:.3f}x those over "
          f"left, Game.play {speedups['play']:.3f}x, MCTS {speedups['mcts']:.3f}x without a "
          f"prior, {speedups['mcts_prior']:.3f}x with the learned one")
    if args.levels:
        for name in ("old", "new"):
            one, two = float(best[name]["level4"]), float(best[name]["level4_threads2"])
            print(f"{name:<5}  MCTSAgent playouts/s: "
                  + ", ".join(f"level {level} {1 / float(best[name][f'level{level}']) / 1e3:.1f} k"
                              for level in (3, 4, 5))
                  + f"; level 4 on 2 threads {1 / two / 1e3:.1f} k ({one / two:.2f}x 1 thread)")
        ratio = {key: float(best["old"][key]) / float(best["new"][key]) for key in LEVEL_FIGURES}
        print("new / old: MCTSAgent " + ", ".join(
            f"level {level} {ratio[f'level{level}']:.3f}x" for level in (3, 4, 5))
            + f", level 4 on 2 threads {ratio['level4_threads2']:.3f}x")
    if args.engines:
        for name in ("old", "new"):
            print(f"{name:<5}  wts tournament of two engine programs: "
                  f"{1 / float(best[name]['engine_games']):.2f} games/s")
        print(f"new / old: engine match "
              f"{float(best['old']['engine_games']) / float(best['new']['engine_games']):.3f}x")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # the children get the same Ctrl-C and stop
        print("\nversus: stopped", file=sys.stderr)
        raise SystemExit(130) from None
