"""splitmix64, the one mixing function behind every seed wts derives in Python
(:func:`derive`: a match's game seeds, a pair's, a ladder's pairings, self-play's)
and the position-key tables. The C core's ``wts_splitmix64`` (``wts_bits.h``) is
the same function."""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["MASK64", "splitmix64", "splitmix64_sequence", "derive"]

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    """The output of splitmix64 whose state was ``x`` (the state steps first)."""
    x = (x + _GOLDEN) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def splitmix64_sequence(seed: int) -> Iterator[int]:
    """splitmix64's outputs from state ``seed``, one after the other."""
    state = seed & MASK64
    while True:
        yield splitmix64(state)
        state = (state + _GOLDEN) & MASK64


def derive(seed: int, *path: int) -> int:
    """The seed at ``path`` below ``seed``: each step mixes the one above with
    the next number of the path, so ``derive(s, game, side)`` is the seed of one
    side in one game of a match of seed ``s``, independent of every other."""
    x = splitmix64(seed & MASK64)
    for step in path:
        x = splitmix64((x ^ step) & MASK64)
    return x
