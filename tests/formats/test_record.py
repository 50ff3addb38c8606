"""Game records (:mod:`wts.record`): writing and reading back turn by turn,
set-up positions, tags, comments, files, and every error with its line."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wts
import wts.engine.reference
from tests.support.games import names, random_game
from wts import NotationError, record
from wts.engine.squares import parse_square
from wts.formats.record import GameRecord

GAME_TEXT = """\
[Black "Ann"]
[White "Bob"]
[Date "2025.06.01"]
[Result "*"]

E5 B4
E4 E4 ; a collision: an egg on E4
"""


# --- Round trips ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_a_game_written_and_read_back_is_identical_turn_by_turn(Game, seed: int) -> None:
    game = random_game(Game, seed, collide=0.15)
    text = record.dumps(game)
    back = record.loads(text, engine=Game)
    assert back.turns == game.history
    assert back.game == game and back.game.history == game.history
    assert back.start == Game() and back.setup is None
    assert back.headers["Result"] == record.result_of(game) != "*"
    assert "SetUp" not in text
    assert record.dumps(back) == text


def test_a_set_up_game_writes_its_start_as_setup(Game) -> None:
    start = Game.from_setup(black=names("H5 A1"), white=names("F5 G5"), eggs=names("C3 I9"),
                            turn=4)
    game = random_game(Game, 1, start=start, collide=0.15)
    text = record.dumps(game)
    assert f'[SetUp "{start.fen()}"]' in text
    back = record.loads(text, engine=Game)
    assert back.start == start and back.setup == start.fen()
    assert back.turns == game.history and back.game == game
    assert back.game.root() == start


def test_a_position_without_turns_is_a_setup_and_nothing_else(Game) -> None:
    game = Game.from_fen("9/9/9/9/4x2x1/9/2e6/9/o8 C3 1")
    text = record.dumps(game)
    assert text == (
        '[Black "?"]\n[White "?"]\n[Date "????.??.??"]\n[Result "*"]\n'
        '[SetUp "9/9/9/9/4x2x1/9/2e6/9/o8 C3 1"]\n\n'
    )
    back = record.loads(text)
    assert back.turns == () and back.game == game


def test_the_format_one_turn_a_line() -> None:
    game = wts.Game()
    game.play("E5", "B4")
    game.play("E4", "E4")
    text = record.dumps(game, headers={"Black": "Ann", "White": "Bob", "Date": "2025.06.01"})
    assert text == (
        '[Black "Ann"]\n[White "Bob"]\n[Date "2025.06.01"]\n[Result "*"]\n\nE5 B4\nE4 E4\n'
    )


def test_reading_gives_headers_turns_moves_and_comments() -> None:
    back = record.loads(GAME_TEXT)
    assert back.headers == {"Black": "Ann", "White": "Bob", "Date": "2025.06.01", "Result": "*"}
    assert back.moves == ((40, parse_square("B4")), (parse_square("E4"), parse_square("E4")))
    assert back.comments == {2: "a collision: an egg on E4"}
    assert back.game.eggs == (parse_square("E4"),)


def test_comments_are_kept_and_written_back() -> None:
    text = """\
[Black "Ann"]
; before the first turn
E5 B4 ; black takes the centre
; and a second line
I9 I9
A1 A2 ;
"""
    back = record.loads(text)
    assert back.comments == {0: "before the first turn",
                             1: "black takes the centre\nand a second line", 3: ""}
    again = record.loads(record.dumps(back))
    assert again.comments == back.comments and again.turns == back.turns


def test_tag_values_are_escaped() -> None:
    game = wts.Game()
    tricky = 'Ann "the shell" \\ Smith; [x]'
    text = record.dumps(game, headers={"Black": tricky, "Event": "Club night"})
    assert '[Black "Ann \\"the shell\\" \\\\ Smith; [x]"]' in text
    assert '[Event "Club night"]' in text
    back = record.loads(text)
    assert back.headers["Black"] == tricky and back.headers["Event"] == "Club night"


def test_lenient_input_lower_case_blanks_tabs_crlf_and_bom() -> None:
    text = "\ufeff[Black  \"Ann\"]  ; note\r\n\r\n  e5\tb4  \r\ne4 E4\r\n"
    back = record.loads(text)
    assert back.moves == ((40, parse_square("B4")), (parse_square("E4"), parse_square("E4")))
    assert back.headers == {"Black": "Ann"}


def test_write_a_list_of_moves_or_turn_results() -> None:
    game = random_game(wts.Game, 5, collide=0.15)
    moves = [(r.black_move, r.white_move) for r in game.history]
    assert record.dumps(moves) == record.dumps(game)
    assert record.dumps(list(game.history)) == record.dumps(game)
    named = [("e5", "b4"), ("E4", "E4")]
    assert record.loads(record.dumps(named)).moves == ((40, 28), (31, 31))


def test_write_a_list_from_a_start_position() -> None:
    start = "9/9/9/9/5oox1/9/2e6/9/9 C3 0"
    text = record.dumps([("E5", "A1")], start=start)
    back = record.loads(text)
    assert back.setup == start and back.game.fen() == "9/9/9/9/4x2x1/9/2x6/9/o8 - 1"
    assert record.dumps([("E5", "A1")], start=wts.Game.from_fen(start)) == text


def test_write_refuses_turn_results_that_do_not_follow() -> None:
    game = wts.Game.from_setup(black=names("H5"), white=names("F5 G5"), eggs=names("C3"))
    capture = game.play("E5", "A1")
    with pytest.raises(ValueError, match=r"turns\[0\] does not follow"):
        record.dumps([capture])
    assert record.loads(record.dumps([capture], start=game.root())).turns == (capture,)
    with pytest.raises(wts.IllegalMoveError):
        record.dumps([("E5", "E5"), ("E5", "A1")])
    with pytest.raises(TypeError):
        record.dumps("E5 B4")
    with pytest.raises(TypeError):
        record.dumps([42])


def test_write_checks_tags() -> None:
    won = wts.Game.from_setup(black=names("A1 B1 C1 D1"))
    won.play("E1", "I9")
    with pytest.raises(NotationError, match="does not match"):
        record.dumps(won, headers={"Result": "0-1"})
    with pytest.raises(NotationError, match="expected 1-0"):
        record.dumps(wts.Game(), headers={"Result": "black"})
    with pytest.raises(NotationError, match="not a tag name"):
        record.dumps(wts.Game(), headers={"Bad Name": "x"})
    with pytest.raises(NotationError, match="one line"):
        record.dumps(wts.Game(), headers={"Black": "two\nlines"})
    with pytest.raises(NotationError, match="SetUp"):
        record.dumps(wts.Game(), headers={"SetUp": "9/9/9/9/9/9/9/9/9 - 0"})
    assert '[Result "1-0"]' in record.dumps(won)


def test_a_resignation_is_a_result_of_an_unfinished_game() -> None:
    game = wts.Game()
    game.play("E5", "A1")
    text = record.dumps(game, headers={"Result": "0-1"})
    assert record.loads(text).result == "0-1"


def test_files_paths_and_binary_handles(tmp_path) -> None:
    game = random_game(wts.Game, 2, collide=0.15)
    path = tmp_path / "game.wts"
    record.write(game, path)
    assert record.read(path).turns == game.history
    assert record.read(str(path)).game == game
    with open(path, encoding="utf-8") as handle:
        assert record.read(handle).turns == game.history
    with open(path, "rb") as handle:
        assert record.read(handle).turns == game.history
    buffer = io.StringIO()
    record.write(game, buffer)
    assert buffer.getvalue() == path.read_text(encoding="utf-8")
    binary = io.BytesIO()
    record.write(game, binary)
    assert binary.getvalue().decode() == buffer.getvalue()
    with pytest.raises(FileNotFoundError):
        record.read(tmp_path / "missing.wts")


def test_position_returns_the_game_after_a_turn() -> None:
    start = wts.Game.from_setup(black=names("H5"), turn=3)
    game = random_game(wts.Game, 4, start=start, collide=0.15)
    back = record.loads(record.dumps(game))
    assert back.position(3) == start
    assert back.position(game.turn) == game
    middle = back.position(5)
    assert middle.turn == 5 and middle.history == game.history[:2]
    for bad in (2, game.turn + 1, "4", True):
        with pytest.raises(ValueError, match="turn must be"):
            back.position(bad)


def test_game_record_is_a_dataclass_with_the_parts() -> None:
    back = record.loads(GAME_TEXT)
    assert isinstance(back, GameRecord)
    assert back.result == "*" and back.game.turn == 2 and back.start.turn == 0


# --- Errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line, expected",
    [
        ("E5\n", 1, "expected a turn: black's square and white's square, like 'E5 B4', got 'E5'"),
        ("E5 B4 C3\n", 1, "got 'E5 B4 C3'"),
        ("\n\nE5 J4\n", 3, "expected white's square, a letter A-I and a digit 1-9 like E5, "
                            "got 'J4'"),
        ("E0 B4\n", 1, "expected black's square"),
        ("E5 B4\nE5 A1\n", 2,
         "turn 2: black's move E5 is illegal: the square holds a black turtle"),
        ("E5 B4\nA1 B4\n", 2, "turn 2: white's move B4 is illegal"),
        ("E5 B4\n[Black \"Ann\"]\n", 2, "tags come before the first turn"),
        ('[Black "Ann"]\n[Black "Bob"]\n', 2, "tag Black is given twice (first on line 1)"),
        ('[Black "Ann]\n', 1, "expected the closing '\"' of tag Black"),
        ('[Black Ann]\n', 1, "expected the value of tag Black in double quotes"),
        ('[1Black "Ann"]\n', 1, "expected a tag name"),
        ('[Black"Ann"]\n', 1, "expected a space and a quoted value"),
        ('[Black "Ann"\n', 1, "expected ']' to close tag Black"),
        ('[Black "Ann"] E5 B4\n', 1, "expected the end of the line after tag Black"),
        ('[Black "A\\nn"]\n', 1, 'expected \\" or \\\\'),
        ('[Result "black"]\n', 1, "expected a Result of 1-0, 0-1, 1/2-1/2 or *"),
        ('\n[SetUp "9/9/9/9/9/9/9/9/9 - x"]\n', 2, "SetUp: position 20: expected the turn"),
    ],
)
def test_errors_name_the_line(Game, text: str, line: int, expected: str) -> None:
    with pytest.raises(NotationError) as info:
        record.loads(text, engine=Game)
    message = str(info.value)
    assert message.startswith(f"line {line}: "), message
    assert expected in message, message
    assert info.value.line == line


def test_a_turn_after_the_game_is_over_names_its_line() -> None:
    won = wts.Game.from_setup(black=names("A1 B1 C1 D1"))
    with pytest.raises(wts.IllegalMoveError):
        record.dumps([("E1", "I9"), ("H8", "H9")], start=won)
    text = record.dumps([("E1", "I9")], start=won) + "H8 H9\n"
    with pytest.raises(NotationError, match=r"^line 8: turn 2: the game is over \(black wins\)"):
        record.loads(text)


def test_a_result_that_contradicts_a_finished_game_names_its_line() -> None:
    text = record.dumps([("E1", "I9")], start=wts.Game.from_setup(black=names("A1 B1 C1 D1")))
    text = text.replace('[Result "1-0"]', '[Result "0-1"]')
    with pytest.raises(NotationError, match=r"^line 4: Result '0-1' does not match the game"):
        record.loads(text)


def test_not_utf8_names_the_line() -> None:
    data = b'[Black "Ann"]\nE5 B4 ; caf\xe9\n'
    with pytest.raises(NotationError, match=r"^line 2: expected UTF-8 text"):
        record.read(io.BytesIO(data))


# --- Property: any text reads or raises NotationError ----------------------------------


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_records_read_or_raise_notation_error(data) -> None:
    game = random_game(wts.Game, data.draw(st.integers(0, 50)), collide=0.15)
    text = record.dumps(game, headers={"Black": "Ann"}, comments={1: "first"})
    lines = text.split("\n")
    index = data.draw(st.integers(0, len(lines) - 1))
    junk = data.draw(st.text(alphabet='[]"\\; \tE5B4A1xo-/\n', max_size=8) | st.text(max_size=6))
    kind = data.draw(st.sampled_from(["replace", "insert", "delete", "append"]))
    if kind == "replace":
        lines[index] = junk
    elif kind == "insert":
        lines.insert(index, junk)
    elif kind == "delete":
        del lines[index]
    else:
        lines[index] += junk
    mutated = "\n".join(lines)
    try:
        back = record.loads(mutated)
    except NotationError as exc:
        assert exc.line is not None and 1 <= exc.line <= mutated.count("\n") + 1
        assert str(exc).startswith(f"line {exc.line}: ")
        return
    assert record.loads(record.dumps(back)).turns == back.turns


# --- Found by the fuzz targets (tests/fuzz) ----------------------------------------------


def test_a_record_read_with_a_setup_tag_writes_back(Game) -> None:
    """dumps(record) raised "the SetUp tag is written from the game's start position"
    for any record read from text with a SetUp tag."""
    text = '[Black "Ann"]\n[SetUp "9/9/9/9/5oox1/9/2e6/9/9 C3 0"]\n\nE5 A1\n'
    back = record.loads(text, engine=Game)
    written = record.dumps(back)
    assert written.count("[SetUp ") == 1
    again = record.loads(written, engine=Game)
    assert again.setup == back.setup and again.turns == back.turns
    assert again.headers["Black"] == "Ann" and record.dumps(again) == written


@pytest.mark.parametrize(
    "line, comment",
    [("E5 B4 ; x\x0c", "x\x0c"), ("E5 B4 ; x\x1c", "x\x1c"), ("E5 B4 ; x\u0085", "x\u0085"),
     ("E5 B4 ; x\u2028", "x\u2028"), ("E5 B4 ; x\r", "x"), ("E5 B4 ; \r x \r", "x")],
)
def test_a_comment_read_is_written_back_as_it_was(line: str, comment: str) -> None:
    """Writing stripped any whitespace (str.rstrip()) from a comment, which reading
    keeps; and a comment ending in \\r (a line ending \\r\\r\\n) cannot be written."""
    back = record.loads(line + "\r\n")
    assert back.comments == {1: comment}
    assert record.loads(record.dumps(back)).comments == {1: comment}
