"""``wts bench``: one table of the engine's speed, every ratio measured side by side.

Each comparison (fast vs reference, 2 threads vs 1) is timed in alternation
within one run, and the best of several rounds is kept, because a shared
machine is noisy. ``bench/`` holds the same measurements as a
pytest-benchmark suite.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import wts.engine.reference
from wts.engine._core import PLAYOUT_LANES, state_size
from wts.engine.batch import NO_MOVE, BatchGame
from wts.engine.game import Game
from wts.engine.kernels import ENVIRONMENT_VARIABLE, cpu_kernel, cpu_kernels
from wts.engine.simulate import simulate
from wts.players.agents import MCTSAgent

__all__ = [
    "record_games",
    "replay",
    "random_reference_turns",
    "try_by_undo",
    "try_by_copy",
    "BatchWorkload",
    "record_batch_moves",
    "replay_batch",
    "single_env_workload",
    "step_single_env",
    "vector_env_workload",
    "step_vector_env",
    "single_env_seconds",
    "vector_env_seconds",
    "search_seconds",
    "VECTOR_SIZES",
    "kernel_simulate_rates",
    "run",
    "main_table",
    "verdict",
]

Moves = list[tuple[int, int]]


def record_games(count: int, seed: int) -> list[Moves]:
    """``count`` uniformly random games, as move lists, played on the fast engine."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game = Game()
        moves: Moves = []
        while not game.is_over():
            legal = game.legal_moves()
            move = (rng.choice(legal), rng.choice(legal))
            game.play(*move)
            moves.append(move)
        games.append(moves)
    return games


def replay(engine: type, games: list[Moves]) -> int:
    """Replay recorded games through ``engine.play`` (full TurnResults); returns turns."""
    turns = 0
    for moves in games:
        game = engine()
        for black, white in moves:
            game.play(black, white)
        turns += len(moves)
    return turns


def random_reference_turns(games: int, seed: int) -> int:
    """Uniformly random games on the reference engine, as ``simulate`` plays them."""
    rng = random.Random(seed)
    turns = 0
    for _ in range(games):
        game = wts.reference.Game()
        while not game.is_over():
            legal = game.legal_moves()
            game.play(rng.choice(legal), rng.choice(legal))
            turns += 1
    return turns


def try_by_undo(games: list[Moves]) -> int:
    """A search's step at every position of recorded games, walked on one board:
    try the turn played there and take it back (push, key, pop), then play it."""
    tries = 0
    for moves in games:
        game = Game()
        for black, white in moves:
            game.push(black, white)
            game.key()
            game.pop()
            game.play(black, white)
        tries += len(moves)
    return tries


def try_by_copy(games: list[Moves]) -> int:
    """The same steps without undo: try each turn on a copy (copy, play, key)."""
    tries = 0
    for moves in games:
        game = Game()
        for black, white in moves:
            child = game.copy()
            child.play(black, white)
            child.key()
            game.play(black, white)
        tries += len(moves)
    return tries


#: One recorded step of a batch: both players' moves, and the games to restart
#: after it (None: none restart).
BatchStep = tuple[np.ndarray, np.ndarray, "np.ndarray | None"]


@dataclass
class BatchWorkload:
    """Recorded steps of a batch, the games they start from, and the game-turns
    they play (games not over)."""

    start: list[Game]
    steps: list[BatchStep]
    game_turns: int


def record_batch_moves(games: int, steps: int, seed: int, restart: bool = False) -> BatchWorkload:
    """Random legal moves for ``steps`` turns of ``games`` games. Without
    ``restart``, from new games, a game over taking ``NO_MOVE``. With it, a game
    over starts again after the step that ended it, as in a vector environment,
    and the recorded steps begin after ``2 * steps`` such steps, so that they
    find the games at every stage, as a long run does, not all at the start."""
    rng = np.random.default_rng(seed)
    batch = BatchGame(games)

    def one_step() -> tuple[BatchStep, int]:
        legal = batch.legal_mask()
        live = legal.any(axis=1)
        black = (rng.random(legal.shape) * legal).argmax(axis=1)
        white = (rng.random(legal.shape) * legal).argmax(axis=1)
        black[~live] = white[~live] = NO_MOVE
        batch.step(black, white)
        over = batch.is_over() if restart else None
        if over is not None:
            batch.reset(over)
        return (black, white, over), int(live.sum())

    for _ in range(2 * steps if restart else 0):
        one_step()
    start = [batch[i] for i in range(games)]
    recorded = [one_step() for _ in range(steps)]
    return BatchWorkload(start, [step for step, _ in recorded],
                         sum(turns for _, turns in recorded))


def replay_batch(workload: BatchWorkload) -> tuple[BatchGame, float]:
    """Step a batch of the workload's start through its recorded steps
    (restarting the games recorded as restarted); the batch, and the seconds
    spent in ``step``."""
    batch = BatchGame.from_games(workload.start)
    seconds = 0.0
    for black, white, over in workload.steps:
        began = time.perf_counter()
        batch.step(black, white)
        seconds += time.perf_counter() - began
        if over is not None:
            batch.reset(over)
    return batch, seconds


#: The numbers of games the vector environment is measured with.
VECTOR_SIZES = (1, 64, 1024)


def single_env_workload(steps: int, seed: int) -> tuple[Any, list[list[int]]]:
    """A reset ``wts.env.parallel_env()`` and ``steps`` moves for it: both
    players name uniformly random squares 0-80 (an occupied one is replaced
    by a random empty one)."""
    from wts.adapters.env import parallel_env

    env = parallel_env()
    env.reset(seed=seed)
    return env, np.random.default_rng(seed).integers(0, 81, size=(steps, 2)).tolist()


def step_single_env(env: Any, moves: list[list[int]]) -> int:
    """Step the single environment through ``moves`` in a Python loop, a new
    game whenever one ends; returns the env-steps."""
    for black, white in moves:
        if not env.agents:
            env.reset()
        env.step({"black": black, "white": white})
    return len(moves)


def vector_env_workload(num_envs: int, steps: int, seed: int) -> tuple[Any, np.ndarray]:
    """A reset self-play ``make_vector_env(num_envs)`` and ``steps`` action
    arrays of the same random squares as :func:`single_env_workload`."""
    from wts.adapters.vector_env import make_vector_env

    envs = make_vector_env(num_envs)
    envs.reset(seed=seed)
    return envs, np.random.default_rng(seed).integers(0, 81, size=(steps, num_envs, 2))


def step_vector_env(envs: Any, actions: np.ndarray) -> int:
    """Step the vector environment through ``actions`` (it restarts finished
    games itself); returns the env-steps, games times steps."""
    for step_actions in actions:
        envs.step(step_actions)
    return int(actions.shape[0] * actions.shape[1])


def single_env_seconds(steps: int, seed: int) -> float:
    """Seconds per env-step of the single environment (setup not timed)."""
    env, moves = single_env_workload(steps, seed)
    return _timed(lambda: step_single_env(env, moves))


def vector_env_seconds(num_envs: int, steps: int, seed: int) -> float:
    """Seconds per env-step (one game's turn) of the vector environment."""
    envs, actions = vector_env_workload(num_envs, steps, seed)
    return _timed(lambda: step_vector_env(envs, actions))


def _vector_env_rows(scale: float, rounds: int) -> list[BenchRow]:
    """Env-steps per second of the vector environment at each size and of the
    single environment, timed in alternation; none without Gymnasium and PettingZoo."""
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        return []
    steps = {1: 2000, 64: 300, 1024: 60}
    single, *vector = _best_of(
        rounds,
        lambda: single_env_seconds(int(2000 * scale) or 200, seed=13),
        *(lambda n=n: vector_env_seconds(n, int(steps[n] * scale) or 10, seed=13)
          for n in VECTOR_SIZES),
    )
    rows = [BenchRow("wts.env parallel_env, Python loop", f"{1 / single:,.0f} env-steps/s",
                     "", None)]
    rows += [BenchRow(f"vector env, {n:,} game{'s' if n > 1 else ''}",
                      f"{1 / seconds:,.0f} env-steps/s", "", None)
             for n, seconds in zip(VECTOR_SIZES, vector)]
    ratio = single / vector[-1]
    rows.append(BenchRow(f"vector env ({VECTOR_SIZES[-1]:,} games) / parallel_env",
                         f"{ratio:.0f}x", ">= 50x", ratio >= 50))
    return rows


def search_seconds(playouts: int, threads: int, seed: int) -> float:
    """Seconds per playout of one MCTSAgent move, ``threads`` trees at once,
    from the position after six recorded turns."""
    game = Game()
    for black, white in record_games(1, seed)[0][:6]:
        game.play(black, white)
    agent = MCTSAgent(playouts=playouts, threads=threads, reuse=False, seed=seed)
    agent.select(game, "black")
    assert agent.last_search is not None
    return agent.last_search.seconds / agent.last_search.playouts


def _search_rows(scale: float, rounds: int) -> list[BenchRow]:
    """MCTS playouts per second on one thread and on two (root parallelism)."""
    playouts = int(60_000 * scale)
    one, two = _best_of(rounds, lambda: search_seconds(playouts, 1, seed=17),
                        lambda: search_seconds(playouts, 2, seed=17))
    return [
        BenchRow("MCTSAgent, 1 thread", f"{1 / one:,.0f} playouts/s", "", None),
        BenchRow("MCTSAgent, 2 threads / 1 thread", f"{one / two:.2f}x", ">= 1.7x",
                 one / two >= 1.7),
    ]


def _best_of(rounds: int, *tasks: Callable[[], float]) -> list[float]:
    """Each task returns seconds per unit; tasks alternate each round; the best is kept."""
    best = [float("inf")] * len(tasks)
    for _ in range(rounds):
        for i, task in enumerate(tasks):
            best[i] = min(best[i], task())
    return best


# Run with a kernel forced: simulate's turns a second on one thread.
_KERNEL_CHILD = """
import sys, wts
wts.simulate(1000, seed=1)  # warm
result = wts.simulate(int(sys.argv[1]), seed=11)
print(wts.cpu_kernel(), result.turns / result.seconds)
"""


def kernel_simulate_rates(games: int, rounds: int) -> dict[str, float]:
    """Simulate's turns a second on one thread with each CPU kernel this
    machine runs, each forced by ``WTS_CPU_KERNEL`` in a process of its own
    (a process loads one kernel); the kernels alternate each round and the
    best is kept."""
    best: dict[str, float] = {}
    env = dict(os.environ)
    # The wts running this, whether a source tree or an installed package.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    for _ in range(rounds):
        for kernel in cpu_kernels():
            env[ENVIRONMENT_VARIABLE] = kernel
            done = subprocess.run([sys.executable, "-c", _KERNEL_CHILD, str(games)], env=env,
                                  capture_output=True, text=True, check=True)
            name, rate = done.stdout.split()
            assert name == kernel, (name, kernel)
            best[kernel] = max(best.get(kernel, 0.0), float(rate))
    return best


@dataclass
class BenchRow:
    measure: str
    value: str
    target: str
    met: bool | None


def _timed(fn: Callable[[], int]) -> float:
    began = time.perf_counter()
    units = fn()
    return (time.perf_counter() - began) / max(units, 1)


def run(quick: bool = False) -> list[BenchRow]:
    """Measure everything ``wts bench`` reports; ``quick`` shrinks the workloads."""
    scale = 0.2 if quick else 1.0
    rounds = 3
    recorded = record_games(int(50 * scale) or 5, seed=7)
    fast_play, reference_play = _best_of(
        rounds,
        lambda: _timed(lambda: replay(Game, recorded)),
        lambda: _timed(lambda: replay(wts.reference.Game, recorded)),
    )
    undo_try, copy_try = _best_of(
        rounds,
        lambda: _timed(lambda: try_by_undo(recorded)),
        lambda: _timed(lambda: try_by_copy(recorded)),
    )
    playouts = int(200_000 * scale)
    reference_games = int(40 * scale) or 5

    def simulate_seconds(threads: int) -> float:
        result = simulate(playouts, seed=11, threads=threads)
        return result.seconds / result.turns

    sim_one, sim_two, reference_random = _best_of(
        rounds,
        lambda: simulate_seconds(1),
        lambda: simulate_seconds(2),
        lambda: _timed(lambda: random_reference_turns(reference_games, seed=3)),
    )
    batch_steps = int(60 * scale) or 10
    ended = record_batch_moves(1024, batch_steps, seed=5)
    playing = record_batch_moves(1024, batch_steps, seed=5, restart=True)
    step_ended, step_playing = _best_of(
        rounds,
        lambda: replay_batch(ended)[1] / ended.game_turns,
        lambda: replay_batch(playing)[1] / playing.game_turns,
    )
    size = state_size()
    kernel_rates = kernel_simulate_rates(playouts, rounds)
    return [
        BenchRow("CPU kernel in use", cpu_kernel(), "", None),
        BenchRow("games simulate plays at once (SIMD lanes)", str(PLAYOUT_LANES), "", None),
        BenchRow("Game.play, fast", f"{fast_play * 1e6:.2f} us/turn", "", None),
        BenchRow("Game.play, reference", f"{reference_play * 1e6:.1f} us/turn", "", None),
        BenchRow("Game.play fast / reference", f"{reference_play / fast_play:.0f}x", ">= 100x",
                 reference_play / fast_play >= 100),
        BenchRow("try a turn by push + pop (and play on)", f"{undo_try * 1e9:.0f} ns/position",
                 "", None),
        BenchRow("try a turn by copy() + play (and play on)", f"{copy_try * 1e9:.0f} ns/position",
                 "", None),
        BenchRow("copy() + play / push + pop", f"{copy_try / undo_try:.2f}x", "", None),
        BenchRow(f"simulate, 1 thread ({cpu_kernel()} kernel)",
                 f"{1 / sim_one / 1e6:.2f} M turns/s", ">= 12 M turns/s", 1 / sim_one >= 12e6),
        *(BenchRow(f"simulate, 1 thread, {kernel} kernel (own process)",
                   f"{rate / 1e6:.2f} M turns/s", "", None)
          for kernel, rate in kernel_rates.items()),
        BenchRow("simulate / reference random play", f"{reference_random / sim_one:.0f}x",
                 ">= 1000x", reference_random / sim_one >= 1000),
        BenchRow("simulate, 2 threads / 1 thread", f"{sim_one / sim_two:.2f}x", ">= 1.8x",
                 sim_one / sim_two >= 1.8),
        BenchRow("BatchGame.step, 1024 games in play", f"{step_playing * 1e9:.0f} ns/game-turn",
                 "", None),
        BenchRow("BatchGame.step / simulate, per game-turn, all in play",
                 f"{step_playing / sim_one:.2f}x", "<= 1.3x", step_playing / sim_one <= 1.3),
        BenchRow("BatchGame.step, 1024 games, those over left over",
                 f"{step_ended * 1e9:.0f} ns/game-turn", "", None),
        BenchRow("BatchGame.step / simulate, per game-turn, those over left over",
                 f"{step_ended / sim_one:.2f}x", "<= 1.3x", step_ended / sim_one <= 1.3),
        BenchRow("bytes per game state", f"{size} B", "<= 160 B", size <= 160),
        *_search_rows(scale, rounds),
        *_vector_env_rows(scale, rounds),
    ]


def main_table(rows: list[BenchRow]) -> str:
    """The rows as an aligned text table."""
    header = ("measure", "value", "target", "met")
    cells = [header] + [
        (r.measure, r.value, r.target, "" if r.met is None else ("yes" if r.met else "NO"))
        for r in rows
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(4)]
    lines = [
        "  ".join(text.ljust(width) for text, width in zip(row, widths)).rstrip()
        for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def verdict(rows: list[BenchRow], quick: bool = False) -> str:
    """The line under the table: every target met, or which were missed and
    how to measure fairly, since a missed target on a busy machine is most
    often the machine, not the engine."""
    missed = [row.measure for row in rows if row.met is False]
    if not missed:
        return "every target met"
    lines = [f"{len(missed)} of {sum(row.met is not None for row in rows)} targets missed: "
             + "; ".join(missed)]
    if hasattr(os, "getloadavg"):
        load = os.getloadavg()[0]
        lines.append(f"The machine's load average is {load:.1f} on {os.cpu_count() or 1} "
                     "core(s): other work slows these timings.")
    lines.append("For a fair figure: run it when the machine is idle"
                 + (", without --quick (its workloads are small and noisy)" if quick else "")
                 + ", and keep the best of a few runs.")
    return "\n".join(lines)


# --- Backends: wts bench --scaling -----------------------------------------------


def empty_task(chunk: int) -> int:
    """A task that does nothing: what remains of its time is the backend's overhead."""
    return chunk


def _task_overhead(backend: str, workers: int, tasks: int) -> float:
    """Seconds a backend spends per task beyond the task's own work, measured on
    ``tasks`` empty tasks after a warm-up batch (the pool or cluster started)."""
    from wts.runtime.backends import run_chunks

    list(run_chunks(empty_task, list(range(workers)), backend=backend, workers=workers))
    began = time.perf_counter()
    list(run_chunks(empty_task, list(range(tasks)), backend=backend, workers=workers))
    return (time.perf_counter() - began) / tasks


def run_scaling(games: int = 128, agent: str = "mcts:1", shard_size: int = 4) -> list[BenchRow]:
    """Self-play throughput on each backend with 1 and 2 workers, side by side.

    Each run writes the same data (checked); a Ray run joins a local Ray
    started once before the timings, as a cluster would be already running.
    Rates count from the first shard written to the last (steady state).
    """
    import hashlib
    import pathlib
    import tempfile

    from wts.scale.selfplay import selfplay

    ray: Any
    try:
        import ray
    except ImportError:
        ray = None
    if ray is not None and not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    # The multi-worker runs twice each, alternating, the best kept: on a small
    # shared machine one run can lose a core to anything else running.
    configurations = [("local", 1), ("process", 1), ("process", 2), ("process", 2)]
    if ray is not None:
        configurations = [("local", 1), ("process", 1), ("ray", 1),
                          ("process", 2), ("ray", 2), ("process", 2), ("ray", 2)]
    rates: dict[tuple[str, int], tuple[float, float]] = {}
    digests = set()
    for backend, workers in configurations:
        # Steady state: from the first shard written to the last, so that
        # starting the workers (a second or so for a process pool) is not counted.
        marks: list[tuple[float, int, int]] = []

        def mark(progress: Any, marks: list[tuple[float, int, int]] = marks) -> None:
            marks.append((time.perf_counter(), progress.games, progress.examples))

        with tempfile.TemporaryDirectory() as folder:
            selfplay(folder, games, agent=agent, seed=1, shard_size=shard_size,
                     backend=backend, workers=workers, progress=mark)
            digests.add(hashlib.sha256(b"".join(
                path.read_bytes() for path in sorted(pathlib.Path(folder).rglob("*.parquet"))
            )).hexdigest())
        (first, first_games, first_examples), (last, last_games, last_examples) = (
            marks[0], marks[-1])
        rate = ((last_games - first_games) / (last - first),
                (last_examples - first_examples) / (last - first))
        rates[backend, workers] = max(rate, rates.get((backend, workers), rate))
    rows = [BenchRow(f"selfplay {agent}, {backend}, {workers} worker(s)",
                     f"{games_rate:.2f} games/s, {examples_rate:,.0f} examples/s", "", None)
            for (backend, workers), (games_rate, examples_rate) in sorted(
                rates.items(), key=lambda item: ("local", "process", "ray").index(item[0][0]))]
    rows.append(BenchRow("same data on every backend", "yes" if len(digests) == 1 else "NO",
                         "identical", len(digests) == 1))
    for backend in ("process", "ray"):
        if (backend, 2) in rates:
            speedup = rates[backend, 2][0] / rates[backend, 1][0]
            rows.append(BenchRow(f"{backend}: 2 workers / 1 worker", f"{speedup:.2f}x",
                                 ">= 1.7x", speedup >= 1.7))
    if ("ray", 2) in rates:
        per_game = {b: 1 / rates[b, 2][0] for b in ("process", "ray")}
        extra = per_game["ray"] / per_game["process"] - 1
        rows.append(BenchRow("ray / process, time per game (2 workers)",
                             f"{100 * extra:+.1f}%", "<= +15%", extra <= 0.15))
    for backend in ("process", "ray") if ray is not None else ("process",):
        overhead = _task_overhead(backend, 2, 200)
        game_seconds = 1 / rates["local", 1][0]
        rows.append(BenchRow(f"{backend}: overhead per task", f"{overhead * 1e3:.2f} ms "
                             f"({100 * overhead / (shard_size * game_seconds):.2f}% of a "
                             f"{shard_size}-game chunk)", "", None))
    return rows
