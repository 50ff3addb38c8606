"""The wts rulings of docs/rules.md: cases its numbered points leave open.

Each test is named after the ruling it checks; every test runs on both engines.
The rulings that are scenarios are rows of tests/scenarios/rulings.py, run by
``test_ruling`` with the row's name as id: ``test_ruling[fast-ruling_1_...]``.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from scenarios import Scenario, ids, play_through
from scenarios.rulings import RULINGS

import wts
from wts import Status


@pytest.mark.parametrize("scenario", RULINGS, ids=ids(RULINGS))
def test_ruling(Game, scenario: Scenario) -> None:
    """Every ruling that is a scenario, on both engines."""
    play_through(Game, scenario)


def test_ruling_5_equal_games_hold_the_same_pieces_egg_order_and_turn(Game):
    a = Game.from_setup(black=["E5"], eggs=["A1", "B1"])
    assert a == Game.from_setup(black=["E5"], eggs=["A1", "B1"])
    assert a != Game.from_setup(black=["E5"], eggs=["B1", "A1"])
    assert a != Game.from_setup(black=["E5"], eggs=["A1", "B1"], turn=3)


def test_ruling_7_a_set_up_position_starts_at_turn_0_unless_told(Game):
    assert Game.from_setup(black=["E5"]).turn == 0
    game = Game.from_setup(black=["E5"], turn=12)
    game.play("A1", "B1")
    assert game.turn == 13


@pytest.mark.parametrize(
    "turn", [-1, 1.5, "3", True, 2**32, pytest.param(10**5000, id="5000-digits")]
)
def test_ruling_7_a_bad_turn_number_is_a_setup_error(Game, turn):
    with pytest.raises(wts.SetupError, match="turn"):
        Game.from_setup(black=["E5"], turn=turn)


def test_ruling_8_a_game_at_the_last_turn_number_is_drawn(Game):
    game = Game.from_setup(black=["E5"], turn=wts.MAX_TURN)
    assert game.status is Status.DRAW and game.is_over() and game.legal_moves() == []
    with pytest.raises(wts.GameOverError):
        game.play("A1", "B1")


def test_ruling_8_the_turn_that_reaches_the_limit_ends_the_game(Game):
    game = Game.from_setup(black=["E5"], turn=wts.MAX_TURN - 1)
    result = game.play("A1", "B1")
    assert result.status is Status.DRAW and game.turn == wts.MAX_TURN
    assert pickle.loads(pickle.dumps(game)) == game  # the counter never passes 2**32 - 1


def test_ruling_9_a_position_key_leaves_out_the_turn_number(Game):
    early = Game.from_setup(black=["E5"], white=["D4"], eggs=["A1", "B2"], turn=3)
    late = Game.from_setup(black=["E5"], white=["D4"], eggs=["A1", "B2"], turn=wts.MAX_TURN)
    assert early.key() == late.key()
    assert early != late  # == still compares the turn (ruling 5)
    reordered = Game.from_setup(black=["E5"], white=["D4"], eggs=["B2", "A1"], turn=3)
    assert reordered.key() != early.key()


def test_ruling_10_symmetries_keep_the_eggs_order_the_turn_and_the_events_order(Game):
    game = Game.from_setup(black=["H5"], white=["F5", "G5"], eggs=["C3", "A9"], turn=7)
    image = game.transform(wts.Symmetry.FLIP_FILES)
    assert image.eggs == (wts.G3, wts.I9) and image.turn == 7
    result = game.play("E5", "A1")
    mirrored = image.play("E5", "I1")
    assert wts.Symmetry.FLIP_FILES.turn(result) == mirrored


def test_games_pickle_copy_and_deepcopy_to_equal_independent_games(Game):
    game = Game.from_setup(black=["E5"], white=["E6"], eggs=["A1", "I9"], turn=4)
    game.play("C3", "C4")
    twins = (pickle.loads(pickle.dumps(game)), copy.copy(game), copy.deepcopy(game), game.copy())
    for twin in twins:
        assert type(twin) is type(game) and twin == game
        assert twin.status is game.status and twin.winning_counts == game.winning_counts
        twin.play("D4", "D5")
        assert twin != game
