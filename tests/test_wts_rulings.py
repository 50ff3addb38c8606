"""The wts rulings of docs/rules.md: cases its numbered points leave open.

Each test is named after the ruling it checks; every test runs on both engines.
"""

from __future__ import annotations

import copy
import pickle

import pytest

import wts
from wts import Color, Status


def test_ruling_1_bracket_with_both_ends_arrived_is_reported_from_its_lower_end(Game):
    """Black's A5 captures twice, so eggs C3 and F3 hatch together in wave 1 and
    close C3-[D3,E3]-F3 from both ends: one capture, closer C3 (the lower
    index), anchor F3."""
    game = Game.from_setup(
        black=["D5", "A8"], white=["B5", "C5", "A6", "A7", "D3", "E3"], eggs=["C3", "F3"]
    )
    result = game.play("A5", "I9")
    assert result.hatched == (wts.Hatch(wts.C3, Color.BLACK, 1), wts.Hatch(wts.F3, Color.BLACK, 1))
    wave = [c for c in result.captures if c.round == 1]
    assert wave == [wts.Capture(Color.BLACK, 1, (wts.D3, wts.E3), wts.C3, wts.F3)]
    assert game.white == {wts.I9}  # only the turtle white placed this turn is left


def test_ruling_2_capture_squares_are_listed_nearest_the_closer_first(Game):
    game = Game.from_setup(black=["B5"], white=["C5", "D5"])
    result = game.play("E5", "I9")
    assert result.captures[0].squares == (wts.D5, wts.C5)
    assert result.captures[0].closer == wts.E5 and result.captures[0].anchor == wts.B5


def test_ruling_3_the_first_hatching_wave_is_wave_1(Game):
    game = Game.from_setup(black=["H5"], white=["F5", "G5"], eggs=["C3"])
    result = game.play("E5", "A1")
    assert result.captures[0].round == 0
    assert result.hatched == (wts.Hatch(wts.C3, Color.BLACK, 1),)


def test_ruling_4_no_legal_move_once_the_game_is_over(Game):
    game = Game.from_setup(white=["A1", "B1", "C1", "D1", "E1"])
    assert game.is_over() and game.legal_moves() == []


def test_ruling_5_equal_games_hold_the_same_pieces_egg_order_and_turn(Game):
    a = Game.from_setup(black=["E5"], eggs=["A1", "B1"])
    assert a == Game.from_setup(black=["E5"], eggs=["A1", "B1"])
    assert a != Game.from_setup(black=["E5"], eggs=["B1", "A1"])
    assert a != Game.from_setup(black=["E5"], eggs=["A1", "B1"], turn=3)


def test_ruling_6_a_collision_that_fills_the_board_ends_in_a_draw(Game):
    squares = list(wts.SQUARES)
    eggs = [sq for sq in squares if sq != wts.E5]
    game = Game.from_setup(eggs=eggs)
    result = game.play("E5", "E5")
    assert result.collision == wts.E5
    assert result.status is Status.DRAW and game.is_over()


def test_ruling_6_a_collision_in_sudden_death_keeps_sudden_death(Game):
    game = Game.from_setup(
        black=["A1", "B1", "C1", "D1", "E1"], white=["A9", "B9", "C9", "D9", "E9"]
    )
    assert game.status is Status.SUDDEN_DEATH
    assert game.play("E5", "E5").status is Status.SUDDEN_DEATH


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


def test_ruling_8_a_five_made_on_the_last_turn_still_wins(Game):
    game = Game.from_setup(black=["A1", "B1", "C1", "D1"], turn=wts.MAX_TURN - 1)
    assert game.play("E1", "I9").status is Status.BLACK_WINS


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
