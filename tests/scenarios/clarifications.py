"""The scenarios of docs/rules.md's numbered points, one row each, named
``point_NN_...`` after the point they pin; tests/engine/test_clarifications.py runs
them on both engines. Each is built so that a plausible other reading of the
point would give a different result."""

from __future__ import annotations

import wts
from scenarios import Board, Play, Scenario
from tests.support.games import cap, hatch
from wts import Capture, Color, Status, parse_square, square_name

BLACK, WHITE = Color.BLACK, Color.WHITE
SUDDEN_DEATH = Status.SUDDEN_DEATH

STEPS = {
    "E": (1, 0),
    "W": (-1, 0),
    "N": (0, 1),
    "S": (0, -1),
    "NE": (1, 1),
    "SW": (-1, -1),
    "NW": (-1, 1),
    "SE": (1, -1),
}


def ray(start: str, direction: str, distance: int) -> str:
    """The square ``distance`` steps from ``start`` in a compass direction."""
    s = parse_square(start)
    df, dr = STEPS[direction]
    return square_name(wts.square(s % 9 + df * distance, s // 9 + dr * distance))


# Ready-made brackets: black placing on B2, white placing on H8 (by direction:
# the two trapped squares, then the anchor). Used where a scenario needs a number
# of captures of each colour in the placement step.
BLACK_ON_B2 = {"E": ("C2 D2", "E2"), "N": ("B3 B4", "B5"), "NE": ("C3 D4", "E5")}
WHITE_ON_H8 = {"W": ("G8 F8", "E8"), "S": ("H7 H6", "H5"), "SW": ("G7 F6", "E5")}


def star(black_dirs: str, white_dirs: str, eggs: str = "") -> Board:
    """Black's B2 and white's H8 will capture in the given directions."""
    black, white = [], []
    for d in black_dirs.split():
        trapped, anchor = BLACK_ON_B2[d]
        white += trapped.split()
        black.append(anchor)
    for d in white_dirs.split():
        trapped, anchor = WHITE_ON_H8[d]
        black += trapped.split()
        white.append(anchor)
    return Board(black=" ".join(black), white=" ".join(white), eggs=eggs)


def star_captures(black_dirs: str, white_dirs: str) -> tuple[Capture, ...]:
    black = tuple(cap(BLACK, 0, "B2", *BLACK_ON_B2[d]) for d in black_dirs.split())
    white = tuple(cap(WHITE, 0, "H8", *WHITE_ON_H8[d]) for d in white_dirs.split())
    return black + white


# Point 14's eight directions around E5, in the order captures are listed.
ORDER = ["E", "W", "N", "S", "NE", "SW", "NW", "SE"]
PAIRS = [f"{ray('E5', d, 1)} {ray('E5', d, 2)}" for d in ORDER]
ANCHORS = [ray("E5", d, 3) for d in ORDER]

SUDDEN_DEATH_POSITION = Board(black="A3 B3 C3 D3 E3 D4 C8", white="A7 B7 C7 D7 E7 C6 D2")

CASCADE = Play(
    "B2",
    "I1",
    captures=(
        cap(BLACK, 0, "B2", "C2 D2", "E2"),
        cap(BLACK, 1, "B5", "B4 B3", "B2"),
        cap(BLACK, 2, "B8", "B7 B6", "B5"),
    ),
    hatched=(hatch("B5", BLACK, 1), hatch("B8", BLACK, 2), hatch("H8", BLACK, 3)),
    board=Board(black="B2 E2 B5 B8 H8", white="I1", eggs="H5"),
)
CASCADE_START = Board(black="E2", white="C2 D2 B3 B4 B6 B7", eggs="B5 B8 H8 H5")

CLARIFICATIONS = [
    # --- Point 3: legal moves ---
    Scenario(
        "point_03_square_emptied_by_a_capture_is_empty",
        "the squares of captured pieces can be named on the next turn",
        Board(black="H5", white="F5 G5"),
        (
            Play("E5", "A9", captures=(cap(BLACK, 0, "E5", "F5 G5", "H5"),),
                 board=Board(black="E5 H5", white="A9")),
            Play("F5", "G5", board=Board(black="E5 H5 F5", white="A9 G5")),
        ),
    ),
    # --- Point 5: arrivals ---
    Scenario(
        "point_05_placed_turtle_is_not_an_arrival_again_in_a_wave",
        "in wave 1 only the hatched E5 arrives; it closes E5-E4-E3-E2 against the placed E2 "
        "(far end placed this turn), reported once with E5 as the closer",
        Board(black="H2", white="F2 G2 E3 E4", eggs="E5"),
        (
            Play(
                "E2",
                "A9",
                captures=(
                    cap(BLACK, 0, "E2", "F2 G2", "H2"),
                    cap(BLACK, 1, "E5", "E4 E3", "E2"),
                ),
                hatched=(hatch("E5", BLACK, 1),),
                board=Board(black="E2 H2 E5", white="A9"),
            ),
        ),
    ),
    Scenario(
        "point_05_far_end_may_be_hatched_earlier_this_turn",
        "wave 2's B8 closes against B5, hatched in wave 1, which closed against B2, "
        "placed this turn",
        CASCADE_START,
        (CASCADE,),
    ),
    *(
        Scenario(
            f"point_05_arrival_inside_a_bracket_is_safe_{case}",
            "white landing inside black's D5 .. G5 bracket is not captured",
            Board(black="D5 G5", white=white, eggs=eggs),
            (Play("A1", move, board=Board(black="A1 D5 G5", white=f"{white} {move}", eggs=eggs)),),
        )
        for case, move, white, eggs in [
            ("arrival_then_turtle", "E5", "F5", ""),
            ("turtle_then_arrival", "F5", "E5", ""),
            ("arrival_then_egg", "E5", "", "F5"),
            ("egg_then_arrival", "F5", "", "E5"),
        ]
    ),
    # --- Point 6: all brackets of a step at once ---
    Scenario(
        "point_06_mutual_captures_and_a_captured_turtle_still_captures",
        "black's E5 captures F5 G5 while white's C5 captures D5 and E5 itself (against F5, "
        "which is being captured too): both captures happen",
        Board(black="D5 H5", white="F5 G5"),
        (
            Play(
                "E5",
                "C5",
                captures=(
                    cap(BLACK, 0, "E5", "F5 G5", "H5"),
                    cap(WHITE, 0, "C5", "D5 E5", "F5"),
                ),
                board=Board(black="H5", white="C5"),
            ),
        ),
    ),
    Scenario(
        "point_06_anticipatory_capture_of_a_just_placed_turtle",
        "black's H5 traps white's G5, placed the same turn, with F5, against E5",
        Board(black="E5", white="F5"),
        (
            Play("H5", "G5", captures=(cap(BLACK, 0, "H5", "G5 F5", "E5"),),
                 board=Board(black="E5 H5")),
        ),
    ),
    Scenario(
        "point_06_piece_in_two_brackets_leaves_once_and_counts_twice",
        "E5 sits in two brackets of wave 1 (E3 north, D5 east): it leaves once, and the "
        "two captures hatch two eggs in wave 2",
        Board(black="E1 H4 E6 G5", white="G1 F1 H2 H3 E4 E5 F5", eggs="D5 E3 A9 I9 A7"),
        (
            Play(
                "H1",
                "A1",
                captures=(
                    cap(BLACK, 0, "H1", "G1 F1", "E1"),
                    cap(BLACK, 0, "H1", "H2 H3", "H4"),
                    cap(BLACK, 1, "E3", "E4 E5", "E6"),
                    cap(BLACK, 1, "D5", "E5 F5", "G5"),
                ),
                hatched=(
                    hatch("D5", BLACK, 1),
                    hatch("E3", BLACK, 1),
                    hatch("A9", BLACK, 2),
                    hatch("I9", BLACK, 2),
                ),
                board=Board(black="H1 E1 H4 E6 G5 D5 E3 A9 I9", white="A1", eggs="A7"),
            ),
        ),
    ),
    Scenario(
        "point_06_egg_in_a_black_and_a_white_bracket_counts_for_both",
        "the egg on E5 is trapped by black (C5) and by white (E3) at once: one capture "
        "each, so the next egg dissolves instead of hatching for either",
        Board(black="F5 E4", white="D5 E6", eggs="E5 A9"),
        (
            Play(
                "C5",
                "E3",
                captures=(
                    cap(BLACK, 0, "C5", "D5 E5", "F5"),
                    cap(WHITE, 0, "E3", "E4 E5", "E6"),
                ),
                dissolved="A9",
                board=Board(black="C5 F5", white="E3 E6"),
            ),
        ),
    ),
    Scenario(
        "point_06_bracket_closed_from_both_ends_in_one_wave_counts_once",
        "D1 and A1 hatch together and bracket B1 C1 from both ends: one capture, reported "
        "with the lower square (A1) as closer, so only one egg hatches in wave 2",
        Board(black="E8 H5", white="G8 F8 H7 H6 B1 C1", eggs="D1 A1 A9 I1"),
        (
            Play(
                "H8",
                "A5",
                captures=(
                    cap(BLACK, 0, "H8", "G8 F8", "E8"),
                    cap(BLACK, 0, "H8", "H7 H6", "H5"),
                    cap(BLACK, 1, "A1", "B1 C1", "D1"),
                ),
                hatched=(hatch("D1", BLACK, 1), hatch("A1", BLACK, 1), hatch("A9", BLACK, 2)),
                board=Board(black="H8 E8 H5 D1 A1 A9", white="A5", eggs="I1"),
            ),
        ),
    ),
    # --- Point 7: captured eggs leave the queue first ---
    Scenario(
        "point_07_captured_oldest_egg_is_not_the_one_that_hatches",
        "black's C5 captures the oldest egg (D5); the next egg (A9) hatches",
        Board(black="F5", white="E5", eggs="D5 A9"),
        (
            Play(
                "C5",
                "I1",
                captures=(cap(BLACK, 0, "C5", "D5 E5", "F5"),),
                hatched=(hatch("A9", BLACK, 1),),
                board=Board(black="C5 F5 A9", white="I1"),
            ),
        ),
    ),
    Scenario(
        "point_07_captured_oldest_egg_is_not_the_one_that_dissolves",
        "with one capture each, the oldest egg still on the board dissolves, not the "
        "captured one",
        Board(black="F5 H7 H6", white="D5 H5", eggs="E5 A9 I1"),
        (
            Play(
                "C5",
                "H8",
                captures=(
                    cap(BLACK, 0, "C5", "D5 E5", "F5"),
                    cap(WHITE, 0, "H8", "H7 H6", "H5"),
                ),
                dissolved="A9",
                board=Board(black="C5 F5", white="H8 H5", eggs="I1"),
            ),
        ),
    ),
    # --- Point 8: dissolving, hatching and waves ---
    Scenario(
        "point_08_captures_without_an_egg_are_lost_now_and_later",
        "a capture made with no egg on the board never hatches anything later",
        Board(black="H5", white="F5 G5"),
        (
            Play("E5", "A1", captures=(cap(BLACK, 0, "E5", "F5 G5", "H5"),)),
            Play("I9", "I9", collision="I9"),
            Play("B8", "H2", board=Board(black="E5 H5 B8", white="A1 H2", eggs="I9")),
        ),
    ),
    Scenario(
        "point_08_hatched_turtles_land_together_before_looking_for_brackets",
        "B8 and D8 hatch together in wave 1. B8-C8-D8-E8 is no bracket, since D8 is already "
        "black; hatching B8 alone and checking before D8 hatches would have captured C8 and "
        "the egg on D8",
        Board(black="E2 B5 E8", white="C2 D2 B3 B4 C8", eggs="B8 D8 G9"),
        (
            Play(
                "B2",
                "I1",
                captures=(
                    cap(BLACK, 0, "B2", "C2 D2", "E2"),
                    cap(BLACK, 0, "B2", "B3 B4", "B5"),
                ),
                hatched=(hatch("B8", BLACK, 1), hatch("D8", BLACK, 1)),
                board=Board(black="B2 E2 B5 B8 D8 E8", white="C8 I1", eggs="G9"),
            ),
        ),
    ),
    Scenario(
        "point_08_a_wave_captures_even_when_no_egg_is_left",
        "the last egg (E5) hatches and captures F5 G5; those pieces are removed although "
        "no egg is left to hatch for it",
        Board(black="H2 H5", white="F2 G2 F5 G5", eggs="E5"),
        (
            Play(
                "E2",
                "A9",
                captures=(
                    cap(BLACK, 0, "E2", "F2 G2", "H2"),
                    cap(BLACK, 1, "E5", "F5 G5", "H5"),
                ),
                hatched=(hatch("E5", BLACK, 1),),
                board=Board(black="E2 H2 E5 H5", white="A9"),
            ),
        ),
    ),
    Scenario(
        "point_08_only_the_hatching_colour_captures_in_a_wave",
        "in black's wave, E5 (hatched black) sits in white's D4 .. G7 frame and starts "
        "E5-F5-G5-H5 (black, egg, black, white): white captures nothing",
        Board(black="H2 G5", white="F2 G2 D4 G7 H5", eggs="E5 F5 F6"),
        (
            Play(
                "E2",
                "I1",
                captures=(cap(BLACK, 0, "E2", "F2 G2", "H2"),),
                hatched=(hatch("E5", BLACK, 1),),
                board=Board(black="E2 H2 G5 E5", white="D4 G7 H5 I1", eggs="F5 F6"),
            ),
        ),
    ),
    Scenario(
        "point_08_cascade_runs_wave_after_wave_with_round_numbers",
        "placement capture -> wave 1 capture -> wave 2 capture -> wave 3 hatch that "
        "captures nothing; each capture is tagged with its step",
        CASCADE_START,
        (CASCADE,),
    ),
    # --- Point 9: collisions ---
    Scenario(
        "point_09_collision_lays_newest_egg_and_nothing_is_captured",
        "both name E5, where either placement would have captured: an egg is laid there, "
        "newest in the queue, and nothing is captured or hatched",
        Board(black="H5 D5 C5", white="F5 G5 B5", eggs="A9"),
        (
            Play("E5", "E5", collision="E5",
                 board=Board(black="H5 D5 C5", white="F5 G5 B5", eggs="A9 E5")),
        ),
    ),
    # --- Point 10: winning turtles ---
    *(
        Scenario(
            f"point_10_five_in_a_row_in_every_line_direction_{case}",
            "across, down or either diagonal; the game is won after the turn",
            Board(white=" ".join(line.split()[:4])),
            (Play("A5" if "A5" not in line else "I5", line.split()[4],
                  status=Status.WHITE_WINS, counts=(0, 5)),),
        )
        for case, line in [
            ("across", "A1 B1 C1 D1 E1"),
            ("down", "E1 E2 E3 E4 E5"),
            ("diagonal", "A1 B2 C3 D4 E5"),
            ("anti_diagonal", "I1 H2 G3 F4 E5"),
            ("diagonal_to_corner", "E5 F6 G7 H8 I9"),
            ("anti_diagonal_from_corner", "A9 B8 C7 D6 E5"),
        ]
    ),
    Scenario(
        "point_10_row_of_six_counts_six",
        "every turtle of a row of six is a winning turtle",
        Board(black="A1 B1 C1 E1 F1"),
        (Play("D1", "A9", status=Status.BLACK_WINS, counts=(6, 0)),),
    ),
    Scenario(
        "point_10_row_of_nine_counts_nine",
        "every turtle of a row across the whole board is a winning turtle",
        Board(black="A1 B1 C1 D1 E1 F1 G1 H1 I1"),
        status=Status.BLACK_WINS,
        counts=(9, 0),
    ),
    Scenario(
        "point_10_crossing_rows_count_their_shared_turtle_once",
        "two diagonals of five crossing on C3 hold nine distinct turtles",
        Board(black="A1 B2 D4 E5 A5 B4 D2 E1"),
        (Play("C3", "I9", status=Status.BLACK_WINS, counts=(9, 0)),),
    ),
    Scenario(
        "point_10_eggs_are_never_part_of_a_line",
        "four turtles and an egg in a row are not a row of five",
        Board(black="A1 B1 C1 D1", white="A3 B3 D3 E3", eggs="E1 C3"),
        (Play("I9", "I8"),),
    ),
    *(
        Scenario(
            f"point_10_lines_do_not_wrap_around_the_edge_{case}",
            "five turtles with consecutive-looking indices across an edge are no row",
            Board(black=pieces),
        )
        for case, pieces in [
            ("rank_wrap", "G1 H1 I1 A2 B2"),
            ("rank_wrap_2", "I1 A2 B2 C2 D2"),
            ("diagonal_wrap", "G1 H2 I3 A5 B6"),
            ("anti_diagonal_wrap", "C9 B9 A9 I8 H7"),
        ]
    ),
    Scenario(
        "point_10_a_row_broken_in_the_same_turn_never_counts",
        "black's E3 completes A3-E3 but white's E5 captures E4 and E3 the same turn; the "
        "result is read after the turn settles: no win",
        Board(black="A3 B3 C3 D3 E4", white="E2"),
        (
            Play("E3", "E5", captures=(cap(WHITE, 0, "E5", "E4 E3", "E2"),),
                 board=Board(black="A3 B3 C3 D3", white="E2 E5")),
        ),
    ),
    Scenario(
        "point_10_a_row_completed_by_hatching_wins",
        "the egg on E5 hatches black and completes A5-E5 within the turn",
        Board(black="A5 B5 C5 D5 E1", white="F1 G1", eggs="E5"),
        (
            Play(
                "H1",
                "A9",
                captures=(cap(BLACK, 0, "H1", "G1 F1", "E1"),),
                hatched=(hatch("E5", BLACK, 1),),
                status=Status.BLACK_WINS,
                counts=(5, 0),
            ),
        ),
    ),
    # --- Point 11: deciding the game ---
    Scenario(
        "point_11_equal_nonzero_counts_are_sudden_death_and_play_goes_on",
        "b = w > 0 is sudden death: not over, no winner, moves still legal; it holds while "
        "the counts stay equal",
        Board(black="A1 B1 C1 D1", white="A9 B9 C9 D9"),
        (
            Play("E1", "E9", status=SUDDEN_DEATH, counts=(5, 5)),
            Play("E5", "F5", status=SUDDEN_DEATH, counts=(5, 5)),
        ),
    ),
    Scenario(
        "point_11_in_sudden_death_the_higher_recount_wins",
        "extending a row to six makes the counts (6, 5): black wins",
        Board(black="A1 B1 C1 D1 E1", white="A9 B9 C9 D9 E9"),
        (Play("F1", "E5", status=Status.BLACK_WINS, counts=(6, 5)),),
        status=SUDDEN_DEATH,
        counts=(5, 5),
    ),
    Scenario(
        "point_11_destroying_the_other_row_wins",
        "white captures D4 and D3 out of black's row: (0, 5), white wins",
        SUDDEN_DEATH_POSITION,
        (
            Play(
                "I9",
                "D5",
                captures=(cap(WHITE, 0, "D5", "D4 D3", "D2"),),
                status=Status.WHITE_WINS,
                counts=(0, 5),
            ),
        ),
        status=SUDDEN_DEATH,
        counts=(5, 5),
    ),
    Scenario(
        "point_11_both_rows_broken_returns_to_normal_play_and_can_reenter",
        "sudden death is read off the board: when captures break both rows the game is "
        "ongoing again, and refilling both rows enters sudden death again",
        SUDDEN_DEATH_POSITION,
        (
            Play(
                "C5",
                "D5",
                captures=(
                    cap(BLACK, 0, "C5", "C6 C7", "C8"),
                    cap(WHITE, 0, "D5", "D4 D3", "D2"),
                ),
            ),
            Play("D3", "C7", status=SUDDEN_DEATH, counts=(5, 5)),
        ),
        status=SUDDEN_DEATH,
        counts=(5, 5),
    ),
    Scenario(
        "point_11_a_win_stands_when_the_same_turn_fills_the_board",
        "black completes a row with the last empty squares: a win, not a draw",
        Board(black="A1 B1 C1 D1", empty="E1 I9"),
        (Play("E1", "I9", status=Status.BLACK_WINS, counts=(5, 0)),),
        legal="E1 I9",
    ),
    Scenario(
        "point_11_a_white_win_stands_when_the_same_turn_fills_the_board",
        "the mirror: white completes a row with the last empty squares: white wins, "
        "not a draw",
        Board(white="A9 B9 C9 D9", empty="I1 E9"),
        (Play("I1", "E9", status=Status.WHITE_WINS, counts=(0, 5)),),
        legal="I1 E9",
    ),
    # --- Point 12: draws ---
    Scenario(
        "point_12_full_board_without_a_row_is_a_draw",
        "no empty square left and nobody has a row: draw",
        Board(empty="E5 E6"),
        (Play("E5", "E6", status=Status.DRAW),),
    ),
    Scenario(
        "point_12_full_board_with_equal_nonzero_counts_is_a_draw",
        "both complete a row as the board fills: (5, 5) is a draw, not sudden death",
        Board(black="A1 B1 C1 D1", white="A9 B9 C9 D9", empty="E1 E9"),
        (Play("E1", "E9", status=Status.DRAW, counts=(5, 5)),),
    ),
    Scenario(
        "point_12_board_emptied_by_a_capture_in_the_last_turn_is_no_draw",
        "the board is judged after the turn: the last two placements fill it, but black's "
        "A1 captures B1 and C1, so squares are empty again and play goes on",
        Board(black="D1", white="B1 C1", eggs="I9", empty="A1 I1"),
        (
            Play(
                "A1",
                "I1",
                captures=(cap(BLACK, 0, "A1", "B1 C1", "D1"),),
                hatched=(hatch("I9", BLACK, 1),),
                legal="B1 C1",
            ),
        ),
    ),
    # --- Point 13: set-up positions ---
    *(
        Scenario(
            f"point_13_setup_status_follows_at_once_{case}",
            "a set-up position's status is read off the board immediately",
            Board(black=black, white=white, eggs=eggs),
            status=status,
            counts=counts,
        )
        for case, black, white, eggs, status, counts in [
            ("black_wins", "A1 B1 C1 D1 E1", "A2", "", Status.BLACK_WINS, (5, 0)),
            ("white_wins", "A2", "E1 E2 E3 E4 E5 E6", "", Status.WHITE_WINS, (0, 6)),
            ("sudden_death", "A1 B1 C1 D1 E1", "A9 B9 C9 D9 E9", "", SUDDEN_DEATH, (5, 5)),
            ("ongoing", "A1 B1 C1 D1", "A9 B9 C9 D9", "E1 E9", Status.ONGOING, (0, 0)),
        ]
    ),
    Scenario(
        "point_13_full_setup_board_without_rows_is_a_draw",
        "with point 12: a set-up full board with no row is a draw at once",
        Board(empty=""),
        status=Status.DRAW,
    ),
    Scenario(
        "point_13_egg_order_is_the_one_given",
        "eggs are kept oldest first as listed (not sorted), and hatch in that order",
        Board(black="H5", white="F5 G5", eggs="I9 A1 E1"),
        (
            Play(
                "E5",
                "C5",
                captures=(cap(BLACK, 0, "E5", "F5 G5", "H5"),),
                hatched=(hatch("I9", BLACK, 1),),
                board=Board(black="E5 H5 I9", white="C5", eggs="A1 E1"),
            ),
        ),
    ),
    # --- Point 14: event order ---
    Scenario(
        "point_14_directions_are_ordered_e_w_n_s_ne_sw_nw_se",
        "one arrival's captures are listed E, W, N, S, NE, SW, NW, SE, each with the square "
        "nearest the closer first",
        Board(black=" ".join(ANCHORS), white=" ".join(PAIRS)),
        (
            Play(
                "E5",
                "A1",
                captures=tuple(cap(BLACK, 0, "E5", p, a) for p, a in zip(PAIRS, ANCHORS)),
                board=Board(black=" ".join(["E5", *ANCHORS]), white="A1"),
            ),
        ),
    ),
    Scenario(
        "point_14_black_captures_are_listed_before_white_captures",
        "black's captures come first even when white's arrival has the lower square",
        Board(black="C2 D2 E8", white="E2 G8 F8"),
        (
            Play(
                "H8",
                "B2",
                captures=(
                    cap(BLACK, 0, "H8", "G8 F8", "E8"),
                    cap(WHITE, 0, "B2", "C2 D2", "E2"),
                ),
                board=Board(black="H8 E8", white="B2 E2"),
            ),
        ),
    ),
    Scenario(
        "point_14_wave_captures_ordered_by_arriving_square_then_direction",
        "in wave 1, F4 (index 32) lists its N and SE captures before the older egg C8 "
        "(index 65) lists its E capture; placement-step captures come first",
        Board(black="E2 B5 F7 I1 F8", white="C2 D2 B3 B4 F5 F6 G3 H2 D8 E8", eggs="C8 F4"),
        (
            Play(
                "B2",
                "A9",
                captures=(
                    cap(BLACK, 0, "B2", "C2 D2", "E2"),
                    cap(BLACK, 0, "B2", "B3 B4", "B5"),
                    cap(BLACK, 1, "F4", "F5 F6", "F7"),
                    cap(BLACK, 1, "F4", "G3 H2", "I1"),
                    cap(BLACK, 1, "C8", "D8 E8", "F8"),
                ),
                hatched=(hatch("C8", BLACK, 1), hatch("F4", BLACK, 1)),
                board=Board(black="B2 E2 B5 F7 I1 F8 C8 F4", white="A9"),
            ),
        ),
    ),
    Scenario(
        "point_14_dissolved_and_hatched_eggs_are_listed_oldest_first_dissolved",
        "dissolved eggs are listed by age, not by square",
        star("E N", "W S", eggs="I3 A9 I1"),
        (Play("B2", "H8", captures=star_captures("E N", "W S"), dissolved="I3 A9"),),
    ),
    Scenario(
        "point_14_dissolved_and_hatched_eggs_are_listed_oldest_first_hatched",
        "hatched eggs are listed by age, not by square",
        star("E N", "", eggs="I3 A9 I1"),
        (
            Play("B2", "H8", captures=star_captures("E N", ""),
                 hatched=(hatch("I3", BLACK, 1), hatch("A9", BLACK, 1))),
        ),
    ),
]
