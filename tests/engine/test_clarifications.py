"""One or more tests per numbered point of docs/rules.md (points 1 to 14).

The scenarios (a position, the turns played from it, what each must give) are
rows of tests/scenarios/clarifications.py, run here by ``test_clarification``
with the row's name as id: ``test_clarification[fast-point_06_...]``. The
tests that are not a scenario are named ``test_point_NN_...``. Either way a
failure reads as the rule that broke, and each case is built so that a
plausible other reading of the point would give a different result.
"""

from __future__ import annotations

import pytest
from scenarios import Scenario, ids, play_through
from scenarios.clarifications import CLARIFICATIONS, STEPS, ray, star, star_captures

import wts
from tests.support.games import cap, hatch, names, play_for, setup, snapshot, turn
from tests.support.processes import ROOT
from wts import Color, GameOverError, IllegalMoveError, Piece, SetupError, Status, parse_square

BLACK, WHITE = Color.BLACK, Color.WHITE


def setup_for(Game, color: Color, own: str = "", foe: str = "", eggs: str = ""):
    """A position seen from ``color``: ``own`` its turtles, ``foe`` the opponent's."""
    if color is BLACK:
        return setup(Game, black=own, white=foe, eggs=eggs)
    return setup(Game, black=foe, white=own, eggs=eggs)


@pytest.mark.parametrize("scenario", CLARIFICATIONS, ids=ids(CLARIFICATIONS))
def test_clarification(Game, scenario: Scenario) -> None:
    """Every scenario of points 3 to 14, on both engines."""
    play_through(Game, scenario)


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
    game = star(black_dirs, white_dirs, eggs).build(Game)
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


# --- Point 13: set-up positions ------------------------------------------------


def test_point_13_setup_with_a_black_five_is_won_and_refuses_moves(Game) -> None:
    """Point 13: a set-up black five is BLACK_WINS; playing on raises GameOverError."""
    game = setup(Game, black="B2 C3 D4 E5 F6", white="A1")
    assert game.status is Status.BLACK_WINS and game.winner is Color.BLACK
    assert game.legal_moves() == []
    before = snapshot(game)
    with pytest.raises(GameOverError):
        game.play("I1", "I2")
    assert snapshot(game) == before


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


def test_the_rules_page_is_a_player_s_page_first() -> None:
    """docs/rules.md opens with the rules; the tests that prove each point
    are in its last section, for developers."""

    page = ROOT / "docs" / "rules.md"
    if not page.is_file():
        pytest.skip("no docs/ beside the tests")
    text = page.read_text(encoding="utf-8")
    developers = text.index("## For developers: the tests of each rule")
    assert "tests/" not in text[:developers] and "test_" not in text[:developers]
    assert "tests/engine/test_clarifications.py" in text[developers:]
