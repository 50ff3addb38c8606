"""Self-play data as training examples (wts.train.examples): the pairing of
black's and white's rows, and the augmentation against the games it stands for."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import wts
from tests.support.games import random_positions
from wts.engine.batch import observation_network_planes
from wts.engine.symmetry import transform_masks
from wts.errors import ParameterError

pytest.importorskip("jax")
from wts.train.examples import (
    DRAW,
    LOSS,
    WIN,
    augment,
    examples_of,
    minibatch,
    swap_colours,
    transform_network_planes,
)


def planes_of(games: list[wts.Game]) -> np.ndarray:
    return wts.BatchGame.from_games(games).network_planes()


@pytest.mark.parametrize("symmetry", list(wts.Symmetry))
def test_a_symmetry_of_the_planes_is_the_planes_of_the_transformed_game(
        symmetry: wts.Symmetry) -> None:
    games = random_positions(wts.Game, 120, seed=symmetry)
    images = [game.transform(symmetry) for game in games]
    assert np.array_equal(transform_network_planes(planes_of(games), symmetry),
                          planes_of(images))
    assert np.array_equal(transform_masks(wts.BatchGame.from_games(games).legal_mask(),
                                          symmetry),
                          wts.BatchGame.from_games(images).legal_mask())


def test_the_colour_swap_is_the_planes_of_the_position_with_colours_exchanged() -> None:
    games = random_positions(wts.Game, 200, seed=11)
    swapped = [wts.Game.from_setup(black=game.white, white=game.black, eggs=game.eggs,
                                   turn=game.turn) for game in games]
    assert np.array_equal(swap_colours(planes_of(games)), planes_of(swapped))
    assert np.array_equal(swap_colours(swap_colours(planes_of(games))), planes_of(games))


def test_self_play_rows_pair_into_examples(greedy_run: pathlib.Path) -> None:
    from wts.scale.data import load

    data = load(greedy_run)
    examples = examples_of(data)
    black, white = data.color == 0, data.color == 1
    assert len(examples) == black.sum() == white.sum()
    assert np.array_equal(examples.planes, observation_network_planes(data.observation[black]))
    assert np.array_equal(examples.black, data.policy[black])
    assert np.array_equal(examples.white, data.policy[white])
    assert np.array_equal(examples.wdl, np.choose(data.outcome[black] + 1, [LOSS, DRAW, WIN]))
    assert np.array_equal(examples.legal, examples.planes[..., :3].sum(axis=2) == 0)
    # White's own observation is black's position with the colours exchanged.
    assert np.array_equal(observation_network_planes(data.observation[white]),
                          swap_colours(examples.planes))
    shuffled = np.random.default_rng(0).permutation(len(data))
    for name in ("game", "turn", "color", "seed", "observation", "policy", "move", "outcome",
                 "symmetry"):
        setattr(data, name, getattr(data, name)[shuffled])
    assert np.array_equal(examples_of(data).planes, examples.planes)


def test_rows_that_do_not_pair_up_are_refused(greedy_run: pathlib.Path) -> None:
    from wts.scale.data import load

    data = load(greedy_run)
    data.color[0] = 1 - data.color[0]
    with pytest.raises(ParameterError, match="one black row and one white row"):
        examples_of(data)
    data = load(greedy_run)
    data.outcome[0] = 0
    with pytest.raises(ParameterError, match="outcomes"):
        examples_of(data)


def test_augment_moves_planes_and_targets_together(greedy_run: pathlib.Path) -> None:
    from wts.scale.data import load

    examples = examples_of(load(greedy_run)).take(np.arange(16))
    symmetries = np.arange(16) % 8
    swaps = np.arange(16) >= 8
    out = augment(examples, symmetries, swaps)
    for i in range(16):
        planes = transform_network_planes(examples.planes[i:i + 1], int(symmetries[i]))[0]
        black = transform_masks(examples.black[i], int(symmetries[i]))
        white = transform_masks(examples.white[i], int(symmetries[i]))
        if swaps[i]:
            planes, black, white = swap_colours(planes), white, black
        assert np.array_equal(out.planes[i], planes)
        assert np.array_equal(out.black[i], black) and np.array_equal(out.white[i], white)
        assert out.wdl[i] == (2 - examples.wdl[i] if swaps[i] else examples.wdl[i])
        assert np.array_equal(out.legal[i], out.planes[i, :, :3].sum(axis=1) == 0)
        assert (out.black[i][~out.legal[i]] == 0).all()


def test_the_same_seed_draws_the_same_minibatches(greedy_run: pathlib.Path) -> None:
    from wts.scale.data import load

    examples = examples_of(load(greedy_run))
    first, second = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(3):
        a, b = minibatch(examples, 32, first), minibatch(examples, 32, second)
        for name in ("planes", "black", "white", "wdl", "legal"):
            assert np.array_equal(getattr(a, name), getattr(b, name))
    with pytest.raises(ParameterError, match="batch_size"):
        minibatch(examples, 0, first)
    with pytest.raises(ParameterError, match="Generator"):
        minibatch(examples, 4, 7)  # type: ignore[arg-type]
