"""Squares: names, indices and what counts as a square (points 1 and 2).

The pure functions of :mod:`wts.squares` are engine-independent and tested
once; everything that takes a square on a game runs on both engines through
the ``Game`` fixture.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import wts
from wts import Piece, SquareError, parse_square, square_name
from wts.engine.squares import to_square

FILES = "ABCDEFGHI"
RANKS = "123456789"
ALL_NAMES = [f + r for r in RANKS for f in FILES]


# --- Point 1: what a square name is --------------------------------------------


@pytest.mark.parametrize(
    "text, index",
    [
        ("E5", 40),
        ("e5", 40),
        ("A1", 0),
        ("a1", 0),
        ("I9", 80),
        ("i9", 80),
        (" E5", 40),
        ("E5 ", 40),
        ("   e5   ", 40),
    ],
)
def test_parse_square_accepts_either_case_and_surrounding_spaces(text: str, index: int) -> None:
    """A letter A-I in either case and a digit 1-9; surrounding ASCII spaces are ignored."""
    assert parse_square(text) == index


def test_parse_square_reads_every_name_in_both_cases() -> None:
    """All 81 names parse, upper and lower case alike, to (rank - 1) * 9 + file."""
    for name in ALL_NAMES:
        expected = RANKS.index(name[1]) * 9 + FILES.index(name[0])
        assert parse_square(name) == expected
        assert parse_square(name.lower()) == expected


@pytest.mark.parametrize(
    "text",
    [
        "J1",  # file past I
        "I10",  # rank past 9
        "E0",  # rank 0
        "5E",  # digit first
        "",  # nothing
        "   ",  # only spaces
        "E",  # no rank
        "5",  # no file
        "E55",  # too long
        "EE",
        "E 5",  # space inside
        "E-5",
        "\tE5",  # tab is not an ASCII space here
        "E5\t",
        "E5\n",
        "\u00a0E5",  # no-break space
        "E5\u3000",  # ideographic space
        "\uff255",  # fullwidth E
        "\uff455",  # fullwidth e
        "E\uff15",  # fullwidth 5
        "E\u0665",  # Arabic-Indic five
        "E\u2075",  # superscript five
        "\u04155",  # Cyrillic capital IE, looks like E
        "\u03955",  # Greek capital epsilon, looks like E
        "\u21605",  # Roman numeral one, looks like I
        "\u01315",  # dotless i: upper-cases to ASCII "I" but is not ASCII
    ],
)
def test_parse_square_rejects_anything_but_one_ascii_letter_and_digit(text: str) -> None:
    """Point 1: anything but one ASCII letter A-I and one ASCII digit 1-9 is not a square."""
    with pytest.raises(SquareError):
        parse_square(text)


@pytest.mark.parametrize("value", [40, None, b"E5", 4.0])
def test_parse_square_rejects_non_strings(value: object) -> None:
    """parse_square reads names only; anything else raises SquareError."""
    with pytest.raises(SquareError):
        parse_square(value)  # type: ignore[arg-type]


def test_square_name_is_upper_case() -> None:
    """Point 1: output names are upper case, whatever case went in."""
    assert square_name(40) == "E5"
    assert square_name(parse_square("e5")) == "E5"
    assert [square_name(i) for i in range(81)] == ALL_NAMES
    assert all(name == name.upper() for name in wts.SQUARE_NAMES)


@pytest.mark.parametrize("value", [-1, 81, True, None, 40.0])
def test_square_name_rejects_non_squares(value: object) -> None:
    """square_name takes an index 0-80 (not a bool) and nothing else."""
    with pytest.raises(SquareError):
        square_name(value)  # type: ignore[arg-type]


# --- Point 2: indices ----------------------------------------------------------


@pytest.mark.parametrize("name, index", [("A1", 0), ("I1", 8), ("A2", 9), ("E5", 40), ("I9", 80)])
def test_index_rule_examples(name: str, index: int) -> None:
    """Point 2: index = (rank - 1) * 9 + file, so A1=0, I1=8, A2=9, E5=40, I9=80."""
    assert parse_square(name) == index
    assert square_name(index) == name


def test_files_run_left_to_right_and_ranks_bottom_to_top() -> None:
    """Point 1: the file is the letter (A=0 .. I=8), the rank the digit (1=0 .. 9=8)."""
    for name in ALL_NAMES:
        sq = parse_square(name)
        assert wts.square_file(sq) == FILES.index(name[0])
        assert wts.square_rank(sq) == RANKS.index(name[1])
        assert wts.square(FILES.index(name[0]), RANKS.index(name[1])) == sq


@pytest.mark.parametrize("file_index, rank_index", [(9, 0), (0, 9), (-1, 0), (0, -1)])
def test_square_of_file_and_rank_off_the_board(file_index: int, rank_index: int) -> None:
    """square(file, rank) exists only for files and ranks 0-8."""
    with pytest.raises(SquareError):
        wts.square(file_index, rank_index)


def test_square_constants_match_their_names() -> None:
    """wts.A1 .. wts.I9 are the indices of their names."""
    for name in ALL_NAMES:
        assert getattr(wts, name) == parse_square(name), name
    assert (wts.A1, wts.I1, wts.A2, wts.E5, wts.I9) == (0, 8, 9, 40, 80)


def test_squares_and_names_tuples() -> None:
    """SQUARES lists every square A1 first, I9 last; SQUARE_NAMES names them in order."""
    assert wts.SQUARES == tuple(range(81))
    assert wts.SQUARE_NAMES == tuple(ALL_NAMES)


def test_square_error_is_a_value_error() -> None:
    """SquareError subclasses ValueError (through WtsError)."""
    assert issubclass(SquareError, ValueError)
    assert issubclass(SquareError, wts.WtsError)
    with pytest.raises(ValueError):
        parse_square("J1")


# --- Point 2: wherever a game takes a square ------------------------------------


@pytest.mark.parametrize("spelling", ["E5", "e5", " E5 ", 40])
def test_game_takes_a_square_as_int_or_any_valid_name(Game, spelling: object) -> None:
    """Point 2: an int 0-80 or a name is accepted wherever a square is taken."""
    game = Game()
    result = game.play(spelling, "A1")
    assert result.black_move == 40
    assert game.black == frozenset({40})
    assert game.piece_at(spelling) is Piece.BLACK
    setup = Game.from_setup(black=[spelling])
    assert setup.black == frozenset({40})


@pytest.mark.parametrize("text", ["\uff255", "E\u0665", "\u01315", "\tE5", "E 5", "J1", "E0"])
def test_game_rejects_names_that_are_not_squares(Game, text: str) -> None:
    """Point 1: play, piece_at and from_setup refuse look-alikes and malformed names."""
    game = Game()
    with pytest.raises(SquareError):
        game.piece_at(text)
    with pytest.raises(wts.IllegalMoveError):
        game.play(text, "A1")
    with pytest.raises(wts.IllegalMoveError):
        game.play("A1", text)
    with pytest.raises(wts.SetupError):
        Game.from_setup(eggs=[text])
    assert game.turn == 0 and not game.black and not game.white


@pytest.mark.parametrize("value", [True, False, np.True_, np.False_])
def test_bool_is_not_a_square(Game, value: object) -> None:
    """Point 2: a bool is not an int here: True is not square 1, False not square 0."""
    game = Game.from_setup(black=["A1"], white=["B1"])
    with pytest.raises(SquareError):
        game.piece_at(value)
    with pytest.raises(wts.IllegalMoveError):
        game.play(value, "E5")
    with pytest.raises(wts.IllegalMoveError):
        game.play("E5", value)
    with pytest.raises(wts.SetupError):
        Game.from_setup(black=[value])
    assert game.turn == 0 and game.black == frozenset({0}) and game.white == frozenset({1})


@pytest.mark.parametrize(
    "int_type", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, np.intp]
)
def test_numpy_integers_are_squares(Game, int_type: type) -> None:
    """Point 2: any integer type names a square (numpy integers too), read as a plain int."""
    game = Game.from_setup(white=[int_type(8)], eggs=[int_type(80)])
    assert game.white == frozenset({8})
    assert game.eggs == (80,)
    assert game.piece_at(int_type(80)) is Piece.EGG
    result = game.play(int_type(40), int_type(9))
    assert (result.black_move, result.white_move) == (40, 9)
    assert type(result.black_move) is int and type(result.white_move) is int
    assert game.black == frozenset({40})
    assert all(type(sq) is int for sq in game.black | game.white | set(game.eggs))


@pytest.mark.parametrize("value", [-1, 81, np.int64(81), 40.0, np.float64(40), "J1", None])
def test_piece_at_rejects_non_squares(Game, value: object) -> None:
    """piece_at raises SquareError for anything that is not a square."""
    with pytest.raises(SquareError):
        Game().piece_at(value)


# --- Found by the fuzz targets (tests/fuzz) ----------------------------------------------


@pytest.mark.parametrize(
    "value, shown",
    [(np.array([40]), "array([40])"), (np.array(40.0), "array(40.)"),
     (np.array([], dtype=np.int64), "array([], dtype=int64)"), (np.array(True), "array(True)")],
)
def test_to_square_refuses_numpy_arrays_with_square_error(value: object, shown: str) -> None:
    """ndarray.__index__ raises TypeError for all but 0-d integer arrays; that
    TypeError escaped to_square."""
    with pytest.raises(SquareError, match=rf"^{re.escape(shown)} is not a square"):
        to_square(value)
    assert to_square(np.array(40)) == 40  # a 0-d integer array is an integer


def test_to_square_names_a_huge_int_by_its_size() -> None:
    """str() of an int past 4,300 digits raises ValueError: the message gives its size."""
    with pytest.raises(SquareError, match=r"^an int of 16610 bits is not a square"):
        to_square(10**5000)
    with pytest.raises(SquareError, match=r"^a tuple is not a square"):
        to_square((10**5000,))  # its repr fails too
    with pytest.raises(SquareError, match=r"^-1237940039285380274899124224 is not"):
        to_square(-(2**90))
