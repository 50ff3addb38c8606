"""Position keys: one 64-bit number per position, for transposition tables.

A key is the XOR of one random number for each piece:

- ``TURTLE_KEYS[color][square]`` for a turtle (``color`` 0 black, 1 white);
- ``EGG_KEYS[age][square]`` for an egg, ``age`` its place in the queue
  (0 the oldest), so two positions whose eggs stand on the same squares in a
  different order have different keys.

The numbers are splitmix64's sequence from :data:`KEY_SEED`: black's 81
squares, white's 81, then the eggs' 81 ages of 81 squares each. The empty
board's key is 0. The turn number is not part of a key: two positions with the
same pieces and eggs have the same future (the turn only ends a game at the
cap of docs/rules.md, 2**32 - 1 turns), so a transposition table should find
one from the other. The counts and the status follow from the pieces.

The fast core builds the same tables in C and updates a game's key on every
turn; this module computes a key plainly, for :mod:`wts.reference`.
"""

from __future__ import annotations

from collections.abc import Iterable

from wts._seeds import splitmix64_sequence
from wts.engine.squares import NUM_SQUARES, Square

__all__ = ["KEY_SEED", "TURTLE_KEYS", "EGG_KEYS", "position_key"]

#: The seed of the key tables ("WTSkeys" in ASCII).
KEY_SEED = 0x0057_5453_6B65_7973

def _tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    numbers = splitmix64_sequence(KEY_SEED)
    turtles = tuple(tuple(next(numbers) for _ in range(NUM_SQUARES)) for _ in range(2))
    eggs = tuple(tuple(next(numbers) for _ in range(NUM_SQUARES)) for _ in range(NUM_SQUARES))
    return turtles, eggs


TURTLE_KEYS, EGG_KEYS = _tables()


def position_key(black: Iterable[Square], white: Iterable[Square],
                 eggs: Iterable[Square]) -> int:
    """The key of the position with these turtles and these eggs (oldest first)."""
    key = 0
    for square in black:
        key ^= TURTLE_KEYS[0][square]
    for square in white:
        key ^= TURTLE_KEYS[1][square]
    for age, square in enumerate(eggs):
        key ^= EGG_KEYS[age][square]
    return key
