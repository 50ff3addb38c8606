"""Train a linear softmax policy against the random bot with REINFORCE, in numpy.

    python examples/train_linear.py                  # 15 s on an idle 2-core machine
    python examples/train_linear.py --iterations 20  # a quick look

The policy scores each square with one weight per (input cell, square) on
the learner's turtles, the opponent's and the eggs, plus a bias per square,
and samples among the legal squares by softmax. Each iteration plays 64
steps of 256 games of ``wts.vector_env`` against ``opponent="random"`` and
moves the weights along ``(return - mean return) * grad log pi(action)`` of
every move of every finished game. The win rates before and after, over the
same 2,000 evaluation games, show what it learned.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from wts.vector_env import make_vector_env

FloatArray = npt.NDArray[np.float64]


def features(observations: npt.NDArray[np.uint8]) -> FloatArray:
    """(n, 243) floats: own turtles, opponent turtles and eggs, 0/1 per square."""
    return observations[:, :3].reshape(len(observations), -1).astype(np.float64)


def policy(weights: FloatArray, bias: FloatArray, x: FloatArray,
           mask: npt.NDArray[np.int8]) -> FloatArray:
    """(n, 81) probabilities of each legal square (0 on the others); uniform
    where none is legal (a game that has ended: its next action is ignored)."""
    logits = x @ weights + bias
    logits[(mask == 0) & mask.any(axis=1, keepdims=True)] = -np.inf
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    result: FloatArray = odds / odds.sum(axis=1, keepdims=True)
    return result


def sample(probabilities: FloatArray, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One square per row, drawn from its probabilities."""
    cumulative = probabilities.cumsum(axis=1)
    draws = rng.random((len(probabilities), 1)) * cumulative[:, -1:]
    squares: npt.NDArray[np.int64] = np.minimum((cumulative < draws).sum(axis=1), 80)
    return squares


def win_rate(weights: FloatArray, bias: FloatArray, games: int, seed: int) -> float:
    """The share of ``games`` the sampled policy wins against the random bot (a
    draw counts a half), each game played to its end."""
    envs = make_vector_env(games, opponent="random")
    observations, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    score = np.full(games, np.nan)
    while np.isnan(score).any():
        probabilities = policy(weights, bias, features(observations), infos["action_mask"])
        observations, rewards, terminated, truncated, infos = envs.step(
            sample(probabilities, rng))
        first = (terminated | truncated) & np.isnan(score)
        score[first] = (rewards[first] + 1) / 2
    return float(score.mean())


@dataclass
class Result:
    before: float
    after: float
    iterations: int
    games: int
    seconds: float


def train(iterations: int = 100, num_envs: int = 256, steps: int = 64, rate: float = 5.0,
          seed: int = 0, evaluation_games: int = 2000) -> Result:
    """Train from zero weights (the uniform random policy) and measure both."""
    rng = np.random.default_rng(seed)
    weights, bias = np.zeros((243, 81)), np.zeros(81)
    before = win_rate(weights, bias, evaluation_games, seed=seed + 1)
    envs = make_vector_env(num_envs, opponent="random")
    observations, infos = envs.reset(seed=seed)
    ended = np.zeros(num_envs, dtype=bool)
    games, started = 0, time.perf_counter()
    for _ in range(iterations):
        xs, actions, probs, rewards, dones, used = [], [], [], [], [], []
        for _ in range(steps):
            x = features(observations)
            probabilities = policy(weights, bias, x, infos["action_mask"])
            action = sample(probabilities, rng)
            observations, reward, terminated, truncated, infos = envs.step(action)
            xs.append(x)
            actions.append(action)
            probs.append(probabilities)
            rewards.append(reward)
            used.append(~ended)  # a game restarting this step ignored its action
            ended = terminated | truncated
            dones.append(ended)
        # The return of every move is its game's result; unfinished games wait.
        returns = np.zeros((steps, num_envs))
        known = np.zeros((steps, num_envs), dtype=bool)
        carry, carry_known = np.zeros(num_envs), np.zeros(num_envs, dtype=bool)
        for t in reversed(range(steps)):
            carry = np.where(dones[t], rewards[t], carry)
            carry_known = dones[t] | carry_known
            returns[t], known[t] = carry, carry_known
        chosen = np.stack(used) & known
        games += int(np.stack(dones).sum())
        if not chosen.any():
            continue
        x = np.stack(xs)[chosen]
        advantage = returns[chosen] - returns[chosen].mean()
        gradient = -np.stack(probs)[chosen]  # d log pi / d logits = onehot(a) - pi
        gradient[np.arange(len(x)), np.stack(actions)[chosen]] += 1
        gradient *= advantage[:, None] / len(x)
        weights += rate * (x.T @ gradient)
        bias += rate * gradient.sum(axis=0)
    seconds = time.perf_counter() - started
    after = win_rate(weights, bias, evaluation_games, seed=seed + 1)
    return Result(before, after, iterations, games, seconds)


def main(argv: list[str] | None = None) -> Result:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--evaluation-games", type=int, default=2000)
    args = parser.parse_args(argv)
    result = train(args.iterations, args.envs, seed=args.seed,
                   evaluation_games=args.evaluation_games)
    print(f"trained on {result.games:,} games in {result.seconds:.1f} s")
    print(f"win rate against the random bot: {result.before:.1%} before, "
          f"{result.after:.1%} after")
    return result


if __name__ == "__main__":
    main()
