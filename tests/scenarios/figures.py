"""One scenario per figure of the rulebook (rules-en.txt), named ``figure_...``;
tests/engine/test_rulebook_figures.py runs them on both engines.

The figures themselves are pictures that are not part of the text; each row
builds a concrete position that matches the caption exactly, then checks the
whole TurnResult and the board it leaves. ``says`` quotes the caption.
"""

from __future__ import annotations

from scenarios import Board, Play, Scenario
from tests.support.games import cap, hatch
from wts import Color, Status

BLACK, WHITE = Color.BLACK, Color.WHITE

FIGURES = [
    Scenario(
        "figure_collision_lays_an_egg_on_e5",
        "Both players wanted E5. An egg lands there instead.",
        Board(),
        (Play("E5", "E5", collision="E5", board=Board(eggs="E5")),),
    ),
    Scenario(
        "figure_black_e5_captures_two_whites_against_h5",
        "Black plays E5, trapping two white turtles against the black turtle on H5. Both "
        "are captured.",
        Board(black="H5", white="F5 G5"),
        (
            Play("E5", "A9", captures=(cap(BLACK, 0, "E5", "F5 G5", "H5"),),
                 board=Board(black="E5 H5", white="A9")),
        ),
    ),
    Scenario(
        "figure_walking_into_a_bracket_is_safe",
        "White plays E5, completing the pair between two black turtles — and is perfectly "
        "safe. A bracket only snaps shut when the turtle on the outside arrives. (Both "
        "outside squares are already black: the bracket can never snap later.)",
        Board(black="D5 G5", white="F5"),
        (
            Play("A1", "E5", board=Board(black="A1 D5 G5", white="E5 F5")),
            Play("I9", "I1", board=Board(black="A1 D5 G5 I9", white="E5 F5 I1")),
        ),
    ),
    Scenario(
        "figure_g_file_capture_hatches_the_egg_on_c3",
        "Black captures two whites on the G-file. As a reward, the waiting egg at C3 "
        "hatches — into a black turtle.",
        Board(black="G5", white="G3 G4", eggs="C3"),
        (
            Play(
                "G2",
                "A9",
                captures=(cap(BLACK, 0, "G2", "G3 G4", "G5"),),
                hatched=(hatch("C3", BLACK, 1),),
                board=Board(black="C3 G2 G5", white="A9"),
            ),
        ),
    ),
    Scenario(
        "figure_big_turn_one_egg_dissolves_one_hatches_one_stays",
        "Black's E5 captures four turtles in two directions, while white's B4 captures two. "
        "One capture from each side cancels on the oldest egg — egg 1 dissolves. Black's "
        "remaining capture hatches egg 2 into a black turtle, and egg 3 stays.",
        Board(black="H5 E8 B5 B6", white="F5 G5 E6 E7 B7", eggs="C1 A9 I9"),
        (
            Play(
                "E5",
                "B4",
                captures=(
                    cap(BLACK, 0, "E5", "F5 G5", "H5"),
                    cap(BLACK, 0, "E5", "E6 E7", "E8"),
                    cap(WHITE, 0, "B4", "B5 B6", "B7"),
                ),
                dissolved="C1",
                hatched=(hatch("A9", BLACK, 1),),
                board=Board(black="E5 H5 E8 A9", white="B4 B7", eggs="I9"),
            ),
        ),
    ),
    Scenario(
        "figure_five_on_the_diagonal_d7_to_h3_wins",
        "Five black turtles from D7 to H3. If white can't match it this turn, black wins.",
        Board(black="D7 E6 G4 H3", white="B2 C2"),
        (
            Play("F5", "D2", status=Status.BLACK_WINS, counts=(5, 0),
                 board=Board(black="D7 E6 F5 G4 H3", white="B2 C2 D2")),
        ),
    ),
    Scenario(
        "figure_five_against_five_is_sudden_death_until_a_row_breaks",
        "Five against five on the same turn — Sudden Death. Play continues until one row "
        "breaks. (Nothing changes the rows, then black's C5 brackets C4 and C3, a row "
        "turtle, against C2.)",
        Board(black="A1 B1 C1 D1 C2", white="A3 B3 C3 D3 C4"),
        (
            Play("E1", "E3", status=Status.SUDDEN_DEATH, counts=(5, 5)),
            Play("A9", "I9", status=Status.SUDDEN_DEATH, counts=(5, 5)),
            Play(
                "C5",
                "I7",
                captures=(cap(BLACK, 0, "C5", "C4 C3", "C2"),),
                status=Status.BLACK_WINS,
                counts=(5, 0),
                board=Board(black="A1 B1 C1 D1 E1 C2 A9 C5", white="A3 B3 D3 E3 I9 I7"),
            ),
        ),
    ),
    Scenario(
        "figure_two_separate_rows_beat_two_crossing_rows_10_to_9",
        "White's two separate rows hold ten turtles, while black's crossing rows hold only "
        "nine — the shared turtle counts once. White wins, 10 to 9.",
        Board(black="A5 B5 C5 D5 E5 C3 C4 C6", white="A9 B9 C9 D9 E9 A1 B1 C1 D1"),
        (
            Play(
                "C7",
                "E1",
                status=Status.WHITE_WINS,
                counts=(9, 10),
                board=Board(black="A5 B5 C5 D5 E5 C3 C4 C6 C7",
                            white="A9 B9 C9 D9 E9 A1 B1 C1 D1 E1"),
            ),
        ),
        status=Status.SUDDEN_DEATH,
        counts=(5, 5),
    ),
    Scenario(
        "figure_cross_of_nine_beats_unbroken_row_of_eight",
        "The longer row isn't the bigger count: white's unbroken row of eight holds eight "
        "turtles, but black's cross holds nine. Black wins, 9 to 8.",
        Board(black="A5 B5 C5 D5 E5 C3 C4 C6", white="A1 B1 C1 D1 E1 G1 H1"),
        (
            Play(
                "C7",
                "F1",
                status=Status.BLACK_WINS,
                counts=(9, 8),
                board=Board(black="A5 B5 C5 D5 E5 C3 C4 C6 C7", white="A1 B1 C1 D1 E1 F1 G1 H1"),
            ),
        ),
        status=Status.SUDDEN_DEATH,
        counts=(5, 5),
    ),
]
