"""One random stream per game of a batch, and uniform picks among legal squares.

Game ``g``'s stream is SplitMix64 started from a hash of ``(seed, g)``, so
what game ``g`` draws depends on the seed, its index and how many numbers it
has used, never on how many games the batch holds. Every call works on all
games (or the chosen rows) at once with numpy, never in a Python loop.

>>> import numpy as np
>>> streams = GameStreams(3, seed=7)
>>> numbers = streams.peek(2)
>>> numbers.shape, numbers.dtype
((3, 2), dtype('uint64'))
>>> bool((GameStreams(5, seed=7).peek(2)[:3] == numbers).all())
True
>>> mask = np.zeros((3, 81), dtype=bool)
>>> mask[0, [4, 9]] = mask[1, 80] = True
>>> random_squares(mask, streams, 2).tolist()      # two picks a game; -1: none legal
[[9, 4], [80, 80], [-1, -1]]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from wts.params import check_int, check_seed

__all__ = ["GameStreams", "random_squares", "NUMBERS_PER_PICK"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SALT = np.uint64(0x5754532D56454354)  # keeps seed 0 from starting at the all-zero state
# Nine 7-bit candidate squares (0-127) from one 64-bit number.
_SHIFTS = np.arange(9, dtype=np.uint64) * np.uint64(7)
#: Numbers of a game's stream one pick uses: the candidates and the fallback.
NUMBERS_PER_PICK = 2


def _mix(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's output function; uint64 arrays wrap, as the algorithm wants."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    mixed: npt.NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return mixed


class GameStreams:
    """``n`` independent random streams of uint64 numbers, read in step:
    :meth:`peek` at the next numbers of any games, then :meth:`skip` them for all."""

    def __init__(self, n: int, seed: int) -> None:
        self.n = check_int(n, "n", 0)
        self.seed = check_seed(seed)
        base = _mix(np.array([self.seed], dtype=np.uint64) ^ _SALT)
        self._keys = _mix(base + np.arange(1, self.n + 1, dtype=np.uint64) * _GOLDEN)
        self.used = 0  # numbers used by every game so far

    def peek(self, count: int, rows: npt.NDArray[np.intp] | None = None,
             start: int = 0) -> npt.NDArray[np.uint64]:
        """(games, count) uint64: numbers ``start`` to ``start + count - 1`` after
        the used ones, of every game or of ``rows``; nothing is used up."""
        keys = self._keys if rows is None else self._keys[rows]
        first = self.used + start + 1
        counters = np.arange(first, first + count, dtype=np.uint64)
        return _mix(keys[:, None] + counters * _GOLDEN)

    def skip(self, count: int) -> None:
        """Use up the next ``count`` numbers of every game."""
        self.used += count


def random_squares(mask: npt.NDArray[np.bool_], streams: GameStreams,
                   picks: int) -> npt.NDArray[np.int64]:
    """(n, picks) int64: uniformly random True squares of each row of ``mask``
    (n, 81), -1 where a row has none; uses ``picks * NUMBERS_PER_PICK``
    numbers of every game's stream.

    Rejection sampling: each pick's first number gives nine candidates 0-127
    and the first that is a True square is taken (each is one with
    probability 81/128 times the share of True squares). The rare pick with
    none takes the rank ``(x * count) >> 32`` among the row's squares from the
    top bits of its second number ``x`` (a bias under 81 / 2**32)."""
    n, width = mask.shape
    padded = np.zeros((n, 128), dtype=np.bool_)
    padded[:, :width] = mask
    numbers = streams.peek(picks)
    candidates = ((numbers[:, :, None] >> _SHIFTS) & np.uint64(127)).astype(np.intp)
    hits = padded.reshape(-1)[candidates + (np.arange(n, dtype=np.intp) * 128)[:, None, None]]
    first = hits.argmax(axis=2)
    squares = np.take_along_axis(candidates, first[:, :, None], axis=2)[:, :, 0].astype(np.int64)
    rows, lanes = np.nonzero(~hits.any(axis=2))
    if len(rows):  # a row with no True square (a game over) has -1 without a draw
        empty = ~mask[rows].any(axis=1)
        squares[rows[empty], lanes[empty]] = -1
        rows, lanes = rows[~empty], lanes[~empty]
    if len(rows):
        extra = streams.peek(picks, rows, start=picks)[np.arange(len(rows)), lanes]
        squares[rows, lanes] = _ranked(mask[rows], extra)
    streams.skip(picks * NUMBERS_PER_PICK)
    return squares


def _ranked(mask: npt.NDArray[np.bool_], numbers: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """The True square of rank ``(number >> 32) * count >> 32`` of each row; -1 if none."""
    cumulative = np.cumsum(mask, axis=1, dtype=np.int64)
    counts = cumulative[:, -1].astype(np.uint64)
    ranks = ((numbers >> np.uint64(32)) * counts >> np.uint64(32)).astype(np.int64)
    # The first square whose running count exceeds the rank.
    squares: npt.NDArray[np.int64] = (cumulative <= ranks[:, None]).sum(axis=1, dtype=np.int64)
    squares[counts == 0] = -1
    return squares
