"""Type stub of :mod:`wts._perft`: perft on the core, counted in C."""

from wts.engine._game import GameCore

def perft_counts(
    game: GameCore, depth: int
) -> tuple[int, int, int, int, int, int, int, int, int]:
    """The perft counts of ``game``, in the order of :class:`wts.PerftCounts`."""
