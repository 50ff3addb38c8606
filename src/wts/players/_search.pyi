"""Type stub of :mod:`wts.players._search`: the Monte Carlo tree search in C.

:class:`wts.agents.MCTSAgent` wraps it; colours are 0 (black) and 1 (white),
squares ints 0-80.
"""

from collections.abc import Sequence
from typing import Protocol, SupportsIndex

from typing_extensions import disjoint_base

from wts.engine._game import GameCore
from wts.players.search_options import SearchOptions

# The most iterations a search does in all (its visit counts are int32).
MAX_ITERATIONS: int

@disjoint_base
class Search:
    def __init__(
        self,
        game: GameCore,
        seed: SupportsIndex = 0,
        options: SearchOptions | None = None,
        *,
        max_memory: SupportsIndex = 268435456,
        policy: str = "ucb",
        exploration: float | None = None,
        playout: str = "tactical",
        expand_threshold: SupportsIndex = 1,
        transpositions: bool = False,
        prior: str | Sequence[float] | None = None,
        prior_weight: float | None = None,
    ) -> None: ...
    def run(self, iterations: SupportsIndex, stop: _Stop | None = None) -> int:
        """Do up to ``iterations`` more iterations without the GIL; returns how many
        were done (fewer once ``stop`` is set)."""
    @property
    def iterations(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def edges(self) -> int: ...
    @property
    def expanded(self) -> int: ...
    @property
    def memory(self) -> int: ...
    def strategy(self, color: SupportsIndex) -> list[float]: ...
    def visits(self, color: SupportsIndex) -> list[int]: ...
    def values(self, color: SupportsIndex) -> list[float | None]: ...
    def advance(self, black: SupportsIndex, white: SupportsIndex) -> bool:
        """Move the root on by the joint move (black, white), keeping the subtree;
        False, the search unchanged, if that joint move was never searched."""
    def holds(self, game: GameCore) -> bool:
        """Whether the root is ``game``'s position (pieces, egg queue and turn)."""

class _Stop(Protocol):
    def is_set(self) -> bool: ...
