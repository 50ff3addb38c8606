"""One or more tests per numbered point of docs/rules.md (points 1 to 14).

Each test is named ``test_point_NN_...`` so that a failure reads as the rule
that broke, and each is built so that a plausible other reading of the point
would give a different result.
"""

from __future__ import annotations

import pytest
from helpers import assert_board, cap, hatch, names, play_for, setup, snapshot, turn

import wts
from wts import (
    Capture,
    Color,
    GameOverError,
    IllegalMoveError,
    Piece,
    SetupError,
    Status,
    parse_square,
    square_name,
)

BLACK, WHITE = Color.BLACK, Color.WHITE

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


# --- helpers ---------------------------------------------------------------------




def setup_for(Game, color: Color, own: str = "", foe: str = "", eggs: str = ""):
    """A position seen from ``color``: ``own`` its turtles, ``foe`` the opponent's."""
    if color is BLACK:
        return setup(Game, black=own, white=foe, eggs=eggs)
    return setup(Game, black=foe, white=own, eggs=eggs)








def ray(start: str, direction: str, distance: int) -> str:
    """The square ``distance`` steps from ``start`` in a compass direction."""
    s = parse_square(start)
    df, dr = STEPS[direction]
    return square_name(wts.square(s % 9 + df * distance, s // 9 + dr * distance))


def egg_filled(Game, black: str, white: str, empty: str, oldest: str = ""):
    """A board with every square not named holding an egg (``oldest`` first)."""
    taken = set(names(black) + names(white) + names(empty) + names(oldest))
    eggs = names(oldest) + [sq for sq in range(81) if sq not in taken]
    return Game.from_setup(black=names(black), white=names(white), eggs=eggs)


# Ready-made brackets: black placing on B2, white placing on H8 (by direction:
# the two trapped squares, then the anchor). Used where a test needs a number of
# captures of each colour in the placement step.
BLACK_ON_B2 = {"E": ("C2 D2", "E2"), "N": ("B3 B4", "B5"), "NE": ("C3 D4", "E5")}
WHITE_ON_H8 = {"W": ("G8 F8", "E8"), "S": ("H7 H6", "H5"), "SW": ("G7 F6", "E5")}


def star_setup(Game, black_dirs: str, white_dirs: str, eggs: str = ""):
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
    return setup(Game, black=" ".join(black), white=" ".join(white), eggs=eggs)


def star_captures(black_dirs: str, white_dirs: str) -> tuple[Capture, ...]:
    black = tuple(cap(BLACK, 0, "B2", *BLACK_ON_B2[d]) for d in black_dirs.split())
    white = tuple(cap(WHITE, 0, "H8", *WHITE_ON_H8[d]) for d in white_dirs.split())
    return black + white


# --- Point 1: square names ------------------------------------------------------


def test_point_01_moves_take_names_in_either_case_with_spaces(Game) -> None:
    """Point 1: 'e5', ' E5 ' and 'E5' are the same square; output is upper case."""
    game = Game()
    result = game.play(" e5 ", "i9")
    assert (result.black_move, result.white_move) == (40, 80)
    assert "black_move=E5" in repr(result) and "white_move=I9" in repr(result)
    assert game.piece_at("E5") is Piece.BLACK and game.piece_at("i9 ") is Piece.WHITE


@pytest.mark.parametrize(
    "bad", ["J1", "I10", "E0", "5E", "", "E 5", "\uff255", "E\u0665", "\u01315"]
)
def test_point_01_anything_else_is_not_a_square(Game, bad: str) -> None:
    """Point 1: only one ASCII letter A-I and one ASCII digit 1-9 name a square."""
    game = Game()
    with pytest.raises(IllegalMoveError):
        game.play(bad, "A1")
    assert game.turn == 0 and not game.black and not game.white


def test_point_01_files_left_to_right_ranks_bottom_to_top(Game) -> None:
    """Point 1: in the printed board rank 9 is the top row and file A the left column."""
    game = setup(Game, black="A9", white="I1")
    lines = str(game).splitlines()
    rows = {
        line.split()[0]: line.split()[1:10]
        for line in lines
        if line.split() and line.split()[0].isdigit()
    }
    assert [
        line.split()[0] for line in lines if line.split() and line.split()[0].isdigit()
    ] == list("987654321")
    assert rows["9"][0] == "X" and rows["1"][8] == "O"


# --- Point 2: indices -----------------------------------------------------------


def test_point_02_index_is_rank_times_nine_plus_file(Game) -> None:
    """Point 2: A1=0, I1=8, A2=9, E5=40, I9=80, wherever a square is taken."""
    game = Game()
    result = game.play(40, 8)
    assert game.black == frozenset({parse_square("E5")}) and game.white == frozenset(
        {parse_square("I1")}
    )
    assert (result.black_move, result.white_move) == (40, 8)
    game.play(9, 80)
    assert game.piece_at("A2") is Piece.BLACK and game.piece_at("I9") is Piece.WHITE
    assert game.piece_at(0) is Piece.EMPTY and game.piece_at("A1") is Piece.EMPTY


def test_point_02_bool_is_not_an_int(Game) -> None:
    """Point 2: True is not square 1 (B1), in play, piece_at and from_setup."""
    game = setup(Game, black="B1")
    with pytest.raises(IllegalMoveError):
        game.play(True, "E5")
    with pytest.raises(wts.SquareError):
        game.piece_at(True)
    with pytest.raises(SetupError):
        Game.from_setup(white=[True])
    assert game.piece_at(1) is Piece.BLACK and game.turn == 0


# --- Point 3: legal moves -------------------------------------------------------


@pytest.mark.parametrize("mover", [BLACK, WHITE])
@pytest.mark.parametrize("occupant", ["black", "white", "egg"])
def test_point_03_occupied_square_is_illegal_and_changes_nothing(
    Game, mover: Color, occupant: str
) -> None:
    """Point 3: a square holding a turtle or an egg cannot be named; the error says
    whose move and why, and neither move is applied."""
    game = setup(
        Game,
        black="E5" if occupant == "black" else "",
        white="E5" if occupant == "white" else "",
        eggs="E5" if occupant == "egg" else "",
    )
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        play_for(game, mover, "E5", "A1")
    message = str(info.value)
    assert f"{mover.value}'s" in message and "E5" in message and occupant in message
    assert snapshot(game) == before


def test_point_03_square_emptied_by_a_capture_is_empty(Game) -> None:
    """Point 3: the squares of captured pieces can be named on the next turn."""
    game = setup(Game, black="H5", white="F5 G5")
    game.play("E5", "A9")
    assert {parse_square("F5"), parse_square("G5")} <= set(game.legal_moves())
    result = game.play("F5", "G5")
    assert result.captures == ()
    assert game.piece_at("F5") is Piece.BLACK and game.piece_at("G5") is Piece.WHITE


def test_point_03_move_after_the_game_is_decided_is_illegal(Game) -> None:
    """Point 3: once the game is won, any move raises GameOverError (an IllegalMoveError)."""
    game = setup(Game, black="A1 B1 C1 D1")
    game.play("E1", "A9")
    assert game.status is Status.BLACK_WINS
    before = snapshot(game)
    with pytest.raises(GameOverError):
        game.play("E5", "F5")
    with pytest.raises(IllegalMoveError):
        game.play("E5", "F5")
    assert snapshot(game) == before


# --- Point 4: what a bracket is -------------------------------------------------


@pytest.mark.parametrize("color", [BLACK, WHITE])
@pytest.mark.parametrize("direction", list(STEPS))
def test_point_04_bracket_closes_in_all_eight_directions(
    Game, color: Color, direction: str
) -> None:
    """Point 4: p+d and p+2d opponent pieces, p+3d own turtle, in any of 8 directions."""
    trapped = f"{ray('E5', direction, 1)} {ray('E5', direction, 2)}"
    anchor = ray("E5", direction, 3)
    game = setup_for(Game, color, own=anchor, foe=trapped)
    result = play_for(game, color, "E5", "A9" if direction != "SW" else "I9")
    assert result.captures == (cap(color, 0, "E5", trapped, anchor),)
    assert game.piece_at(ray("E5", direction, 1)) is Piece.EMPTY
    assert game.piece_at(ray("E5", direction, 2)) is Piece.EMPTY
    assert game.piece_at(anchor) is Piece.turtle(color)


@pytest.mark.parametrize("color", [BLACK, WHITE])
@pytest.mark.parametrize(
    "move, own, foe, eggs",
    [
        ("E5", "", "F5 G5", ""),  # far end empty
        ("E5", "", "F5 G5", "H5"),  # far end an egg
        ("E5", "", "F5 G5 H5", ""),  # far end an opponent turtle (three trapped)
        ("G5", "", "H5 I5", ""),  # far end off the board: the edge is not a wall
        ("E7", "", "E8 E9", ""),  # off the top edge
        ("C3", "", "B2 A1", ""),  # off the corner
    ],
    ids=["empty", "egg", "opponent", "off-east-edge", "off-north-edge", "off-corner"],
)
def test_point_04_far_end_must_be_own_turtle(
    Game, color: Color, move: str, own: str, foe: str, eggs: str
) -> None:
    """Point 4: p+3d empty, an egg, an opponent piece or off the board: no capture."""
    game = setup_for(Game, color, own=own, foe=foe, eggs=eggs)
    result = play_for(game, color, move, "I1")
    assert result.captures == () and result.hatched == ()
    assert game.piece_at(move) is Piece.turtle(color)
    for sq in foe.split():
        assert game.piece_at(sq) is Piece.turtle(color.opponent)
    assert game.eggs == tuple(names(eggs))


@pytest.mark.parametrize("color", [BLACK, WHITE])
@pytest.mark.parametrize(
    "move, foe, anchor",
    [
        ("G3", "H3 I3", "A4"),  # east off the I file does not continue on the A file
        ("B4", "A4 I3", "H3"),  # west off the A file does not continue on the I file
        ("H2", "I3 A5", "B6"),  # north-east across the edge
        ("I5", "A5 B4", "C3"),  # south-east across the edge
        ("B6", "A7 I7", "H8"),  # north-west across the edge
        ("A5", "I3 H2", "G1"),  # south-west across the edge
        ("E7", "E8 E9", "E1"),  # north off the top does not come back at the bottom
        ("E3", "E2 E1", "E9"),  # south off the bottom does not come back at the top
    ],
)
def test_point_04_lines_never_wrap_around_the_board(
    Game, color: Color, move: str, foe: str, anchor: str
) -> None:
    """Point 4: a line never wraps from one edge to the other (as raw index steps would)."""
    game = setup_for(Game, color, own=anchor, foe=foe)
    result = play_for(game, color, move, "E5")
    assert result.captures == ()
    for sq in foe.split():
        assert game.piece_at(sq) is Piece.turtle(color.opponent)


@pytest.mark.parametrize("color", [BLACK, WHITE])
@pytest.mark.parametrize(
    "own, foe, eggs",
    [
        ("G5", "F5", ""),  # a lone enemy piece
        ("I5", "F5 G5 H5", ""),  # three enemy pieces
        ("G5", "", "F5"),  # a lone egg
        ("I5", "F5 H5", "G5"),  # three pieces, mixed
        ("F5 H5", "G5", ""),  # own turtle inside
        ("H5", "G5", ""),  # gap inside
        ("H5", "F5", ""),  # gap inside
    ],
    ids=["one", "three", "one-egg", "three-mixed", "own-inside", "gap-first", "gap-second"],
)
def test_point_04_exactly_two_pieces_are_trapped(
    Game, color: Color, own: str, foe: str, eggs: str
) -> None:
    """Point 4: exactly two opponent pieces between; one, three, an own turtle or a
    gap is no capture."""
    game = setup_for(Game, color, own=own, foe=foe, eggs=eggs)
    result = play_for(game, color, "E5", "A9")
    assert result.captures == ()
    for sq in foe.split():
        assert game.piece_at(sq) is Piece.turtle(color.opponent)
    assert game.eggs == tuple(names(eggs))


@pytest.mark.parametrize("color", [BLACK, WHITE])
@pytest.mark.parametrize(
    "foe, eggs",
    [("", "F5 G5"), ("G5", "F5"), ("F5", "G5")],
    ids=["two-eggs", "egg-then-turtle", "turtle-then-egg"],
)
def test_point_04_eggs_and_mixed_pairs_are_trapped(Game, color: Color, foe: str, eggs: str) -> None:
    """Point 4: an egg counts as a trappable piece, alone or with an opponent turtle."""
    game = setup_for(Game, color, own="H5", foe=foe, eggs=eggs)
    result = play_for(game, color, "E5", "A9")
    expected_black, expected_white = ("E5", "A9") if color is BLACK else ("A9", "E5")
    assert result == turn(
        expected_black, expected_white, captures=(cap(color, 0, "E5", "F5 G5", "H5"),)
    )
    assert game.eggs == ()
    assert game.piece_at("F5") is Piece.EMPTY and game.piece_at("G5") is Piece.EMPTY


# --- Point 5: arrivals ----------------------------------------------------------


def test_point_05_placed_turtle_is_not_an_arrival_again_in_a_wave(Game) -> None:
    """Point 5: in wave 1 only the hatched E5 arrives; it closes E5-E4-E3-E2 against
    the placed E2 (far end placed this turn), reported once with E5 as the closer."""
    game = setup(Game, black="H2", white="F2 G2 E3 E4", eggs="E5")
    result = game.play("E2", "A9")
    assert result == turn(
        "E2",
        "A9",
        captures=(
            cap(BLACK, 0, "E2", "F2 G2", "H2"),
            cap(BLACK, 1, "E5", "E4 E3", "E2"),
        ),
        hatched=(hatch("E5", BLACK, 1),),
    )
    assert_board(game, black="E2 H2 E5", white="A9")


@pytest.mark.parametrize(
    "white_move, white, eggs",
    [("E5", "F5", ""), ("F5", "E5", ""), ("E5", "", "F5"), ("F5", "", "E5")],
    ids=["arrival-then-turtle", "turtle-then-arrival", "arrival-then-egg", "egg-then-arrival"],
)
def test_point_05_arrival_inside_a_bracket_is_safe(
    Game, white_move: str, white: str, eggs: str
) -> None:
    """Point 5: white landing inside black's D5 .. G5 bracket is not captured."""
    game = setup(Game, black="D5 G5", white=white, eggs=eggs)
    result = game.play("A1", white_move)
    assert result.captures == ()
    assert_board(game, black="A1 D5 G5", white=f"{white} {white_move}", eggs=eggs)


def test_point_05_far_end_may_be_hatched_earlier_this_turn(Game) -> None:
    """Point 5: wave 2's B8 closes against B5, hatched in wave 1, which closed
    against B2, placed this turn."""
    game = setup(Game, black="E2", white="C2 D2 B3 B4 B6 B7", eggs="B5 B8 H8 H5")
    result = game.play("B2", "I1")
    assert result.captures == (
        cap(BLACK, 0, "B2", "C2 D2", "E2"),
        cap(BLACK, 1, "B5", "B4 B3", "B2"),
        cap(BLACK, 2, "B8", "B7 B6", "B5"),
    )
    assert_board(game, black="B2 E2 B5 B8 H8", white="I1", eggs="H5")


# --- Point 6: all brackets of a step at once ------------------------------------


def test_point_06_mutual_captures_and_a_captured_turtle_still_captures(Game) -> None:
    """Point 6: black's E5 captures F5 G5 while white's C5 captures D5 and E5 itself
    (against F5, which is being captured too): both captures happen."""
    game = setup(Game, black="D5 H5", white="F5 G5")
    result = game.play("E5", "C5")
    assert result == turn(
        "E5",
        "C5",
        captures=(
            cap(BLACK, 0, "E5", "F5 G5", "H5"),
            cap(WHITE, 0, "C5", "D5 E5", "F5"),
        ),
    )
    assert_board(game, black="H5", white="C5")


def test_point_06_anticipatory_capture_of_a_just_placed_turtle(Game) -> None:
    """Point 6: black's H5 traps white's G5, placed the same turn, with F5, against E5."""
    game = setup(Game, black="E5", white="F5")
    result = game.play("H5", "G5")
    assert result == turn("H5", "G5", captures=(cap(BLACK, 0, "H5", "G5 F5", "E5"),))
    assert_board(game, black="E5 H5")


def test_point_06_piece_in_two_brackets_leaves_once_and_counts_twice(Game) -> None:
    """Point 6: E5 sits in two brackets of wave 1 (E3 north, D5 east): it leaves
    once, and the two captures hatch two eggs in wave 2."""
    game = setup(
        Game,
        black="E1 H4 E6 G5",
        white="G1 F1 H2 H3 E4 E5 F5",
        eggs="D5 E3 A9 I9 A7",
    )
    result = game.play("H1", "A1")
    assert result == turn(
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
    )
    assert_board(game, black="H1 E1 H4 E6 G5 D5 E3 A9 I9", white="A1", eggs="A7")


def test_point_06_egg_in_a_black_and_a_white_bracket_counts_for_both(Game) -> None:
    """Point 6: the egg on E5 is trapped by black (C5) and by white (E3) at once: one
    capture each, so the next egg dissolves instead of hatching for either."""
    game = setup(Game, black="F5 E4", white="D5 E6", eggs="E5 A9")
    result = game.play("C5", "E3")
    assert result == turn(
        "C5",
        "E3",
        captures=(
            cap(BLACK, 0, "C5", "D5 E5", "F5"),
            cap(WHITE, 0, "E3", "E4 E5", "E6"),
        ),
        dissolved="A9",
    )
    assert_board(game, black="C5 F5", white="E3 E6")


def test_point_06_bracket_closed_from_both_ends_in_one_wave_counts_once(Game) -> None:
    """Point 6: D1 and A1 hatch together and bracket B1 C1 from both ends: one
    capture, reported with the lower square (A1) as closer, so only one egg
    hatches in wave 2."""
    game = setup(
        Game,
        black="E8 H5",
        white="G8 F8 H7 H6 B1 C1",
        eggs="D1 A1 A9 I1",
    )
    result = game.play("H8", "A5")
    assert result == turn(
        "H8",
        "A5",
        captures=(
            cap(BLACK, 0, "H8", "G8 F8", "E8"),
            cap(BLACK, 0, "H8", "H7 H6", "H5"),
            cap(BLACK, 1, "A1", "B1 C1", "D1"),
        ),
        hatched=(hatch("D1", BLACK, 1), hatch("A1", BLACK, 1), hatch("A9", BLACK, 2)),
    )
    assert_board(game, black="H8 E8 H5 D1 A1 A9", white="A5", eggs="I1")


# --- Point 7: captured eggs leave the queue first --------------------------------


def test_point_07_captured_oldest_egg_is_not_the_one_that_hatches(Game) -> None:
    """Point 7: black's C5 captures the oldest egg (D5); the next egg (A9) hatches."""
    game = setup(Game, black="F5", white="E5", eggs="D5 A9")
    result = game.play("C5", "I1")
    assert result == turn(
        "C5",
        "I1",
        captures=(cap(BLACK, 0, "C5", "D5 E5", "F5"),),
        hatched=(hatch("A9", BLACK, 1),),
    )
    assert_board(game, black="C5 F5 A9", white="I1")


def test_point_07_captured_oldest_egg_is_not_the_one_that_dissolves(Game) -> None:
    """Point 7: with one capture each, the oldest egg still on the board dissolves,
    not the captured one."""
    game = setup(Game, black="F5 H7 H6", white="D5 H5", eggs="E5 A9 I1")
    result = game.play("C5", "H8")
    assert result == turn(
        "C5",
        "H8",
        captures=(
            cap(BLACK, 0, "C5", "D5 E5", "F5"),
            cap(WHITE, 0, "H8", "H7 H6", "H5"),
        ),
        dissolved="A9",
    )
    assert_board(game, black="C5 F5", white="H8 H5", eggs="I1")


# --- Point 8: dissolving, hatching and waves -------------------------------------


@pytest.mark.parametrize(
    "black_dirs, white_dirs, eggs, dissolved, hatched, hatch_color, left",
    [
        ("E", "W", "I1 A9", "I1", "", None, "A9"),
        ("E N", "W", "I1", "I1", "", None, ""),  # black's extra capture finds no egg
        ("E N", "W S", "I3 A9 I1", "I3 A9", "", None, "I1"),
        ("E N", "W S", "I1", "I1", "", None, ""),  # fewer eggs than pairs
        ("E N NE", "W", "I1 A9 I3 A7", "I1", "A9 I3", BLACK, "A7"),
        ("", "W S", "I3 A9 I1", "", "I3 A9", WHITE, "I1"),
        ("E N", "", "A9", "", "A9", BLACK, ""),  # one egg for two captures
        ("E", "W", "", "", "", None, ""),
    ],
    ids=["1-1", "2-1-one-egg", "2-2", "2-2-one-egg", "3-1", "0-2", "2-0-one-egg", "1-1-no-eggs"],
)
def test_point_08_pairs_dissolve_and_the_surplus_hatches_oldest_first(
    Game, black_dirs, white_dirs, eggs, dissolved, hatched, hatch_color, left
) -> None:
    """Point 8: min(cb, cw, eggs) oldest eggs dissolve; each remaining capture of the
    side with more hatches the next oldest egg; with no egg left the rest is lost."""
    game = star_setup(Game, black_dirs, white_dirs, eggs)
    result = game.play("B2", "H8")
    assert result == turn(
        "B2",
        "H8",
        captures=star_captures(black_dirs, white_dirs),
        dissolved=dissolved,
        hatched=tuple(hatch(sq, hatch_color, 1) for sq in hatched.split()),
    )
    assert game.eggs == tuple(names(left))
    for sq in dissolved.split():
        assert game.piece_at(sq) is Piece.EMPTY
    for sq in hatched.split():
        assert game.piece_at(sq) is Piece.turtle(hatch_color)


def test_point_08_captures_without_an_egg_are_lost_now_and_later(Game) -> None:
    """Point 8: a capture made with no egg on the board never hatches anything later."""
    game = setup(Game, black="H5", white="F5 G5")
    assert game.play("E5", "A1").hatched == ()
    assert game.play("I9", "I9").collision == parse_square("I9")
    result = game.play("B8", "H2")
    assert result.captures == () and result.hatched == ()
    assert_board(game, black="E5 H5 B8", white="A1 H2", eggs="I9")


def test_point_08_hatched_turtles_land_together_before_looking_for_brackets(Game) -> None:
    """Point 8: B8 and D8 hatch together in wave 1. B8-C8-D8-E8 is no bracket, since
    D8 is already black; hatching B8 alone and checking before D8 hatches would
    have captured C8 and the egg on D8."""
    game = setup(Game, black="E2 B5 E8", white="C2 D2 B3 B4 C8", eggs="B8 D8 G9")
    result = game.play("B2", "I1")
    assert result == turn(
        "B2",
        "I1",
        captures=(cap(BLACK, 0, "B2", "C2 D2", "E2"), cap(BLACK, 0, "B2", "B3 B4", "B5")),
        hatched=(hatch("B8", BLACK, 1), hatch("D8", BLACK, 1)),
    )
    assert_board(game, black="B2 E2 B5 B8 D8 E8", white="C8 I1", eggs="G9")


def test_point_08_a_wave_captures_even_when_no_egg_is_left(Game) -> None:
    """Point 8: the last egg (E5) hatches and captures F5 G5; those pieces are removed
    although no egg is left to hatch for it."""
    game = setup(Game, black="H2 H5", white="F2 G2 F5 G5", eggs="E5")
    result = game.play("E2", "A9")
    assert result == turn(
        "E2",
        "A9",
        captures=(cap(BLACK, 0, "E2", "F2 G2", "H2"), cap(BLACK, 1, "E5", "F5 G5", "H5")),
        hatched=(hatch("E5", BLACK, 1),),
    )
    assert_board(game, black="E2 H2 E5 H5", white="A9")


def test_point_08_only_the_hatching_colour_captures_in_a_wave(Game) -> None:
    """Point 8: in black's wave, E5 (hatched black) sits in white's D4 .. G7 frame and
    starts E5-F5-G5-H5 (black, egg, black, white): white captures nothing."""
    game = setup(Game, black="H2 G5", white="F2 G2 D4 G7 H5", eggs="E5 F5 F6")
    result = game.play("E2", "I1")
    assert result == turn(
        "E2",
        "I1",
        captures=(cap(BLACK, 0, "E2", "F2 G2", "H2"),),
        hatched=(hatch("E5", BLACK, 1),),
    )
    assert_board(game, black="E2 H2 G5 E5", white="D4 G7 H5 I1", eggs="F5 F6")


def test_point_08_cascade_runs_wave_after_wave_with_round_numbers(Game) -> None:
    """Point 8: placement capture -> wave 1 capture -> wave 2 capture -> wave 3 hatch
    that captures nothing; each capture is tagged with its step."""
    game = setup(Game, black="E2", white="C2 D2 B3 B4 B6 B7", eggs="B5 B8 H8 H5")
    result = game.play("B2", "I1")
    assert result == turn(
        "B2",
        "I1",
        captures=(
            cap(BLACK, 0, "B2", "C2 D2", "E2"),
            cap(BLACK, 1, "B5", "B4 B3", "B2"),
            cap(BLACK, 2, "B8", "B7 B6", "B5"),
        ),
        hatched=(hatch("B5", BLACK, 1), hatch("B8", BLACK, 2), hatch("H8", BLACK, 3)),
    )
    assert_board(game, black="B2 E2 B5 B8 H8", white="I1", eggs="H5")


# --- Point 9: collisions -------------------------------------------------------


def test_point_09_collision_lays_newest_egg_and_nothing_is_captured(Game) -> None:
    """Point 9: both name E5, where either placement would have captured: an egg is
    laid there, newest in the queue, and nothing is captured or hatched."""
    game = setup(Game, black="H5 D5 C5", white="F5 G5 B5", eggs="A9")
    result = game.play("E5", "E5")
    assert result == turn("E5", "E5", collision="E5")
    assert_board(game, black="H5 D5 C5", white="F5 G5 B5", eggs="A9 E5")
    assert game.turn == 1


# --- Point 10: winning turtles --------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "A1 B1 C1 D1 E1",
        "E1 E2 E3 E4 E5",
        "A1 B2 C3 D4 E5",
        "I1 H2 G3 F4 E5",
        "E5 F6 G7 H8 I9",
        "A9 B8 C7 D6 E5",
    ],
    ids=[
        "across",
        "down",
        "diagonal",
        "anti-diagonal",
        "diagonal-to-corner",
        "anti-diagonal-from-corner",
    ],
)
def test_point_10_five_in_a_row_in_every_line_direction(Game, line: str) -> None:
    """Point 10: across, down or either diagonal; the game is won after the turn."""
    *before, last = line.split()
    game = setup(Game, white=" ".join(before))
    result = game.play("A5" if "A5" not in line else "I5", last)
    assert (result.status, result.winning_counts) == (Status.WHITE_WINS, (0, 5))


def test_point_10_row_of_six_counts_six(Game) -> None:
    """Point 10: every turtle of a row of six is a winning turtle."""
    game = setup(Game, black="A1 B1 C1 E1 F1")
    result = game.play("D1", "A9")
    assert (result.status, result.winning_counts) == (Status.BLACK_WINS, (6, 0))
    assert setup(Game, black="A1 B1 C1 D1 E1 F1 G1 H1 I1").winning_counts == (9, 0)


def test_point_10_crossing_rows_count_their_shared_turtle_once(Game) -> None:
    """Point 10: two diagonals of five crossing on C3 hold nine distinct turtles."""
    game = setup(Game, black="A1 B2 D4 E5 A5 B4 D2 E1")
    result = game.play("C3", "I9")
    assert result.winning_counts == (9, 0)


def test_point_10_eggs_are_never_part_of_a_line(Game) -> None:
    """Point 10: four turtles and an egg in a row are not a row of five."""
    game = setup(Game, black="A1 B1 C1 D1", white="A3 B3 D3 E3", eggs="E1 C3")
    assert (game.status, game.winning_counts) == (Status.ONGOING, (0, 0))
    result = game.play("I9", "I8")
    assert (result.status, result.winning_counts) == (Status.ONGOING, (0, 0))


@pytest.mark.parametrize(
    "pieces",
    ["G1 H1 I1 A2 B2", "I1 A2 B2 C2 D2", "G1 H2 I3 A5 B6", "C9 B9 A9 I8 H7"],
    ids=["rank-wrap", "rank-wrap-2", "diagonal-wrap", "anti-diagonal-wrap"],
)
def test_point_10_lines_do_not_wrap_around_the_edge(Game, pieces: str) -> None:
    """Point 10: five turtles with consecutive-looking indices across an edge are no row."""
    game = setup(Game, black=pieces)
    assert (game.status, game.winning_counts) == (Status.ONGOING, (0, 0))


def test_point_10_a_row_broken_in_the_same_turn_never_counts(Game) -> None:
    """Point 10: black's E3 completes A3-E3 but white's E5 captures E4 and E3 the
    same turn; the result is read after the turn settles: no win."""
    game = setup(Game, black="A3 B3 C3 D3 E4", white="E2")
    result = game.play("E3", "E5")
    assert result == turn("E3", "E5", captures=(cap(WHITE, 0, "E5", "E4 E3", "E2"),))
    assert_board(game, black="A3 B3 C3 D3", white="E2 E5")


def test_point_10_a_row_completed_by_hatching_wins(Game) -> None:
    """Point 10: the egg on E5 hatches black and completes A5-E5 within the turn."""
    game = setup(Game, black="A5 B5 C5 D5 E1", white="F1 G1", eggs="E5")
    assert game.status is Status.ONGOING
    result = game.play("H1", "A9")
    assert result == turn(
        "H1",
        "A9",
        captures=(cap(BLACK, 0, "H1", "G1 F1", "E1"),),
        hatched=(hatch("E5", BLACK, 1),),
        status=Status.BLACK_WINS,
        counts=(5, 0),
    )


# --- Point 11: deciding the game -----------------------------------------------

SUDDEN_DEATH_POSITION = dict(black="A3 B3 C3 D3 E3 D4 C8", white="A7 B7 C7 D7 E7 C6 D2")


def test_point_11_equal_nonzero_counts_are_sudden_death_and_play_goes_on(Game) -> None:
    """Point 11: b = w > 0 is sudden death: not over, no winner, moves still legal;
    it holds while the counts stay equal."""
    game = setup(Game, black="A1 B1 C1 D1", white="A9 B9 C9 D9")
    result = game.play("E1", "E9")
    assert (result.status, result.winning_counts) == (Status.SUDDEN_DEATH, (5, 5))
    assert not game.is_over() and game.winner is None and game.legal_moves()
    result = game.play("E5", "F5")
    assert (result.status, result.winning_counts) == (Status.SUDDEN_DEATH, (5, 5))


def test_point_11_in_sudden_death_the_higher_recount_wins(Game) -> None:
    """Point 11: extending a row to six makes the counts (6, 5): black wins."""
    game = setup(Game, black="A1 B1 C1 D1 E1", white="A9 B9 C9 D9 E9")
    assert game.status is Status.SUDDEN_DEATH
    result = game.play("F1", "E5")
    assert (result.status, result.winning_counts) == (Status.BLACK_WINS, (6, 5))
    assert game.winner is Color.BLACK


def test_point_11_destroying_the_other_row_wins(Game) -> None:
    """Point 11: white captures D4 and D3 out of black's row: (0, 5), white wins."""
    game = setup(Game, **SUDDEN_DEATH_POSITION)
    assert (game.status, game.winning_counts) == (Status.SUDDEN_DEATH, (5, 5))
    result = game.play("I9", "D5")
    assert result == turn(
        "I9",
        "D5",
        captures=(cap(WHITE, 0, "D5", "D4 D3", "D2"),),
        status=Status.WHITE_WINS,
        counts=(0, 5),
    )
    assert game.winner is Color.WHITE and game.is_over()


def test_point_11_both_rows_broken_returns_to_normal_play_and_can_reenter(Game) -> None:
    """Point 11: sudden death is read off the board: when captures break both rows the
    game is ongoing again, and refilling both rows enters sudden death again."""
    game = setup(Game, **SUDDEN_DEATH_POSITION)
    result = game.play("C5", "D5")
    assert result == turn(
        "C5",
        "D5",
        captures=(
            cap(BLACK, 0, "C5", "C6 C7", "C8"),
            cap(WHITE, 0, "D5", "D4 D3", "D2"),
        ),
        status=Status.ONGOING,
        counts=(0, 0),
    )
    result = game.play("D3", "C7")
    assert result == turn("D3", "C7", status=Status.SUDDEN_DEATH, counts=(5, 5))


def test_point_11_a_win_stands_when_the_same_turn_fills_the_board(Game) -> None:
    """Point 11: black completes a row with the last empty squares: a win, not a draw."""
    game = egg_filled(Game, black="A1 B1 C1 D1", white="", empty="E1 I9")
    assert game.legal_moves() == names("E1 I9")
    result = game.play("E1", "I9")
    assert (result.status, result.winning_counts) == (Status.BLACK_WINS, (5, 0))
    assert result.captures == ()
    assert game.legal_moves() == []


def test_point_11_a_white_win_stands_when_the_same_turn_fills_the_board(Game) -> None:
    """Point 11, the mirror: white completes a row with the last empty squares: white
    wins, not a draw."""
    game = egg_filled(Game, black="", white="A9 B9 C9 D9", empty="I1 E9")
    assert game.legal_moves() == names("I1 E9")
    result = game.play("I1", "E9")
    assert (result.status, result.winning_counts) == (Status.WHITE_WINS, (0, 5))
    assert result.captures == ()
    assert game.legal_moves() == [] and game.winner is Color.WHITE


# --- Point 12: draws -----------------------------------------------------------


def test_point_12_full_board_without_a_row_is_a_draw(Game) -> None:
    """Point 12: no empty square left and nobody has a row: draw."""
    game = egg_filled(Game, black="", white="", empty="E5 E6")
    result = game.play("E5", "E6")
    assert (result.status, result.winning_counts) == (Status.DRAW, (0, 0))
    assert game.is_over() and game.winner is None and game.legal_moves() == []
    with pytest.raises(GameOverError):
        game.play("E5", "E6")


def test_point_12_full_board_with_equal_nonzero_counts_is_a_draw(Game) -> None:
    """Point 12: both complete a row as the board fills: (5, 5) is a draw, not sudden death."""
    game = egg_filled(Game, black="A1 B1 C1 D1", white="A9 B9 C9 D9", empty="E1 E9")
    result = game.play("E1", "E9")
    assert (result.status, result.winning_counts) == (Status.DRAW, (5, 5))
    assert game.is_over()


def test_point_12_board_emptied_by_a_capture_in_the_last_turn_is_no_draw(Game) -> None:
    """Point 12: the board is judged after the turn: the last two placements fill it,
    but black's A1 captures B1 and C1, so squares are empty again and play goes on."""
    game = egg_filled(Game, black="D1", white="B1 C1", empty="A1 I1", oldest="I9")
    result = game.play("A1", "I1")
    assert result == turn(
        "A1",
        "I1",
        captures=(cap(BLACK, 0, "A1", "B1 C1", "D1"),),
        hatched=(hatch("I9", BLACK, 1),),
    )
    assert game.legal_moves() == names("B1 C1")


# --- Point 13: set-up positions ------------------------------------------------


@pytest.mark.parametrize(
    "black, white, eggs, status, counts",
    [
        ("A1 B1 C1 D1 E1", "A2", "", Status.BLACK_WINS, (5, 0)),
        ("A2", "E1 E2 E3 E4 E5 E6", "", Status.WHITE_WINS, (0, 6)),
        ("A1 B1 C1 D1 E1", "A9 B9 C9 D9 E9", "", Status.SUDDEN_DEATH, (5, 5)),
        ("A1 B1 C1 D1", "A9 B9 C9 D9", "E1 E9", Status.ONGOING, (0, 0)),
    ],
    ids=["black-wins", "white-wins", "sudden-death", "ongoing"],
)
def test_point_13_setup_status_follows_at_once(Game, black, white, eggs, status, counts) -> None:
    """Point 13: a set-up position's status is read off the board immediately."""
    game = setup(Game, black=black, white=white, eggs=eggs)
    assert (game.status, game.winning_counts, game.turn) == (status, counts, 0)
    assert game.is_over() is status.is_over


def test_point_13_setup_with_a_black_five_is_won_and_refuses_moves(Game) -> None:
    """Point 13: a set-up black five is BLACK_WINS; playing on raises GameOverError."""
    game = setup(Game, black="B2 C3 D4 E5 F6", white="A1")
    assert game.status is Status.BLACK_WINS and game.winner is Color.BLACK
    assert game.legal_moves() == []
    before = snapshot(game)
    with pytest.raises(GameOverError):
        game.play("I1", "I2")
    assert snapshot(game) == before


def test_point_13_full_setup_board_without_rows_is_a_draw(Game) -> None:
    """Point 13 with 12: a set-up full board with no row is a draw at once."""
    game = Game.from_setup(eggs=range(81))
    assert game.status is Status.DRAW


def test_point_13_egg_order_is_the_one_given(Game) -> None:
    """Point 13: eggs are kept oldest first as listed (not sorted), and hatch in that order."""
    game = setup(Game, black="H5", white="F5 G5", eggs="I9 A1 E1")
    assert game.eggs == tuple(names("I9 A1 E1"))
    result = game.play("E5", "C5")
    assert result.hatched == (hatch("I9", BLACK, 1),)
    assert game.eggs == tuple(names("A1 E1"))


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(black=["E5", "E5"]),
        dict(black=["E5", "e5"]),
        dict(white=[40, "E5"]),
        dict(eggs=["A1", "B1", "A1"]),
        dict(black=["E5"], white=["E5"]),
        dict(black=["E5"], eggs=[40]),
        dict(white=["e5 "], eggs=["E5"]),
    ],
    ids=[
        "black-twice",
        "black-two-spellings",
        "white-int-and-name",
        "eggs-twice",
        "black-and-white",
        "black-and-egg",
        "white-and-egg",
    ],
)
def test_point_13_square_named_twice_is_a_setup_error(Game, kwargs) -> None:
    """Point 13: a square named twice, in one list or in two, is an error."""
    with pytest.raises(SetupError):
        Game.from_setup(**kwargs)


@pytest.mark.parametrize("bad", ["J1", "E0", "", 81, -1, True, None, 4.5])
@pytest.mark.parametrize("field", ["black", "white", "eggs"])
def test_point_13_not_a_square_is_a_setup_error(Game, field: str, bad: object) -> None:
    """Point 13: something that is not a square, in any list, is an error."""
    with pytest.raises(SetupError):
        Game.from_setup(**{field: ["A1", bad] if field != "black" else [bad]})


# --- Point 14: event order -----------------------------------------------------


def test_point_14_directions_are_ordered_e_w_n_s_ne_sw_nw_se(Game) -> None:
    """Point 14: one arrival's captures are listed E, W, N, S, NE, SW, NW, SE, each
    with the square nearest the closer first."""
    order = ["E", "W", "N", "S", "NE", "SW", "NW", "SE"]
    white = " ".join(f"{ray('E5', d, 1)} {ray('E5', d, 2)}" for d in order)
    black = " ".join(ray("E5", d, 3) for d in order)
    game = setup(Game, black=black, white=white)
    result = game.play("E5", "A1")
    assert result.captures == tuple(
        cap(BLACK, 0, "E5", f"{ray('E5', d, 1)} {ray('E5', d, 2)}", ray("E5", d, 3)) for d in order
    )
    assert game.white == frozenset(names("A1"))


def test_point_14_black_captures_are_listed_before_white_captures(Game) -> None:
    """Point 14: black's captures come first even when white's arrival has the lower square."""
    game = setup(Game, black="C2 D2 E8", white="E2 G8 F8")
    result = game.play("H8", "B2")
    assert result.captures == (
        cap(BLACK, 0, "H8", "G8 F8", "E8"),
        cap(WHITE, 0, "B2", "C2 D2", "E2"),
    )


def test_point_14_wave_captures_ordered_by_arriving_square_then_direction(Game) -> None:
    """Point 14: in wave 1, F4 (index 32) lists its N and SE captures before the older
    egg C8 (index 65) lists its E capture; placement-step captures come first."""
    game = setup(
        Game,
        black="E2 B5 F7 I1 F8",
        white="C2 D2 B3 B4 F5 F6 G3 H2 D8 E8",
        eggs="C8 F4",
    )
    result = game.play("B2", "A9")
    assert result == turn(
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
    )
    assert_board(game, black="B2 E2 B5 F7 I1 F8 C8 F4", white="A9")


def test_point_14_dissolved_and_hatched_eggs_are_listed_oldest_first(Game) -> None:
    """Point 14: dissolved and hatched eggs are listed by age, not by square."""
    game = star_setup(Game, "E N", "W S", eggs="I3 A9 I1")
    assert game.play("B2", "H8").dissolved == tuple(names("I3 A9"))
    game = star_setup(Game, "E N", "", eggs="I3 A9 I1")
    assert game.play("B2", "H8").hatched == (hatch("I3", BLACK, 1), hatch("A9", BLACK, 1))
