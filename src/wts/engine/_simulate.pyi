"""Type stub of :mod:`wts._simulate`: random playouts in C without the GIL."""

from typing import SupportsIndex

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

from wts.engine._game import GameCore

@disjoint_base
class Playouts:
    def __new__(cls, origin: GameCore, seed: SupportsIndex) -> Self: ...
    def play(
        self,
        first: SupportsIndex,
        stop: SupportsIndex,
        lengths: npt.NDArray[np.int32],
        statuses: npt.NDArray[np.uint8],
    ) -> None:
        """Play games ``first``..``stop-1`` without the GIL; write game ``first + k``'s
        length (turns from the start) to ``lengths[k]`` and its final status code
        (an index into :data:`wts.STATUSES`) to ``statuses[k]``."""
