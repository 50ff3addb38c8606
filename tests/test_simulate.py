"""wts.simulate: random playouts in C, deterministic whatever the thread count."""

from __future__ import annotations

import numpy as np
import pytest

import wts
import wts.reference


def test_simulate_counts_add_up():
    result = wts.simulate(500, seed=3)
    assert result.games == 500
    assert result.black_wins + result.white_wins + result.draws == 500
    assert result.lengths.shape == (500,) and result.lengths.dtype == np.int32
    assert result.turns == int(result.lengths.sum())
    assert (result.lengths >= 5).all()  # nobody makes five in fewer than five turns


@pytest.mark.parametrize("threads", [2, 3, 8])
def test_simulate_same_seed_same_result_whatever_the_thread_count(threads):
    # More games than one work block, so threads really share them.
    one = wts.simulate(10_000, seed=42, threads=1)
    many = wts.simulate(10_000, seed=42, threads=threads)
    assert one == many
    assert np.array_equal(one.lengths, many.lengths)


def test_simulate_different_seeds_differ():
    assert wts.simulate(200, seed=1) != wts.simulate(200, seed=2)


def test_simulate_game_prefix_is_stable():
    """Game i depends only on (seed, i): a longer run starts with the shorter one."""
    short = wts.simulate(300, seed=9)
    long = wts.simulate(5000, seed=9, threads=2)
    assert np.array_equal(long.lengths[:300], short.lengths)


def test_simulate_from_a_start_position_counts_turns_from_there():
    start = wts.Game.from_setup(black=["A1", "B1", "C1", "D1"], white=["A9", "B9", "C9", "D9"])
    result = wts.simulate(2000, seed=5, start=start)
    assert result.black_wins + result.white_wins + result.draws == 2000
    # Each side wins at once by taking its fifth square (E1 / E9) while the other does
    # not: probability 2 * (1/73) * (72/73) per game, about 54 of 2000 (sd 7.2).
    ended_at_once = int((result.lengths == 1).sum())
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
    fast = wts.simulate(20_000, seed=0).lengths
    # Means within 4 standard errors of the reference sample.
    stderr = np.std(lengths) / np.sqrt(len(lengths))
    assert abs(np.mean(lengths) - fast.mean()) < 4 * stderr


def test_simulate_zero_games():
    result = wts.simulate(0)
    assert result.games == result.turns == 0 and result.lengths.shape == (0,)


def test_simulate_reports_progress():
    seen = []
    wts.simulate(10_000, seed=1, threads=2, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 10_000


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        (dict(games=-1), ValueError),
        (dict(games=1.5), TypeError),
        (dict(games=True), TypeError),
        (dict(games=10, threads=0), ValueError),
        (dict(games=10, seed=-1), ValueError),
        (dict(games=10, seed=2**64), ValueError),
        (dict(games=10, start="E5"), TypeError),
    ],
)
def test_simulate_rejects_bad_arguments(kwargs, error):
    with pytest.raises(error):
        wts.simulate(**kwargs)


def test_simulation_result_rates():
    result = wts.simulate(1000, seed=1)
    assert result.seconds > 0 and result.turns_per_second > 0
