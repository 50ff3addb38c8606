"""Type stub of :mod:`wts.players._greedy`: the greedy player's evaluation in C.

:class:`wts.agents.GreedyAgent` wraps it; colours are 0 (black) and 1 (white),
squares ints 0-80.
"""

from typing import SupportsIndex

from wts.engine._game import GameCore

def greedy_move(game: GameCore, color: SupportsIndex, seed: SupportsIndex) -> int: ...
def evaluate_position(game: GameCore, color: SupportsIndex) -> float: ...
def winning_squares(game: GameCore, color: SupportsIndex) -> list[int]: ...
