"""The learned prior's weights fitted to self-play data (``wts fit-prior``).

:func:`fit` learns the weights of :mod:`wts.players.prior`'s features from a
``wts selfplay`` run with numpy, by Newton's method on the cross-entropy
between the prior and the search's own final strategy at each turn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from wts.errors import ParameterError, ParameterTypeError
from wts.params import check_float, check_int, is_masked_array, masked_array_refused
from wts.players._prior import MAX_WEIGHT, features
from wts.players.prior import FEATURES
from wts.scale.data import SelfplayData

__all__ = ["PriorFit", "fit"]


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
        lines.append(f"examples: {self.train_examples} to fit, {self.test_examples} held out"
                     + (" (the last games)" if self.test_examples else ""))
        if self.test_examples:
            lines += [
                f"cross-entropy (nats a turn): {self.train_cross_entropy:.3f} fitted, "
                f"{self.test_cross_entropy:.3f} held out, {self.uniform_cross_entropy:.3f} "
                "uniform",
                f"held-out moves that are the prior's top square: {self.agreement:.1%}",
            ]
        else:
            lines.append(f"cross-entropy (nats a turn): {self.train_cross_entropy:.3f} fitted "
                         "(nothing held out to measure it on)")
        return "\n".join(lines)


def fit(data: SelfplayData, *, holdout: float = 0.2, ridge: float = 1e-3,
        max_iterations: int = 50) -> PriorFit:
    """Fit the weights to a self-play run (:func:`wts.scale.selfplay.load`): the
    first games to fit, the last ``holdout`` share of them (at least one game
    when ``holdout`` is above 0) to measure. The loss is the mean cross-entropy
    from the search's final strategy to the prior, plus ``ridge`` / 2 times the
    squared weights; Newton's method minimises it. A turn whose strategy gives
    the legal squares nothing is learned from its move. With nothing held out,
    the held-out figures of the result are those of the fitted games."""
    holdout = check_float(holdout, "holdout", 0.0, 0.9)
    ridge = check_float(ridge, "ridge", 0.0, 1e6)
    max_iterations = check_int(max_iterations, "max_iterations", 1, 10_000)
    game, observation, policy, move = _check_data(data)
    games = np.unique(game)
    cut = games[min(len(games) - 1, round(len(games) * (1 - holdout)))] if holdout else None
    test = game >= cut if cut is not None else np.zeros(len(game), dtype=bool)
    if test.all():
        raise ParameterError("nothing left to fit: hold out fewer games, or play more")
    legal = observation[:, :3].sum(axis=1).reshape(len(game), 81) == 0
    target = np.where(legal, policy.astype(np.float64), 0.0)
    played = np.zeros_like(target)
    played[np.arange(len(game)), move] = 1.0
    # Each row over its largest value first: huge finite strategies (1e308)
    # would sum to infinity and leave nothing to learn.
    peak = target.max(axis=1, keepdims=True)
    target = target / np.where(peak > 0, peak, 1.0)
    total = target.sum(axis=1, keepdims=True)
    target = np.where(total > 0, target / np.where(total > 0, total, 1.0), played)
    # The features as float32 (exact for 0 and 1), split once: the fit's memory
    # is about 6 KiB an example.
    train = (features(observation[~test]).astype(np.float32), legal[~test], target[~test])
    held = (features(observation[test]).astype(np.float32), legal[test], target[test]) \
        if test.any() else train
    w = np.zeros(len(FEATURES))
    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        loss, grad, hess = _loss(w, *train, ridge, True)
        step = np.linalg.solve(hess, grad)
        scale, trial = 1.0, w
        while scale > 1e-6:  # backtrack until the loss goes down
            trial = np.clip(w - scale * step, -MAX_WEIGHT, MAX_WEIGHT)
            if _loss(trial, *train, ridge, False)[0] <= loss:
                break
            scale /= 2
        if scale <= 1e-6 or np.abs(trial - w).max() < 1e-6:
            w = trial if scale > 1e-6 else w
            break
        w = trial
    x_held, legal_held, _ = held
    top = np.argmax(np.where(legal_held, x_held @ w, -np.inf), axis=1)
    return PriorFit(
        weights=tuple(float(v) for v in w),
        train_examples=int((~test).sum()),
        test_examples=int(test.sum()),
        train_cross_entropy=_loss(w, *train, 0.0, False)[0],
        test_cross_entropy=_loss(w, *held, 0.0, False)[0],
        uniform_cross_entropy=float(np.mean(np.log(legal_held.sum(axis=1)))),
        agreement=float(np.mean(top == (move[test] if test.any() else move))),
        iterations=iterations,
    )


def _check_data(data: SelfplayData) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8],
                                               npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The columns ``fit`` reads, checked: game ids, observations, strategies, moves."""
    columns = {}
    for name in ("game", "observation", "policy", "move"):
        value = getattr(data, name, None)
        if not isinstance(value, np.ndarray):
            raise ParameterTypeError(
                f"fit takes self-play data (wts.scale.selfplay.load), whose {name} is a numpy "
                f"array; got {type(data).__name__}")
        if is_masked_array(value):
            raise ParameterTypeError(masked_array_refused(f"the {name} column"))
        columns[name] = value
    n = len(columns["game"])
    if n == 0:
        raise ParameterError("the self-play data holds no example")
    for name, value in columns.items():
        if len(value) != n:
            raise ParameterError(f"the self-play data's columns differ in length: game has {n} "
                                 f"rows, {name} {len(value)}")
    game, policy, move = columns["game"], columns["policy"], columns["move"]
    if game.dtype.kind not in "iu":
        raise ParameterTypeError(f"the game column must hold integers, not {game.dtype}")
    if policy.shape != (n, 81):
        raise ParameterError(f"the policy column must have shape ({n}, 81), not {policy.shape}")
    bad = np.flatnonzero(~np.isfinite(policy).all(axis=1) | (policy < 0).any(axis=1))
    if bad.size:
        raise ParameterError(f"example {bad[0]}'s policy holds a value that is not a finite "
                             "number >= 0")
    if move.dtype.kind not in "iu" or move.ndim != 1:
        raise ParameterTypeError(f"the move column must be one integer an example, not "
                                 f"{move.dtype} of shape {move.shape}")
    bad = np.flatnonzero((move < 0) | (move > 80))
    if bad.size:
        raise ParameterError(f"example {bad[0]}'s move {move[bad[0]]} is not a square 0-80")
    features(columns["observation"][:1])  # the planes' checks, before the work
    return game.astype(np.int64), columns["observation"], policy, move.astype(np.int64)


#: Examples a pass of the fit's derivatives takes at once: bounds its temporaries.
_CHUNK = 4096


def _loss(w: npt.NDArray[np.float64], x: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_],
          target: npt.NDArray[np.float64], ridge: float, derivatives: bool
          ) -> tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The mean cross-entropy plus the ridge, and its gradient and Hessian."""
    n, _, width = x.shape
    scores = np.where(legal, x @ w.astype(np.float32), -np.inf).astype(np.float64)
    top = scores.max(axis=1, keepdims=True)
    log_norm = top[:, 0] + np.log(np.exp(scores - top).sum(axis=1))
    log_p = np.where(legal, scores - log_norm[:, None], 0.0)
    loss = float(-(target * log_p).sum() / n + ridge / 2 * (w @ w))
    if not derivatives:
        return loss, w, w
    p = (np.exp(log_p) * legal).astype(np.float32)
    grad = np.zeros(width)
    hess = np.zeros((width, width))
    for first in range(0, n, _CHUNK):
        xs = x[first:first + _CHUNK]
        ps = p[first:first + _CHUNK]
        mean = np.matmul(ps[:, None, :], xs)[:, 0, :].astype(np.float64)  # expected features
        wanted = np.matmul(target[first:first + _CHUNK, None, :].astype(np.float32), xs)
        grad += mean.sum(axis=0) - wanted[:, 0, :].sum(axis=0, dtype=np.float64)
        flat = xs.reshape(-1, width)
        hess += (flat * ps.reshape(-1, 1)).T.astype(np.float64) @ flat - mean.T @ mean
    grad = grad / n + ridge * w
    return loss, grad, hess / n + (ridge + 1e-9) * np.eye(width)
