"""The wts rulings of docs/rules.md that are scenarios, one row each, named
``ruling_N_...`` after the ruling they check; tests/engine/test_wts_rulings.py runs
them on both engines, beside the rulings that are not scenarios."""

from __future__ import annotations

import wts
from scenarios import Board, Play, Scenario
from tests.support.games import cap, hatch
from wts import Color, Status

BLACK, WHITE = Color.BLACK, Color.WHITE

RULINGS = [
    Scenario(
        "ruling_1_bracket_with_both_ends_arrived_is_reported_from_its_lower_end",
        "black's A5 captures twice, so eggs C3 and F3 hatch together in wave 1 and close "
        "C3-[D3,E3]-F3 from both ends: one capture, closer C3 (the lower index), anchor F3; "
        "only the turtle white placed this turn is left",
        Board(black="D5 A8", white="B5 C5 A6 A7 D3 E3", eggs="C3 F3"),
        (
            Play(
                "A5",
                "I9",
                captures=(
                    cap(BLACK, 0, "A5", "B5 C5", "D5"),
                    cap(BLACK, 0, "A5", "A6 A7", "A8"),
                    cap(BLACK, 1, "C3", "D3 E3", "F3"),
                ),
                hatched=(hatch("C3", BLACK, 1), hatch("F3", BLACK, 1)),
                board=Board(black="A5 D5 A8 C3 F3", white="I9"),
            ),
        ),
    ),
    Scenario(
        "ruling_2_capture_squares_are_listed_nearest_the_closer_first",
        "E5 closes E5-D5-C5-B5: the squares are D5 then C5",
        Board(black="B5", white="C5 D5"),
        (
            Play("E5", "I9", captures=(cap(BLACK, 0, "E5", "D5 C5", "B5"),),
                 board=Board(black="B5 E5", white="I9")),
        ),
    ),
    Scenario(
        "ruling_3_the_first_hatching_wave_is_wave_1",
        "the placement step is round 0; the egg its capture hatches is wave 1",
        Board(black="H5", white="F5 G5", eggs="C3"),
        (
            Play(
                "E5",
                "A1",
                captures=(cap(BLACK, 0, "E5", "F5 G5", "H5"),),
                hatched=(hatch("C3", BLACK, 1),),
                board=Board(black="E5 H5 C3", white="A1"),
            ),
        ),
    ),
    Scenario(
        "ruling_4_no_legal_move_once_the_game_is_over",
        "a set-up white five is over at once and has no legal move",
        Board(white="A1 B1 C1 D1 E1"),
        status=Status.WHITE_WINS,
        counts=(0, 5),
    ),
    Scenario(
        "ruling_6_a_collision_that_fills_the_board_ends_in_a_draw",
        "the collision's egg fills the last empty square: a draw",
        Board(empty="E5"),
        (Play("E5", "E5", collision="E5", status=Status.DRAW),),
    ),
    Scenario(
        "ruling_6_a_collision_in_sudden_death_keeps_sudden_death",
        "a collision changes no row: sudden death holds",
        Board(black="A1 B1 C1 D1 E1", white="A9 B9 C9 D9 E9"),
        (Play("E5", "E5", collision="E5", status=Status.SUDDEN_DEATH, counts=(5, 5)),),
        status=Status.SUDDEN_DEATH,
        counts=(5, 5),
    ),
    Scenario(
        "ruling_8_a_five_made_on_the_last_turn_still_wins",
        "the turn that reaches the last turn number and makes a five is a win, not a draw",
        Board(black="A1 B1 C1 D1", turn=wts.MAX_TURN - 1),
        (Play("E1", "I9", status=Status.BLACK_WINS, counts=(5, 0)),),
    ),
]
