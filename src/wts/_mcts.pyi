"""Type stub of :mod:`wts._mcts`: the agents' C kernels.

:class:`wts.agents.MCTSAgent` and :class:`wts.agents.GreedyAgent` wrap them;
colours are 0 (black) and 1 (white), squares ints 0-80.
"""

from typing_extensions import disjoint_base

from wts._game import GameCore

@disjoint_base
class Search:
    def __init__(
        self,
        game: GameCore,
        seed: int = 0,
        policy: str = "rm",
        exploration: float | None = None,
        playout: str = "tactical",
        expand_threshold: int = 1,
        max_memory: int = 268435456,
    ) -> None: ...
    def run(self, iterations: int) -> int:
        """Do ``iterations`` more iterations without the GIL; returns how many were done."""
    @property
    def iterations(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def expanded(self) -> int: ...
    @property
    def memory(self) -> int: ...
    def strategy(self, color: int) -> list[float]: ...
    def visits(self, color: int) -> list[int]: ...
    def values(self, color: int) -> list[float | None]: ...

def greedy_move(game: GameCore, color: int, seed: int) -> int: ...
def evaluate_position(game: GameCore, color: int) -> float: ...
def winning_squares(game: GameCore, color: int) -> list[int]: ...
