"""Type stub of :mod:`wts._simulate`: random playouts in C without the GIL."""

import numpy as np
import numpy.typing as npt

from wts._game import GameCore

def run_playouts(
    origin: GameCore,
    seed: int,
    first: int,
    stop: int,
    lengths: npt.NDArray[np.int32],
    statuses: npt.NDArray[np.uint8],
) -> None:
    """Play games ``first``..``stop-1`` from ``origin``; write each game's length
    (turns from the start) and final status code. Releases the GIL."""
