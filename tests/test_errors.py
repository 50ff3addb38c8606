"""Every error wts raises, and that a refused move leaves the game exactly as it was
(points 3 and 13)."""

from __future__ import annotations

import numpy as np
import pytest

import wts
from tests.support.games import names, play_for, setup, snapshot
from wts import (
    Color,
    GameOverError,
    IllegalMoveError,
    Piece,
    SetupError,
    SquareError,
    Status,
    WtsError,
)

BLACK, WHITE = Color.BLACK, Color.WHITE

NOT_SQUARES = [
    "J1",
    "I10",
    "E0",
    "5E",
    "",
    "E 5",
    "\uff255",
    81,
    -1,
    np.int64(81),
    True,
    False,
    None,
    40.0,
    b"E5",
    [40],
]
NOT_SQUARE_IDS = [
    "J1",
    "I10",
    "E0",
    "5E",
    "empty",
    "E-space-5",
    "fullwidth-E",
    "81",
    "-1",
    "np81",
    "True",
    "False",
    "None",
    "float",
    "bytes",
    "list",
]






def game_in_progress(Game):
    """A game a few turns in, with turtles of both colours and two eggs."""
    game = Game()
    game.play("E5", "E5")  # egg 1
    game.play("D4", "F6")
    game.play("C3", "C3")  # egg 2
    game.play("B2", "H8")
    return game


# --- Illegal moves ---------------------------------------------------------------


@pytest.mark.parametrize("mover", [BLACK, WHITE], ids=["black", "white"])
@pytest.mark.parametrize(
    "square, occupant",
    [("D4", "black turtle"), ("F6", "white turtle"), ("E5", "egg"), ("C3", "egg")],
)
def test_occupied_square_is_an_illegal_move(Game, mover: Color, square: str, occupant: str) -> None:
    """Point 3: naming a square that holds a turtle of either colour or an egg is
    illegal; the error names the player and what is on the square; nothing changes."""
    game = game_in_progress(Game)
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        play_for(game, mover, square, "A1")
    assert not isinstance(info.value, GameOverError)
    message = str(info.value)
    assert f"{mover.value}'s" in message
    assert f"{mover.opponent.value}'s" not in message
    assert square in message and occupant in message
    assert snapshot(game) == before
    assert game.piece_at("A1") is Piece.EMPTY


@pytest.mark.parametrize("mover", [BLACK, WHITE], ids=["black", "white"])
@pytest.mark.parametrize("bad", NOT_SQUARES, ids=NOT_SQUARE_IDS)
def test_move_that_is_not_a_square_is_illegal(Game, mover: Color, bad: object) -> None:
    """Point 3: a move that is not a square (bad name, out-of-range int, bool, None,
    float, ...) is illegal; the error names the player and says it is no square."""
    game = game_in_progress(Game)
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        play_for(game, mover, bad, "A1")
    message = str(info.value)
    assert f"{mover.value}'s" in message
    assert f"{mover.opponent.value}'s" not in message
    assert "not a square" in message
    assert snapshot(game) == before


def test_illegal_move_on_a_fresh_game_leaves_turn_zero(Game) -> None:
    """Point 3: a refused turn is not counted and applies neither move."""
    game = Game()
    with pytest.raises(IllegalMoveError):
        game.play("E5", "J9")
    assert game.turn == 0 and game.black == frozenset() and game.white == frozenset()
    assert game == Game()


@pytest.mark.parametrize(
    "black, white, eggs, status",
    [
        ("A1 B1 C1 D1 E1", "A9", "", Status.BLACK_WINS),
        ("A9", "A1 B2 C3 D4 E5", "", Status.WHITE_WINS),
    ],
    ids=["black-won", "white-won"],
)
def test_move_after_a_win_raises_game_over(
    Game, black: str, white: str, eggs: str, status: Status
) -> None:
    """Point 3: once the game is decided every move raises GameOverError, itself an
    IllegalMoveError, and the game stays as it was."""
    game = setup(Game, black=black, white=white, eggs=eggs)
    assert game.status is status
    before = snapshot(game)
    with pytest.raises(GameOverError) as info:
        game.play("I5", "I6")
    assert isinstance(info.value, IllegalMoveError)
    assert "over" in str(info.value)
    assert snapshot(game) == before


def test_move_after_a_played_win_raises_game_over(Game) -> None:
    """Point 3: a game won by play refuses the next turn."""
    game = setup(Game, black="A1 B1 C1 D1")
    game.play("E1", "E9")
    before = snapshot(game)
    with pytest.raises(GameOverError):
        game.play("F5", "F6")
    assert snapshot(game) == before


def test_move_after_a_draw_raises_game_over(Game) -> None:
    """Point 3: a drawn game is decided too."""
    game = Game.from_setup(eggs=[sq for sq in range(81) if sq not in (0, 80)])
    game.play(0, 80)
    assert game.status is Status.DRAW
    before = snapshot(game)
    with pytest.raises(GameOverError):
        game.play(0, 80)
    assert snapshot(game) == before


def test_sudden_death_is_not_game_over(Game) -> None:
    """Point 11: sudden death is not decided: moves are still accepted."""
    game = setup(Game, black="A1 B1 C1 D1 E1", white="A9 B9 C9 D9 E9")
    assert game.status is Status.SUDDEN_DEATH
    game.play("E5", "F5")
    assert game.turn == 1


# --- piece_at ----------------------------------------------------------------------


@pytest.mark.parametrize("bad", NOT_SQUARES, ids=NOT_SQUARE_IDS)
def test_piece_at_a_non_square_raises_square_error(Game, bad: object) -> None:
    """piece_at raises SquareError for anything that is not a square, changing nothing."""
    game = game_in_progress(Game)
    before = snapshot(game)
    with pytest.raises(SquareError):
        game.piece_at(bad)
    assert snapshot(game) == before


# --- Set-up errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, square",
    [
        (dict(black=["E5", "E5"]), "E5"),
        (dict(white=["e5", 40]), "E5"),
        (dict(eggs=["A1", "I9", "A1"]), "A1"),
        (dict(black=["A1"], white=["A1"]), "A1"),
        (dict(black=["I9"], eggs=["I9"]), "I9"),
        (dict(white=["C3"], eggs=[" c3"]), "C3"),
    ],
    ids=[
        "black-twice",
        "white-twice-spellings",
        "eggs-twice",
        "black-white",
        "black-eggs",
        "white-eggs",
    ],
)
def test_setup_with_a_square_named_twice_raises_setup_error(
    Game, kwargs: dict, square: str
) -> None:
    """Point 13: a square named twice, in one list or across two, is a SetupError
    naming the square."""
    with pytest.raises(SetupError) as info:
        Game.from_setup(**kwargs)
    assert square in str(info.value)


@pytest.mark.parametrize("field", ["black", "white", "eggs"])
@pytest.mark.parametrize("bad", NOT_SQUARES, ids=NOT_SQUARE_IDS)
def test_setup_with_a_non_square_raises_setup_error(Game, field: str, bad: object) -> None:
    """Point 13: something that is not a square in any list is a SetupError."""
    with pytest.raises(SetupError):
        Game.from_setup(**{field: [bad]})


@pytest.mark.parametrize("field", ["black", "white", "eggs"])
@pytest.mark.parametrize("bad", [None, 40, "E5"], ids=["None", "int", "str"])
def test_setup_list_that_is_not_a_collection_raises_setup_error(
    Game, field: str, bad: object
) -> None:
    """A setup list must be a collection of squares: None, a bare int or a bare name
    is refused as a SetupError rather than misread."""
    with pytest.raises(SetupError):
        Game.from_setup(**{field: bad})


# --- The error classes ----------------------------------------------------------------


@pytest.mark.parametrize(
    "error", [WtsError, SquareError, IllegalMoveError, GameOverError, SetupError]
)
def test_every_error_is_a_value_error_and_a_wts_error(error: type) -> None:
    """Every wts error subclasses ValueError and wts.WtsError."""
    assert issubclass(error, ValueError)
    assert issubclass(error, WtsError)
    assert getattr(wts, error.__name__) is error


def test_game_over_error_is_an_illegal_move_error() -> None:
    """A move after the end is one kind of illegal move."""
    assert issubclass(GameOverError, IllegalMoveError)
    assert not issubclass(SetupError, IllegalMoveError)
    assert not issubclass(SquareError, IllegalMoveError)


def test_raised_errors_can_be_caught_as_value_error(Game) -> None:
    """Each error raised by the API can be caught as ValueError."""
    game = setup(Game, black="A1 B1 C1 D1 E1")
    with pytest.raises(ValueError):
        game.play("E5", "E6")
    with pytest.raises(ValueError):
        Game().play("A1", "Z9")
    with pytest.raises(ValueError):
        Game().piece_at("Z9")
    with pytest.raises(ValueError):
        Game.from_setup(black=["A1", "A1"])


@pytest.mark.parametrize("integer", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_numpy_integer_scalars_are_taken_wherever_an_int_is(Game, integer) -> None:
    game = Game.from_setup(black=[integer(0)], turn=integer(3))
    game.play(integer(40), integer(41))
    assert game.piece_at(integer(40)) is wts.Piece.BLACK and game.turn == 4


# --- Found by the fuzz targets (tests/fuzz) ----------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [np.array([40]), np.array([[40]]), np.array([]), np.array(40.0), np.array(True),
     np.array([40, 41]), np.array([40], dtype=object)],
    ids=["shape-1", "shape-1-1", "empty", "0d-float", "0d-bool", "shape-2", "object"],
)
def test_a_numpy_array_as_a_move_is_an_illegal_move_not_a_type_error(Game, bad: object) -> None:
    """An ndarray has __index__, which raises TypeError unless the array is 0-d and
    integer: that was let through as a TypeError instead of IllegalMoveError."""
    game = game_in_progress(Game)
    before, history = snapshot(game), game.history
    for mover in (BLACK, WHITE):
        with pytest.raises(IllegalMoveError, match="is not a square: expected an int 0-80"):
            play_for(game, mover, bad, "A1")
    with pytest.raises(SquareError):
        game.piece_at(bad)
    with pytest.raises(SetupError, match=r"black\[0\]: .* is not a square"):
        Game.from_setup(black=[bad])
    assert snapshot(game) == before and game.history == history


@pytest.mark.parametrize("mask", [True, False], ids=["masked", "unmasked"])
def test_a_masked_array_as_a_move_is_an_illegal_move(Game, mask: bool) -> None:
    """numpy reads a masked array as its data: a fully masked 0 played A1."""
    game = game_in_progress(Game)
    before, history = snapshot(game), game.history
    bad = np.ma.masked_array(np.int64(5), mask=mask)
    for mover in (BLACK, WHITE):
        with pytest.raises(IllegalMoveError, match="masked array"):
            play_for(game, mover, bad, "A1")
    with pytest.raises(SquareError, match="masked array"):
        game.piece_at(bad)
    with pytest.raises(SetupError, match="masked array"):
        Game.from_setup(black=[bad])
    assert snapshot(game) == before and game.history == history


def test_batch_step_and_reset_refuse_masked_arrays() -> None:
    """The int64 fast path read a masked array's buffer: a fully masked
    action array played its hidden squares."""
    batch = wts.BatchGame(2)
    zeros = np.zeros(2, np.int64)
    masked = np.ma.masked_array(zeros, mask=True)
    with pytest.raises(wts.BatchError, match="black_moves must not be a numpy masked array"):
        batch.step(masked, zeros + 1)
    with pytest.raises(wts.BatchError, match="white_moves must not be a numpy masked array"):
        batch.step(zeros, np.ma.masked_array(zeros + 1, mask=False))
    with pytest.raises(wts.BatchError, match="white_moves must not be a numpy masked array"):
        batch.step([0, 0], masked)
    assert batch.turns.tolist() == [0, 0] and not batch.observation().any()
    batch.step(zeros, zeros + 1)
    with pytest.raises(wts.BatchError, match="mask must not be a numpy masked array"):
        batch.reset(np.ma.masked_array([True, True], mask=True))
    assert batch.turns.tolist() == [1, 1]


def test_a_huge_int_as_a_move_says_its_size_not_its_digits(Game) -> None:
    """Formatting an int of more than 4,300 digits raises ValueError (Python's
    limit on int-to-str conversion): the messages must not try."""
    huge = 10**5000
    game = Game()
    with pytest.raises(IllegalMoveError, match=r"an int of 16610 bits is not a square"):
        game.play(huge, "A1")
    with pytest.raises(IllegalMoveError, match=r"^white's move is illegal: a list is not"):
        game.play("A1", [huge])
    with pytest.raises(SquareError, match="an int of 16610 bits"):
        game.piece_at(-huge)
    assert game.turn == 0 and game.history == ()


def test_batch_moves_numpy_cannot_read_are_a_batch_error() -> None:
    """np.asarray raises ValueError on ragged nesting: step must say BatchError."""
    batch = wts.BatchGame(2)
    for black in ([0, [1, 2]], [[0], [1, 2]], [0, []]):
        with pytest.raises(wts.BatchError, match="numpy cannot read this list as an array"):
            batch.step(black, [3, 4])
    assert batch.turns.tolist() == [0, 0] and not batch.observation().any()


def test_batch_moves_as_python_ints_past_int64_are_illegal_moves() -> None:
    """numpy reads such a list as float64 or object: that was a BatchError saying
    the moves were not integers."""
    batch = wts.BatchGame(2)
    for big in (2**64 - 1, 2**70, -(2**70)):
        with pytest.raises(IllegalMoveError, match=rf"^game 1: white's move is illegal: "
                                                   rf"{big} is not a square"):
            batch.step([0, 2], [1, big])
    with pytest.raises(wts.BatchError, match=r"must hold integers .*, not float64"):
        batch.step([0, 2.0], [1, 3])
    assert batch.turns.tolist() == [0, 0]
    won = wts.BatchGame.from_games([wts.Game.from_setup(black=names("A1 B1 C1 D1 E1"))])
    with pytest.raises(GameOverError, match=r"not an int of 16610 bits and -1$"):
        won.step([10**5000], [-1])


def test_an_empty_batch_steps_on_empty_lists() -> None:
    """numpy reads [] as float64: an empty batch took only typed empty arrays."""
    result = wts.BatchGame(0).step([], [])
    assert result.status.shape == (0,) and result.captures.shape == (0, 2)


def test_batch_uint64_moves_past_int64_are_not_no_move() -> None:
    """A uint64 2**64 - 1 was cast to int64 -1: NO_MOVE for a finished game, and
    named -1 in the error for a running one."""
    won = wts.Game.from_setup(black=names("A1 B1 C1 D1 E1"))
    batch = wts.BatchGame.from_games([wts.Game(), won])
    biggest = 2**64 - 1
    with pytest.raises(IllegalMoveError, match=r"^game 0: black's move is illegal: "
                                               r"18446744073709551615 is not a square"):
        batch.step(np.array([biggest, biggest], dtype=np.uint64), np.array([0, -1]))
    with pytest.raises(GameOverError, match=r"^game 1: .*not 18446744073709551615 and "
                                            r"18446744073709551615$"):
        batch.step(np.array([1, biggest], dtype=np.uint64),
                   np.array([0, biggest], dtype=np.uint64))
    assert batch.turns.tolist() == [0, 0]
    running = wts.BatchGame(1)
    running.step(np.array([40], dtype=np.uint64), np.array([41], dtype=np.uint64))
    assert running[0].black == {40} and running[0].white == {41}
