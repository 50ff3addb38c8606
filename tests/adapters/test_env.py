"""The PettingZoo environment ``wts.env`` (skipped without the pettingzoo extra)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import parallel_api_test, parallel_seed_test

import wts
from wts.adapters.env import ILLEGAL_ACTIONS, WhatTheShellEnv, parallel_env
from wts.engine.observation import observation_planes
from wts.players.agents import GreedyAgent, RandomAgent


@pytest.mark.parametrize("illegal_action", ILLEGAL_ACTIONS)
def test_pettingzoo_parallel_api_test(illegal_action: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the API test warns about what it dislikes
        parallel_api_test(parallel_env(illegal_action=illegal_action), num_cycles=1000)


@pytest.mark.parametrize("illegal_action", ILLEGAL_ACTIONS)
def test_pettingzoo_parallel_seed_test(illegal_action: str) -> None:
    parallel_seed_test(lambda: parallel_env(illegal_action=illegal_action))


def test_spaces_are_the_same_object_every_call() -> None:
    env = parallel_env()
    assert env.possible_agents == ["black", "white"]
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        assert env.action_space(agent).n == 81
        space = env.observation_space(agent)
        assert space["observation"].shape == (4, 9, 9)
        assert space["observation"].dtype == np.uint8
        assert space["action_mask"].shape == (81,) and space["action_mask"].dtype == np.int8


def test_observations_are_from_each_agents_side() -> None:
    env = parallel_env()
    observations, infos = env.reset(seed=0)
    assert set(observations) == set(infos) == {"black", "white"}
    for agent in ("black", "white"):
        assert observations[agent]["observation"].dtype == np.uint8
        assert observations[agent]["action_mask"].dtype == np.int8
        assert observations[agent]["action_mask"].sum() == 81
        assert env.observation_space(agent).contains(observations[agent])
    env.step({"black": 40, "white": 40})  # collision: an egg on E5
    observations, *_ = env.step({"black": wts.A1, "white": wts.I9})
    black = observations["black"]["observation"]
    white = observations["white"]["observation"]
    assert black[0, 0, 0] == 1 and black[1, 8, 8] == 1  # [plane, rank - 1, file]
    assert white[0, 8, 8] == 1 and white[1, 0, 0] == 1
    for planes in (black, white):
        assert planes[2, 4, 4] == 1 and planes[3, 4, 4] == 1
        assert planes.sum() == 4
    mask = observations["black"]["action_mask"]
    assert mask.sum() == 78 and mask[40] == mask[0] == mask[80] == 0
    assert np.array_equal(env.state(), observation_planes(env.game, wts.Color.BLACK))
    for agent in ("black", "white"):
        assert env.observation_space(agent).contains(observations[agent])


def test_rewards_at_the_end() -> None:
    env = parallel_env()
    env.reset(seed=1)
    for file in range(4):
        _, rewards, terminations, truncations, _ = env.step({"black": file, "white": 72 + file})
        assert rewards == {"black": 0.0, "white": 0.0}
        assert not any(terminations.values()) and not any(truncations.values())
    observations, rewards, terminations, truncations, _ = env.step({"black": 4, "white": 30})
    assert rewards == {"black": 1.0, "white": -1.0}
    assert terminations == {"black": True, "white": True}
    assert truncations == {"black": False, "white": False}
    assert env.agents == []
    assert observations["black"]["action_mask"].sum() == 0
    assert env.step({}) == ({}, {}, {}, {}, {})  # nothing after the end


def test_an_illegal_action_is_replaced_by_a_random_legal_one() -> None:
    env = parallel_env()
    env.reset(seed=7)
    env.step({"black": 40, "white": 41})
    for bad in (40, 41, 81, -1, "E5", None, 2.5, True):
        before = env.game.copy()
        _, rewards, terminations, _, infos = env.step({"black": bad, "white": 0})
        assert infos["black"]["illegal_action"] is True
        assert infos["white"]["illegal_action"] is False and infos["white"]["square"] == 0
        square = infos["black"]["square"]
        assert square in before.legal_moves()
        assert not terminations["black"] and rewards["black"] == 0.0
        env.reset(seed=7)
        env.step({"black": 40, "white": 41})
    # The replacement comes from the generator reset(seed) seeded.
    plays = []
    for _ in range(2):
        env.reset(seed=3)
        plays.append(env.step({"black": 99, "white": 0})[4]["black"]["square"])
    assert plays[0] == plays[1]
    # A missing action counts as illegal; numpy integers are fine.
    env.reset(seed=3)
    infos = env.step({"white": np.int64(5)})[4]
    assert infos["black"]["illegal_action"] and infos["white"]["square"] == 5


def test_an_illegal_action_can_lose_the_game() -> None:
    env = parallel_env(illegal_action="lose")
    env.reset(seed=0)
    env.step({"black": 40, "white": 41})
    _, rewards, terminations, _, infos = env.step({"black": 41, "white": 0})
    assert rewards == {"black": -1.0, "white": 1.0}
    assert terminations == {"black": True, "white": True} and env.agents == []
    assert infos["black"]["illegal_action"] and infos["black"]["square"] is None
    env.reset()
    _, rewards, terminations, _, _ = env.step({"black": 81, "white": -3})
    assert rewards == {"black": 0.0, "white": 0.0} and all(terminations.values())


@pytest.mark.parametrize("action", [
    np.array([5]), np.array([[5]]), np.ma.masked_array(5, mask=True),
    np.ma.masked_array(5, mask=False), np.ma.masked_array([5], mask=[True]), np.array(5.0),
], ids=["(1,)", "(1,1)", "masked", "masked-unmasked", "masked-(1,)", "0-d-float"])
def test_an_action_that_is_not_an_int_or_0d_int_array_is_illegal(action: object) -> None:
    """A (1,) array was taken as the square it held, and a fully masked
    array as the masked value: both are illegal actions."""
    env = parallel_env(illegal_action="lose")
    env.reset(seed=0)
    _, rewards, _, _, infos = env.step({"black": action, "white": 7})
    assert infos["black"]["illegal_action"] is True and infos["black"]["square"] is None
    assert rewards == {"black": -1.0, "white": 1.0} and env.game == wts.Game()
    env.reset(seed=0)
    assert env.step({"black": np.array(5), "white": 7})[4]["black"]["square"] == 5


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_reset_refuses_a_seed_out_of_range_as_the_vector_env_does(seed: int) -> None:
    """-1 raised numpy's own ValueError, 2**64 was taken; the vector env
    refuses both with ParameterError."""
    env = parallel_env()
    env.reset(seed=3)
    env.step({"black": 40, "white": 41})
    with pytest.raises(wts.ParameterError, match="seed"):
        env.reset(seed=seed)
    assert env.game.turn == 1
    with pytest.raises(wts.ParameterTypeError, match="seed"):
        env.reset(seed=1.5)  # type: ignore[arg-type]
    env.reset(seed=2**64 - 1)
    assert env.game == wts.Game()


@pytest.mark.parametrize("actions", [[1, 2], (40, 41), np.array([1, 2]), None])
def test_step_refuses_actions_that_are_not_a_dict(actions: object) -> None:
    """``step([1, 2])`` failed with AttributeError inside the environment."""
    env = parallel_env()
    env.reset(seed=0)
    with pytest.raises(wts.ParameterTypeError, match="dict"):
        env.step(actions)  # type: ignore[arg-type]
    assert env.game == wts.Game() and env.agents == ["black", "white"]


def test_truncation_after_max_cycles() -> None:
    env = parallel_env(max_cycles=2)
    env.reset(seed=0)
    env.step({"black": 40, "white": 40})
    _, rewards, terminations, truncations, _ = env.step({"black": 0, "white": 80})
    assert truncations == {"black": True, "white": True}
    assert not any(terminations.values()) and rewards == {"black": 0.0, "white": 0.0}
    assert env.agents == []


def test_render_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    env = parallel_env(render_mode="ansi")
    env.reset()
    assert env.render() == str(env.game)
    human = parallel_env(render_mode="human")
    human.reset()
    assert "A  B  C" in capsys.readouterr().out
    assert parallel_env().render() is None
    with pytest.raises(ValueError, match="render_mode"):
        parallel_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="illegal_action"):
        parallel_env(illegal_action="ignore")
    assert isinstance(parallel_env(), WhatTheShellEnv)


def test_agents_play_in_the_environment() -> None:
    env = parallel_env()
    bots = {"black": GreedyAgent(seed=1), "white": RandomAgent(seed=2)}
    env.reset(seed=0)
    rewards: dict[str, float] = {}
    while env.agents:
        actions = {agent: bots[agent].select(env.game, agent) for agent in env.agents}
        _, rewards, _, _, infos = env.step(actions)
        assert not any(info["illegal_action"] for info in infos.values())
    assert rewards == {"black": 1.0, "white": -1.0}


def test_module_example() -> None:
    import doctest

    import wts.env

    assert doctest.testmod(wts.adapters.env).failed == 0
