"""BatchGame.player_planes: both sides' planes and the legal squares in one pass."""

from __future__ import annotations

import numpy as np
import pytest

import wts
from wts.engine.observation import observation_planes


def played_batch(n: int, turns: int, seed: int) -> wts.BatchGame:
    """A batch after ``turns`` turns of random legal moves (some games over)."""
    rng = np.random.default_rng(seed)
    batch = wts.BatchGame(n)
    for _ in range(turns):
        legal = batch.legal_mask()
        black = (rng.random(legal.shape) * legal).argmax(axis=1)
        white = (rng.random(legal.shape) * legal).argmax(axis=1)
        over = ~legal.any(axis=1)
        black[over] = white[over] = wts.NO_MOVE
        batch.step(black, white)
    return batch


def test_planes_and_mask_match_the_single_game_views() -> None:
    batch = played_batch(64, 25, seed=1)
    assert batch.is_over().any() and not batch.is_over().all()
    both, legal = batch.player_planes()
    assert both.shape == (64, 2, 4, 9, 9) and both.dtype == np.uint8
    assert np.array_equal(legal, batch.legal_mask())
    assert np.array_equal(both[:, 0], batch.observation())
    for color, side in (("black", 0), ("white", 1)):
        one, one_legal = batch.player_planes(color)
        assert one.shape == (64, 4, 9, 9) and np.array_equal(one, both[:, side])
        assert np.array_equal(one_legal, legal)
    for index in range(64):
        game = batch[index]
        assert np.array_equal(both[index, 0], observation_planes(game, "black"))
        assert np.array_equal(both[index, 1], observation_planes(game, "white"))


def test_empty_batch_and_bad_colors() -> None:
    planes, legal = wts.BatchGame(0).player_planes()
    assert planes.shape == (0, 2, 4, 9, 9) and legal.shape == (0, 81)
    for bad in ("red", "", None, 0):
        with pytest.raises(wts.ParameterError, match="colors"):
            wts.BatchGame(1).player_planes(bad)  # type: ignore[arg-type]
