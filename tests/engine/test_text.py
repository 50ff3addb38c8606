"""Text for people (:mod:`wts.engine.text`): the board with the last turn and
the rows of five marked, how a game stands in words, and what a turn did,
on both engines."""

from __future__ import annotations

import doctest
import random

import pytest

import wts
from wts.engine import text
from wts.engine.squares import SQUARE_NAMES, parse_square


def names(squares: str) -> list[int]:
    return [parse_square(name) for name in squares.split()]


def cell(board: str, square: str) -> str:
    """The three characters of ``square`` on a text board: mark, piece, mark."""
    rank_line = board.splitlines()[1 + 9 - int(square[1])]
    column = 5 + 3 * "ABCDEFGHI".index(square[0])
    return rank_line[column - 1:column + 2]


def test_module_examples() -> None:
    assert doctest.testmod(text).failed == 0


def test_an_unmarked_board_is_laid_out_as_str_of_the_game(Game) -> None:
    game = Game.from_setup(black=names("E5 H5"), white=names("A1"), eggs=names("C3 I9"))
    assert text.board(game).splitlines()[:-1] == str(game).splitlines()[:-1]
    assert text.board(game).splitlines()[-1] == "turn 0, ongoing"


def test_the_last_turn_is_marked_and_the_key_says_what_is_shown(Game) -> None:
    game = Game.from_setup(black=names("H5"), white=names("F5 G5"), eggs=names("C3"))
    game.play("E5", "A1")
    board = text.board(game)
    assert cell(board, "E5") == "[X]" and cell(board, "A1") == "[O]"
    assert cell(board, "C3") == "(X)" and cell(board, "H5") == " X "
    assert cell(board, "F5") == " . "  # captured: no mark of its own
    assert board.splitlines()[-1] == "marks: [ ] played last turn, ( ) hatched last turn"
    game.play("I9", "I9")
    board = text.board(game)
    assert cell(board, "I9") == "[1]" and cell(board, "C3") == " X "
    assert board.splitlines()[-1] == "marks: [ ] played last turn"


def test_a_two_digit_egg_keeps_the_columns_in_place(Game) -> None:
    eggs = names("A1 B1 C1 D1 E1 F1 G1 H1 I1")
    game = Game.from_setup(black=names("A5"), eggs=eggs)
    game.play("B2", "B2")
    board = text.board(game)
    # The tens digit and the bracket take the space between A2 and B2.
    assert cell(board, "B2") == "10]" and board.splitlines()[8].startswith(" 2   .[10] .  .")
    assert cell(board, "A1") == " 1 " and cell(board, "I1") == " 9 "
    assert cell(board, "A5") == " X "
    assert {len(line) for line in board.splitlines()[1:10]} == {33}


def test_a_won_game_names_and_marks_its_row(Game) -> None:
    game = Game.from_setup(black=names("A1 B1 C1 D1"), white=names("C3 D4 F6 G7"),
                           eggs=names("I9"))
    game.play("A2", "E5")
    board = text.board(game)
    # E5, played last turn, keeps that mark beside its row mark.
    assert [cell(board, sq) for sq in ("C3", "D4", "E5", "F6", "G7")] == [
        " O*", " O*", "[O*", " O*", " O*"]
    assert cell(board, "A1") == " X " and cell(board, "A2") == "[X]"
    assert board.splitlines()[-2] == "turn 1, white wins: five in a row at C3 D4 E5 F6 G7"
    assert board.splitlines()[-1] == "marks: [ ] played last turn, * in a row of five"
    assert text.describe_turn(game.history[-1], game)[-1] == (
        "  white wins: five in a row at C3 D4 E5 F6 G7")


def test_the_loser_s_row_is_named_too(Game) -> None:
    game = Game.from_setup(black=names("A1 B1 C1 D1 E1"),
                           white=names("A9 B9 C9 D9 E9 A8 A7 A6 A5"))
    assert game.status is wts.Status.WHITE_WINS
    assert text.outcome(game) == ("white wins: 9 turtles in rows of five at A5 A6 A7 A8 A9 "
                                  "B9 C9 D9 E9; black has five in a row")
    game = Game.from_setup(black=names("A1 B1 C1 D1 E1"), white=names("A9 B9 C9 D9 E9 F9"))
    assert text.outcome(game).startswith("white wins: six in a row at A9 B9 C9 D9 E9 F9;")


def test_sudden_death_and_draws_in_words(Game) -> None:
    game = Game.from_setup(black=names("A1 B1 C1 D1 E1"), white=names("A9 B8 C7 D6 E5"))
    assert game.status is wts.Status.SUDDEN_DEATH
    assert text.outcome(game) == (
        "sudden death: both have five in a row; play goes on until one has more")
    assert "X*" in text.board(game) and "O*" in text.board(game)
    full = Game.from_setup(eggs=range(80))
    full.play(80, 80)
    assert text.outcome(full) == "a draw: the board is full"
    assert text.describe_turn(full.history[-1], full)[-1] == "  a draw: the board is full"


@pytest.mark.parametrize("status", list(wts.Status))
def test_statuses_read_as_words(status: wts.Status) -> None:
    words = status.words
    assert "_" not in words and words.replace("a ", "").split()[0] in status.value


@pytest.mark.parametrize("seed", range(6))
def test_the_turtles_in_rows_are_the_winning_counts(Game, seed: int) -> None:
    rng = random.Random(seed)
    game = Game()
    while not game.is_over():
        legal = game.legal_moves()
        game.play(rng.choice(legal), rng.choice(legal))
        counts = tuple(len(text.turtles_in_rows(game, color))
                       for color in (wts.Color.BLACK, wts.Color.WHITE))
        assert counts == game.winning_counts
    winner = game.winner
    if winner is not None:
        row = " ".join(SQUARE_NAMES[sq] for sq in text.turtles_in_rows(game, winner))
        assert row in text.board(game).splitlines()[-2]
