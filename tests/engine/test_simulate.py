"""wts.simulate: random playouts in C, deterministic whatever the thread count."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import wts
import wts.engine.reference
from tests.support.processes import traced_in_a_fresh_process


def test_simulate_counts_add_up():
    result = wts.simulate(500, seed=3, per_game=True)
    assert result.games == 500
    assert result.black_wins + result.white_wins + result.draws == 500
    assert result.lengths.shape == (500,) and result.lengths.dtype == np.int32
    assert result.turns == int(result.lengths.sum())
    assert (result.lengths >= 5).all()  # nobody makes five in fewer than five turns
    statuses = [wts.STATUSES[code] for code in result.statuses]
    assert statuses.count(wts.Status.BLACK_WINS) == result.black_wins
    assert statuses.count(wts.Status.WHITE_WINS) == result.white_wins
    assert statuses.count(wts.Status.DRAW) == result.draws


@pytest.mark.parametrize(("games", "threads"), [(1, 1), (4096, 2), (10_000, 1), (10_000, 3)])
def test_simulate_histogram_is_the_bincount_of_the_game_lengths(games: int, threads: int) -> None:
    result = wts.simulate(games, seed=8, threads=threads, per_game=True)
    assert result.length_counts.dtype == np.int64
    assert np.array_equal(result.length_counts, np.bincount(result.lengths))
    assert result.mean_length == result.lengths.mean()


def test_simulate_keeps_game_by_game_arrays_only_when_asked() -> None:
    summary = wts.simulate(5000, seed=4)
    detailed = wts.simulate(5000, seed=4, per_game=True)
    assert summary.lengths is None and summary.statuses is None
    assert np.array_equal(summary.length_counts, detailed.length_counts)
    assert (summary.games, summary.turns, summary.black_wins, summary.white_wins,
            summary.draws) == (detailed.games, detailed.turns, detailed.black_wins,
                               detailed.white_wins, detailed.draws)
    assert summary != detailed  # equality compares the per-game arrays too


def test_simulate_memory_does_not_grow_with_the_number_of_games() -> None:
    few, many = traced_in_a_fresh_process("""if True:
        import json, tracemalloc
        import wts

        tracemalloc.start()

        def peak(games):
            tracemalloc.reset_peak()
            wts.simulate(games, seed=2)
            used = tracemalloc.get_traced_memory()[1]
            return used

        print(json.dumps([peak(2 * 4096), peak(40 * 4096)]))
    """)
    # 40 blocks against 2: per-game arrays would be 200 kB more.
    assert many < few + 20_000


@pytest.mark.parametrize("threads", [2, 3, 8])
def test_simulate_same_seed_same_result_whatever_the_thread_count(threads):
    # More games than one work block, so threads really share them.
    one = wts.simulate(10_000, seed=42, threads=1, per_game=True)
    many = wts.simulate(10_000, seed=42, threads=threads, per_game=True)
    assert one == many
    assert np.array_equal(one.lengths, many.lengths)
    assert np.array_equal(one.statuses, many.statuses)
    assert wts.simulate(10_000, seed=42, threads=threads) == wts.simulate(10_000, seed=42)


def test_simulate_different_seeds_differ():
    assert wts.simulate(200, seed=1) != wts.simulate(200, seed=2)


def test_simulate_game_prefix_is_stable():
    """Game i depends only on (seed, i): a longer run starts with the shorter one."""
    short = wts.simulate(300, seed=9, per_game=True)
    long = wts.simulate(5000, seed=9, threads=2, per_game=True)
    assert np.array_equal(long.lengths[:300], short.lengths)


def test_simulate_from_a_start_position_counts_turns_from_there():
    start = wts.Game.from_setup(black=["A1", "B1", "C1", "D1"], white=["A9", "B9", "C9", "D9"])
    result = wts.simulate(2000, seed=5, start=start)
    assert result.black_wins + result.white_wins + result.draws == 2000
    # Each side wins at once by taking its fifth square (E1 / E9) while the other does
    # not: probability 2 * (1/73) * (72/73) per game, about 54 of 2000 (sd 7.2).
    ended_at_once = int(result.length_counts[1])
    assert 18 < ended_at_once < 90
    assert start.turn == 0 and start.status is wts.Status.ONGOING  # the start is untouched


def test_simulate_accepts_a_reference_start_position():
    setup = dict(black=["E5"], white=["E6"], eggs=["A1"])
    from_reference = wts.simulate(100, seed=1, start=wts.reference.Game.from_setup(**setup))
    from_fast = wts.simulate(100, seed=1, start=wts.Game.from_setup(**setup))
    assert from_reference == from_fast


def test_simulate_from_a_finished_game_plays_nothing():
    start = wts.Game.from_setup(white=["A1", "A2", "A3", "A4", "A5"])
    result = wts.simulate(10, seed=0, start=start)
    assert result.turns == 0 and result.white_wins == 10


def test_simulate_statistics_match_the_reference_engine():
    """Random play on the reference gives the same game lengths in distribution."""
    import random

    rng = random.Random(0)
    lengths = []
    for _ in range(150):
        game = wts.reference.Game()
        while not game.is_over():
            legal = game.legal_moves()
            game.play(rng.choice(legal), rng.choice(legal))
        lengths.append(game.turn)
    fast = wts.simulate(20_000, seed=0)
    # Means within 4 standard errors of the reference sample.
    stderr = np.std(lengths) / np.sqrt(len(lengths))
    assert abs(np.mean(lengths) - fast.mean_length) < 4 * stderr


def test_simulate_zero_games():
    result = wts.simulate(0)
    assert result.games == result.turns == 0 and result.length_counts.shape == (0,)
    assert np.isnan(result.mean_length)
    assert wts.simulate(0, per_game=True).lengths.shape == (0,)


def test_simulate_reports_progress():
    seen = []
    wts.simulate(10_000, seed=1, threads=2, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 10_000


@pytest.mark.parametrize("cores", [1, 2, 3])
def test_simulate_runs_on_no_more_threads_than_cores(cores: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """64 threads on 2 cores took 80-190 ms to stop on Ctrl-C, each thread
    finishing its block; the results are the same on any number of threads."""
    import threading

    import wts.engine.simulate as simulate_module

    monkeypatch.setattr(simulate_module, "usable_cores", lambda: cores)
    started: list[int] = []  # the threads started (one that starts late may find no block)
    run_in_threads = simulate_module._run_in_threads

    def counted(tasks: Any, stop: threading.Event) -> None:
        started.append(len(tasks))
        run_in_threads(tasks, stop)

    monkeypatch.setattr(simulate_module, "_run_in_threads", counted)
    result = wts.simulate(40_000, seed=3, threads=64, per_game=True)
    assert started == ([] if cores == 1 else [cores])  # one core: the calling thread
    expected = wts.simulate(40_000, seed=3, threads=1, per_game=True)
    assert (result.lengths == expected.lengths).all() and result.turns == expected.turns


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        (dict(games=-1), wts.ParameterError, "games"),
        (dict(games=2**63), wts.ParameterError, "games"),
        (dict(games=1.5), wts.ParameterTypeError, "games"),
        (dict(games=True), wts.ParameterTypeError, "games"),
        (dict(games=10, threads=0), wts.ParameterError, "threads"),
        (dict(games=10, threads=1025), wts.ParameterError, "threads"),
        (dict(games=10, threads="2"), wts.ParameterTypeError, "threads"),
        (dict(games=10, seed=-1), wts.ParameterError, "seed"),
        (dict(games=10, seed=2**64), wts.ParameterError, "seed"),
        (dict(games=10, start="E5"), wts.ParameterTypeError, "start"),
        (dict(games=10, per_game=1), wts.ParameterTypeError, "per_game"),
        (dict(games=10, progress=5), wts.ParameterTypeError, "progress"),
    ],
)
def test_simulate_rejects_bad_arguments(kwargs: dict[str, object], error: type[Exception],
                                        name: str) -> None:
    # TypeError and ValueError as before: ParameterTypeError is both.
    with pytest.raises(error, match=name):
        wts.simulate(**kwargs)


def test_simulate_takes_numpy_integers() -> None:
    expected = wts.simulate(300, seed=6, threads=2)
    assert wts.simulate(np.int64(300), seed=np.uint64(6), threads=np.int32(2)) == expected


def test_simulate_reads_the_start_once_and_leaves_it_unchanged() -> None:
    start = wts.Game.from_setup(black=["E5"], white=["E6"], eggs=["A1"])
    before = (start.fen(), start.history)
    result = wts.simulate(100, seed=1, start=start)
    assert (start.fen(), start.history) == before
    assert result == wts.simulate(100, seed=1, start=start.copy())


def test_an_error_in_a_worker_stops_every_thread_and_is_raised() -> None:
    import threading

    def fail(done: int) -> None:
        raise RuntimeError(f"stop at {done}")

    before = set(threading.enumerate())  # other tests' threads are not simulate's
    with pytest.raises(RuntimeError, match="stop at"):
        wts.simulate(10**9, seed=1, threads=2, progress=fail)
    assert set(threading.enumerate()) == before


def test_simulation_result_rates():
    result = wts.simulate(1000, seed=1)
    assert result.seconds > 0 and result.turns_per_second > 0


def test_simulate_from_a_reference_game_keeps_its_turn_number():
    """A start on the reference engine is read whole, turn included: a game one
    turn from the limit ends drawn there on both (ruling 8)."""
    fast = wts.Game.from_setup(black=["E5"], turn=wts.MAX_TURN - 1)
    reference = wts.reference.Game.from_setup(black=["E5"], turn=wts.MAX_TURN - 1)
    assert wts.simulate(50, seed=1, start=reference) == wts.simulate(50, seed=1, start=fast)
    assert wts.simulate(50, seed=1, start=reference).draws == 50
