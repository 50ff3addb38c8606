"""Type stub of :mod:`wts.players._az`: the network player's search tree in C.

:class:`wts.agents.AZAgent` wraps it; players are 0 (black) and 1 (white),
squares ints 0-80.
"""

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from wts.engine._game import GameCore

# The most leaves one collect writes.
MAX_BATCH: int

@disjoint_base
class AZSearch:
    def __init__(self, game: GameCore, seed: int = 0, *, c_puct: float = 1.0,
                 fpu: float = 0.0, mix: float = 0.0, expand_at: int = 0,
                 max_memory: int = 268435456) -> None: ...
    def collect(self, planes: npt.NDArray[np.float32], legal: npt.NDArray[np.uint8],
                descents: int = 0) -> int: ...
    def apply(self, black: npt.NDArray[np.float32], white: npt.NDArray[np.float32],
              values: npt.NDArray[np.float32]) -> int: ...
    def cancel(self) -> None: ...
    def add_root_noise(self, black: npt.NDArray[np.float64], white: npt.NDArray[np.float64],
                       share: float) -> None: ...
    def root(self, player: int) -> tuple[list[int], list[float | None], list[float]]: ...
    @property
    def root_value(self) -> float: ...
    @property
    def iterations(self) -> int: ...
    @property
    def evaluations(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def full(self) -> bool: ...
    @property
    def memory(self) -> int: ...
