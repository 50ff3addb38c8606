"""The eight symmetries: the rules commute with each of them, on both engines."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import wts
from tests.support.games import names, random_game, setup
from wts import Symmetry
from wts.engine.observation import observation_planes

ALL = list(Symmetry)


def test_symmetry_of_each_named_corner() -> None:
    a1, i1, a9, i9 = names("A1 I1 A9 I9")
    assert [s.square("A1") for s in ALL] == [a1, i1, i9, a9, i1, a9, a1, i9]
    assert Symmetry.FLIP_DIAGONAL.square("B1") == names("A2")[0]
    assert all(s.square("E5") == names("E5")[0] for s in ALL)


def test_symmetries_form_the_group_of_the_square() -> None:
    maps = {tuple(s.square(sq) for sq in range(81)) for s in ALL}
    assert len(maps) == 8
    for s in ALL:
        assert sorted(s.square(sq) for sq in range(81)) == list(range(81))
        assert s.then(s.inverse) is Symmetry.IDENTITY
        assert all(s.inverse.square(s.square(sq)) == sq for sq in range(81))
        for t in ALL:
            composed = s.then(t)
            assert all(composed.square(sq) == t.square(s.square(sq)) for sq in range(81))
    assert Symmetry.ROTATE_90.then(Symmetry.ROTATE_90) is Symmetry.ROTATE_180


def test_symmetries_keep_lines_of_five() -> None:
    game = setup(wts.Game, black="A1 B2 C3 D4 E5")
    assert game.winning_counts == (5, 0)
    for s in ALL:
        assert game.transform(s).winning_counts == (5, 0)


@pytest.mark.parametrize("bad", [8, -1, "spin", 1.0, None, True])
def test_a_bad_symmetry_raises_parameter_error(bad: object) -> None:
    game = wts.Game()
    with pytest.raises(wts.ParameterError, match="symmetry"):
        game.transform(bad)  # type: ignore[arg-type]


def test_a_symmetry_is_named_by_its_number_or_its_name() -> None:
    assert Symmetry.of(3) is Symmetry.ROTATE_270
    assert Symmetry.of("flip_files") is Symmetry.FLIP_FILES
    assert Symmetry.of(np.uint8(7)) is Symmetry.FLIP_ANTIDIAGONAL


@pytest.mark.parametrize("symmetry", ALL, ids=[s.name for s in ALL])
def test_the_fast_image_is_the_reference_image(symmetry: Symmetry) -> None:
    """The core's square tables (C) against the formulas of wts.engine.symmetry."""
    for seed in range(20):
        fast = random_game(wts.Game, seed, 15)
        reference = wts.reference.Game.from_fen(fast.fen())
        image = fast._image(symmetry)
        assert image.fen() == reference._image(symmetry).fen()
        assert image.key() == reference._image(symmetry).key()
        assert image.eggs == symmetry.squares(fast.eggs)


def _check_commutes(Game: Any, seed: int, turns: int, symmetry: Symmetry) -> None:
    game = random_game(Game, seed, turns)
    if game.is_over():
        return
    rng = random.Random(seed)
    image = game.transform(symmetry)
    assert image.fen() == game._image(symmetry).fen()
    for _ in range(6):
        if game.is_over():
            break
        legal = game.legal_moves()
        black = rng.choice(legal)
        white = black if rng.random() < 0.2 else rng.choice(legal)
        played = game.play(black, white)
        mirrored = image.play(symmetry.square(black), symmetry.square(white))
        # Events as sets, as any order of the squares would give them ...
        assert set(symmetry.turn(played).captures) == set(mirrored.captures)
        # ... and in order, once the captures are sorted as the image reports them.
        assert symmetry.turn(played) == mirrored
        assert game.transform(symmetry).fen() == image.fen()
        assert game._image(symmetry).key() == image.key()
        assert game.canonical()[0] == image.canonical()[0]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 40),
       symmetry=st.sampled_from(ALL))
# A wave hatches both ends of a bracket: the image reports it from its other end.
@example(seed=34660, turns=31, symmetry=Symmetry.ROTATE_180)
def test_rules_commute_with_every_symmetry_fast(seed: int, turns: int,
                                                 symmetry: Symmetry) -> None:
    _check_commutes(wts.Game, seed, turns, symmetry)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 40),
       symmetry=st.sampled_from(ALL))
@example(seed=34660, turns=31, symmetry=Symmetry.ROTATE_180)
def test_rules_commute_with_every_symmetry_reference(seed: int, turns: int,
                                                      symmetry: Symmetry) -> None:
    _check_commutes(wts.reference.Game, seed, turns, symmetry)


def test_rules_commute_on_turns_with_many_captures_and_waves() -> None:
    """The seeds whose games capture in both colours and hatch in waves, each
    under every symmetry: the capture order is the part that moves."""
    checked = 0
    for seed in range(400):
        game = random_game(wts.Game, seed)
        busy = [t for t in game.history
                if len(t.captures) >= 2 or any(h.wave > 1 for h in t.hatched)]
        if not busy:
            continue
        for symmetry in ALL:
            image = game.transform(symmetry)
            assert image.history == tuple(symmetry.turn(t) for t in game.history)
        checked += 1
    assert checked >= 20


def test_transform_keeps_the_start_and_the_history(Game: Any) -> None:
    start = setup(Game, black="A1 B1", white="E5", eggs="C3 D4")
    game = start.copy()
    for black, white in (("H8", "H8"), ("A3", "C7"), ("F6", "B9")):
        game.play(black, white)
    image = game.transform(Symmetry.ROTATE_90)
    assert image.root().fen() == start.transform(Symmetry.ROTATE_90).fen()
    assert len(image.history) == 3
    image.pop()
    game.pop()
    assert image.fen() == game.transform(Symmetry.ROTATE_90).fen()


def test_canonical_key_is_the_least_image_key_and_shared_by_all_images(Game: Any) -> None:
    for seed in range(12):
        game = random_game(Game, seed, 10)
        key, symmetry = game.canonical()
        images = [game._image(s).key() for s in ALL]
        assert key == min(images) == images[symmetry]
        assert images.index(key) == symmetry
        for s in ALL:
            assert game.transform(s).canonical()[0] == key


def test_canonical_agrees_between_engines_and_with_the_batch() -> None:
    games = [random_game(wts.Game, seed, 14) for seed in range(30)]
    batch = wts.BatchGame.from_games(games)
    keys, symmetries = batch.canonical()
    for i, game in enumerate(games):
        reference = wts.reference.Game.from_fen(game.fen())
        assert game.canonical() == reference.canonical() == (keys[i], symmetries[i])


@pytest.mark.parametrize("symmetry", ALL, ids=[s.name for s in ALL])
def test_observation_planes_and_legal_masks_transform_with_the_board(symmetry: Symmetry) -> None:
    game = random_game(wts.Game, 5, 12)
    image = game.transform(symmetry)
    for color in ("black", "white"):
        assert (symmetry.planes(observation_planes(game, color))
                == observation_planes(image, color)).all()
    mask = np.zeros(81, dtype=bool)
    mask[game.legal_moves()] = True
    expected = np.zeros(81, dtype=bool)
    expected[image.legal_moves()] = True
    assert (symmetry.mask(mask) == expected).all()


def test_batched_planes_and_masks_take_one_symmetry_per_game() -> None:
    games = [random_game(wts.Game, seed, 9) for seed in range(16)]
    chosen = np.arange(16) % 8
    batch = wts.BatchGame.from_games(games)
    images = wts.BatchGame.from_games([g.transform(int(s)) for g, s in zip(games, chosen)])
    assert (wts.transform_planes(batch.observation(), chosen) == images.observation()).all()
    assert (wts.transform_masks(batch.legal_mask(), chosen) == images.legal_mask()).all()
    one = wts.transform_planes(batch.observation(), Symmetry.ROTATE_180)
    assert (one == np.rot90(batch.observation(), 2, axes=(2, 3))).all()


@pytest.mark.parametrize("bad, message", [
    (np.zeros((4, 9, 8)), "end in \\(9, 9\\)"),
    (np.zeros(80), "end in 81"),
])
def test_arrays_of_the_wrong_shape_raise_batch_error(bad: np.ndarray, message: str) -> None:
    transform = wts.transform_planes if bad.ndim == 3 else wts.transform_masks
    with pytest.raises(wts.BatchError, match=message):
        transform(bad, Symmetry.IDENTITY)


def test_masked_arrays_are_refused_by_the_transforms() -> None:
    """numpy reads a masked array as its data: the mask was silently dropped."""
    planes = np.zeros((2, 4, 9, 9), dtype=np.uint8)
    masks = np.zeros((2, 81), dtype=np.bool_)
    with pytest.raises(wts.BatchError, match="masked array"):
        wts.transform_planes(np.ma.masked_array(planes, mask=True), Symmetry.ROTATE_90)
    with pytest.raises(wts.BatchError, match="masked array"):
        wts.transform_masks(np.ma.masked_array(masks, mask=True), 1)
    with pytest.raises(wts.BatchError, match="masked array"):
        wts.transform_planes(planes, np.ma.masked_array([1, 2], mask=[True, False]))
    with pytest.raises(wts.BatchError, match="masked array"):
        Symmetry.ROTATE_90.mask(np.ma.masked_array(masks, mask=True))
    with pytest.raises(wts.SquareError, match="masked array"):
        Symmetry.ROTATE_90.square(np.ma.masked_array(3, mask=True))
    with pytest.raises(wts.SquareError, match="masked array"):
        Symmetry.ROTATE_90.squares([np.ma.masked_array(3, mask=True)])


@pytest.mark.parametrize("bad", [None, (1, 2), "E5"])
def test_turn_of_something_not_a_turn_result_is_a_parameter_type_error(bad: object) -> None:
    """``Symmetry.turn(None)`` failed with AttributeError."""
    with pytest.raises(wts.ParameterTypeError, match="TurnResult"):
        Symmetry.ROTATE_90.turn(bad)  # type: ignore[arg-type]


def test_per_game_symmetries_must_match_the_batch() -> None:
    planes = np.zeros((3, 4, 9, 9), dtype=np.uint8)
    with pytest.raises(wts.BatchError, match="1-d integer array of 3"):
        wts.transform_planes(planes, np.zeros(2, dtype=int))
    with pytest.raises(wts.BatchError, match="0-7"):
        wts.transform_planes(planes, np.array([0, 1, 8]))


def test_a_record_transforms_move_by_move() -> None:
    game = random_game(wts.Game, 11)
    text = wts.record.dumps(game, headers={"Event": "test"})
    record = wts.record.loads(text).transform(Symmetry.FLIP_RANKS)
    assert record.game.fen() == game.transform(Symmetry.FLIP_RANKS).fen()
    assert record.headers["Event"] == "test"
    again = wts.record.loads(wts.record.dumps(record))
    flip = Symmetry.FLIP_RANKS.square
    assert again.moves == tuple((flip(t.black_move), flip(t.white_move)) for t in game.history)


def test_a_record_from_a_set_up_start_transforms_its_setup() -> None:
    start = wts.Game.from_setup(black=names("A1"), white=names("B2"), eggs=names("C3 D4"))
    game = random_game(wts.Game, 3, 8, start=start)
    record = wts.record.loads(wts.record.dumps(game)).transform(Symmetry.ROTATE_90)
    assert record.setup == start.transform(Symmetry.ROTATE_90).fen()
    assert "[SetUp" in wts.record.dumps(record)
