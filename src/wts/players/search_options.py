"""How a Monte Carlo tree search chooses, checked once: :class:`SearchOptions`.

The search (:class:`wts.players._search.Search`) takes these options; the MCTS
agent builds them once from its own (with its defaults, which depend on the
playouts) and hands the same value to every tree it grows.

>>> SearchOptions(policy="rm").exploration
0.2
>>> SearchOptions(prior="learned").prior is not None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wts.errors import ParameterError, ParameterTypeError
from wts.params import (
    check_bool,
    check_choice,
    check_float,
    check_int,
    is_masked_array,
    masked_array_refused,
)
from wts.players._prior import check_weights
from wts.players.prior import LEARNED

__all__ = ["SearchOptions", "POLICIES", "PLAYOUTS", "PRIORS", "MAX_UCB_CONSTANT"]

#: How each node's players choose: decoupled UCB1, regret matching, Exp3.
POLICIES = ("ucb", "rm", "exp3")
#: How a playout finishes the game (docs/mcts.md).
PLAYOUTS = ("random", "tactical", "captures")
#: The names ``prior`` takes besides a sequence of weights.
PRIORS = ("none", "learned")
#: The largest UCB1 constant (and prior weight) taken: far beyond any useful
#: value, and finite.
MAX_UCB_CONSTANT = 1e6
#: Gamma of ``"rm"`` and ``"exp3"``, and the UCB1 constant, when none is given.
DEFAULT_EXPLORATION = 0.2


def _prior_weights(prior: object) -> tuple[float, ...] | None:
    """The prior's weights for ``prior``: None for no prior."""
    if prior is None or isinstance(prior, str):
        name = check_choice("none" if prior is None else prior, "prior", PRIORS)
        return LEARNED if name == "learned" else None
    if is_masked_array(prior):
        raise ParameterTypeError(masked_array_refused("prior"))
    if not hasattr(prior, "__len__"):  # an endless iterable is refused, not read
        raise ParameterTypeError(f"prior must be 'none', 'learned' or a sequence of weights, "
                                 f"not {type(prior).__name__}")
    return tuple(check_weights(prior))


@dataclass(frozen=True)
class SearchOptions:
    """A search's options, each checked (and made a plain Python value) here.

    - ``policy``: ``"ucb"`` decoupled UCB1, ``"rm"`` regret matching or ``"exp3"``;
    - ``exploration``: the UCB1 constant (0 to 1e6), or gamma of rm and exp3
      (above 0, at most 1); default 0.2;
    - ``playout``: ``"tactical"``, ``"captures"`` or ``"random"``;
    - ``expand_threshold``: visits of a leaf before it grows children;
    - ``transpositions``: share one node among the paths to one position;
    - ``prior``: ``"none"``, ``"learned"`` (:data:`wts.players.prior.LEARNED`)
      or one weight a feature of :mod:`wts.players.prior`; needs ``"ucb"``;
    - ``prior_weight``: how far the prior pulls (0 to 1e6, default 1); given
      without a prior, it is refused rather than ignored.
    """

    policy: str = "ucb"
    exploration: float | None = None
    playout: str = "tactical"
    expand_threshold: int = 1
    transpositions: bool = False
    prior: str | Sequence[float] | None = None
    prior_weight: float | None = None

    def __post_init__(self) -> None:
        policy = check_choice(self.policy, "policy", POLICIES)
        exploration = DEFAULT_EXPLORATION if self.exploration is None else self.exploration
        if policy == "ucb":
            exploration = check_float(exploration, "exploration (the UCB1 constant)", 0.0,
                                      MAX_UCB_CONSTANT)
        else:
            exploration = check_float(exploration, "exploration (gamma)", 0.0, 1.0,
                                      exclude_minimum=True)
        prior = _prior_weights(self.prior)
        if prior is not None and policy != "ucb":
            raise ParameterError(f"a prior needs policy 'ucb', not {policy!r}")
        if self.prior_weight is not None and prior is None:
            raise ParameterError("prior_weight needs a prior: give prior='learned' or weights")
        prior_weight = 1.0 if self.prior_weight is None else check_float(
            self.prior_weight, "prior_weight", 0.0, MAX_UCB_CONSTANT)
        checked = {
            "policy": policy,
            "exploration": exploration,
            "playout": check_choice(self.playout, "playout", PLAYOUTS),
            "expand_threshold": check_int(self.expand_threshold, "expand_threshold", 1,
                                          2**31 - 1),
            "transpositions": check_bool(self.transpositions, "transpositions"),
            "prior": prior,
            "prior_weight": prior_weight,
        }
        for name, value in checked.items():  # frozen: set once, here
            object.__setattr__(self, name, value)
