"""splitmix64, the one mixing function behind every seed wts derives in Python
(a match's game seeds, a ladder's pairings) and the position-key tables. The C
core's ``wts_splitmix64`` (``wts_bits.h``) is the same function."""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["MASK64", "splitmix64", "splitmix64_sequence"]

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
