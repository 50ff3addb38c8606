"""Positions as one line of text: the wts position notation (think FEN).

A position string holds exactly what cannot be derived from the board: the
pieces, the order the eggs were laid in, and the turn number. The status and
the winning counts follow from the board (points 10-13) and are not
written. The grammar, with examples, is in ``docs/notation.md``::

    9/9/9/9/4x2x1/9/2e6/9/o8 C3 1
    ^ the board, rank 9 first   ^ the eggs, oldest first   ^ the turn

>>> parse_fen("9/9/9/9/4x2x1/9/2e6/9/o8 C3 1")
Position(black=(E5, H5), white=(A1,), eggs=(C3,), turn=1)

Every string that parses is the canonical string of its position:
``format_fen(*parse_fen(s)) == s``. Anything else raises
:class:`wts.NotationError` naming the 0-based index of the first character
that is wrong and what was expected there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from wts._public import publish
from wts.engine.squares import BOARD_SIZE, FILE_NAMES, RANK_NAMES, SQUARE_NAMES, Square
from wts.errors import NotationError
from wts.limits import MAX_TURN

__all__ = ["Position", "parse_fen", "format_fen", "STARTING_FEN", "MAX_TURN"]

STARTING_FEN = "9/9/9/9/9/9/9/9/9 - 0"
"""The position of a new game: an empty board, no eggs, turn 0."""

_PIECE_CHARS = {"x": "black", "o": "white", "e": "egg"}
_RUN_DIGITS = "123456789"
_DECIMAL = "0123456789"


class Position(NamedTuple):
    """What a position string holds: the squares of each kind of piece (turtles
    ascending, eggs oldest first) and the turn number. ``Game.from_setup(*position)``
    builds the game."""

    black: tuple[Square, ...]
    white: tuple[Square, ...]
    eggs: tuple[Square, ...]
    turn: int

    def __repr__(self) -> str:
        def names(squares: tuple[Square, ...]) -> str:
            inner = ", ".join(SQUARE_NAMES[s] for s in squares)
            return f"({inner},)" if len(squares) == 1 else f"({inner})"

        return (
            f"Position(black={names(self.black)}, white={names(self.white)}, "
            f"eggs={names(self.eggs)}, turn={self.turn})"
        )


def format_fen(
    black: Iterable[Square], white: Iterable[Square], eggs: Iterable[Square], turn: int
) -> str:
    """The position string of a position (squares as ints, eggs oldest first)."""
    cells = ["."] * (BOARD_SIZE * BOARD_SIZE)
    for sq in black:
        cells[sq] = "x"
    for sq in white:
        cells[sq] = "o"
    egg_list = list(eggs)
    for sq in egg_list:
        cells[sq] = "e"
    ranks = []
    for rank in reversed(range(BOARD_SIZE)):
        text = []
        run = 0
        for file in range(BOARD_SIZE):
            cell = cells[rank * BOARD_SIZE + file]
            if cell == ".":
                run += 1
                continue
            if run:
                text.append(str(run))
                run = 0
            text.append(cell)
        if run:
            text.append(str(run))
        ranks.append("".join(text))
    queue = ",".join(SQUARE_NAMES[sq] for sq in egg_list) or "-"
    return f"{'/'.join(ranks)} {queue} {turn}"


def _got(text: str, i: int) -> str:
    return "the end of the string" if i >= len(text) else repr(text[i])


def _fail(i: int, message: str) -> NotationError:
    return NotationError(f"position {i}: {message}", position=i)


def parse_fen(text: str) -> Position:
    """The position a position string describes.

    Raises :class:`wts.NotationError` ("position 17: expected ...") for
    anything but the canonical string of a position: see ``docs/notation.md``.
    """
    if not isinstance(text, str):
        raise NotationError(f"a position string must be a str, not {type(text).__name__}")
    n = len(text)
    i = 0
    black: list[Square] = []
    white: list[Square] = []
    board_eggs: list[Square] = []
    lists = {"x": black, "o": white, "e": board_eggs}

    # The board: nine ranks, rank 9 first, separated by '/'.
    for rank in reversed(range(BOARD_SIZE)):
        label = RANK_NAMES[rank]
        if rank != BOARD_SIZE - 1:
            if i >= n or text[i] != "/":
                raise _fail(i, f"expected '/' and then rank {label} (rank {RANK_NAMES[rank + 1]} "
                               f"is complete with 9 squares), got {_got(text, i)}")
            i += 1
        file = 0
        after_digit = False
        while file < BOARD_SIZE:
            if i >= n:
                raise _fail(i, f"expected the rest of rank {label} ({BOARD_SIZE - file} more "
                               "square(s)), got the end of the string")
            char = text[i]
            if char in _RUN_DIGITS:
                if after_digit:
                    raise _fail(i, f"expected x, o or e on rank {label}, got a second digit "
                                   f"{char!r} (a run of empty squares is one digit)")
                run = _RUN_DIGITS.index(char) + 1
                if file + run > BOARD_SIZE:
                    raise _fail(i, f"expected a run of at most {BOARD_SIZE - file} empty "
                                   f"square(s) to end rank {label}, got {run}")
                file += run
                after_digit = True
            elif char in _PIECE_CHARS:
                lists[char].append(rank * BOARD_SIZE + file)
                file += 1
                after_digit = False
            elif char in "/ ":
                raise _fail(i, f"expected the rest of rank {label} ({BOARD_SIZE - file} more "
                               f"square(s): x, o, e or a digit), got {char!r}")
            else:
                raise _fail(i, f"expected x (black), o (white), e (egg) or a digit 1-9 "
                               f"(empty squares) on rank {label}, got {char!r}")
            i += 1

    if i >= n or text[i] != " ":
        detail = " (the board has only 9 ranks)" if i < n and text[i] == "/" else ""
        raise _fail(i, f"expected a space and then the egg list after rank 1{detail}, "
                       f"got {_got(text, i)}")
    i += 1

    # The eggs, oldest first: square names separated by ',', or '-' for none.
    on_board = set(board_eggs)
    queue: list[Square] = []
    if i < n and text[i] == "-":
        if board_eggs:
            raise _fail(i, "expected the egg list, oldest first (the board has eggs on "
                           f"{', '.join(SQUARE_NAMES[s] for s in sorted(on_board))}), got '-'")
        i += 1
    else:
        while True:
            if i >= n or text[i] not in FILE_NAMES:
                what = "an egg's square (a file letter A-I)" if queue else \
                    "the egg list: '-' for no eggs, or egg squares like E5,C3"
                raise _fail(i, f"expected {what}, got {_got(text, i)}")
            if i + 1 >= n or text[i + 1] not in RANK_NAMES:
                raise _fail(i + 1, f"expected a rank digit 1-9 after the file letter "
                                   f"{text[i]!r}, got {_got(text, i + 1)}")
            sq = RANK_NAMES.index(text[i + 1]) * BOARD_SIZE + FILE_NAMES.index(text[i])
            name = SQUARE_NAMES[sq]
            if sq in queue:
                raise _fail(i, f"expected each egg once, got {name} a second time")
            if sq not in on_board:
                raise _fail(i, f"expected an egg's square, got {name}, which the board "
                               "does not show as an egg ('e')")
            queue.append(sq)
            i += 2
            if i < n and text[i] == ",":
                i += 1
                continue
            break
        if len(queue) < len(board_eggs):
            missing = sorted(on_board.difference(queue))
            raise _fail(i, "expected ',' and the rest of the egg list (missing: "
                           f"{', '.join(SQUARE_NAMES[s] for s in missing)}), got {_got(text, i)}")

    if i >= n or text[i] != " ":
        raise _fail(i, f"expected a space and then the turn number after the egg list, "
                       f"got {_got(text, i)}")
    i += 1

    # The turn: a whole number, no sign, no leading zero.
    start = i
    while i < n and text[i] in _DECIMAL:
        i += 1
    digits = text[start:i]
    if not digits:
        raise _fail(start, f"expected the turn number (digits 0-9), got {_got(text, start)}")
    if len(digits) > 1 and digits[0] == "0":
        raise _fail(start, f"expected the turn number without a leading zero, got {digits!r}")
    # Compared by length first: int() refuses more than 4,300 digits (sys.int_info).
    if len(digits) > len(str(MAX_TURN)) or int(digits) > MAX_TURN:
        got = digits if len(digits) <= 30 else f"a number of {len(digits)} digits"
        raise _fail(start, f"expected a turn number from 0 to {MAX_TURN}, got {got}")
    turn = int(digits)
    if i < n:
        raise _fail(i, f"expected the end of the string after the turn number, got {text[i]!r}")
    return Position(tuple(sorted(black)), tuple(sorted(white)), tuple(queue), turn)


# Shown and pickled under the documented path, whatever module holds the code.
publish("wts.notation", __all__, globals())
