"""OpenSpiel's MCTSBot as an agent, ``openspiel-mcts:N`` (skipped without OpenSpiel)."""

from __future__ import annotations

import sys
import threading

import pytest

from tests.support.processes import run_python

pyspiel = pytest.importorskip("pyspiel")

import wts  # noqa: E402
import wts.openspiel  # noqa: E402
from wts.adapters.openspiel_agent import OpenSpielMCTSAgent  # noqa: E402
from wts.players.agents import make_agent  # noqa: E402
from wts.players.tournament import format_result, play_match  # noqa: E402


def _middle_game() -> wts.Game:
    game = wts.Game()
    for black, white in (("E5", "E5"), ("D4", "F6"), ("C3", "G7"), ("A1", "I9")):
        game.play(black, white)
    return game


def test_it_plays_legal_moves_for_both_colours_to_the_end() -> None:
    game = wts.Game()
    black, white = OpenSpielMCTSAgent(10, seed=1), OpenSpielMCTSAgent(10, seed=2)
    while not game.is_over() and game.turn < 60:
        before = game.copy()
        moves = black.select(game, "black"), white.select(game, wts.Color.WHITE)
        assert game == before  # the game is left as it was
        assert all(square in game.legal_moves() for square in moves)
        game.play(*moves)
    assert black.total_playouts == 10 * game.turn


def test_the_same_seed_plays_the_same_moves() -> None:
    game = _middle_game()
    agent = OpenSpielMCTSAgent(30, seed=7)
    first = [agent.select(game, color) for color in ("black", "white")]
    again = OpenSpielMCTSAgent(30, seed=7)
    assert [again.select(game, color) for color in ("black", "white")] == first
    again.reset()
    assert again.select(game, "black") == first[0]


@pytest.mark.parametrize("color", ["black", "white"])
def test_it_searches_as_the_first_mover_seeing_no_move_of_the_turn(color: str,
                                                                   monkeypatch) -> None:
    from open_spiel.python.algorithms import mcts

    searched = []
    step = mcts.MCTSBot.step
    monkeypatch.setattr(mcts.MCTSBot, "step",
                        lambda bot, state: searched.append(state.clone()) or step(bot, state))
    game = _middle_game()
    square = OpenSpielMCTSAgent(10, seed=1).select(game, color)
    [state] = searched
    # Player 0 (who moves first in the turn-based form) to move, nothing of the turn played.
    assert state.current_player() == 0 and state.history() == []
    assert square in state.legal_actions(0)
    # Player 0 holds the agent's turtles: for white, the position with colours swapped.
    own, other = (game.black, game.white) if color == "black" else (game.white, game.black)
    seated = wts.Game.from_setup(black=own, white=other, eggs=game.eggs, turn=game.turn)
    board = str(wts.openspiel.load_game(fen=seated.fen()).new_initial_state())
    assert str(state) == "Partial joint action: \n" + board


def test_it_takes_a_winning_square_whichever_colour_it_plays() -> None:
    # Black has A1-D1; white has A9-D9: E1 (or E9) ends the game at once.
    game = wts.Game.from_setup(black=["A1", "B1", "C1", "D1"], white=["A9", "B9", "C9", "D9"])
    black = OpenSpielMCTSAgent(400, seed=3).select(game, "black")
    white = OpenSpielMCTSAgent(400, seed=3).select(game, "white")
    assert wts.square_name(black) in ("E1", "E9") and wts.square_name(white) in ("E9", "E1")


def test_a_set_stop_answers_at_once_with_a_legal_square() -> None:
    stop = threading.Event()
    stop.set()
    agent = OpenSpielMCTSAgent(1_000_000, seed=1, stop=stop)
    assert agent.select(wts.Game(), "black") in range(81)
    assert agent.total_playouts == 0


def test_bad_arguments_are_parameter_errors() -> None:
    for bad in (0, 1_000_001):
        with pytest.raises(wts.ParameterError, match="simulations"):
            OpenSpielMCTSAgent(bad)
    with pytest.raises(wts.ParameterError, match="colour"):
        OpenSpielMCTSAgent(5, seed=1).select(wts.Game(), "green")
    with pytest.raises(wts.ParameterError, match="simulations in 'openspiel-mcts:0'"):
        make_agent("openspiel-mcts:0")


def test_specs_make_the_agent() -> None:
    agent = make_agent("openspiel-mcts:50", seed=4)
    assert isinstance(agent, OpenSpielMCTSAgent) and (agent.simulations, agent.seed) == (50, 4)
    assert make_agent("openspiel-mcts").simulations == 1000


def test_a_tiny_tournament_against_random() -> None:
    result = play_match("openspiel-mcts:50", "random", 2, seed=1)
    assert result.games == 2 and result.a_wins + result.b_wins + result.draws == 2
    report = format_result(result)
    assert report.startswith("wts tournament: openspiel-mcts:50 vs random, 2 games, seed 1")
    assert "playouts/s" in report and "for openspiel-mcts:50 (50 playouts" in report


def test_importing_wts_does_not_import_openspiel() -> None:
    code = "import sys, wts, wts.agents, wts.tournament; print('pyspiel' in sys.modules)"
    out = run_python("-c", code, check=True)
    assert out.stdout.strip() == "False"


def test_without_openspiel_the_error_says_how_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails
    with pytest.raises(ImportError, match=r"pip install 'wts\[openspiel\]'"):
        OpenSpielMCTSAgent(5)
