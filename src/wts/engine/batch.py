"""``wts.BatchGame``: many games stepped together, for vectorised agents and RL.

Every call takes or returns whole numpy arrays, so the per-game cost is a
few nanoseconds of C, not a Python call. Status codes are indices into
:data:`STATUSES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from wts.engine._batch import NETWORK_PLANE_COUNT, BatchCore, _observation_network_planes
from wts.engine._core import STATUSES as CORE_STATUSES
from wts.engine.base import check_moves
from wts.engine.game import Game
from wts.engine.pieces import Status
from wts.errors import BatchError, GameOverError, IllegalMoveError, ParameterError
from wts.params import describe_int, is_masked_array, masked_array_refused

__all__ = ["BatchGame", "StepResult", "STATUSES", "NO_MOVE", "NETWORK_PLANES",
           "observation_network_planes"]

#: The planes a network sees (:meth:`BatchGame.network_planes`), in order,
#: always from black's side; the last is all ones (where the board is).
NETWORK_PLANES = ("black turtles", "white turtles", "eggs", "egg age (1 oldest, 1/2, 1/3, ...)",
                  "black fives (empty squares completing one)", "white fives",
                  "black captures (empty squares closing a bracket)", "white captures",
                  "black winning turtles", "white winning turtles", "board")
assert len(NETWORK_PLANES) == NETWORK_PLANE_COUNT

STATUSES: tuple[Status, ...] = CORE_STATUSES
"""``STATUSES[code]`` is the :class:`wts.Status` of a status code in a batch array."""

NO_MOVE = -1
"""The move to give a game that is already over: it is skipped."""


class StepResult(NamedTuple):
    """What :meth:`BatchGame.step` did to each game.

    ``status`` (n,) uint8 status codes after the turn; ``captures`` (n, 2)
    int32 captures by black and by white this turn; ``hatches`` (n,) int32
    eggs hatched this turn. Games that were already over report zeros.
    """

    status: npt.NDArray[np.uint8]
    captures: npt.NDArray[np.int32]
    hatches: npt.NDArray[np.int32]


# step's fixed cost matters at small batches: dtypes made once, and the
# result built without the named tuple's Python-level __new__.
_UINT8, _INT32 = np.dtype(np.uint8), np.dtype(np.int32)
_new_tuple = tuple.__new__

_INT64_MIN, _INT64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)


def _moves_array(moves: object, n: int, name: str) -> tuple[npt.NDArray[Any],
                                                             npt.NDArray[np.int64]]:
    """The moves as given (for messages) and as a C-contiguous row of int64
    (for the core), for moves that are not already such a row."""
    if is_masked_array(moves):
        raise BatchError(masked_array_refused(name))
    try:
        array = np.array(moves)
    except (ValueError, TypeError, OverflowError):  # nested lists of uneven lengths, say
        raise BatchError(f"{name} must be an array of shape ({n},); numpy cannot read "
                         f"this {type(moves).__name__} as an array") from None
    if array.shape != (n,):
        raise BatchError(f"{name} must have shape ({n},), not {array.shape}")
    # numpy reads a list of ints and bools as ints: the bools are found here.
    if (array.dtype.kind in "iu" and isinstance(moves, Sequence)
            and any(isinstance(item, (bool, np.bool_)) for item in moves)):
        raise BatchError(f"{name} must hold integers (square indices), not bool")
    if array.dtype.kind not in "iu" and array.size:
        exact = None if isinstance(moves, np.ndarray) else _python_ints(moves, n)
        if exact is None:
            raise BatchError(f"{name} must hold integers (square indices), not {array.dtype}")
        # Python ints past int64, which numpy reads as float64 or object: clamped,
        # they stay what they are (not squares); the messages keep them exact.
        clamped = np.array([min(max(value, _INT64_MIN), _INT64_MAX) for value in exact],
                           dtype=np.int64)
        return np.array(exact, dtype=object), clamped
    as_int64 = array
    if array.dtype.kind == "u" and array.dtype.itemsize == 8:  # either byte order
        # Cast as they are, values past 2**63 - 1 wrap to negatives, 2**64 - 1 to
        # NO_MOVE; clamped, they stay what they are: not squares.
        as_int64 = np.minimum(array, np.uint64(_INT64_MAX))
    return array, np.ascontiguousarray(as_int64, dtype=np.int64)


def _python_ints(moves: object, n: int) -> list[int] | None:
    """The ``n`` moves as Python ints if every one is an integer (not a bool),
    else None."""
    try:
        items = list(moves)  # type: ignore[call-overload]
    except TypeError:
        return None
    if len(items) != n or not all(isinstance(item, (int, np.integer))
                                  and not isinstance(item, (bool, np.bool_)) for item in items):
        return None
    return [int(item) for item in items]


def _mask_array(mask: object, n: int) -> npt.NDArray[np.uint8]:
    if is_masked_array(mask):
        raise BatchError(masked_array_refused("mask"))
    array = np.asarray(mask)
    if array.shape != (n,):
        raise BatchError(f"mask must have shape ({n},), not {array.shape}")
    if array.dtype != np.bool_:
        raise BatchError(f"mask must be a bool array, not {array.dtype}")
    return np.ascontiguousarray(array, dtype=np.uint8)


class BatchGame(BatchCore):
    """``n`` independent games in one C array.

    >>> import numpy as np, wts
    >>> batch = wts.BatchGame(3)
    >>> result = batch.step(np.array([40, 0, 5]), np.array([40, 1, 6]))
    >>> result.status.tolist(), batch[0].eggs
    ([0, 0, 0], (40,))
    """

    @classmethod
    def from_games(cls, games: Iterable[Game]) -> BatchGame:
        """A batch holding copies of ``games`` (fast :class:`wts.Game` objects)."""
        items = list(games)
        for index, game in enumerate(items):
            if not isinstance(game, Game):
                raise BatchError(f"games[{index}] is a {type(game).__name__}, not a wts.Game")
        batch = cls(len(items))
        for index, game in enumerate(items):
            batch._set_state(index, game)
        return batch

    def __getitem__(self, index: int) -> Game:
        """A copy of game ``index`` as a :class:`wts.Game`."""
        game = Game()
        self._get_state(self._position(index), game)
        return game

    def __setitem__(self, index: int, game: Game) -> None:
        """Replace game ``index`` with a copy of ``game``."""
        position = self._position(index)
        if not isinstance(game, Game):
            raise BatchError(f"a batch holds wts.Game positions, not {type(game).__name__}")
        self._set_state(position, game)

    def _position(self, index: int) -> int:
        """``index`` (negative counts from the end) as a position, or the
        TypeError or IndexError a Python sequence raises."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"batch indices are ints, not {type(index).__name__}")
        n = len(self)
        position = int(index) + n if index < 0 else int(index)
        if not 0 <= position < n:
            raise IndexError(f"game {index} is out of range for a batch of {n}")
        return position

    def __iter__(self):  # type: ignore[no-untyped-def]
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        counts = np.bincount(self.status, minlength=len(STATUSES))
        summary = ", ".join(f"{s.value} {c}" for s, c in zip(STATUSES, counts) if c)
        return f"<wts.BatchGame n={len(self)}{': ' + summary if summary else ''}>"

    @property
    def status(self) -> npt.NDArray[np.uint8]:
        """(n,) status codes; ``STATUSES[code]`` is the :class:`wts.Status`."""
        out = np.empty(len(self), dtype=np.uint8)
        self._status(out)
        return out

    @property
    def winning_counts(self) -> npt.NDArray[np.int32]:
        """(n, 2) winning turtles of black and white."""
        counts = np.empty((len(self), 2), dtype=np.int32)
        self._counts(counts, np.empty(len(self), dtype=np.int64))
        return counts

    @property
    def turns(self) -> npt.NDArray[np.int64]:
        """(n,) turns played in each game."""
        turns = np.empty(len(self), dtype=np.int64)
        self._counts(np.empty((len(self), 2), dtype=np.int32), turns)
        return turns

    def is_over(self) -> npt.NDArray[np.bool_]:
        """(n,) True where the game is won or drawn."""
        over = np.empty(len(self), dtype=np.uint8)
        self._over(over)
        return over.view(np.bool_)

    def keys(self) -> npt.NDArray[np.uint64]:
        """(n,) uint64: each game's position key, as :meth:`wts.Game.key` gives it."""
        keys = np.empty(len(self), dtype=np.uint64)
        self._keys(keys)
        return keys

    def canonical(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint8]]:
        """(keys, symmetries), each (n,): for every game the least key among its
        eight images and the :class:`wts.Symmetry` reaching it, as
        :meth:`wts.Game.canonical` gives them."""
        keys = np.empty(len(self), dtype=np.uint64)
        symmetries = np.empty(len(self), dtype=np.uint8)
        self._canonical(keys, symmetries)
        return keys, symmetries

    def step(
        self,
        black_moves: Sequence[int] | npt.ArrayLike,
        white_moves: Sequence[int] | npt.ArrayLike,
    ) -> StepResult:
        """Play one turn in every game; games already over take :data:`NO_MOVE`.

        Every move is checked before any game changes; a bad one raises
        :class:`wts.IllegalMoveError` or :class:`wts.GameOverError` naming the
        game, and wrong shapes or dtypes raise :class:`wts.BatchError`.
        """
        n = len(self)
        status, hatches = np.empty(n, _UINT8), np.empty(n, _INT32)
        captures = np.empty((n, 2), _INT32)
        # What a vectorised agent passes, rows of int64, goes straight to the core;
        # a masked array's buffer is its data, mask dropped: refused first.
        if is_masked_array(black_moves) or is_masked_array(white_moves):
            name = "black_moves" if is_masked_array(black_moves) else "white_moves"
            raise BatchError(masked_array_refused(name))
        refused = self._step(black_moves, white_moves, status, captures, hatches, Game)
        if refused is False:
            black_given, black = _moves_array(black_moves, n, "black_moves")
            white_given, white = _moves_array(white_moves, n, "white_moves")
            refused = self._step(black, white, status, captures, hatches, Game)
            if isinstance(refused, tuple):  # the messages name the moves as given
                index, game, _, _ = refused
                refused = index, game, int(black_given[index]), int(white_given[index])
        if refused is not None:
            assert isinstance(refused, tuple)  # False only for moves converted above
            _raise_bad_move(*refused)
        return _new_tuple(StepResult, (status, captures, hatches))

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """(n, 81) True on every square either player may name; all False once over."""
        out = np.empty((len(self), 81), dtype=np.uint8)
        self._legal_mask(out)
        return out.view(np.bool_)

    def observation(self) -> npt.NDArray[np.uint8]:
        """(n, 4, 9, 9) uint8 planes: black, white, eggs, egg age (1 = oldest, 0 = none).

        Indexed ``[game, plane, rank - 1, file]``.
        """
        out = np.empty((len(self), 4, 81), dtype=np.uint8)
        self._observation(out)
        return out.reshape(len(self), 4, 9, 9)

    def network_planes(self) -> npt.NDArray[np.float32]:
        """(n, 81, 11) float32: each game's planes as the network player sees
        them (:data:`NETWORK_PLANES`, from black's side), square-major.

        >>> import wts
        >>> planes = wts.BatchGame(3).network_planes()
        >>> planes.shape, float(planes[..., -1].sum())
        ((3, 81, 11), 243.0)
        """
        out = np.empty((len(self), 81, NETWORK_PLANE_COUNT), dtype=np.float32)
        self._network_planes(out)
        return out

    def reset(self, mask: npt.ArrayLike | None = None) -> None:
        """Restart the games where ``mask`` is True (all games when None)."""
        n = len(self)
        chosen = np.ones(n, dtype=np.uint8) if mask is None else _mask_array(mask, n)
        self._reset(chosen)

    def player_planes(self, colors: str = "both") -> tuple[npt.NDArray[np.uint8],
                                                           npt.NDArray[np.bool_]]:
        """The planes from a player's side and the legal squares, in one pass.

        ``colors`` ``"black"`` or ``"white"``: (n, 4, 9, 9) planes own turtles,
        opponent turtles, eggs, egg age (for black, :meth:`observation`);
        ``"both"``: (n, 2, 4, 9, 9), black's side then white's. The mask is
        :meth:`legal_mask`.

        >>> import numpy as np, wts
        >>> batch = wts.BatchGame(2)
        >>> _ = batch.step(np.array([0, 0]), np.array([80, 1]))
        >>> planes, legal = batch.player_planes()
        >>> planes[0, 1, 0].ravel()[80], planes[0, 1, 1].ravel()[0], int(legal[0].sum())
        (np.uint8(1), np.uint8(1), 79)
        """
        first = {"black": 0, "white": 1, "both": 0}.get(colors) if isinstance(colors, str) else None
        if first is None:
            raise ParameterError(f"colors must be 'black', 'white' or 'both', not {colors!r}")
        n, sides = len(self), 2 if colors == "both" else 1
        planes = np.empty((n, sides, 4, 81), dtype=np.uint8)
        legal = np.empty((n, 81), dtype=np.uint8)
        self._player_planes(planes, first, legal)
        shape = (n, 2, 4, 9, 9) if sides == 2 else (n, 4, 9, 9)
        return planes.reshape(shape), legal.view(np.bool_)


def observation_network_planes(observations: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The network planes (n, 81, 11) of positions given as black's
    observation planes (n, 4, 9, 9) (:meth:`BatchGame.observation`, the
    ``observation`` column of black's rows in self-play data). Planes that
    are no position raise :class:`wts.ParameterError` naming the first."""
    array = np.ascontiguousarray(observations, dtype=np.uint8)
    if array.ndim != 4 or array.shape[1:] != (4, 9, 9):
        raise ParameterError(f"observations must have shape (n, 4, 9, 9), not {array.shape}")
    out = np.empty((len(array), 81, NETWORK_PLANE_COUNT), dtype=np.float32)
    bad = _observation_network_planes(array.reshape(len(array), 4, 81), out)
    if bad >= 0:
        raise ParameterError(f"observation {bad} is no position: a square holds two pieces, "
                             "or the egg ages are not 1 to the number of eggs, each once")
    return out


def _raise_bad_move(index: int, game: Game, black: int, white: int) -> None:
    """The error for the moves of game ``index``, which the core refused; ``game``
    is that game as it was."""
    if game.is_over():
        raise GameOverError(
            f"game {index}: the game is over ({game.status.words}); "
            f"give it NO_MOVE (-1), not {describe_int(black)} and {describe_int(white)}"
        )
    try:
        check_moves(game, black, white)
    except IllegalMoveError as exc:
        raise type(exc)(f"game {index}: {exc}") from None
    raise AssertionError("unreachable: the core rejected moves the shared checks accept")
