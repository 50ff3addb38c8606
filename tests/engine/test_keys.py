"""Position keys: equal positions, equal keys; the fast engine's key, kept turn
by turn, always equals the key computed from the board."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

import wts
from tests.support.games import names, random_game, setup
from wts.engine.keys import EGG_KEYS, KEY_SEED, TURTLE_KEYS, position_key


def test_a_new_game_has_key_zero(Game: Any) -> None:
    assert Game().key() == 0


def test_equal_positions_reached_by_different_move_orders_have_equal_keys(Game: Any) -> None:
    one, other = Game(), Game()
    for black, white in (("A1", "I9"), ("C3", "G7"), ("E5", "E5")):
        one.play(black, white)
    for black, white in (("C3", "G7"), ("A1", "I9"), ("E5", "E5")):
        other.play(black, white)
    assert one.fen() == other.fen()
    assert one.key() == other.key() != 0


def test_the_turn_number_is_not_part_of_a_key(Game: Any) -> None:
    early = setup(Game, black="A1 B2", white="C3", eggs="D4 E5")
    late = Game.from_setup(black=names("A1 B2"), white=names("C3"), eggs=names("D4 E5"), turn=77)
    assert early.key() == late.key()


def test_the_eggs_order_is_part_of_a_key(Game: Any) -> None:
    one = setup(Game, eggs="D4 E5")
    other = setup(Game, eggs="E5 D4")
    assert one.key() != other.key()


def test_a_colour_is_part_of_a_key(Game: Any) -> None:
    assert setup(Game, black="E5").key() != setup(Game, white="E5").key()


def test_key_is_the_xor_of_the_tables_that_keys_documents(Game: Any) -> None:
    game = setup(Game, black="A1 I9", white="E5", eggs="C3 B2")
    expected = (TURTLE_KEYS[0][0] ^ TURTLE_KEYS[0][80] ^ TURTLE_KEYS[1][40]
                ^ EGG_KEYS[0][20] ^ EGG_KEYS[1][10])
    assert game.key() == expected == position_key([0, 80], [40], [20, 10])


def test_key_tables_are_splitmix64_from_the_seed() -> None:
    x = KEY_SEED
    mask = (1 << 64) - 1
    x = (x + 0x9E3779B97F4A7C15) & mask
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    assert TURTLE_KEYS[0][0] == z ^ (z >> 31)
    numbers = [*TURTLE_KEYS[0], *TURTLE_KEYS[1], *(n for row in EGG_KEYS for n in row)]
    assert len(numbers) == len(set(numbers)) == 81 * 83


def test_incremental_key_equals_the_key_computed_from_scratch() -> None:
    """Every turn of 300 random games (captures, hatching waves, dissolved and
    captured eggs among them): the fast engine's kept key against the same
    position set up afresh on both engines."""
    events = {"captures": 0, "dissolved": 0, "hatched": 0, "collision": 0}
    for seed in range(300):
        game = wts.Game()
        rng = random.Random(seed)
        while not game.is_over():
            legal = game.legal_moves()
            black = rng.choice(legal)
            result = game.play(black, black if rng.random() < 0.25 else rng.choice(legal))
            events["captures"] += bool(result.captures)
            events["dissolved"] += bool(result.dissolved)
            events["hatched"] += bool(result.hatched)
            events["collision"] += result.collision is not None
            fresh = wts.Game.from_fen(game.fen())
            assert game.key() == fresh.key() == position_key(game.black, game.white, game.eggs)
    assert all(events.values()), events  # every way the key changes was exercised


def test_both_engines_give_the_same_keys_turn_by_turn() -> None:
    for seed in range(40):
        fast = random_game(wts.Game, seed)
        reference = wts.reference.Game()
        assert reference.key() == 0
        for turn in fast.history:
            reference.play(turn.black_move, turn.white_move)
        assert reference.key() == fast.key()


def test_batch_keys_are_the_games_keys() -> None:
    batch = wts.BatchGame.from_games([random_game(wts.Game, seed, 12) for seed in range(20)])
    keys = batch.keys()
    assert keys.dtype == np.uint64 and keys.shape == (20,)
    assert keys.tolist() == [batch[i].key() for i in range(20)]


def _positions_and_keys(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every position of ``games`` random games played in a batch, packed as
    bytes (turtles of each colour, the eggs' ages), with its key."""
    rng = np.random.default_rng(seed)
    batch = wts.BatchGame(games)
    packed, keys = [], []
    live = ~batch.is_over()
    while live.any():
        mask = batch.legal_mask()
        # A random legal square per live game: the largest random weight on the mask.
        weights = rng.random((games, 81)) * mask
        black = np.where(live, weights.argmax(axis=1), wts.NO_MOVE)
        collide = rng.random(games) < 0.2
        weights = rng.random((games, 81)) * mask
        white = np.where(live, np.where(collide, black, weights.argmax(axis=1)), wts.NO_MOVE)
        batch.step(black, white)
        observation = batch.observation().reshape(games, 4, 81)[live]
        planes = np.concatenate([np.packbits(observation[:, :2], axis=2).reshape(-1, 22),
                                 observation[:, 3]], axis=1)
        packed.append(planes)
        keys.append(batch.keys()[live])
        live = ~batch.is_over()
    return np.concatenate(packed), np.concatenate(keys)


def test_a_million_distinct_positions_have_distinct_keys() -> None:
    positions, keys = _positions_and_keys(40_000, seed=7)
    rows = np.ascontiguousarray(positions).view(np.dtype((np.void, positions.shape[1])))
    distinct, first = np.unique(rows.ravel(), return_index=True)
    assert len(distinct) >= 1_000_000, len(distinct)
    assert len(np.unique(keys[first])) == len(distinct)


def test_key_after_capturing_eggs_from_the_middle_of_the_queue(Game: Any) -> None:
    """D1 closes a bracket on the eggs C1 and B1, second and third in the queue;
    the capture then hatches E9, the oldest: every egg left changes its age."""
    game = setup(Game, black="A1", white="I5", eggs="E9 B1 C1 H9 G9")
    result = game.play("D1", "I6")
    assert result.captures and result.hatched
    assert game.eggs == tuple(names("H9 G9"))
    assert game.key() == position_key(game.black, game.white, game.eggs)
