"""One scenario per figure of the rulebook (rules-en.txt).

The figures themselves are pictures that are not part of the text; each test
builds a concrete position that matches the caption exactly, then checks the
whole TurnResult and the board it leaves.
"""

from __future__ import annotations

from helpers import assert_board, cap, hatch, setup, turn

from wts import Color, Piece, Status

BLACK, WHITE = Color.BLACK, Color.WHITE








def test_figure_collision_lays_an_egg_on_e5(Game) -> None:
    """'Both players wanted E5. An egg lands there instead.'"""
    game = Game()
    result = game.play("E5", "E5")
    assert result == turn("E5", "E5", collision="E5")
    assert_board(game, eggs="E5")
    assert game.piece_at("E5") is Piece.EGG
    assert game.turn == 1


def test_figure_black_e5_captures_two_whites_against_h5(Game) -> None:
    """'Black plays E5, trapping two white turtles against the black turtle on H5.
    Both are captured.'"""
    game = setup(Game, black="H5", white="F5 G5")
    result = game.play("E5", "A9")
    assert result == turn("E5", "A9", captures=(cap(BLACK, 0, "E5", "F5 G5", "H5"),))
    assert_board(game, black="E5 H5", white="A9")
    assert game.piece_at("F5") is Piece.EMPTY and game.piece_at("G5") is Piece.EMPTY


def test_figure_walking_into_a_bracket_is_safe(Game) -> None:
    """'White plays E5, completing the pair between two black turtles — and is
    perfectly safe. A bracket only snaps shut when the turtle on the outside arrives.'"""
    game = setup(Game, black="D5 G5", white="F5")
    result = game.play("A1", "E5")
    assert result == turn("A1", "E5")
    assert_board(game, black="A1 D5 G5", white="E5 F5")
    # Both outside squares are already black: the bracket can never snap later.
    assert game.play("I9", "I1") == turn("I9", "I1")
    assert_board(game, black="A1 D5 G5 I9", white="E5 F5 I1")


def test_figure_g_file_capture_hatches_the_egg_on_c3(Game) -> None:
    """'Black captures two whites on the G-file. As a reward, the waiting egg at C3
    hatches — into a black turtle.'"""
    game = setup(Game, black="G5", white="G3 G4", eggs="C3")
    result = game.play("G2", "A9")
    assert result == turn(
        "G2",
        "A9",
        captures=(cap(BLACK, 0, "G2", "G3 G4", "G5"),),
        hatched=(hatch("C3", BLACK, 1),),
    )
    assert_board(game, black="C3 G2 G5", white="A9")
    assert game.piece_at("C3") is Piece.BLACK


def test_figure_big_turn_one_egg_dissolves_one_hatches_one_stays(Game) -> None:
    """'Black's E5 captures four turtles in two directions, while white's B4 captures
    two. One capture from each side cancels on the oldest egg — egg 1 dissolves.
    Black's remaining capture hatches egg 2 into a black turtle, and egg 3 stays.'"""
    game = setup(
        Game,
        black="H5 E8 B5 B6",
        white="F5 G5 E6 E7 B7",
        eggs="C1 A9 I9",
    )
    result = game.play("E5", "B4")
    assert result == turn(
        "E5",
        "B4",
        captures=(
            cap(BLACK, 0, "E5", "F5 G5", "H5"),
            cap(BLACK, 0, "E5", "E6 E7", "E8"),
            cap(WHITE, 0, "B4", "B5 B6", "B7"),
        ),
        dissolved="C1",
        hatched=(hatch("A9", BLACK, 1),),
    )
    assert_board(game, black="E5 H5 E8 A9", white="B4 B7", eggs="I9")
    assert game.piece_at("C1") is Piece.EMPTY


def test_figure_five_on_the_diagonal_d7_to_h3_wins(Game) -> None:
    """'Five black turtles from D7 to H3. If white can't match it this turn, black wins.'"""
    game = setup(Game, black="D7 E6 G4 H3", white="B2 C2")
    assert game.status is Status.ONGOING
    result = game.play("F5", "D2")
    assert result == turn("F5", "D2", status=Status.BLACK_WINS, counts=(5, 0))
    assert_board(game, black="D7 E6 F5 G4 H3", white="B2 C2 D2")
    assert game.winner is Color.BLACK
    assert game.is_over()


def test_figure_five_against_five_is_sudden_death_until_a_row_breaks(Game) -> None:
    """'Five against five on the same turn — Sudden Death. Play continues until one
    row breaks.'"""
    game = setup(Game, black="A1 B1 C1 D1 C2", white="A3 B3 C3 D3 C4")
    result = game.play("E1", "E3")
    assert result == turn("E1", "E3", status=Status.SUDDEN_DEATH, counts=(5, 5))
    assert not game.is_over() and game.winner is None
    # Nothing changes the rows: sudden death holds.
    assert game.play("A9", "I9") == turn("A9", "I9", status=Status.SUDDEN_DEATH, counts=(5, 5))
    # Black breaks white's row: C5 brackets C4 and C3 (a row turtle) against C2.
    result = game.play("C5", "I7")
    assert result == turn(
        "C5",
        "I7",
        captures=(cap(BLACK, 0, "C5", "C4 C3", "C2"),),
        status=Status.BLACK_WINS,
        counts=(5, 0),
    )
    assert_board(game, black="A1 B1 C1 D1 E1 C2 A9 C5", white="A3 B3 D3 E3 I9 I7")
    assert game.winner is Color.BLACK


def test_figure_two_separate_rows_beat_two_crossing_rows_10_to_9(Game) -> None:
    """'White's two separate rows hold ten turtles, while black's crossing rows hold
    only nine — the shared turtle counts once. White wins, 10 to 9.'"""
    game = setup(
        Game,
        black="A5 B5 C5 D5 E5 C3 C4 C6",
        white="A9 B9 C9 D9 E9 A1 B1 C1 D1",
    )
    assert (game.status, game.winning_counts) == (Status.SUDDEN_DEATH, (5, 5))
    result = game.play("C7", "E1")
    assert result == turn("C7", "E1", status=Status.WHITE_WINS, counts=(9, 10))
    assert_board(
        game,
        black="A5 B5 C5 D5 E5 C3 C4 C6 C7",
        white="A9 B9 C9 D9 E9 A1 B1 C1 D1 E1",
    )
    assert game.winner is Color.WHITE


def test_figure_cross_of_nine_beats_unbroken_row_of_eight(Game) -> None:
    """'The longer row isn't the bigger count: white's unbroken row of eight holds
    eight turtles, but black's cross holds nine. Black wins, 9 to 8.'"""
    game = setup(
        Game,
        black="A5 B5 C5 D5 E5 C3 C4 C6",
        white="A1 B1 C1 D1 E1 G1 H1",
    )
    assert (game.status, game.winning_counts) == (Status.SUDDEN_DEATH, (5, 5))
    result = game.play("C7", "F1")
    assert result == turn("C7", "F1", status=Status.BLACK_WINS, counts=(9, 8))
    assert_board(
        game,
        black="A5 B5 C5 D5 E5 C3 C4 C6 C7",
        white="A1 B1 C1 D1 E1 F1 G1 H1",
    )
    assert game.winner is Color.BLACK
