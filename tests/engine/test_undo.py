"""push / pop / peek: undoing a turn gives back exactly the game before it."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import wts
from tests.support.games import random_game, setup, snapshot


def everything(game: Any) -> tuple[Any, ...]:
    """The position, its key, its history and its start."""
    return (*snapshot(game), game.key(), game.history, game.root().fen(), game.fen())


def test_pop_restores_every_turn_back_to_the_start(Game: Any) -> None:
    for seed in range(15):
        game = Game()
        seen = [everything(game)]
        for played in random_game(Game, seed).history:
            assert game.push(played.black_move, played.white_move) == played
            assert game.peek() == played
            seen.append(everything(game))
        seen.pop()
        while seen:
            last = game.peek()
            assert game.pop() == last
            assert everything(game) == seen.pop()
        assert game.turn == 0


def test_pop_on_a_copy_replays_the_history(Game: Any) -> None:
    """A copy shares the history but keeps no saved positions: pop replays."""
    game = random_game(Game, 4)
    before = random_game(Game, 4, len(game.history) - 1)
    copy = game.copy()
    copy.pop()
    assert everything(copy) == everything(before)
    copy.pop()
    game.pop()
    game.pop()
    assert everything(copy) == everything(game)


def test_pop_after_a_pickle_round_trip(Game: Any) -> None:
    game = random_game(Game, 8, 10)
    loaded = pickle.loads(pickle.dumps(game))
    loaded.pop()
    game.pop()
    assert everything(loaded) == everything(game)


def test_pop_undoes_the_end_of_a_game(Game: Any) -> None:
    game = random_game(Game, 2)
    assert game.is_over()
    last = game.pop()
    assert last.status.is_over and not game.is_over()
    assert game.play(last.black_move, last.white_move) == last


def test_pop_stops_at_a_set_up_start(Game: Any) -> None:
    start = setup(Game, black="A1 B2", white="C3", eggs="D4 E5")
    game = start.copy()
    game.push("F6", "F6")
    game.push("G7", "A9")
    game.pop()
    game.pop()
    assert everything(game)[:-3] == everything(start)[:-3]
    assert game.fen() == start.fen() and game.key() == start.key()
    with pytest.raises(wts.NoTurnError):
        game.pop()


@pytest.mark.parametrize("call", ["pop", "peek"])
def test_nothing_to_undo_raises_no_turn_error_and_changes_nothing(Game: Any, call: str) -> None:
    game = setup(Game, black="A1", eggs="E5")
    before = everything(game)
    with pytest.raises(wts.NoTurnError, match="no turn") as raised:
        getattr(game, call)()
    assert isinstance(raised.value, IndexError) and isinstance(raised.value, wts.WtsError)
    assert everything(game) == before


def test_push_and_play_are_one_turn_and_both_can_be_popped(Game: Any) -> None:
    game = Game()
    game.play("A1", "B1")
    game.push("C1", "D1")
    game.pop()
    game.pop()
    assert everything(game) == everything(Game())


def test_pushes_and_plays_mixed_pop_in_order(Game: Any) -> None:
    """Saved positions (push) and replayed ones (play) interleave."""
    moves = [t[:2] for t in random_game(Game, 12, 9).history]
    game = Game()
    seen = [everything(game)]
    for index, (black, white) in enumerate(moves):
        (game.push if index % 3 else game.play)(black, white)
        seen.append(everything(game))
        if index == 5:  # pop two, then push them again
            game.pop()
            game.pop()
            game.push(*moves[4])
            game.play(*moves[5])
            assert everything(game) == seen[-1]
    seen.pop()
    while seen:
        game.pop()
        assert everything(game) == seen.pop()


def test_a_popped_turn_can_be_played_differently(Game: Any) -> None:
    game = random_game(Game, 6, 12)
    other = game.copy()
    game.pop()
    legal = game.legal_moves()
    game.push(legal[0], legal[-1])
    reference = other.copy()
    reference.pop()
    reference.play(legal[0], legal[-1])
    assert everything(game) == everything(reference)


def test_the_engines_pop_alike() -> None:
    fast, reference = random_game(wts.Game, 9), random_game(wts.reference.Game, 9)
    while fast.history:
        assert fast.pop() == reference.pop()
        assert everything(fast)[:-3] == everything(reference)[:-3]
        assert fast.key() == reference.key()
