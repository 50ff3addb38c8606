"""Perft counts: the fixed point both engines are held to (tests/perft/expected.json)."""

from __future__ import annotations

import json
import pathlib

import pytest

import wts
import wts.reference

ENTRIES = json.loads((pathlib.Path(__file__).parent / "perft" / "expected.json").read_text())
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


def test_perft_rejects_negative_depth(Game):
    with pytest.raises(ValueError, match="depth"):
        wts.perft(Game(), -1)


def test_perft_of_a_decided_game_has_no_leaves(Game):
    game = Game.from_setup(black=["A1", "B1", "C1", "D1", "E1"])
    assert wts.perft(game, 1) == wts.PerftCounts()
