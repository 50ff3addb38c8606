"""Type stub of :mod:`wts._mcts`: the agents' C kernels.

:class:`wts.agents.MCTSAgent` and :class:`wts.agents.GreedyAgent` wrap them;
colours are 0 (black) and 1 (white), squares ints 0-80.
"""

from typing import Protocol, SupportsIndex

from typing_extensions import disjoint_base

from wts.engine._game import GameCore

@disjoint_base
class Search:
    def __init__(
        self,
        game: GameCore,
        seed: SupportsIndex = 0,
        policy: str = "rm",
        exploration: float | None = None,
        playout: str = "tactical",
        expand_threshold: SupportsIndex = 1,
        max_memory: SupportsIndex = 268435456,
    ) -> None: ...
    def run(self, iterations: SupportsIndex, stop: _Stop | None = None) -> int:
        """Do up to ``iterations`` more iterations without the GIL; returns how many
        were done (fewer once ``stop`` is set)."""
    @property
    def iterations(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def expanded(self) -> int: ...
    @property
    def memory(self) -> int: ...
    def strategy(self, color: SupportsIndex) -> list[float]: ...
    def visits(self, color: SupportsIndex) -> list[int]: ...
    def values(self, color: SupportsIndex) -> list[float | None]: ...

class _Stop(Protocol):
    def is_set(self) -> bool: ...

def greedy_move(game: GameCore, color: SupportsIndex, seed: SupportsIndex) -> int: ...
def evaluate_position(game: GameCore, color: SupportsIndex) -> float: ...
def winning_squares(game: GameCore, color: SupportsIndex) -> list[int]: ...
