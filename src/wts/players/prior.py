"""A learned prior over the squares, for :class:`wts.agents.MCTSAgent`.

Each empty square has a few yes-or-no features from one player's side
(:data:`FEATURES`), computed on bitboards in C. The prior is a linear softmax
over the legal squares: a square's weight is exp(the sum of the weights of its
features). :func:`fit` learns the weights from ``wts selfplay`` data with
numpy, by Newton's method on the cross-entropy between the prior and the
search's own final strategy at each turn; :data:`LEARNED` holds the weights
the agent uses, fitted that way (docs/search.md has the run and the matches
that measured it).

>>> from wts import Game
>>> from wts.players.prior import prior
>>> round(sum(prior(Game(), "black")), 6)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from wts.engine.base import GameBase
from wts.engine.observation import observation_planes
from wts.engine.pieces import Color
from wts.errors import ParameterError
from wts.params import check_float, check_int
from wts.players._prior import features

if TYPE_CHECKING:
    from wts.scale.selfplay import SelfplayData

__all__ = ["FEATURES", "LEARNED", "MAX_WEIGHT", "PriorFit", "features", "fit", "prior"]

#: The features, in the order of the weights; "own" is the player's side.
FEATURES: tuple[str, ...] = (
    "own4",          # completes a clean window of five: a line of five
    "foe4",          # the opponent's: blocks its five (or collides there)
    "own3",          # an empty square of a clean window of five holding 3 own turtles
    "foe3",
    "own3_twice",    # own3 in two directions or more
    "foe3_twice",
    "own2",          # ... holding 2 own turtles
    "foe2",
    "own1",          # ... holding 1 own turtle
    "capture",       # closes a bracket on two of the opponent's pieces
    "capture_hatches",  # a capture while an egg is on the board, which it hatches
    "foe_capture",   # a square where the opponent captures (a collision there stops it)
    "exposed",       # makes a pair of own turtles the opponent can bracket next turn
    "near_own",      # next to an own turtle (8 directions)
    "near_foe",
    "near_egg",
    "ring1",         # at most 1 step from the centre (Chebyshev distance)
    "ring2",         # 2 steps
    "ring3",         # 3 steps (the edge, 4 steps, has none of the ring features)
)

#: The largest weight magnitude a prior may have.
MAX_WEIGHT = 10.0

#: The weights MCTSAgent's ``prior="learned"`` uses, in the order of FEATURES:
#: fitted by ``wts prior-fit`` (see docs/search.md).
LEARNED: tuple[float, ...] = (
    2.687, 2.932, 1.165, 0.898, 0.281, 0.288, 0.335, 0.246, -0.035, 1.538, 1.032, 2.251, -0.801,
    0.297, 0.252, -0.003, 0.078, -0.122, -0.115,
)


def prior(game: GameBase, color: Color | str,
          weights: Sequence[float] | None = None) -> list[float]:
    """The prior of each of the 81 squares for ``color`` in ``game`` (zero on the
    occupied ones; all zero once the game is over): :data:`LEARNED` unless
    ``weights`` are given."""
    w = _check_weights(LEARNED if weights is None else weights)
    if game.is_over():
        return [0.0] * 81
    planes = observation_planes(game, color)[np.newaxis]
    scores = features(planes)[0].astype(np.float64) @ w
    legal = planes[0, :3].sum(axis=0).reshape(81) == 0
    exp = np.where(legal, np.exp(scores - scores[legal].max()), 0.0)
    return (exp / exp.sum()).tolist()  # type: ignore[no-any-return]


def _check_weights(weights: Sequence[float]) -> npt.NDArray[np.float64]:
    values = list(weights)
    if len(values) != len(FEATURES):
        raise ParameterError(f"a prior has {len(FEATURES)} weights, not {len(values)}")
    return np.array([check_float(v, f"prior weight {i}", -MAX_WEIGHT, MAX_WEIGHT)
                     for i, v in enumerate(values)])


@dataclass(frozen=True)
class PriorFit:
    """What :func:`fit` learned, and how well it predicts the held-out games.

    Cross-entropies are in nats a turn, against the search's final strategy;
    ``uniform`` is the uniform prior's on the same turns; ``agreement`` the
    share of held-out turns whose move is the prior's most likely square."""

    weights: tuple[float, ...]
    train_examples: int
    test_examples: int
    train_cross_entropy: float
    test_cross_entropy: float
    uniform_cross_entropy: float
    agreement: float
    iterations: int

    def table(self) -> str:
        """The weights and the figures, as text."""
        lines = [f"{name:<17} {w:+.3f}" for name, w in zip(FEATURES, self.weights)]
        lines += [
            f"examples: {self.train_examples} to fit, {self.test_examples} held out "
            f"(the last games)",
            f"cross-entropy (nats a turn): {self.train_cross_entropy:.3f} fitted, "
            f"{self.test_cross_entropy:.3f} held out, {self.uniform_cross_entropy:.3f} uniform",
            f"held-out moves that are the prior's top square: {self.agreement:.1%}",
        ]
        return "\n".join(lines)


def fit(data: SelfplayData, *, holdout: float = 0.2, ridge: float = 1e-3,
        max_iterations: int = 50) -> PriorFit:
    """Fit the weights to a self-play run (:func:`wts.scale.selfplay.load`): the
    first games to fit, the last ``holdout`` share of them to measure. The loss
    is the mean cross-entropy from the search's final strategy to the prior,
    plus ``ridge`` / 2 times the squared weights; Newton's method minimises it."""
    holdout = check_float(holdout, "holdout", 0.0, 0.9)
    ridge = check_float(ridge, "ridge", 0.0, 1e6)
    max_iterations = check_int(max_iterations, "max_iterations", 1, 10_000)
    if len(data) == 0:
        raise ParameterError("the self-play data holds no example")
    games = np.unique(data.game)
    cut = games[min(len(games) - 1, round(len(games) * (1 - holdout)))] if holdout else None
    test = data.game >= cut if cut is not None else np.zeros(len(data), dtype=bool)
    if test.all():
        raise ParameterError("nothing left to fit: hold out fewer games, or play more")
    x = features(data.observation).astype(np.float64)
    legal = data.observation[:, :3].sum(axis=1).reshape(len(data), 81) == 0
    target = np.where(legal, data.policy.astype(np.float64), 0.0)
    # A turn whose policy gives the legal squares nothing is learned from its move.
    played = np.zeros_like(target)
    played[np.arange(len(data)), data.move.astype(np.int64) % 81] = 1.0
    total = target.sum(axis=1, keepdims=True)
    target = np.where(total > 0, target / np.where(total > 0, total, 1.0), played)
    train = ~test
    w = np.zeros(len(FEATURES))
    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        loss, grad, hess = _loss(w, x[train], legal[train], target[train], ridge, True)
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        trial = w
        while scale > 1e-6:  # backtrack until the loss goes down
            trial = np.clip(w - scale * step, -MAX_WEIGHT, MAX_WEIGHT)
            if _loss(trial, x[train], legal[train], target[train], ridge, False)[0] <= loss:
                break
            scale /= 2
        moved = np.abs(trial - w).max() if scale > 1e-6 else 0.0
        w = trial if scale > 1e-6 else w
        if moved < 1e-6:
            break
    held = test if test.any() else train
    uniform = float(np.mean(np.log(legal[held].sum(axis=1))))
    top = np.argmax(np.where(legal[held], x[held] @ w, -np.inf), axis=1)
    return PriorFit(
        weights=tuple(float(v) for v in w),
        train_examples=int(train.sum()),
        test_examples=int(test.sum()),
        train_cross_entropy=_loss(w, x[train], legal[train], target[train], 0.0, False)[0],
        test_cross_entropy=_loss(w, x[held], legal[held], target[held], 0.0, False)[0],
        uniform_cross_entropy=uniform,
        agreement=float(np.mean(top == data.move[held])),
        iterations=iterations,
    )


def _loss(w: npt.NDArray[np.float64], x: npt.NDArray[np.float64], legal: npt.NDArray[np.bool_],
          target: npt.NDArray[np.float64], ridge: float, derivatives: bool
          ) -> tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The mean cross-entropy plus the ridge, and its gradient and Hessian."""
    n, squares, width = x.shape
    flat = x.reshape(n * squares, width)
    scores = np.where(legal, (flat @ w).reshape(n, squares), -np.inf)
    top = scores.max(axis=1, keepdims=True)
    log_norm = top[:, 0] + np.log(np.exp(scores - top).sum(axis=1))
    log_p = np.where(legal, scores - log_norm[:, None], 0.0)
    loss = float(-(target * log_p).sum() / n + ridge / 2 * (w @ w))
    if not derivatives:
        return loss, w, w
    p = np.exp(log_p) * legal
    mean = np.matmul(p[:, None, :], x)[:, 0, :]  # each example's expected features
    grad = (mean.sum(axis=0) - target.reshape(-1) @ flat) / n + ridge * w
    hess = ((flat * p.reshape(-1, 1)).T @ flat - mean.T @ mean) / n
    return loss, grad, hess + (ridge + 1e-9) * np.eye(width)
