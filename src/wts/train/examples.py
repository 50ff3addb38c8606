"""Self-play data as training arrays, and their augmentation.

Both players choose from the same position at once, and the network gives
both policies from black's side: so one example is a (game, turn) with
black's row and white's row paired, its planes made from black's
observation. Augmentation draws, for each example of a minibatch, one of the
board's 8 symmetries (the rules look the same in every image) and a colour
swap (black's and white's planes, policies and results exchanged), so a
network learns each position once for its 16 images.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from wts.engine.batch import NETWORK_PLANES, observation_network_planes
from wts.engine.symmetry import transform_masks
from wts.errors import ParameterError
from wts.params import check_int
from wts.scale.data import SelfplayData, load

__all__ = ["Examples", "WIN", "DRAW", "LOSS", "examples_of", "load_examples",
           "transform_network_planes", "swap_colours", "augment", "minibatch"]

#: The value target's classes, for black, in the order of the network's WDL head.
WIN, DRAW, LOSS = 0, 1, 2

# The planes that come in black/white pairs (NETWORK_PLANES), swapped by a colour swap.
_SWAP = np.arange(len(NETWORK_PLANES))
for _black, _white in ((0, 1), (4, 5), (6, 7), (8, 9)):
    _SWAP[[_black, _white]] = _SWAP[[_white, _black]]
# Black's outcome (1 won, 0 drawn, -1 lost) + 1 -> its class.
_CLASS_OF = np.array([LOSS, DRAW, WIN], dtype=np.int32)
_POLICY_TOLERANCE = 1e-3


@dataclass(frozen=True)
class Examples:
    """Training arrays, one row a position: ``planes`` (n, 81, 11) float32 from
    black's side, the policy targets ``black`` and ``white`` (n, 81) float32,
    ``wdl`` (n,) int32 black's result class (:data:`WIN`, :data:`DRAW`,
    :data:`LOSS`) and ``legal`` (n, 81) bool, the empty squares."""

    planes: npt.NDArray[np.float32]
    black: npt.NDArray[np.float32]
    white: npt.NDArray[np.float32]
    wdl: npt.NDArray[np.int32]
    legal: npt.NDArray[np.bool_]

    def __post_init__(self) -> None:
        n = len(self.planes)
        if self.planes.shape != (n, 81, len(NETWORK_PLANES)):
            raise ParameterError(f"planes must have shape (n, 81, {len(NETWORK_PLANES)}), "
                                 f"not {self.planes.shape}")
        for name in ("black", "white", "legal"):
            if getattr(self, name).shape != (n, 81):
                raise ParameterError(f"{name} must have shape ({n}, 81), not "
                                     f"{getattr(self, name).shape}")
        if self.wdl.shape != (n,):
            raise ParameterError(f"wdl must have shape ({n},), not {self.wdl.shape}")

    def __len__(self) -> int:
        return len(self.planes)

    def take(self, rows: npt.ArrayLike) -> Examples:
        """The examples at ``rows`` (indices or a boolean mask)."""
        index = np.asarray(rows)
        return Examples(self.planes[index], self.black[index], self.white[index],
                        self.wdl[index], self.legal[index])


def examples_of(data: SelfplayData) -> Examples:
    """One example per (game, turn) of ``data`` (and per symmetry, for data
    loaded with ``symmetries=True``), in game and turn order. Data whose rows
    do not pair up, or whose policies are not distributions over the empty
    squares, raises :class:`ParameterError`."""
    if not isinstance(data, SelfplayData):
        raise ParameterError(f"data must be SelfplayData, not {type(data).__name__}")
    order = np.lexsort((data.color, data.turn, data.game, data.symmetry))
    if len(order) % 2:
        raise ParameterError(f"{len(order)} rows: each (game, turn) needs black's and white's")
    black_rows, white_rows = order[0::2], order[1::2]
    for key in ("symmetry", "game", "turn"):
        column = getattr(data, key)
        if not np.array_equal(column[black_rows], column[white_rows]):
            raise ParameterError(f"the rows do not pair up by (game, turn): {key} differs")
    if (data.color[black_rows] != 0).any() or (data.color[white_rows] != 1).any():
        raise ParameterError("each (game, turn) needs exactly one black row and one white row")
    outcome = data.outcome[black_rows].astype(np.int64)
    if ((outcome < -1) | (outcome > 1)).any() or (
            data.outcome[white_rows].astype(np.int64) != -outcome).any():
        raise ParameterError("outcomes must be 1, 0 or -1, white's the opposite of black's")
    observation = data.observation[black_rows]
    legal = observation[:, :3].reshape(len(observation), 3, 81).sum(axis=1) == 0
    black = np.ascontiguousarray(data.policy[black_rows], dtype=np.float32)
    white = np.ascontiguousarray(data.policy[white_rows], dtype=np.float32)
    for name, policy in (("black", black), ("white", white)):
        if (policy < 0).any() or (np.abs(policy.sum(axis=1) - 1) > _POLICY_TOLERANCE).any() \
                or (policy[~legal] > 0).any():
            raise ParameterError(f"{name}'s policies must be distributions over the empty "
                                 "squares")
    return Examples(observation_network_planes(observation), black, white,
                    _CLASS_OF[outcome + 1], legal)


def load_examples(path: str | os.PathLike[str]) -> Examples:
    """The examples of the self-play run at ``path`` (:func:`wts.scale.data.load`)."""
    return examples_of(load(path))


def transform_network_planes(planes: npt.ArrayLike, symmetry: object) -> npt.NDArray[np.float32]:
    """Network planes (n, 81, 11), square-major, seen through ``symmetry``
    (a :class:`wts.Symmetry`, or an (n,) array of one per row)."""
    array = np.asarray(planes, dtype=np.float32)
    if array.ndim != 3 or array.shape[1] != 81:
        raise ParameterError(f"planes must have shape (n, 81, planes), not {array.shape}")
    moved = transform_masks(array.transpose(0, 2, 1), symmetry)
    return np.ascontiguousarray(moved.transpose(0, 2, 1), dtype=np.float32)


def swap_colours(planes: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Network planes (..., 11) of the position with black and white exchanged."""
    array = np.asarray(planes, dtype=np.float32)
    if array.ndim < 1 or array.shape[-1] != len(NETWORK_PLANES):
        raise ParameterError(f"planes must end in {len(NETWORK_PLANES)}, not {array.shape}")
    return np.ascontiguousarray(array[..., _SWAP])


def augment(examples: Examples, symmetries: npt.ArrayLike, swaps: npt.ArrayLike) -> Examples:
    """``examples`` each seen through its symmetry ((n,) 0-7) and, where
    ``swaps`` ((n,) bool) is True, with the colours exchanged (planes, the
    two policies and win/loss): the symmetry applies to both."""
    n = len(examples)
    chosen = np.asarray(symmetries)
    swap = np.asarray(swaps)
    if chosen.shape != (n,) or swap.shape != (n,) or swap.dtype != np.bool_:
        raise ParameterError(f"symmetries and swaps must be ({n},) arrays, swaps bool")
    planes = transform_network_planes(examples.planes, chosen)
    black = transform_masks(examples.black, chosen).astype(np.float32)
    white = transform_masks(examples.white, chosen).astype(np.float32)
    legal = transform_masks(examples.legal, chosen).astype(np.bool_)
    planes[swap] = swap_colours(planes[swap])
    black, white = (np.where(swap[:, None], white, black),
                    np.where(swap[:, None], black, white))
    wdl = np.where(swap, 2 - examples.wdl, examples.wdl).astype(np.int32)
    return Examples(planes, black, white, wdl, legal)


def minibatch(examples: Examples, batch_size: int, rng: np.random.Generator) -> Examples:
    """``batch_size`` examples drawn with replacement, each under a random
    symmetry and colour swap: the same ``rng`` state gives the same batch."""
    check_int(batch_size, "batch_size", 1)
    if not isinstance(rng, np.random.Generator):
        raise ParameterError(f"rng must be a numpy Generator, not {type(rng).__name__}")
    if not len(examples):
        raise ParameterError("no examples to draw a minibatch from")
    rows = rng.integers(0, len(examples), batch_size)
    symmetries = rng.integers(0, 8, batch_size)
    swaps = rng.integers(0, 2, batch_size).astype(np.bool_)
    return augment(examples.take(rows), symmetries, swaps)
