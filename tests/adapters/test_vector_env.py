"""The Gymnasium vector environment ``wts.vector_env`` (skipped without Gymnasium 1.1)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", minversion="1.1")

import gymnasium
from gymnasium.error import ClosedEnvironmentError
from gymnasium.vector import AutoresetMode, VectorEnv

import wts
from tests.support.processes import run_python
from wts.adapters.game_streams import GameStreams, random_squares
from wts.engine.observation import observation_planes
from wts.vector_env import ILLEGAL_ACTIONS, WhatTheShellVectorEnv, make_vector_env


def legal_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal square per row of an action mask (0 where none)."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def test_spaces_and_metadata() -> None:
    envs = make_vector_env(5, opponent="random", color="white")
    assert isinstance(envs, VectorEnv) and envs.num_envs == 5
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.single_action_space == gymnasium.spaces.Discrete(81)
    assert envs.action_space.shape == (5,) and envs.observation_space.shape == (5, 4, 9, 9)
    joint = make_vector_env(3)
    assert joint.single_action_space.shape == (2,) and joint.action_space.shape == (3, 2)
    assert joint.single_observation_space.shape == (2, 4, 9, 9)
    assert joint.observation_space.shape == (3, 2, 4, 9, 9)
    observations, infos = joint.reset(seed=0)
    assert observations in joint.observation_space
    assert infos["action_mask"].dtype == np.int8 and infos["_action_mask"].all()


def test_action_spaces_are_the_types_docs_training_md_gives() -> None:
    # Gymnasium batches the learner's Discrete as a MultiDiscrete, and the
    # self-play MultiDiscrete([81, 81]) as a Box: the docs' table says so.
    spaces = gymnasium.spaces
    assert make_vector_env(5, opponent="random").action_space == spaces.MultiDiscrete([81] * 5)
    joint = make_vector_env(3)
    assert joint.single_action_space == spaces.MultiDiscrete([81, 81])
    assert joint.action_space == spaces.Box(0, 80, (3, 2), np.int64)


def test_self_play_matches_games_played_move_by_move() -> None:
    """Every observation, mask, reward and ending against wts.Game, autoresets included."""
    n, rng = 8, np.random.default_rng(3)
    envs = make_vector_env(n, max_cycles=30)
    observations, infos = envs.reset(seed=1)
    games = [wts.Game() for _ in range(n)]
    ended = np.zeros(n, dtype=bool)
    endings = 0
    for _ in range(120):
        actions = np.stack([legal_random(infos["action_mask"], rng) for _ in range(2)], axis=1)
        actions[rng.random(n) < 0.1, 0] = 81  # some illegal, replaced at random
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert observations in envs.observation_space
        assert np.array_equal(infos["_square"], ~ended)
        for g in range(n):
            if ended[g]:  # the next step restarts the game and ignores its action
                games[g] = wts.Game()
                assert rewards[g].tolist() == [0.0, 0.0] and not terminated[g]
                assert infos["turn"][g] == 0 and infos["square"][g].tolist() == [-1, -1]
            else:
                black, white = infos["square"][g].tolist()
                assert infos["illegal_action"][g, 0] == (actions[g, 0] == 81)
                if not infos["illegal_action"][g, 0]:
                    assert black == actions[g, 0]
                games[g].play(black, white)
                status = games[g].status
                assert terminated[g] == status.is_over
                assert truncated[g] == (not status.is_over and games[g].turn >= 30)
                sign = {wts.Color.BLACK: 1.0, wts.Color.WHITE: -1.0}.get(status.winner, 0.0)
                assert rewards[g].tolist() == [sign, -sign]
            game = games[g]
            assert np.array_equal(observations[g, 0], observation_planes(game, "black"))
            assert np.array_equal(observations[g, 1], observation_planes(game, "white"))
            assert infos["turn"][g] == game.turn
        ended = terminated | truncated
        endings += int(ended.sum())
        legal = envs.batch.legal_mask()
        legal[ended] = False
        assert np.array_equal(infos["action_mask"], legal.astype(np.int8))
    assert endings >= n  # every game ended at least once on average


def test_versus_random_and_greedy_follow_the_learners_colour() -> None:
    for opponent in ("random", "greedy"):
        for color, side in (("black", 0), ("white", 1)):
            envs = make_vector_env(4, opponent=opponent, color=color)
            observations, infos = envs.reset(seed=5)
            rng = np.random.default_rng(0)
            for _ in range(12):
                actions = legal_random(infos["action_mask"], rng)
                before = [envs.batch[g] for g in range(4)]
                observations, rewards, _, _, infos = envs.step(actions)
                assert rewards.shape == (4,) and observations in envs.observation_space
                for g in np.flatnonzero(infos["_square"]):
                    squares = [0, 0]
                    squares[side] = int(infos["square"][g])
                    squares[1 - side] = int(infos["opponent_square"][g])
                    assert squares[side] == actions[g]
                    before[g].play(*squares)
                    assert np.array_equal(observations[g], observation_planes(before[g], color))
                    winner = before[g].status.winner
                    expected = 0.0 if winner is None else (1.0 if winner.value == color else -1.0)
                    assert rewards[g] == expected


def test_greedy_opponent_beats_a_random_learner() -> None:
    envs = make_vector_env(16, opponent="greedy")
    _, infos = envs.reset(seed=2)
    rng, total, finished = np.random.default_rng(1), 0.0, 0
    while finished < 16:
        _, rewards, terminated, truncated, infos = envs.step(legal_random(infos["action_mask"],
                                                                          rng))
        total += rewards.sum()
        finished += int((terminated | truncated).sum())
    assert total < -8  # the greedy bot wins most games


@pytest.mark.parametrize("illegal_action", ILLEGAL_ACTIONS)
def test_illegal_actions(illegal_action: str) -> None:
    envs = make_vector_env(3, illegal_action=illegal_action)
    envs.reset(seed=0)
    envs.step(np.array([[40, 41], [40, 41], [40, 41]]))
    before = envs.batch.observation()
    # game 0: black names an occupied square; 1: both out of range; 2: fine.
    observations, rewards, terminated, _, infos = envs.step(np.array([[41, 0], [81, -5],
                                                                      [1, 2]]))
    assert infos["illegal_action"].tolist() == [[True, False], [True, True], [False, False]]
    if illegal_action == "random":
        assert not terminated.any() and not rewards.any()
        assert infos["_square"].all() and infos["square"][0, 1] == 0
        assert infos["square"][0, 0] not in (40, 41)
    else:
        assert terminated.tolist() == [True, True, False]
        assert rewards.tolist() == [[-1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
        assert infos["_square"].tolist() == [False, False, True]
        assert infos["square"][:2].tolist() == [[-1, -1], [-1, -1]]
        assert np.array_equal(observations[:2, 0], before[:2])  # the position unchanged
        assert not infos["action_mask"][:2].any() and infos["action_mask"][2].any()
        assert infos["turn"].tolist() == [1, 1, 2]
        # The next step restarts both.
        observations, *_, infos = envs.step(np.zeros((3, 2), dtype=np.int64))
        assert infos["turn"].tolist() == [0, 0, 3] and not observations[:2].any()


def test_seeds_reproduce_and_do_not_depend_on_num_envs() -> None:
    def run(n: int, seed: int) -> list[np.ndarray]:
        envs = make_vector_env(n, opponent="random")
        out = list(envs.reset(seed=seed)[:1])
        for _ in range(40):  # always illegal: every move is drawn from the streams
            observations, rewards, *_ = envs.step(np.full(n, 81))
            out += [observations[:3], rewards[:3]]
        return out

    first, again, wider, other = run(3, 9), run(3, 9), run(64, 9), run(3, 10)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert all(np.array_equal(a[:3], b[:3]) for a, b in zip(first, wider))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))


def test_random_squares_are_uniform_among_legal_ones() -> None:
    mask = np.zeros((4000, 81), dtype=bool)
    mask[:, [3, 50, 80]] = True
    mask[:, :70] |= np.arange(70) % 2 == 0  # 35 more squares on half the rows
    mask[2000:, :70] = False
    mask[2000:, [3, 50]] = True
    squares = random_squares(mask, GameStreams(4000, seed=1), 2)
    assert mask[np.arange(4000)[:, None], squares].all()
    counts = np.bincount(squares[2000:].ravel(), minlength=81)[[3, 50, 80]]
    assert abs(counts - 4000 / 3).max() < 150  # 3 squares, 4000 picks
    empty = random_squares(np.zeros((2, 81), dtype=bool), GameStreams(2, seed=1), 1)
    assert empty.tolist() == [[-1], [-1]]


def test_reset_mask_restarts_the_chosen_games_only() -> None:
    envs = make_vector_env(3)
    envs.reset(seed=0)
    envs.step(np.array([[0, 1], [2, 3], [4, 5]]))
    observations, infos = envs.reset(options={"reset_mask": np.array([True, False, True])})
    assert infos["turn"].tolist() == [0, 1, 0]
    assert not observations[0].any() and observations[1].any()


@pytest.mark.parametrize("opponent", [None, "random"])
def test_masked_actions_and_reset_masks_are_refused(opponent: str | None) -> None:
    """numpy reads a masked array as its data: a fully masked action array
    played its hidden squares (A1 for zeros)."""
    envs = make_vector_env(2, opponent=opponent)
    envs.reset(seed=0)
    shape = (2,) if opponent else (2, 2)
    state = [envs.batch[0], envs.batch[1]]
    with pytest.raises(wts.BatchError, match="masked array"):
        envs.step(np.ma.masked_array(np.zeros(shape, np.int64), mask=True))
    with pytest.raises(wts.BatchError, match="masked array"):
        envs.reset(options={"reset_mask": np.ma.masked_array([True, False], mask=[True, True])})
    assert [envs.batch[0], envs.batch[1]] == state


def test_bad_input_raises_and_changes_nothing() -> None:
    envs = make_vector_env(2, opponent="random")
    envs.reset(seed=0)
    envs.step(np.array([0, 1]))
    state = [envs.batch[0], envs.batch[1]]
    for bad, match in [(np.array([0, 1, 2]), "shape"), (np.array([[0], [1]]), "shape"),
                       (np.array([0.0, np.nan]), "NaN"), (np.array([1.0, 2.0]), "float64"),
                       (np.array([True, False]), "bool"), ([[0, 1], [2]], "numpy cannot"),
                       ("E5", "shape")]:
        with pytest.raises(wts.BatchError, match=match):
            envs.step(bad)
    assert [envs.batch[0], envs.batch[1]] == state
    huge = envs.step(np.array([2**64 - 1, 3], dtype=np.uint64))[4]
    assert huge["illegal_action"].tolist() == [True, False]
    with pytest.raises(wts.ParameterError, match="num_envs"):
        make_vector_env(0)
    with pytest.raises(wts.ParameterTypeError, match="num_envs"):
        make_vector_env(2.0)  # type: ignore[arg-type]
    with pytest.raises(wts.ParameterError, match="opponent"):
        make_vector_env(2, opponent="mcts")
    with pytest.raises(wts.ParameterError, match="color"):
        make_vector_env(2, color="white")
    with pytest.raises(wts.ParameterError, match="color"):
        make_vector_env(2, opponent="random", color="red")
    with pytest.raises(wts.ParameterError, match="illegal_action"):
        make_vector_env(2, illegal_action="ignore")
    with pytest.raises(wts.ParameterError, match="max_cycles"):
        make_vector_env(2, max_cycles=0)
    with pytest.raises(wts.ParameterError, match="seed"):
        envs.reset(seed=-1)
    with pytest.raises(wts.ParameterError, match="options"):
        envs.reset(options={"colour": 1})
    with pytest.raises(wts.BatchError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.array([1, 0])})
    envs.close()
    assert envs.closed
    with pytest.raises(ClosedEnvironmentError):
        envs.step(np.array([0, 1]))


def test_same_as_the_single_environment_in_a_sync_vector_env() -> None:
    """With legal moves, the rewards and endings are those of wts.env games in
    Gymnasium's SyncVectorEnv of single-agent wrappers of the same moves."""
    pytest.importorskip("pettingzoo")
    from wts.env import parallel_env

    class Replay(gymnasium.Env):  # type: ignore[type-arg]
        """Black's side of wts.env, white playing the squares it is told."""

        def __init__(self) -> None:
            self.env = parallel_env()
            self.observation_space = self.env.observation_space("black")["observation"]
            self.action_space = gymnasium.spaces.MultiDiscrete([81, 81])

        def reset(self, *, seed=None, options=None):  # type: ignore[no-untyped-def]
            observations, _ = self.env.reset(seed=seed)
            return observations["black"]["observation"], {}

        def step(self, action):  # type: ignore[no-untyped-def]
            observations, rewards, terminations, truncations, _ = self.env.step(
                {"black": int(action[0]), "white": int(action[1])})
            return (observations["black"]["observation"], rewards["black"],
                    terminations["black"], truncations["black"], {})

    sync = gymnasium.vector.SyncVectorEnv([Replay for _ in range(4)])
    ours = make_vector_env(4)
    expected, _ = sync.reset(seed=0)
    observations, infos = ours.reset(seed=0)
    rng = np.random.default_rng(4)
    for _ in range(80):
        moves = np.stack([legal_random(infos["action_mask"], rng) for _ in range(2)], axis=1)
        expected, sync_rewards, sync_terminated, sync_truncated, _ = sync.step(moves)
        observations, rewards, terminated, truncated, infos = ours.step(moves)
        assert np.array_equal(observations[:, 0], expected)
        assert np.array_equal(rewards[:, 0], sync_rewards)
        assert np.array_equal(terminated, sync_terminated)
        assert np.array_equal(truncated, sync_truncated)


def test_gymnasium_vector_wrappers_and_samples() -> None:
    """Gymnasium's episode statistics wrapper reads our autoreset mode and infos;
    sampled actions (illegal ones among them) keep observations in the space."""
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        make_vector_env(6, opponent="random", illegal_action="lose"))
    envs.action_space.seed(0)
    observations, _ = envs.reset(seed=3)
    returns, lengths, done = np.zeros(6), np.zeros(6, dtype=int), 0
    while done < 12:
        observations, rewards, terminated, truncated, infos = envs.step(
            envs.action_space.sample())
        assert observations in envs.observation_space
        assert envs.single_observation_space.contains(observations[0])
        returns += rewards  # 0 on a restart step
        lengths += infos["_illegal_action"]
        ended = terminated | truncated
        if ended.any():
            episode = infos["episode"]
            assert np.array_equal(infos["_episode"], ended)
            assert np.array_equal(episode["r"][ended], returns[ended])
            assert np.array_equal(episode["l"][ended], lengths[ended])
            returns[ended], lengths[ended], done = 0, 0, done + int(ended.sum())


def test_import_wts_does_not_import_gymnasium() -> None:
    code = "import sys, wts; print('gymnasium' in sys.modules)"
    out = run_python("-c", code, check=True).stdout
    assert out.strip() == "False"


def test_module_examples() -> None:
    import doctest

    import wts.adapters.game_streams
    import wts.adapters.vector_env

    for module in (wts.adapters.vector_env, wts.adapters.game_streams):
        assert doctest.testmod(module).failed == 0
    assert isinstance(make_vector_env(1), WhatTheShellVectorEnv)
