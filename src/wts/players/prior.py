"""A learned prior over the squares, for :class:`wts.agents.MCTSAgent`.

Each empty square has a few yes-or-no features from one player's side
(:data:`FEATURES`), computed on bitboards in C. The prior is a linear softmax
over the legal squares: a square's weight is exp(the sum of the weights of its
features). :func:`wts.scale.prior_fit.fit` learns the weights from ``wts
selfplay`` data; :data:`LEARNED` holds the weights the agent uses, fitted that
way (docs/mcts.md has the run and the matches that measured it).

>>> from wts import Game
>>> from wts.players.prior import prior
>>> round(sum(prior(Game(), "black")), 6)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wts.engine.base import GameBase
from wts.engine.observation import observation_planes
from wts.engine.pieces import Color
from wts.players._prior import MAX_WEIGHT, check_weights, features

__all__ = ["FEATURES", "LEARNED", "MAX_WEIGHT", "features", "prior"]

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
    "capture",       # closes a bracket on two pieces, the opponent's turtles or eggs
    "capture_hatches",  # a capture while an egg is on the board, which it hatches
    "foe_capture",   # a square where the opponent captures (a collision there stops it)
    "exposed",       # makes a pair of own turtles with a foe turtle at one end and an
                     # empty square at the other: the opponent can capture it next turn
    "near_own",      # next to an own turtle (8 directions)
    "near_foe",
    "near_egg",
    "ring1",         # at most 1 step from the centre (Chebyshev distance)
    "ring2",         # 2 steps
    "ring3",         # 3 steps (the edge, 4 steps, has none of the ring features)
)


#: The weights MCTSAgent's ``prior="learned"`` uses, in the order of FEATURES:
#: fitted by ``wts fit-prior`` (see docs/mcts.md).
LEARNED: tuple[float, ...] = (
    2.680, 2.951, 1.164, 0.902, 0.265, 0.262, 0.330, 0.233, -0.042, 1.543, 1.051, 2.239, -0.962,
    0.356, 0.294, -0.010, 0.198, -0.069, -0.106,
)


def prior(game: GameBase, color: Color | str,
          weights: Sequence[float] | None = None) -> list[float]:
    """The prior of each of the 81 squares for ``color`` in ``game`` (zero on the
    occupied ones; all zero once the game is over): :data:`LEARNED` unless
    ``weights`` are given."""
    w = np.array(check_weights(LEARNED if weights is None else weights))
    if game.is_over():
        return [0.0] * 81
    planes = observation_planes(game, color)[np.newaxis]
    scores = features(planes)[0].astype(np.float64) @ w
    legal = planes[0, :3].sum(axis=0).reshape(81) == 0
    exp = np.where(legal, np.exp(scores - scores[legal].max()), 0.0)
    return (exp / exp.sum()).tolist()  # type: ignore[no-any-return]
