"""The OpenSpiel game ``wts.openspiel`` (skipped without the openspiel extra)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import wts  # noqa: E402
import wts.openspiel  # noqa: E402  (registers the game)
from wts.engine.observation import observation_planes  # noqa: E402

NAME = "python_what_the_shell"


@pytest.fixture(scope="module")
def game():
    return pyspiel.load_game(NAME)


def test_the_game_is_registered(game) -> None:
    assert NAME in pyspiel.registered_names()
    game_type = game.get_type()
    assert game_type.short_name == NAME
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game_type.provides_observation_tensor and game_type.provides_observation_string
    assert game.num_distinct_actions() == 81 and game.num_players() == 2
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_game_length() == 200
    assert game.observation_tensor_shape() == [4, 9, 9]
    assert wts.openspiel.load_game(max_turns=50).max_game_length() == 50


def test_random_sim_test(game) -> None:
    pyspiel.random_sim_test(game, num_sims=100, serialize=False, verbose=False)


def test_random_sim_test_with_a_short_turn_limit() -> None:
    game = pyspiel.load_game(NAME, {"max_turns": 4})
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


def test_a_game_through_the_api(game) -> None:
    state = game.new_initial_state()
    assert state.is_simultaneous_node()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert state.legal_actions(0) == state.legal_actions(1) == list(range(81))
    state.apply_actions([40, 40])  # a collision: an egg on E5
    assert 40 not in state.legal_actions(0)
    for file in range(4):
        state.apply_actions([file, 72 + file])
        assert not state.is_terminal()
    clone = state.clone()
    state.apply_actions([4, 30])  # A1-E1: black's five
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions(0) == state.legal_actions(1) == []
    assert not clone.is_terminal() and clone.returns() == [0.0, 0.0]  # the clone is independent
    assert state.action_to_string(0, 4) == "black E1"
    assert state.action_to_string(1, 30) == "white D4"
    tensor = np.asarray(clone.observation_tensor(1)).reshape(4, 9, 9)
    assert np.array_equal(tensor, observation_planes(clone.game, wts.Color.WHITE))
    assert clone.observation_string(0).startswith("black to move\n")
    assert clone.information_state_string(1) == "white: E5/E5 A1/A9 B1/B9 C1/C9 D1/D9"


def test_turn_limit_ends_in_a_draw() -> None:
    state = pyspiel.load_game(NAME, {"max_turns": 2}).new_initial_state()
    state.apply_actions([0, 80])
    state.apply_actions([1, 79])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_states_copy_and_pickle(game) -> None:
    state = game.new_initial_state()
    state.apply_actions([40, 41])
    duplicate = copy.deepcopy(state)
    duplicate.apply_actions([0, 1])
    assert state.game.turn == 1 and duplicate.game.turn == 2
    assert pickle.loads(pickle.dumps(state.game)) == state.game


def test_openspiel_mcts_plays_a_game() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.convert_to_turn_based(pyspiel.load_game(NAME, {"max_turns": 40}))
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    random_bot = pyspiel.make_uniform_random_bot(1, 1)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, random_bot], rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiel_regret_matching_plays_a_game() -> None:
    # Outcome-sampling MCCFR: regret matching at every information state.
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.convert_to_turn_based(pyspiel.load_game(NAME, {"max_turns": 40}))
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(5):
        solver.iteration()
    policy = solver.average_policy()
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        actions, probs = zip(*policy.action_probabilities(state).items())
        state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_module_example() -> None:
    import doctest

    assert doctest.testmod(wts.adapters.openspiel).failed == 0


def test_no_action_is_taken_after_the_max_turns_terminal() -> None:
    state = pyspiel.load_game(NAME, {"max_turns": 2}).new_initial_state()
    state.apply_actions([0, 1])
    state.apply_actions([2, 3])
    assert state.is_terminal() and not state.game.is_over()
    with pytest.raises(wts.GameOverError, match="max_turns=2"):
        state.apply_actions([4, 5])
    assert state.game.turn == 2 and state.moves == [(0, 1), (2, 3)]


@pytest.mark.parametrize("actions", [[], [40], [40, 41, 42]])
def test_a_joint_action_of_other_than_two_actions_is_a_parameter_error(
        game, actions: list[int]) -> None:
    """One action was an IndexError; three played the first two and dropped the third."""
    state = game.new_initial_state()
    with pytest.raises(wts.ParameterError, match="2 actions"):
        state.apply_actions(actions)
    assert state.game == wts.Game() and state.moves == []


@pytest.mark.parametrize("player", [2, 3, 7])
def test_a_player_other_than_0_or_1_is_a_parameter_error(game, player: int) -> None:
    """``legal_actions(2)`` listed the squares; ``action_to_string(2, a)`` was an IndexError."""
    state = game.new_initial_state()
    with pytest.raises(wts.ParameterError, match="player"):
        state.legal_actions(player)
    with pytest.raises(wts.ParameterError, match="player"):
        state.action_to_string(player, 0)
    with pytest.raises(wts.ParameterError, match="action"):
        state.action_to_string(0, 81)
    assert state.action_to_string(1, 80) == "white I9"


@pytest.mark.parametrize("max_turns", [0, -3, 2**31])
def test_max_turns_out_of_range_is_a_parameter_error(max_turns: int) -> None:
    with pytest.raises(wts.ParameterError, match="max_turns"):
        wts.openspiel.load_game(max_turns=max_turns)


def test_a_game_can_start_from_a_position() -> None:
    start = wts.Game.from_setup(black=["A1", "B1", "C1", "D1"], white=["A9"], turn=30)
    game = pyspiel.load_game(NAME, {"fen": start.fen(), "max_turns": 2})
    state = game.new_initial_state()
    assert state.game == start and state.legal_actions(0) == start.legal_moves()
    state.apply_actions([80, 79])
    assert not state.is_terminal()  # max_turns counts the turns played from the position
    clone = state.clone()
    state.apply_actions([4, 78])  # E1: black's five
    assert state.returns() == [1.0, -1.0]
    clone.apply_actions([70, 71])
    assert clone.is_terminal() and clone.returns() == [0.0, 0.0]
    with pytest.raises(wts.NotationError):
        pyspiel.load_game(NAME, {"fen": "9/9 - 0"})
