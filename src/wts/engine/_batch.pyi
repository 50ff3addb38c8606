"""Type stub of :mod:`wts._batch`: many game states in one C array.

:class:`wts.BatchGame` adds the checks and the public API; the underscored
methods take contiguous numpy arrays of exactly the dtypes given here.
"""

from collections.abc import Callable
from typing import SupportsIndex, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

from wts.engine._game import GameCore

_G = TypeVar("_G", bound=GameCore)

@disjoint_base
class BatchCore:
    def __new__(cls, n: SupportsIndex = 0) -> Self: ...
    def __len__(self) -> int: ...
    def _get_state(self, index: int, game: GameCore) -> None: ...
    def _set_state(self, index: int, game: GameCore) -> None: ...
    def _step(
        self,
        black: object,
        white: object,
        status: npt.NDArray[np.uint8],
        captures: npt.NDArray[np.int32],
        hatches: npt.NDArray[np.int32],
        new_game: Callable[[], _G],
    ) -> tuple[int, _G, int, int] | bool | None:
        """None once played; (index, game, black move, white move) for the first
        game refused; False when the moves are not C-contiguous int64 rows."""
    def _status(self, out: npt.NDArray[np.uint8]) -> None: ...
    def _over(self, out: npt.NDArray[np.uint8]) -> None: ...
    def _counts(self, counts: npt.NDArray[np.int32], turns: npt.NDArray[np.int64]) -> None: ...
    def _legal_mask(self, out: npt.NDArray[np.uint8]) -> None: ...
    def _observation(self, out: npt.NDArray[np.uint8]) -> None: ...
    def _keys(self, keys: npt.NDArray[np.uint64]) -> None: ...
    def _canonical(
        self, keys: npt.NDArray[np.uint64], symmetries: npt.NDArray[np.uint8]
    ) -> None: ...
    def _reset(self, mask: npt.NDArray[np.uint8]) -> None: ...
    def _player_planes(
        self, out: npt.NDArray[np.uint8], first: int, legal: npt.NDArray[np.uint8]
    ) -> None: ...
    def _network_planes(self, out: npt.NDArray[np.float32]) -> None: ...

NETWORK_PLANE_COUNT: int

def _observation_network_planes(
    observations: npt.NDArray[np.uint8], out: npt.NDArray[np.float32]
) -> int: ...
