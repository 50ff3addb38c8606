"""The eight symmetries of the board, applied to squares, turns and arrays.

The rules look the same in every image of the board: a line of five stays a
line, a bracket stays a bracket, and the eggs keep their order. So a game seen
through a symmetry is a game, and playing a turn then transforming gives what
transforming then playing gives (``tests/engine/test_symmetry.py`` checks it on both
engines). Only the order of the captures of one step depends on the square
indices (point 14), and so does which end of a bracket closed from
both ends is its closer (docs/rules.md, wts ruling 1); :meth:`Symmetry.turn`
reports them as the image does.

>>> from wts import Symmetry
>>> Symmetry.ROTATE_90.square("A1")          # the corner A1 goes to I1
8
>>> Symmetry.ROTATE_90.inverse is Symmetry.ROTATE_270
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from wts.engine.events import Capture, Hatch, TurnResult
from wts.engine.pieces import DIRECTIONS, Color
from wts.engine.squares import BOARD_SIZE, NUM_SQUARES, Square, SquareLike, to_square
from wts.errors import BatchError, ParameterError, ParameterTypeError
from wts.params import is_masked_array, masked_array_refused

__all__ = ["Symmetry", "transform_planes", "transform_masks"]

_LAST = BOARD_SIZE - 1


def _image(symmetry: int, file: int, rank: int) -> tuple[int, int]:
    """(file, rank) of the image of (file, rank), both 0..8."""
    return (
        (file, rank),                   # identity
        (_LAST - rank, file),           # a quarter turn anticlockwise
        (_LAST - file, _LAST - rank),   # a half turn
        (rank, _LAST - file),           # a quarter turn clockwise
        (_LAST - file, rank),           # files mirrored (A <-> I)
        (file, _LAST - rank),           # ranks mirrored (1 <-> 9)
        (rank, file),                   # across the A1-I9 diagonal
        (_LAST - rank, _LAST - file),   # across the A9-I1 diagonal
    )[symmetry]


def _square_map(symmetry: int) -> tuple[Square, ...]:
    images = (_image(symmetry, sq % BOARD_SIZE, sq // BOARD_SIZE) for sq in range(NUM_SQUARES))
    return tuple(rank * BOARD_SIZE + file for file, rank in images)


class Symmetry(enum.IntEnum):
    """One of the board's eight symmetries; N points toward rank 9."""

    IDENTITY = 0
    ROTATE_90 = 1    # a quarter turn anticlockwise: A1 -> I1
    ROTATE_180 = 2
    ROTATE_270 = 3   # a quarter turn clockwise: A1 -> A9
    FLIP_FILES = 4   # mirrored left to right: A1 <-> I1
    FLIP_RANKS = 5   # mirrored top to bottom: A1 <-> A9
    FLIP_DIAGONAL = 6        # across the A1-I9 diagonal: B1 <-> A2
    FLIP_ANTIDIAGONAL = 7    # across the A9-I1 diagonal: A1 <-> I9

    @classmethod
    def of(cls, value: object) -> Symmetry:
        """``value`` (a Symmetry, its number or its name) as a Symmetry."""
        if isinstance(value, Symmetry):
            return value
        if isinstance(value, str) and value.isascii() \
                and value.strip().upper() in cls.__members__:
            return cls[value.strip().upper()]
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool) \
                and 0 <= value < len(cls):
            return cls(int(value))
        raise ParameterError(
            f"a symmetry is a wts.Symmetry, 0-7 or one of "
            f"{', '.join(cls.__members__)}, not {value!r}")

    @property
    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one."""
        return _INVERSE[self]

    def then(self, other: SymmetryLike) -> Symmetry:
        """This symmetry followed by ``other``."""
        second = _SQUARE_MAPS[Symmetry.of(other)]
        composed = tuple(second[sq] for sq in _SQUARE_MAPS[self])
        return _BY_MAP[composed]

    def square(self, square: SquareLike) -> Square:
        """The image of ``square`` (an index or a name)."""
        return _SQUARE_MAPS[self][to_square(square)]

    def squares(self, squares: Iterable[SquareLike]) -> tuple[Square, ...]:
        """The images of squares (indices or names), in the same order."""
        square_map = _SQUARE_MAPS[self]
        return tuple(square_map[sq] if type(sq) is int and 0 <= sq < NUM_SQUARES
                     else square_map[to_square(sq)] for sq in squares)

    def turn(self, result: TurnResult) -> TurnResult:
        """What ``result`` is in the image: every square mapped, and the
        captures of each step in the order the image reports them (black's
        first, then by arriving square and direction)."""
        if not isinstance(result, TurnResult):
            raise ParameterTypeError(
                f"result must be a wts.TurnResult, not {type(result).__name__}")
        square_map = _SQUARE_MAPS[self]
        arrivals = {(h.wave, h.square) for h in result.hatched}
        captures = sorted(
            (_image_capture(c, square_map, (c.round, c.anchor) in arrivals)
             for c in result.captures),
            key=_capture_order)
        return TurnResult(
            square_map[result.black_move], square_map[result.white_move],
            None if result.collision is None else square_map[result.collision],
            tuple(captures), self.squares(result.dissolved),
            tuple(Hatch(square_map[h.square], h.color, h.wave) for h in result.hatched),
            result.status, result.winning_counts,
        )

    def planes(self, planes: npt.ArrayLike) -> npt.NDArray[np.generic]:
        """The image of board-shaped arrays, ``(..., 9, 9)`` indexed ``[..., rank, file]``
        (observation planes: ``(4, 9, 9)`` or a batch's ``(n, 4, 9, 9)``)."""
        return transform_planes(planes, self)

    def mask(self, masks: npt.ArrayLike) -> npt.NDArray[np.generic]:
        """The image of arrays over the 81 squares, ``(..., 81)`` (legal masks,
        policies over the squares)."""
        return transform_masks(masks, self)


SymmetryLike = Symmetry | int | str

_SQUARE_MAPS = {symmetry: _square_map(symmetry) for symmetry in Symmetry}
_BY_MAP = {square_map: symmetry for symmetry, square_map in _SQUARE_MAPS.items()}
_INVERSE = {
    symmetry: _BY_MAP[tuple(sorted(range(NUM_SQUARES), key=_SQUARE_MAPS[symmetry].__getitem__))]
    for symmetry in Symmetry
}
# _GATHER[s][i] is the square whose content lands on square i under s.
_GATHER = np.array([_SQUARE_MAPS[_INVERSE[s]] for s in Symmetry], dtype=np.intp)

# Direction order of point 14, by (file step, rank step).
_DIRECTIONS = {(file_step, rank_step): index
               for index, (_name, file_step, rank_step) in enumerate(DIRECTIONS)}


def _image_capture(capture: Capture, square_map: tuple[Square, ...],
                   both_arrived: bool) -> Capture:
    """A capture seen in the image. A bracket whose two ends arrived together
    is reported from its lower-indexed end (docs/rules.md, wts ruling 1), which
    the image may make the other end."""
    squares = (square_map[capture.squares[0]], square_map[capture.squares[1]])
    closer, anchor = square_map[capture.closer], square_map[capture.anchor]
    if both_arrived and anchor < closer:
        return Capture(capture.color, capture.round, squares[::-1], anchor, closer)
    return Capture(capture.color, capture.round, squares, closer, anchor)


def _capture_order(capture: Capture) -> tuple[int, int, int, int]:
    near = capture.squares[0]
    step = (near % BOARD_SIZE - capture.closer % BOARD_SIZE,
            near // BOARD_SIZE - capture.closer // BOARD_SIZE)
    return (capture.round, capture.color is not Color.BLACK, capture.closer, _DIRECTIONS[step])


def _symmetry_rows(symmetry: object, shape: tuple[int, ...]) -> Symmetry | npt.NDArray[np.intp]:
    """One Symmetry for the whole array (of that ``shape``, squares last), or an
    array of one per row of its first axis."""
    if is_masked_array(symmetry):
        raise BatchError(masked_array_refused("symmetry"))
    if isinstance(symmetry, (Symmetry, str, int, np.integer)) or (
            isinstance(symmetry, np.ndarray) and symmetry.ndim == 0):
        return Symmetry.of(symmetry.item() if isinstance(symmetry, np.ndarray) else symmetry)
    if len(shape) < 2:
        raise BatchError("one symmetry per row needs an array of rows (a first axis "
                         f"of games); this one has shape {shape}")
    rows = shape[0]
    try:
        chosen = np.asarray(symmetry)
    except ValueError as exc:  # ragged lists
        raise BatchError(f"per-row symmetries must be a 1-d integer array: {exc}") from None
    if chosen.size == 0 and chosen.ndim == 1:
        chosen = chosen.astype(np.intp)  # [] is float64 to numpy
    if chosen.ndim != 1 or chosen.shape[0] != rows or chosen.dtype.kind not in "iu":
        raise BatchError(
            f"per-row symmetries must be a 1-d integer array of {rows}, "
            f"not {chosen.dtype} of shape {chosen.shape}")
    if rows and not ((chosen >= 0).all() and (chosen < len(Symmetry)).all()):
        raise BatchError("every symmetry must be 0-7")
    return chosen.astype(np.intp)


def _gather(flat: npt.NDArray[np.generic], symmetry: object) -> npt.NDArray[np.generic]:
    chosen = _symmetry_rows(symmetry, flat.shape)
    if isinstance(chosen, Symmetry):
        return flat[..., _GATHER[chosen]]
    index = _GATHER[chosen].reshape((flat.shape[0], *(1,) * (flat.ndim - 2), NUM_SQUARES))
    return np.take_along_axis(flat, np.broadcast_to(index, flat.shape), axis=-1)


def transform_planes(planes: npt.ArrayLike, symmetry: object) -> npt.NDArray[np.generic]:
    """Board-shaped arrays ``(..., 9, 9)`` seen through ``symmetry``: one
    Symmetry for all, or (for data augmentation) an integer array with one per
    row of the first axis, e.g. ``(n,)`` symmetries for ``(n, 4, 9, 9)`` planes."""
    if is_masked_array(planes):
        raise BatchError(masked_array_refused("planes"))
    array = np.asarray(planes)
    if array.ndim < 2 or array.shape[-2:] != (BOARD_SIZE, BOARD_SIZE):
        raise BatchError(f"board planes end in (9, 9), not shape {array.shape}")
    flat = array.reshape((*array.shape[:-2], NUM_SQUARES))
    return _gather(flat, symmetry).reshape(array.shape)


def transform_masks(masks: npt.ArrayLike, symmetry: object) -> npt.NDArray[np.generic]:
    """Arrays over the squares ``(..., 81)`` seen through ``symmetry`` (one, or
    one per row of the first axis, as :func:`transform_planes`)."""
    if is_masked_array(masks):
        raise BatchError(masked_array_refused("masks"))
    array = np.asarray(masks)
    if array.ndim < 1 or array.shape[-1] != NUM_SQUARES:
        raise BatchError(f"square masks end in 81, not shape {array.shape}")
    return _gather(array, symmetry)
