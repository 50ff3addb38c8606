"""Perft counts: the fixed point both engines are held to (tests/perft/expected.json)."""

from __future__ import annotations

import json

import pytest

import wts
import wts.engine.reference
from tests.support.processes import TESTS
from wts.engine.perft import MAX_DEPTH

ENTRIES = json.loads((TESTS / "perft" / "expected.json").read_text())
CASES = [
    (entry["name"], entry["setup"], int(depth), counts)
    for entry in ENTRIES
    for depth, counts in entry["depth"].items()
]
# The reference walks ~0.3 ms a turn: it checks every tree of at most ~20,000 leaves.
REFERENCE_LEAF_LIMIT = 20_000


@pytest.mark.parametrize(
    ("name", "setup", "depth", "counts"), CASES, ids=[f"{c[0]}-depth{c[2]}" for c in CASES]
)
def test_perft_fast_core_matches_expected_counts(name, setup, depth, counts):
    assert wts.perft(wts.Game.from_setup(**setup), depth)._asdict() == counts


@pytest.mark.parametrize(
    ("name", "setup", "depth", "counts"),
    [c for c in CASES if c[3]["leaves"] <= REFERENCE_LEAF_LIMIT],
    ids=[f"{c[0]}-depth{c[2]}" for c in CASES if c[3]["leaves"] <= REFERENCE_LEAF_LIMIT],
)
def test_perft_reference_matches_expected_counts(name, setup, depth, counts):
    assert wts.perft(wts.reference.Game.from_setup(**setup), depth)._asdict() == counts


def test_perft_expected_file_covers_every_event_kind():
    """The checked-in trees reach captures, dissolves, hatches, wins, sudden death and draws."""
    totals = {key: sum(c[3][key] for c in CASES) for key in wts.PerftCounts._fields}
    assert all(totals[key] > 0 for key in wts.PerftCounts._fields), totals


def test_perft_depth_zero_is_one_leaf(Game):
    assert wts.perft(Game(), 0) == wts.PerftCounts(leaves=1)


@pytest.mark.parametrize("depth", [-1, MAX_DEPTH + 1, 2**31, 2**70])
def test_perft_rejects_a_depth_out_of_range(Game: type[wts.base.GameBase], depth: int) -> None:
    with pytest.raises(wts.ParameterError, match=rf"depth must be from 0 to {MAX_DEPTH}"):
        wts.perft(Game(), depth)


@pytest.mark.parametrize("depth", [1.0, True, "1", None])
def test_perft_rejects_a_depth_that_is_not_an_int(Game: type[wts.base.GameBase],
                                                   depth: object) -> None:
    with pytest.raises(wts.ParameterTypeError, match="depth"):
        wts.perft(Game(), depth)


def test_perft_takes_numpy_integers(Game: type[wts.base.GameBase]) -> None:
    import numpy as np

    assert wts.perft(Game(), np.int64(1)) == wts.perft(Game(), 1)
    assert wts.perft(Game(), np.uint8(0)) == wts.PerftCounts(leaves=1)


def test_perft_takes_the_deepest_depth(Game: type[wts.base.GameBase]) -> None:
    # Only E5 is empty and no row has five: both take it, the egg fills the board, a draw.
    black = [sq for sq in range(81) if sq != 40 and (sq % 9 + 2 * (sq // 9)) // 2 % 2]
    white = [sq for sq in range(81) if sq != 40 and sq not in black]
    game = Game.from_setup(black=black, white=white)
    before = game.fen()
    assert wts.perft(game, 1) == wts.PerftCounts(leaves=1, collisions=1, draws=1)
    assert wts.perft(game, MAX_DEPTH) == wts.PerftCounts()  # no game lasts that long
    assert game.fen() == before


def test_perft_rejects_what_is_not_a_game() -> None:
    with pytest.raises(wts.ParameterTypeError, match="game"):
        wts.perft("9/9/9/9/9/9/9/9/9 - 0", 1)  # type: ignore[arg-type]


def test_perft_module_examples() -> None:
    import doctest
    import sys

    assert doctest.testmod(sys.modules["wts.engine.perft"]).failed == 0


def test_perft_of_a_decided_game_has_no_leaves(Game):
    game = Game.from_setup(black=["A1", "B1", "C1", "D1", "E1"])
    assert wts.perft(game, 1) == wts.PerftCounts()
