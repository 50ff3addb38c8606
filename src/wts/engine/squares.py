"""Squares of the 9x9 board: ints 0..80 with names like ``"E5"``.

Files A..I run left to right, ranks 1..9 bottom to top, and the index of a
square is ``(rank - 1) * 9 + file`` (points 1 and 2).
"""

from __future__ import annotations

import operator

from wts.errors import SquareError
from wts.params import describe_int, is_masked_array

Square = int
"""A square index, 0 (A1) to 80 (I9)."""

SquareLike = int | str
"""Anything a call that takes a square accepts: an index or a name."""

BOARD_SIZE = 9
NUM_SQUARES = BOARD_SIZE * BOARD_SIZE

FILE_NAMES = "ABCDEFGHI"
RANK_NAMES = "123456789"
_FILE_CHARS = FILE_NAMES + FILE_NAMES.lower()

A1, B1, C1, D1, E1, F1, G1, H1, I1 = range(0, 9)
A2, B2, C2, D2, E2, F2, G2, H2, I2 = range(9, 18)
A3, B3, C3, D3, E3, F3, G3, H3, I3 = range(18, 27)
A4, B4, C4, D4, E4, F4, G4, H4, I4 = range(27, 36)
A5, B5, C5, D5, E5, F5, G5, H5, I5 = range(36, 45)
A6, B6, C6, D6, E6, F6, G6, H6, I6 = range(45, 54)
A7, B7, C7, D7, E7, F7, G7, H7, I7 = range(54, 63)
A8, B8, C8, D8, E8, F8, G8, H8, I8 = range(63, 72)
A9, B9, C9, D9, E9, F9, G9, H9, I9 = range(72, 81)

SQUARES: tuple[Square, ...] = tuple(range(NUM_SQUARES))
"""Every square, A1 first and I9 last."""

SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)


def square(file_index: int, rank_index: int) -> Square:
    """The square on ``file_index`` (0 = A) and ``rank_index`` (0 = rank 1)."""
    if not (0 <= file_index < BOARD_SIZE and 0 <= rank_index < BOARD_SIZE):
        raise SquareError(f"file {file_index}, rank {rank_index} is off the 9x9 board")
    return rank_index * BOARD_SIZE + file_index


def square_file(sq: Square) -> int:
    """File index of a square: 0 for the A file, 8 for the I file."""
    return sq % BOARD_SIZE


def square_rank(sq: Square) -> int:
    """Rank index of a square: 0 for rank 1, 8 for rank 9."""
    return sq // BOARD_SIZE


def parse_square(name: str) -> Square:
    """The index of a square name: ``parse_square("e5") == 40``.

    Exactly one ASCII letter A-I (either case) and one ASCII digit 1-9;
    surrounding ASCII spaces are ignored. Raises :class:`wts.SquareError`
    for anything else.
    """
    if not isinstance(name, str):
        raise SquareError(f"a square name must be a str, not {type(name).__name__}")
    text = name.strip(" ")
    # Membership is tested before any case folding: str.upper() maps some
    # non-ASCII letters (the dotless "ı") onto A-I.  # noqa: RUF003
    if len(text) == 2 and text[0] in _FILE_CHARS and text[1] in RANK_NAMES:
        return RANK_NAMES.index(text[1]) * BOARD_SIZE + FILE_NAMES.index(text[0].upper())
    raise SquareError(
        f"{name!r} is not a square: expected a letter A-I and a digit 1-9, like 'E5'"
    )


def square_name(sq: Square) -> str:
    """The upper-case name of a square index: ``square_name(40) == "E5"``."""
    return SQUARE_NAMES[to_square(sq)]


def to_square(value: object) -> Square:
    """A square from an index or a name; raises :class:`wts.SquareError`.

    Any integer type is taken (``numpy.int64`` too), but not ``bool``.
    """
    if isinstance(value, str):
        return parse_square(value)
    if is_masked_array(value):  # int() would read a masked entry as if it were valid
        raise SquareError("a numpy masked array is not a square: its mask would be ignored")
    index = _as_index(value)
    if index is None:
        raise SquareError(
            f"{_describe(value)} is not a square: expected an int 0-80 or a name like 'E5'"
        )
    if not 0 <= index < NUM_SQUARES:
        raise SquareError(
            f"{describe_int(index)} is not a square: indices run from 0 (A1) to 80 (I9)")
    return index


def _as_index(value: object) -> int | None:
    """``value`` as an int, or None: a bool is no int here, and a numpy array's
    ``__index__`` raises TypeError unless the array is 0-d and integer."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _describe(value: object) -> str:
    """``value`` for a message: its repr, or its type where the repr fails (an
    int past Python's 4,300-digit limit for str() inside a list, say)."""
    try:
        return repr(value)
    except Exception:
        return f"a {type(value).__name__}"
