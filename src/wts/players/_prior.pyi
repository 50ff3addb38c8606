"""Type stub of :mod:`wts.players._prior`: the prior's square features in C.

:mod:`wts.players.prior` names the features and fits their weights.
"""

import numpy as np
import numpy.typing as npt

def features(planes: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """(n, 81, NUM_FEATURES) uint8: 1 where a square has a feature, for each of
    the n positions given as (n, 3 or more, 9, 9) planes (own, opponent, eggs)."""

# The number of features, and the largest |weight| a prior may have.
NUM_FEATURES: int
MAX_WEIGHT: int

def check_weights(weights: object) -> list[float]:
    """``weights`` as NUM_FEATURES floats within MAX_WEIGHT; typed errors otherwise."""
