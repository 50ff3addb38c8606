"""The public API of a game: properties, copies, equality, TurnResult and the text board."""

from __future__ import annotations

import pytest

from tests.support.games import names, setup, snapshot
from wts import Capture, Color, Hatch, ParameterError, Piece, Status, TurnResult, parse_square
from wts.engine.api import GameAPI

BLACK, WHITE = Color.BLACK, Color.WHITE




def board_rows(game) -> dict[str, list[str]]:
    """The printed board's cells by rank label, without the marks of the last
    turn and of rows of five: ``rows["5"][4]`` is E5."""
    rows = {}
    for line in str(game).splitlines():
        tokens = line.split()
        if len(tokens) == 11 and tokens[0].isdigit() and tokens[0] == tokens[-1]:
            rows[tokens[0]] = [token.strip("[]()*") for token in tokens[1:10]]
    return rows


# --- The engine API -------------------------------------------------------------------


def test_both_engines_satisfy_the_one_engine_api(Game) -> None:
    """wts.engine.api.GameAPI declares the API; each engine has all of it, and
    every public name an engine's games have is declared there."""
    game = Game()
    assert isinstance(game, GameAPI)
    declared = {name for name in dir(GameAPI) if not name.startswith("_")}
    assert {name for name in dir(game) if not name.startswith("_")} == declared


# --- Properties ----------------------------------------------------------------------


def test_new_game_is_empty_and_ongoing(Game) -> None:
    """A new game: no pieces, turn 0, ongoing, no winning turtles, every square legal."""
    game = Game()
    assert game.black == frozenset() and game.white == frozenset() and game.eggs == ()
    assert game.turn == 0
    assert game.status is Status.ONGOING
    assert game.winning_counts == (0, 0)
    assert game.winner is None
    assert game.is_over() is False
    assert game.legal_moves() == list(range(81))
    assert all(game.piece_at(sq) is Piece.EMPTY for sq in range(81))


def test_property_types(Game) -> None:
    """black/white are frozensets of ints, eggs a tuple, winning_counts a pair of ints."""
    game = setup(Game, black="A1 B1", white="C1", eggs="E5 D5")
    assert isinstance(game.black, frozenset) and isinstance(game.white, frozenset)
    assert isinstance(game.eggs, tuple)
    assert isinstance(game.winning_counts, tuple) and len(game.winning_counts) == 2
    assert all(type(x) is int for x in game.winning_counts)
    assert type(game.turn) is int
    assert isinstance(game.status, Status)
    assert all(type(sq) is int for sq in game.black | game.white | set(game.eggs))
    assert isinstance(game.legal_moves(), list)


def test_black_white_and_eggs_report_the_pieces(Game) -> None:
    """black, white and eggs hold the squares of each kind of piece."""
    game = setup(Game, black="A1 B1", white="C1 I9", eggs="E5 D5")
    assert game.black == frozenset(names("A1 B1"))
    assert game.white == frozenset(names("C1 I9"))
    assert game.eggs == tuple(names("E5 D5"))


def test_eggs_are_listed_oldest_first(Game) -> None:
    """eggs lists the eggs in the order they were laid, not by square."""
    game = Game()
    for sq in ("I9", "A1", "E5"):
        game.play(sq, sq)
    assert game.eggs == tuple(names("I9 A1 E5"))


@pytest.mark.parametrize(
    "square, piece",
    [("A1", Piece.BLACK), ("C1", Piece.WHITE), ("E5", Piece.EGG), ("I9", Piece.EMPTY)],
)
def test_piece_at_takes_an_int_or_a_name(Game, square: str, piece: Piece) -> None:
    """piece_at answers the same for a square's index, its name and its lower-case name."""
    game = setup(Game, black="A1", white="C1", eggs="E5")
    assert game.piece_at(square) is piece
    assert game.piece_at(square.lower()) is piece
    assert game.piece_at(parse_square(square)) is piece


def test_turn_counts_played_turns_including_collisions(Game) -> None:
    """turn counts every resolved turn, collisions included; set-ups start at 0."""
    game = setup(Game, black="A1")
    assert game.turn == 0
    game.play("E5", "E5")
    game.play("B1", "C1")
    assert game.turn == 2


@pytest.mark.parametrize(
    "black, white, status, winner, over",
    [
        ("", "", Status.ONGOING, None, False),
        ("A1 B1 C1 D1 E1", "A9 B9 C9 D9 E9", Status.SUDDEN_DEATH, None, False),
        ("A1 B1 C1 D1 E1", "", Status.BLACK_WINS, Color.BLACK, True),
        ("", "A1 B1 C1 D1 E1", Status.WHITE_WINS, Color.WHITE, True),
    ],
)
def test_status_winner_and_is_over_agree(Game, black, white, status, winner, over) -> None:
    """winner is the winning colour or None; is_over() is true only once won or drawn."""
    game = setup(Game, black=black, white=white)
    assert game.status is status
    assert game.winner is winner
    assert game.is_over() is over


def test_draw_has_no_winner_and_is_over(Game) -> None:
    """A drawn game is over with no winner."""
    game = Game.from_setup(eggs=range(81))
    assert (game.status, game.winner, game.is_over()) == (Status.DRAW, None, True)


def test_winning_counts_are_black_then_white(Game) -> None:
    """winning_counts is (black, white)."""
    game = setup(Game, black="A1 B1 C1 D1 E1 F1", white="A9 B9 C9 D9 E9")
    assert game.winning_counts == (6, 5)
    assert game.status is Status.BLACK_WINS


# --- legal_moves -------------------------------------------------------------------


def test_legal_moves_are_the_empty_squares_ascending(Game) -> None:
    """legal_moves lists every empty square, ascending; occupied squares are left out."""
    game = setup(Game, black="I9 A1", white="E5", eggs="B1 H9")
    moves = game.legal_moves()
    assert moves == sorted(moves)
    assert moves == [sq for sq in range(81) if sq not in names("I9 A1 E5 B1 H9")]


def test_legal_moves_returns_a_fresh_list(Game) -> None:
    """Changing the returned list does not change the game."""
    game = Game()
    game.legal_moves().clear()
    assert len(game.legal_moves()) == 81


def test_legal_moves_is_empty_once_the_game_is_over(Game) -> None:
    """No square is legal once the game is decided, even with empty squares left."""
    game = setup(Game, black="A1 B1 C1 D1")
    game.play("E1", "E9")
    assert game.status is Status.BLACK_WINS
    assert game.legal_moves() == []


# --- copy -----------------------------------------------------------------------------


def test_copy_is_equal_and_independent(Game) -> None:
    """copy() gives an equal game; playing on either leaves the other untouched."""
    game = setup(Game, black="H5", white="F5 G5", eggs="A9 I9")
    game.play("C3", "C3")
    twin = game.copy()
    assert type(twin) is type(game)
    assert twin == game and twin is not game
    assert snapshot(twin) == snapshot(game)

    result = twin.play("E5", "A1")
    assert result.hatched == (Hatch(parse_square("A9"), BLACK, 1),)
    assert game.eggs == tuple(names("A9 I9 C3"))
    assert game.white == frozenset(names("F5 G5"))
    assert game.turn == 1 and twin.turn == 2

    game.play("B2", "B3")
    assert twin.piece_at("B2") is Piece.EMPTY
    assert twin.eggs == tuple(names("I9 C3"))


def test_calling_init_again_starts_the_game_afresh_on_both_engines(Game) -> None:
    """``__init__`` called again reset the reference game but left the fast one as it was."""
    game = Game.from_setup(black=["A1", "B1", "C1", "D1"], white=["I9"], eggs=["E5"], turn=7)
    game.play("E1", "H9")
    game.__init__()
    assert game == Game() and game.turn == 0 and not game.is_over()
    assert game.history == ()
    assert game.play("E5", "E5").collision == 40 and game.eggs == (40,)


def test_copy_of_a_decided_game_keeps_its_status(Game) -> None:
    """A copy keeps the status and counts, and refuses moves the same way."""
    game = setup(Game, black="A1 B1 C1 D1 E1")
    twin = game.copy()
    assert (twin.status, twin.winning_counts, twin.legal_moves()) == (Status.BLACK_WINS, (5, 0), [])


# --- equality -------------------------------------------------------------------------


def test_games_with_same_pieces_egg_order_and_turn_are_equal(Game) -> None:
    """== compares turtles, eggs in age order and the turn, not the history."""
    first, second = Game(), Game()
    first.play("A1", "B1")
    first.play("C1", "D1")
    second.play("C1", "D1")
    second.play("A1", "B1")
    assert first == second
    assert not (first != second)


def test_different_egg_order_is_unequal(Game) -> None:
    """Eggs on the same squares laid in a different order make different games."""
    first, second = Game(), Game()
    first.play("E5", "E5")
    first.play("F5", "F5")
    second.play("F5", "F5")
    second.play("E5", "E5")
    assert set(first.eggs) == set(second.eggs)
    assert first != second


def test_different_turn_or_pieces_is_unequal(Game) -> None:
    """The same position at another turn number, or another piece, is unequal."""
    played = Game()
    played.play("A1", "B1")
    assert played != setup(Game, black="A1", white="B1")
    assert played != setup(Game, black="B1", white="A1")
    assert setup(Game, black="A1") != setup(Game, eggs="A1")
    assert setup(Game, black="A1") == setup(Game, black="A1")


def test_game_is_not_equal_to_other_objects(Game) -> None:
    """A game never equals a non-game."""
    game = Game()
    assert game != None  # noqa: E711
    assert game != "game"
    assert game != (frozenset(), frozenset(), (), 0)


def test_game_is_unhashable(Game) -> None:
    """Games are mutable, so they cannot be hashed."""
    with pytest.raises(TypeError):
        hash(Game())
    with pytest.raises(TypeError):
        {Game()}


# --- TurnResult ------------------------------------------------------------------------


def big_turn(Game) -> tuple:
    game = setup(Game, black="H5 E8 B5 B6", white="F5 G5 E6 E7 B7", eggs="C1 A9 I9")
    return game, game.play("E5", "B4")


def test_turn_result_fields(Game) -> None:
    """TurnResult is a NamedTuple with the moves, collision, events, status and counts."""
    game, result = big_turn(Game)
    assert isinstance(result, TurnResult) and isinstance(result, tuple)
    assert TurnResult._fields == (
        "black_move",
        "white_move",
        "collision",
        "captures",
        "dissolved",
        "hatched",
        "status",
        "winning_counts",
    )
    assert (result.black_move, result.white_move, result.collision) == (
        40,
        parse_square("B4"),
        None,
    )
    assert isinstance(result.captures, tuple) and all(
        isinstance(c, Capture) for c in result.captures
    )
    assert isinstance(result.hatched, tuple) and all(isinstance(h, Hatch) for h in result.hatched)
    assert isinstance(result.dissolved, tuple)
    assert (result.status, result.winning_counts) == (game.status, game.winning_counts)
    assert Capture._fields == ("color", "round", "squares", "closer", "anchor")
    assert Hatch._fields == ("square", "color", "wave")


def test_turn_result_is_immutable(Game) -> None:
    """TurnResult, Capture and Hatch cannot be changed."""
    _, result = big_turn(Game)
    with pytest.raises(AttributeError):
        result.status = Status.DRAW  # type: ignore[misc]
    with pytest.raises(AttributeError):
        result.captures[0].closer = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        result.hatched[0].wave = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        result[0] = 1  # type: ignore[index]


def test_turn_result_repr_uses_square_names(Game) -> None:
    """The repr of a TurnResult names squares (E5), not indices (40)."""
    _, result = big_turn(Game)
    text = repr(result)
    assert "black_move=E5" in text and "white_move=B4" in text and "collision=None" in text
    assert "squares=(F5, G5)" in text and "closer=E5" in text and "anchor=H5" in text
    assert "Color.BLACK" in text and "round=0" in text
    assert "dissolved=(C1,)" in text
    assert "Hatch(A9, Color.BLACK, wave=1)" in text
    assert "status=Status.ONGOING" in text
    assert "=40" not in text and "closer=4" not in text


def test_collision_result_repr(Game) -> None:
    """A collision turn shows the collision square by name."""
    result = Game().play("e5", "E5")
    assert result.collision == 40
    assert "collision=E5" in repr(result)


# --- The text board ---------------------------------------------------------------------


def test_str_shows_files_ranks_eggs_by_age_and_status(Game) -> None:
    """str(game) labels files A-I and ranks 1-9, numbers eggs by age (1 = oldest),
    and states the status."""
    game = setup(Game, black="A1", white="I9", eggs="E5 A9 C2")
    text = str(game)
    assert any(line.split() == list("ABCDEFGHI") for line in text.splitlines())
    rows = board_rows(game)
    assert sorted(rows) == list("123456789")
    assert rows["5"][4] == "1" and rows["9"][0] == "2" and rows["2"][2] == "3"
    assert rows["1"][0] != rows["9"][8]  # black and white look different
    assert rows["1"][1] == rows["5"][0]  # empty squares look alike
    assert "ongoing" in text


@pytest.mark.parametrize(
    "black, white, eggs, word",
    [
        ("A1 B1 C1 D1 E1", "A9 B9 C9 D9 E9", "", "sudden_death"),
        ("A1 B1 C1 D1 E1", "", "", "black_wins"),
        ("", "A1 B1 C1 D1 E1", "", "white_wins"),
    ],
)
def test_str_states_each_status(Game, black: str, white: str, eggs: str, word: str) -> None:
    """The printed board ends with the game's status, in words."""
    game = setup(Game, black=black, white=white, eggs=eggs)
    assert game.status.words in str(game)
    assert game.status.value == word


def test_str_changes_when_the_game_changes(Game) -> None:
    """The printed board follows the position: an egg that hatches is renumbered."""
    game = setup(Game, black="G5", white="G3 G4", eggs="C3 E5")
    assert board_rows(game)["3"][2] == "1" and board_rows(game)["5"][4] == "2"
    game.play("G2", "A9")
    rows = board_rows(game)
    assert rows["3"][2] == rows["5"][6]  # C3 hatched black, like G5
    assert rows["5"][4] == "1"  # E5 is now the oldest egg


# --- Enums ---------------------------------------------------------------------------------


def test_color_opponent_and_piece_turtle() -> None:
    """Each colour's opponent is the other; Piece.turtle maps colours to pieces."""
    assert BLACK.opponent is WHITE and WHITE.opponent is BLACK
    assert Piece.turtle(BLACK) is Piece.BLACK and Piece.turtle(WHITE) is Piece.WHITE


def test_status_is_over_and_winner() -> None:
    """Status.is_over is true for wins and draws; Status.winner names the winner."""
    assert [s for s in Status if s.is_over] == [Status.BLACK_WINS, Status.WHITE_WINS, Status.DRAW]
    assert Status.BLACK_WINS.winner is BLACK and Status.WHITE_WINS.winner is WHITE
    assert Status.DRAW.winner is None and Status.SUDDEN_DEATH.winner is None


def test_winning_turtles_are_the_squares_the_counts_count(Game) -> None:
    import random

    from wts.engine.reference import winning_turtles
    from wts.engine.squares import SQUARES

    game = Game.from_setup(black=["A1", "B1", "C1", "D1", "E1", "F1", "B2", "C3", "D4", "E5"],
                           white=["A9", "B9", "C9", "D9"])
    assert game.winning_turtles("black") == frozenset(
        parse_square(n) for n in ("A1", "B1", "C1", "D1", "E1", "F1", "B2", "C3", "D4",
                                      "E5"))
    assert game.winning_turtles(Color.WHITE) == frozenset()
    with pytest.raises(ParameterError, match="colour"):
        game.winning_turtles("red")
    rng = random.Random(5)
    for _ in range(40):  # random games: each engine's own answer, the rules' answer
        game = Game()
        while not game.is_over():
            legal = game.legal_moves()
            game.play(rng.choice(legal), rng.choice(legal))
        board = [game.piece_at(sq) for sq in SQUARES]
        for index, color in enumerate((Color.BLACK, Color.WHITE)):
            turtles = game.winning_turtles(color)
            assert turtles == frozenset(winning_turtles(board, color))
            assert len(turtles) == game.winning_counts[index]


def test_the_text_formats_ask_the_engine_for_its_winning_turtles() -> None:
    import ast
    import pathlib

    import wts.formats

    for path in pathlib.Path(wts.formats.__file__).parent.glob("*.py"):
        imported = {node.module for node in ast.walk(ast.parse(path.read_text()))
                    if isinstance(node, ast.ImportFrom)}
        assert "wts.engine.reference" not in imported, path.name
