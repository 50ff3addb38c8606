"""A game keeps its history: ``game.history`` (the TurnResults) and ``game.root()``
(the position before them), on both engines."""

from __future__ import annotations

import copy
import pickle
import random
import re

import numpy as np
import pytest

import wts
from tests.support.games import names
from tests.support.processes import TESTS
from wts import IllegalMoveError


def test_play_appends_the_turn_result(Game) -> None:
    game = Game()
    assert game.history == ()
    first = game.play("E5", "E5")
    second = game.play("A1", "B1")
    assert game.history == (first, second)
    assert isinstance(game.history, tuple)


def test_an_illegal_move_adds_nothing(Game) -> None:
    game = Game()
    game.play("E5", "E5")
    with pytest.raises(IllegalMoveError):
        game.play("E5", "A1")
    with pytest.raises(IllegalMoveError):
        game.play("J1", "A1")
    assert len(game.history) == 1 and game.turn == 1


def test_history_is_read_only(Game) -> None:
    game = Game()
    game.play("E5", "A1")
    with pytest.raises(AttributeError):
        game.history = ()  # type: ignore[misc]
    game.history  # noqa: B018
    assert len(game.history) == 1


def test_copy_copies_the_history_and_they_grow_apart(Game) -> None:
    game = Game()
    game.play("E5", "A1")
    twin = game.copy()
    assert twin.history == game.history
    twin.play("B2", "C3")
    game.play("I9", "H9")
    assert len(twin.history) == len(game.history) == 2
    assert twin.history[0] == game.history[0]
    assert twin.history[1] != game.history[1]
    assert copy.copy(game).history == game.history
    assert copy.deepcopy(game).history == game.history


def test_equality_ignores_the_history(Game) -> None:
    played = Game()
    played.play("E5", "A1")
    set_up = Game.from_setup(black=names("E5"), white=names("A1"), turn=1)
    assert played == set_up
    assert played.history != set_up.history


def test_set_up_games_start_with_an_empty_history(Game) -> None:
    assert Game.from_setup(black=names("A1")).history == ()
    assert Game.from_fen("9/9/9/9/9/9/9/9/x8 - 4").history == ()


def test_root_of_a_new_game_is_a_new_game(Game) -> None:
    game = Game()
    for move in ("E5", "D4", "C3"):
        game.play(move, "I9" if move == "E5" else move)
    root = game.root()
    assert root == Game() and root.history == ()


def test_root_of_a_set_up_game_is_the_set_up(Game) -> None:
    start = Game.from_setup(black=names("H5"), white=names("F5 G5"), eggs=names("C3"), turn=5)
    game = start.copy()
    game.play("E5", "A1")
    game.play("B2", "B2")
    assert game.root() == start and game.root().history == ()
    assert start.root() == start  # no history: the game itself
    twin = game.copy()
    twin.play("I9", "I8")
    assert twin.root() == start


def test_root_replayed_gives_the_game(Game) -> None:
    rng = random.Random(3)
    game = Game.from_setup(black=names("A1 B2"), eggs=names("E5"), turn=2)
    while not game.is_over():
        legal = game.legal_moves()
        game.play(rng.choice(legal), rng.choice(legal))
    again = game.root()
    for result in game.history:
        assert again.play(result.black_move, result.white_move) == result
    assert again == game and again.history == game.history


def test_pickle_keeps_the_history_and_its_start(Game) -> None:
    game = Game.from_setup(black=names("H5"), white=names("F5 G5"), eggs=names("C3"))
    game.play("E5", "A1")
    game.play("D4", "D4")
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.history == game.history and again.root() == game.root()
    fresh = Game()
    fresh.play("A1", "A2")
    again = pickle.loads(pickle.dumps(fresh))
    assert again.history == fresh.history and again.root() == Game()


def _pickled_with(game, **changes):
    """``game``'s pickle with some of the arguments of its restore call changed."""
    restore, args = game.__reduce__()
    names = ("black", "white", "eggs", "turn", "history", "root")
    fields = dict(zip(names, args))
    fields.update(changes)
    return pickle.dumps(_Pickled(restore, tuple(fields[name] for name in names)))


class _Pickled:
    def __init__(self, restore, args) -> None:
        self.restore, self.args = restore, args

    def __reduce__(self):
        return self.restore, self.args


def test_a_pickled_history_that_does_not_lead_to_the_position_is_refused(Game) -> None:
    game = Game()
    game.play("A1", "B1")
    game.play("C1", "D1")
    other = Game()
    other.play("E5", "E5")
    with pytest.raises(wts.SetupError, match="does not lead to the pickled position"):
        pickle.loads(_pickled_with(game, history=other.history))


def test_a_pickled_history_that_breaks_the_rules_is_refused(Game) -> None:
    game = Game()
    first = game.play("A1", "B1")
    game.play("C1", "D1")
    forged = first._replace(collision=wts.A1)
    with pytest.raises(wts.SetupError, match="turn 1 does not match"):
        pickle.loads(_pickled_with(game, history=(forged, game.history[1])))
    with pytest.raises(wts.SetupError, match="turn 2 cannot be played"):
        pickle.loads(_pickled_with(game, history=(first, first)))


@pytest.mark.parametrize("history", [("garbage",), (None, None), [1, 2]])
def test_a_pickled_history_of_garbage_is_refused(Game, history) -> None:
    game = Game()
    game.play("A1", "B1")
    with pytest.raises(wts.SetupError, match="history"):
        pickle.loads(_pickled_with(game, history=history))


def test_a_pickled_history_with_a_bad_start_is_refused(Game) -> None:
    game = Game.from_setup(black=names("E5"))
    game.play("A1", "B1")
    with pytest.raises(wts.SetupError, match="start"):
        pickle.loads(_pickled_with(game, root="not a position"))


def test_both_engines_record_the_same_history() -> None:
    rng = random.Random(11)
    fast, reference = wts.Game(), wts.reference.Game()
    while not fast.is_over():
        legal = fast.legal_moves()
        move = rng.choice(legal), rng.choice(legal)
        fast.play(*move)
        reference.play(*move)
    assert fast.history == reference.history


def test_a_game_taken_from_a_batch_starts_its_history_there() -> None:
    batch = wts.BatchGame(1)
    batch.step(np.array([40]), np.array([40]))
    game = batch[0]
    assert game.history == ()
    game.play("A1", "B1")
    assert game.root() == batch[0] and len(game.history) == 1


def test_trial_copies_of_a_set_up_game_start_their_history_there(Game) -> None:
    start = Game.from_setup(black=names("A1 B2"), eggs=names("E5"), turn=2)
    for move in ("C3", "D4", "F6"):
        trial = start.copy()
        trial.play(move, "I9")
        assert trial.root() == start and trial.root().history == ()
    start.play("H8", "H9")
    assert start.root() == Game.from_setup(black=names("A1 B2"), eggs=names("E5"), turn=2)


def test_a_position_written_into_a_game_starts_its_history_there() -> None:
    game = wts.Game.from_setup(black=names("A1"))
    game.copy()  # the fast engine keeps a snapshot of the start for its copies
    batch = wts.BatchGame(1)
    batch.step(np.array([40]), np.array([41]))
    batch._get_state(0, game)
    game.play("C3", "C4")
    assert game.root() == batch[0]


def test_games_pickled_at_their_public_paths_still_load() -> None:
    """``games.pickle`` holds a fast and a reference game with a history. It
    names only the public classes (``wts.Game``, ``wts.reference.Game``,
    ``wts.TurnResult``, ...), so it keeps loading whichever module their code
    moves to."""
    path = TESTS / "golden" / "games.pickle"
    data = path.read_bytes()
    assert set(re.findall(rb"wts[.\w]*", data)) == {b"wts", b"wts.reference"}
    fast, reference = pickle.loads(data)
    assert type(fast) is wts.Game and type(reference) is wts.reference.Game
    assert fast == reference and fast.history == reference.history and fast.turn == 5
    assert fast.root() == wts.Game.from_setup(
        black=names("H5"), white=names("F5 G5"), eggs=names("C3"), turn=3)
