"""The position notation (``game.fen()``, ``Game.from_fen``, :mod:`wts.notation`):
the documented examples, every error, and two properties over random reachable
positions on both engines: the round trip, and that every mutation of a valid
string parses to a consistent position or raises ``NotationError``."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import wts
import wts.engine.reference
from tests.support.games import random_game
from wts import NotationError, Status
from wts.engine.notation import MAX_TURN, STARTING_FEN, Position, format_fen, parse_fen
from wts.engine.squares import parse_square

PROPERTY = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def names(text: str) -> tuple[int, ...]:
    return tuple(parse_square(n) for n in text.split())



# --- Examples from docs/notation.md ---------------------------------------------------


def test_new_game(Game) -> None:
    """A new game is nine empty ranks, no eggs, turn 0."""
    assert Game().fen() == STARTING_FEN == "9/9/9/9/9/9/9/9/9 - 0"
    assert Game.from_fen(STARTING_FEN) == Game()


def test_documented_example(Game) -> None:
    """The rulebook's capture figure before and after black's E5."""
    game = Game.from_setup(black=names("H5"), white=names("F5 G5"), eggs=names("C3"))
    assert game.fen() == "9/9/9/9/5oox1/9/2e6/9/9 C3 0"
    game.play("E5", "A1")
    assert game.fen() == "9/9/9/9/4x2x1/9/2x6/9/o8 - 1"
    assert parse_fen("9/9/9/9/4x2x1/9/2x6/9/o8 - 1") == Position(
        black=names("C3 E5 H5"), white=names("A1"), eggs=(), turn=1
    )


def test_eggs_are_listed_oldest_first(Game) -> None:
    """The egg list keeps the age order the board cannot show."""
    game = Game()
    for sq in ("I9", "A1", "E5"):
        game.play(sq, sq)
    assert game.fen() == "8e/9/9/9/4e4/9/9/9/e8 I9,A1,E5 3"
    other = Game.from_fen("8e/9/9/9/4e4/9/9/9/e8 A1,E5,I9 3")
    assert other.eggs == names("A1 E5 I9") and other != game


def test_every_square_has_its_place() -> None:
    """Rank 9 first, file A first within a rank."""
    for sq in range(81):
        fen = format_fen([sq], [], [], 0)
        assert parse_fen(fen).black == (sq,)
    fen = format_fen([parse_square("A9")], [parse_square("I1")], [], 0)
    assert fen == "x8/9/9/9/9/9/9/9/8o - 0"


def test_full_board_and_big_turn(Game) -> None:
    """A board without an empty square, and the largest turn number."""
    game = Game.from_setup(eggs=range(81), turn=MAX_TURN)
    fen = game.fen()
    assert fen.startswith("eeeeeeeee/")
    assert fen.endswith(f" {MAX_TURN}")
    again = Game.from_fen(fen)
    assert again == game and again.status is Status.DRAW and again.eggs == tuple(range(81))


def test_status_follows_from_the_board(Game) -> None:
    """Nothing derived is written: the status is read off the board."""
    game = Game.from_fen("9/9/9/9/9/9/9/9/xxxxx4 - 7")
    assert game.status is Status.BLACK_WINS and game.winning_counts == (5, 0)
    assert game.turn == 7


def test_from_fen_builds_the_engine_class_with_an_empty_history(Game) -> None:
    game = Game.from_fen("9/9/9/9/4x2x1/9/2e6/9/o8 C3 12")
    assert type(game) is Game
    assert game.history == () and game.turn == 12
    assert game.root() == game


def test_both_engines_write_the_same_string() -> None:
    for seed in range(20):
        fast = random_game(wts.Game, seed, 40, collide=0.3)
        reference = random_game(wts.reference.Game, seed, 40, collide=0.3)
        assert fast.fen() == reference.fen()
        assert wts.reference.Game.from_fen(fast.fen()) == reference


def test_position_repr_and_setup() -> None:
    position = parse_fen("9/9/9/9/4x2x1/9/2e6/9/o8 C3 1")
    assert repr(position) == "Position(black=(E5, H5), white=(A1,), eggs=(C3,), turn=1)"
    assert wts.Game.from_setup(*position).fen() == "9/9/9/9/4x2x1/9/2e6/9/o8 C3 1"


# --- Errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, position, expected",
    [
        ("", 0, "expected the rest of rank 9"),
        ("9/9/9/9/9/9/9/9 - 0", 15, "expected '/' and then rank 1"),
        ("9/9/9/9/9/9/9/9/9/9 - 0", 17, "the board has only 9 ranks"),
        ("9/9/9/9/9/9/9/9/8 - 0", 17, "expected the rest of rank 1"),
        ("10/9/9/9/9/9/9/9/9 - 0", 1, "expected x (black), o (white), e (egg) or a digit 1-9"),
        ("45/9/9/9/9/9/9/9/9 - 0", 1, "a run of empty squares is one digit"),
        ("8x1/9/9/9/9/9/9/9/9 - 0", 2, "expected '/' and then rank 8"),
        ("xxxxxxxxxx/9/9/9/9/9/9/9/9 - 0", 9, "expected '/' and then rank 8"),
        ("5x4/9/9/9/9/9/9/9/9 - 0", 2, "at most 3 empty square(s)"),
        ("X8/9/9/9/9/9/9/9/9 - 0", 0, "got 'X'"),
        ("9/9/9/9/9/9/9/9/9  - 0", 18, "expected the egg list"),
        ("9/9/9/9/9/9/9/9/9 - -0", 20, "expected the turn number (digits 0-9)"),
        ("9/9/9/9/9/9/9/9/9 -", 19, "expected a space and then the turn number"),
        ("9/9/9/9/9/9/9/9/9 - 00", 20, "without a leading zero"),
        ("9/9/9/9/9/9/9/9/9 - 4294967296", 20, "from 0 to 4294967295"),
        ("9/9/9/9/9/9/9/9/9 - 0 ", 21, "expected the end of the string"),
        ("9/9/9/9/9/9/9/9/9 - 0\n", 21, "expected the end of the string"),
        (" 9/9/9/9/9/9/9/9/9 - 0", 0, "got ' '"),
        ("9/9/9/9/9/9/9/9/9 - ٣", 20, "expected the turn number"),
        ("9/9/9/9/9/9/9/9/e8 - 0", 19, "the board has eggs on A1"),
        ("9/9/9/9/9/9/9/9/e8 B1 0", 19, "B1, which the board does not show as an egg"),
        ("9/9/9/9/9/9/9/9/e8 a1 0", 19, "expected the egg list"),
        ("9/9/9/9/9/9/9/9/e8 A 0", 20, "expected a rank digit 1-9 after the file letter 'A'"),
        ("9/9/9/9/9/9/9/9/e8 A1,A1 0", 22, "got A1 a second time"),
        ("9/9/9/9/9/9/9/9/ee7 A1 0", 22, "missing: B1"),
        ("9/9/9/9/9/9/9/9/ee7 A1, 0", 23, "expected an egg's square"),
        ("9/9/9/9/9/9/9/9/e8 A1;B1 0", 21, "expected a space and then the turn number"),
        ("9/9/9/9/9/9/9/9/9 - 0 1", 21, "expected the end of the string"),
    ],
)
def test_errors_name_the_position_and_what_was_expected(
    Game, text: str, position: int, expected: str
) -> None:
    with pytest.raises(NotationError) as info:
        Game.from_fen(text)
    message = str(info.value)
    assert message.startswith(f"position {position}: expected"), message
    assert expected in message, message
    assert info.value.position == position and info.value.line is None


@pytest.mark.parametrize("value", [None, 5, b"9/9/9/9/9/9/9/9/9 - 0", ["9"]])
def test_a_position_string_must_be_a_str(Game, value: object) -> None:
    with pytest.raises(NotationError, match="must be a str"):
        Game.from_fen(value)


def test_notation_error_is_a_value_error_and_pickles() -> None:
    assert issubclass(NotationError, wts.WtsError) and issubclass(NotationError, ValueError)
    with pytest.raises(NotationError) as info:
        parse_fen("9/9/9/9/9/9/9/9/9 - x")
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is NotationError
    assert str(again) == str(info.value) and again.position == 20 and again.line is None


# --- Properties -----------------------------------------------------------------------


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 120),
       collide=st.sampled_from([0.0, 0.2, 0.6]), offset=st.integers(0, 1000))
def test_round_trip_over_random_reachable_positions(Game, seed, turns, collide, offset) -> None:
    """from_fen(fen()) is the same game: pieces, egg order, turn, status, counts."""
    game = random_game(Game, seed, turns, collide=collide)
    if offset:  # the same position at another turn number
        game = Game.from_setup(game.black, game.white, game.eggs, turn=game.turn + offset)
    fen = game.fen()
    again = Game.from_fen(fen)
    assert again == game
    assert again.fen() == fen
    assert (again.status, again.winning_counts) == (game.status, game.winning_counts)
    assert parse_fen(fen) == (tuple(sorted(game.black)), tuple(sorted(game.white)), game.eggs,
                              game.turn)


ALPHABET = "xoe123456789/ -,ABCDEFGHI0abcXO;\n\t\u0663\u00e9\u2028"


@st.composite
def mutations(draw: st.DrawFn, text: str) -> str:
    """``text`` with one to three edits: delete, insert, replace, swap or repeat a slice."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap", "repeat", "cut"]))
        n = len(text)
        i = draw(st.integers(0, max(n - 1, 0)))
        char = draw(st.sampled_from(ALPHABET) | st.characters())
        if kind == "delete" and n:
            text = text[:i] + text[i + 1 :]
        elif kind == "insert":
            text = text[:i] + char + text[i:]
        elif kind == "replace" and n:
            text = text[:i] + char + text[i + 1 :]
        elif kind == "swap" and n > 1:
            j = min(i + 1, n - 1)
            text = text[:i] + text[j] + text[i] + text[j + 1 :]
        elif kind == "repeat" and n:
            j = draw(st.integers(i, n))
            text = text[:j] + text[i:j] + text[j:]
        elif kind == "cut" and n:
            j = draw(st.integers(i, n))
            text = text[:i] + text[j:]
    return text


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 80), data=st.data())
@example(seed=0, turns=0, data=None)
def test_every_mutation_parses_consistently_or_raises_notation_error(
    Game, seed, turns, data
) -> None:
    """A mutated string is either the canonical string of a position (it parses,
    and writing that position gives the string back) or a NotationError whose
    position lies within the string."""
    game = random_game(Game, seed, turns, collide=0.3)
    fen = game.fen()
    text = data.draw(mutations(fen)) if data is not None else fen + "/"
    assume(text != fen)
    try:
        parsed = Game.from_fen(text)
    except NotationError as exc:
        assert exc.position is not None and 0 <= exc.position <= len(text)
        assert str(exc).startswith(f"position {exc.position}: expected")
        return
    assert parsed.fen() == text
    assert Game.from_fen(parsed.fen()) == parsed
    assert set(parsed.black).isdisjoint(parsed.white)
    assert set(parsed.eggs).isdisjoint(parsed.black | parsed.white)
    assert parsed.status is Game.from_setup(parsed.black, parsed.white, parsed.eggs).status


@PROPERTY
@given(text=st.text(alphabet=st.sampled_from(ALPHABET), max_size=40) | st.text(max_size=40))
def test_arbitrary_text_parses_or_raises_notation_error(text: str) -> None:
    try:
        position = parse_fen(text)
    except NotationError as exc:
        assert exc.position is not None and 0 <= exc.position <= len(text)
        return
    assert format_fen(*position) == text


# --- Found by the fuzz targets (tests/fuzz) ----------------------------------------------


@pytest.mark.parametrize("digits", [11, 4300, 4301, 5000, 20000])
def test_a_turn_of_thousands_of_digits_is_a_notation_error(Game, digits: int) -> None:
    """int() refuses strings of more than 4,300 digits with a bare ValueError; the
    turn's length is checked first."""
    text = "9/9/9/9/9/9/9/9/9 - 1" + "0" * (digits - 1)
    with pytest.raises(NotationError) as info:
        Game.from_fen(text)
    assert info.value.position == 20
    assert str(info.value) == (f"position 20: expected a turn number from 0 to {MAX_TURN}, "
                               + ("got 10000000000" if digits == 11
                                  else f"got a number of {digits} digits"))
