"""One seed derivation (:func:`wts._seeds.derive`) behind every derived seed:
a match's, a pair's, a ladder pairing's and self-play's games."""

from __future__ import annotations

import hashlib

from wts._seeds import MASK64, derive, splitmix64
from wts.players.ladder import pairing_seed


def test_derive_chains_splitmix64_through_the_path() -> None:
    # The chains each caller wrote out before there was one derivation: the
    # seeds, and so every seeded match and run folder, are unchanged.
    for seed in (0, 3, MASK64, -1, 1 << 70):
        assert derive(seed) == splitmix64(seed & MASK64)
        assert derive(seed, 5, 1) == splitmix64(splitmix64(splitmix64(seed & MASK64) ^ 5) ^ 1)
        assert derive(seed, 2, 7, 0) == splitmix64(
            splitmix64(splitmix64(splitmix64(seed & MASK64) ^ 2) ^ 7) ^ 0)


def test_derive_gives_each_path_its_own_seed() -> None:
    seeds = {derive(9, game, side) for game in range(100) for side in (0, 1)}
    assert len(seeds) == 200
    assert derive(9, 1, 0) != derive(9, 0, 1)
    assert all(0 <= s <= MASK64 for s in seeds)


def test_a_ladder_pairing_seed_is_derived_from_the_names() -> None:
    digest = int.from_bytes(hashlib.blake2b(b"mcts:1 vs random", digest_size=8).digest(),
                            "little")
    assert pairing_seed(4, "mcts:1", "random") == derive(4, digest)
    assert pairing_seed(4, "mcts:1", "random") != pairing_seed(4, "random", "mcts:1")
