"""Speed of the engine, as pytest-benchmark groups.

    python -m pip install -e ".[bench]"
    python -m pytest bench

Each group holds the variants a ratio compares; ``conftest.py`` prints the
ratios after the run. ``wts bench`` prints the same figures as one table.
"""

from __future__ import annotations

import pytest
from scalar_loop import ScalarLoopError, load

import wts
import wts.engine.reference
from wts.devtools.bench import (
    VECTOR_SIZES,
    random_reference_turns,
    record_batch_moves,
    replay,
    replay_batch,
    single_env_workload,
    step_single_env,
    step_vector_env,
    try_by_copy,
    try_by_undo,
    vector_env_workload,
)

ENGINES = {"fast": wts.Game, "reference": wts.reference.Game}


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_play_replays_recorded_games(benchmark, recorded_games, engine):
    """Game.play with the full TurnResult built, per turn."""
    benchmark.group = "play"
    benchmark.extra_info.update(variant=engine, units=sum(len(g) for g in recorded_games))
    turns = benchmark.pedantic(replay, args=(ENGINES[engine], recorded_games), rounds=3)
    assert turns == benchmark.extra_info["units"]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_copy(benchmark, engine):
    benchmark.group = "copy"
    game = ENGINES[engine].from_setup(black=["E5", "D4"], white=["C3"], eggs=["A1", "B2"])
    benchmark.extra_info.update(variant=engine)
    assert benchmark(game.copy) == game


@pytest.mark.parametrize("variant", ["push-pop", "copy-play"])
def test_try_a_turn_and_take_it_back(benchmark, recorded_games, variant):
    """A search's step at every position of the recorded games: push + pop
    against copy() + play, on the fast engine."""
    benchmark.group = "undo"
    benchmark.extra_info.update(variant=variant, units=sum(len(g) for g in recorded_games))
    step = try_by_undo if variant == "push-pop" else try_by_copy
    assert benchmark.pedantic(step, args=(recorded_games,), rounds=5) == \
        benchmark.extra_info["units"]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_winning_counts_after_a_turn(benchmark, engine):
    """A turn that completes a line: placement plus the count of winning turtles."""
    benchmark.group = "winning-counts"
    start = ENGINES[engine].from_setup(black=["A1", "B2", "C3", "D4", "F6", "G7"], white=["I1"])
    benchmark.extra_info.update(variant=engine)

    def play_line():
        game = start.copy()
        return game.play("E5", "I2").winning_counts

    assert benchmark(play_line) == (7, 0)


def test_simulate_random_play(benchmark):
    benchmark.group = "random-play"
    result = benchmark.pedantic(wts.simulate, args=(20_000,), kwargs={"seed": 1}, rounds=3)
    benchmark.extra_info.update(variant="simulate", units=result.turns)


def test_scalar_loop_random_play(benchmark):
    """The plain scalar C loop, built for this CPU, playing the same random games."""
    try:
        loop = load()
    except ScalarLoopError as error:
        pytest.skip(str(error))
    benchmark.group = "random-play"
    turns = benchmark.pedantic(loop.run, args=(20_000, 1), rounds=3)
    benchmark.extra_info.update(variant="scalar-loop", units=turns)


def test_reference_random_play(benchmark):
    benchmark.group = "random-play"
    turns = benchmark.pedantic(random_reference_turns, args=(10, 1), rounds=3)
    benchmark.extra_info.update(variant="reference", units=turns)


@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_threads(benchmark, threads):
    benchmark.group = "threads"
    result = benchmark.pedantic(
        wts.simulate, args=(100_000,), kwargs={"seed": 2, "threads": threads}, rounds=3
    )
    benchmark.extra_info.update(variant=str(threads), units=result.turns)


def test_simulate_per_turn_for_batch_comparison(benchmark):
    benchmark.group = "step-vs-simulate"
    result = benchmark.pedantic(wts.simulate, args=(20_000,), kwargs={"seed": 4}, rounds=3)
    benchmark.extra_info.update(variant="simulate", units=result.turns)


@pytest.mark.parametrize("restart", [False, True], ids=["over-left", "all-in-play"])
def test_batch_step(benchmark, restart):
    """BatchGame.step over 1024 games, replaying recorded legal moves: games
    over left with NO_MOVE, or restarted so that all 1024 are in play."""
    benchmark.group = "step-vs-simulate"
    workload = record_batch_moves(1024, 60, seed=5, restart=restart)
    benchmark.extra_info.update(variant=f"batch-step-{'all-in-play' if restart else 'over-left'}",
                                units=workload.game_turns)
    batch, _ = benchmark.pedantic(replay_batch, args=(workload,), rounds=3)
    if not restart:
        assert batch.turns.sum() == workload.game_turns


def test_single_env_steps(benchmark):
    """wts.env.parallel_env stepped in a Python loop; units are env-steps."""
    pytest.importorskip("pettingzoo")
    benchmark.group = "vector-env"
    benchmark.extra_info.update(variant="single", units=2000)
    steps = benchmark.pedantic(step_single_env, rounds=3,
                               setup=lambda: (single_env_workload(2000, 13), {}))
    assert steps == 2000


@pytest.mark.parametrize("num_envs", VECTOR_SIZES)
def test_vector_env_steps(benchmark, num_envs):
    """make_vector_env(num_envs) in self-play; units are env-steps (games x steps)."""
    pytest.importorskip("gymnasium", minversion="1.1")
    benchmark.group = "vector-env"
    steps = max(100, 2000 // num_envs)
    benchmark.extra_info.update(variant=str(num_envs), units=steps * num_envs)
    played = benchmark.pedantic(step_vector_env, rounds=3,
                                setup=lambda: (vector_env_workload(num_envs, steps, 13), {}))
    assert played == steps * num_envs
