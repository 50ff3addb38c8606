"""Game records as text (think PGN): header tags, then one turn per line.

::

    [Black "human"]
    [White "random"]
    [Date "2025.06.01"]
    [Result "0-1"]

    E5 B4        ; black's square, then white's
    E5 E5        ; a collision lays an egg on E5
    ...

The grammar, with examples, is in ``docs/notation.md``. :func:`read` replays
and checks every turn and returns a :class:`GameRecord`; :func:`write` writes
a game (its :attr:`~wts.Game.history` from its :meth:`~wts.Game.root`), a
record, or a list of turns. A game written and read back is identical, turn
by turn. Anything wrong in a record raises :class:`wts.NotationError` with
its line number (``"line 12: ..."``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Union

from wts._public import publish
from wts.engine.events import TurnResult
from wts.engine.notation import STARTING_FEN
from wts.engine.pieces import Status
from wts.engine.squares import SQUARE_NAMES, Square, to_square
from wts.engine.symmetry import Symmetry, SymmetryLike
from wts.errors import IllegalMoveError, NotationError, SquareError

if TYPE_CHECKING:
    from wts.engine.base import GameBase

__all__ = [
    "GameRecord",
    "read",
    "write",
    "loads",
    "dumps",
    "result_of",
    "RESULTS",
    "STANDARD_TAGS",
]

RESULTS = tuple(status.result for status in (
    Status.BLACK_WINS, Status.WHITE_WINS, Status.DRAW, Status.ONGOING))
"""The values of the Result tag: black won, white won, a draw, not decided
(black is named first, so ``1-0`` is a black win): :attr:`wts.Status.result`."""
_RESULT_CHOICES = ", ".join(RESULTS[:-1]) + " or " + RESULTS[-1]

STANDARD_TAGS = ("Black", "White", "Date", "Result")
"""The tags :func:`write` always writes, in this order (``?`` when unknown);
``SetUp`` follows them when the game did not start from the empty board."""

_UNKNOWN = {"Black": "?", "White": "?", "Date": "????.??.??", "Result": "*"}
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_BLANKS = " \t"

PathOrFile = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]
Move = tuple[Square, Square]


def result_of(game: GameBase) -> str:
    """The Result tag of a game as it stands: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    return game.status.result


@dataclass
class GameRecord:
    """A game record read back: its tags, the position it started from, its
    turns, the game they lead to, and the comments.

    ``start`` is the position before the first turn (from the ``SetUp`` tag, or
    a new game), with an empty history; ``game`` is the position after the
    last turn, whose ``history`` is ``turns``. ``comments[k]`` is the text of
    the comments after turn k (0: before the first turn), lines joined by
    ``"\\n"``.
    """

    headers: dict[str, str]
    start: GameBase
    turns: tuple[TurnResult, ...]
    game: GameBase
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The turns as (black's square, white's square) pairs."""
        return tuple((t.black_move, t.white_move) for t in self.turns)

    @property
    def result(self) -> str:
        """The Result tag (``*`` when absent)."""
        return self.headers.get("Result", "*")

    @property
    def setup(self) -> str | None:
        """The position string of the start, or None for a new game."""
        fen = self.start.fen()
        return None if fen == STARTING_FEN else fen

    def transform(self, symmetry: SymmetryLike) -> GameRecord:
        """The same game seen through a :class:`wts.Symmetry`: the start and
        every move transformed, the turns played again on the image, the tags
        and comments kept (:func:`dumps` writes the new start's SetUp)."""
        start = self.start.transform(symmetry)
        game = start.copy()
        chosen = Symmetry.of(symmetry)
        for black, white in self.moves:
            game.play(chosen.square(black), chosen.square(white))
        return GameRecord(dict(self.headers), start, game.history, game, dict(self.comments))

    def position(self, turn: int) -> GameBase:
        """The game after its ``turn``-th turn (``turn`` as ``Game.turn`` counts it,
        from ``start.turn`` to ``game.turn``), with the history up to there."""
        first = self.start.turn
        if isinstance(turn, bool) or not isinstance(turn, int) or not (
            first <= turn <= first + len(self.turns)
        ):
            raise ValueError(
                f"turn must be an int from {first} to {first + len(self.turns)}, not {turn!r}"
            )
        game = self.start.copy()
        for played in self.turns[: turn - first]:
            game.play(played.black_move, played.white_move)
        return game


# --- Reading -------------------------------------------------------------------------


def _line_error(line: int, message: str) -> NotationError:
    return NotationError(f"line {line}: {message}", line=line)


def _parse_tag(text: str, number: int) -> tuple[str, str, str]:
    """``[Name "value"]`` and what follows it: (name, value, rest of the line)."""
    i = text.index("[") + 1
    n = len(text)
    while i < n and text[i] in _BLANKS:
        i += 1
    match = _TAG_NAME.match(text, i)
    if match is None:
        raise _line_error(number, 'expected a tag name after "[", like [Black "Ann"]')
    name = match.group()
    i = match.end()
    if i >= n or text[i] not in _BLANKS:
        raise _line_error(number, f'expected a space and a quoted value after the tag name {name}')
    while i < n and text[i] in _BLANKS:
        i += 1
    if i >= n or text[i] != '"':
        raise _line_error(number, f'expected the value of tag {name} in double quotes')
    i += 1
    value = []
    while True:
        if i >= n:
            raise _line_error(number, f'expected the closing \'"\' of tag {name}')
        char = text[i]
        if char == "\\":
            if i + 1 < n and text[i + 1] in '"\\':
                value.append(text[i + 1])
                i += 2
                continue
            raise _line_error(number, f'expected \\" or \\\\ in the value of tag {name}')
        if char == '"':
            i += 1
            break
        value.append(char)
        i += 1
    while i < n and text[i] in _BLANKS:
        i += 1
    if i >= n or text[i] != "]":
        raise _line_error(number, f"expected ']' to close tag {name}")
    return name, "".join(value), text[i + 1 :]


def _split_comment(text: str) -> tuple[str, str | None]:
    content, sep, comment = text.partition(";")
    # A comment ending in "\r" (a line that ended "\r\r\n") could not be written back.
    return content.strip(_BLANKS), comment.strip(_BLANKS + "\r") if sep else None


def loads(text: str, *, engine: type[GameBase] | None = None) -> GameRecord:
    """Read a game record from a string; see :func:`read`."""
    if engine is None:
        from wts.engine.game import Game

        engine = Game
    if text.startswith("\ufeff"):
        text = text[1:]
    headers: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    comments: dict[int, list[str]] = {}
    moves: list[tuple[int, Square, Square]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        stripped = line.lstrip(_BLANKS)
        if stripped.startswith("["):
            if moves:
                raise _line_error(number, "expected a turn: tags come before the first turn")
            name, value, rest = _parse_tag(stripped, number)
            if name in headers:
                raise _line_error(number, f"tag {name} is given twice "
                                          f"(first on line {tag_lines[name]})")
            headers[name] = value
            tag_lines[name] = number
            content, comment = _split_comment(rest)
            if content:
                raise _line_error(number, f"expected the end of the line after tag {name}, "
                                          f"got {content!r}")
        else:
            content, comment = _split_comment(line)
            if content:
                parts = re.split(r"[ \t]+", content)
                if len(parts) != 2:
                    raise _line_error(number, "expected a turn: black's square and white's "
                                              f"square, like 'E5 B4', got {content!r}")
                squares = []
                for who, part in zip(("black's", "white's"), parts):
                    try:
                        squares.append(to_square(part))
                    except SquareError:
                        raise _line_error(
                            number, f"expected {who} square, a letter A-I and a digit 1-9 "
                                    f"like E5, got {part!r}") from None
                moves.append((number, squares[0], squares[1]))
        if comment is not None:
            comments.setdefault(len(moves), []).append(comment)

    start = engine()
    if "SetUp" in headers:
        try:
            start = engine.from_fen(headers["SetUp"])
        except NotationError as exc:
            number = tag_lines["SetUp"]
            raise NotationError(f"line {number}: SetUp: {exc}", line=number,
                                position=exc.position) from None
    if "Result" in headers and headers["Result"] not in RESULTS:
        raise _line_error(tag_lines["Result"], f"expected a Result of {_RESULT_CHOICES}, "
                                               f"got {headers['Result']!r}")
    game = start.copy()
    for number, black, white in moves:
        try:
            game.play(black, white)
        except IllegalMoveError as exc:
            raise _line_error(number, f"turn {game.turn + 1}: {exc}") from None
    result = headers.get("Result")
    if result is not None and game.is_over() and result != result_of(game):
        raise _line_error(
            tag_lines["Result"],
            f"Result {result!r} does not match the game: after turn {game.turn} it is "
            f"{game.status.value} ({result_of(game)})",
        )
    return GameRecord(
        headers=headers,
        start=start,
        turns=game.history,
        game=game,
        comments={k: "\n".join(v) for k, v in comments.items()},
    )


def read(file: PathOrFile, *, engine: type[GameBase] | None = None) -> GameRecord:
    """Read a game record from a path or an open file (text or binary, UTF-8).

    Every turn is replayed on ``engine`` (default :class:`wts.Game`) and
    checked; a bad line raises :class:`wts.NotationError` saying which
    (``"line 12: turn 9: black's move E5 is illegal: ..."``). A Result tag
    must agree with a finished game; on an unfinished one it may record a
    resignation. ``OSError`` is raised as it comes for a file that cannot be
    opened.
    """
    if isinstance(file, (str, os.PathLike)):
        with open(file, "rb") as handle:
            data: Any = handle.read()
    else:
        data = file.read()
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            line = bytes(data)[: exc.start].count(b"\n") + 1
            raise _line_error(line, "expected UTF-8 text") from None
    return loads(data, engine=engine)


# --- Writing -------------------------------------------------------------------------


def _quote(name: str, value: str) -> str:
    if not isinstance(value, str):
        raise NotationError(f"tag {name}: a value must be a str, not {type(value).__name__}")
    if any(ord(c) < 32 or c == "\x7f" for c in value):
        raise NotationError(f"tag {name}: a value is one line of text without control characters")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _source_turns(
    source: object, start: GameBase | str | None
) -> tuple[GameBase, tuple[TurnResult, ...], dict[str, str], dict[int, str], GameBase]:
    """The start, the turns, the headers and comments it carries, and the final game."""
    from wts.engine.base import GameBase
    from wts.engine.game import Game

    if isinstance(source, GameBase):
        if start is not None:
            raise ValueError("start= is only for a list of turns: a game knows its start")
        return source.root(), source.history, {}, {}, source
    if isinstance(source, GameRecord):
        if start is not None:
            raise ValueError("start= is only for a list of turns: a record knows its start")
        # Its SetUp tag, if any, is written again from its start position.
        headers = {k: v for k, v in source.headers.items() if k != "SetUp"}
        return source.start, source.turns, headers, dict(source.comments), source.game
    if isinstance(source, (str, bytes)):
        raise TypeError("write() takes a game, a GameRecord or a list of turns, not a string")
    if start is None:
        first: GameBase = Game()
    elif isinstance(start, str):
        first = Game.from_fen(start)
    elif isinstance(start, GameBase):
        first = type(start).from_fen(start.fen())  # its position, without its history
    else:
        raise TypeError(f"start must be a game or a position string, not {type(start).__name__}")
    game = first.copy()
    try:
        items = list(source)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(
            f"write() takes a game, a GameRecord or a list of turns, not {type(source).__name__}"
        ) from None
    for index, item in enumerate(items):
        if isinstance(item, TurnResult):
            played = game.play(item.black_move, item.white_move)
            if played != item:
                raise ValueError(f"turns[{index}] does not follow from the turns before it: "
                                 f"replayed, it is {played!r}")
        else:
            try:
                black, white = item
            except (TypeError, ValueError):
                raise TypeError(f"turns[{index}] must be a TurnResult or a pair of squares, "
                                f"not {item!r}") from None
            game.play(black, white)
    return first, game.history, {}, {}, game


def dumps(
    source: GameBase | GameRecord | Iterable[TurnResult | tuple[Square | str, Square | str]],
    *,
    headers: Mapping[str, str] | None = None,
    start: GameBase | str | None = None,
    comments: Mapping[int, str] | None = None,
) -> str:
    """The record of a game as a string; see :func:`write`."""
    first, turns, tags, notes, game = _source_turns(source, start)
    tags.update(headers or {})
    for name in tags:
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
            raise NotationError(f"{name!r} is not a tag name: a letter, then letters, "
                                "digits or '_'")
    if "SetUp" in tags:
        raise NotationError("the SetUp tag is written from the game's start position; "
                            "pass start= (or a game set up there) instead")
    result = result_of(game)
    given = tags.get("Result")
    if given is not None:
        if given not in RESULTS:
            raise NotationError(f"tag Result: expected {_RESULT_CHOICES}, got {given!r}")
        if game.is_over() and given != result:
            raise NotationError(f"tag Result: {given!r} does not match the game, which ended "
                                f"{result} ({game.status.value})")
    elif game.is_over():
        tags["Result"] = result
    if comments is not None:
        notes = dict(comments)
    for key in notes:
        if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key <= len(turns):
            raise ValueError(f"comments are keyed by a turn from 0 to {len(turns)}, not {key!r}")

    lines = []
    for name in STANDARD_TAGS:
        lines.append(f"[{name} {_quote(name, tags.get(name, _UNKNOWN[name]))}]")
    fen = first.fen()
    if fen != STARTING_FEN:
        lines.append(f"[SetUp {_quote('SetUp', fen)}]")
    for name, value in tags.items():
        if name not in STANDARD_TAGS:
            lines.append(f"[{name} {_quote(name, value)}]")
    lines.append("")

    def comment_lines(key: int) -> list[str]:
        text = notes.get(key)
        if text is None:
            return []
        # Only blanks are stripped: reading keeps any other character of a comment.
        return [f"; {part}".rstrip(_BLANKS) for part in str(text).split("\n")]

    lines += comment_lines(0)
    for index, played in enumerate(turns, start=1):
        text = f"{SQUARE_NAMES[played.black_move]} {SQUARE_NAMES[played.white_move]}"
        extra = comment_lines(index)
        if extra:
            text += " " + extra.pop(0)
        lines.append(text)
        lines += extra
    return "\n".join(lines) + "\n"


def write(
    source: GameBase | GameRecord | Iterable[TurnResult | tuple[Square | str, Square | str]],
    file: PathOrFile,
    *,
    headers: Mapping[str, str] | None = None,
    start: GameBase | str | None = None,
    comments: Mapping[int, str] | None = None,
) -> None:
    """Write the record of a game to a path or an open text file.

    ``source`` is a game (its history, from its :meth:`root`), a
    :class:`GameRecord`, or the turns of a game as TurnResults or (black,
    white) pairs played from ``start`` (a game or a position string; default
    a new game), which are replayed and checked. ``headers`` add or replace
    tags; Black, White, Date and Result are always written (``?`` when
    unknown; the Result of a finished game is filled in), and SetUp with the
    start's position string when the game did not start from the empty board.
    ``comments[k]`` is written after turn k (0: before the first turn).
    """
    text = dumps(source, headers=headers, start=start, comments=comments)
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    else:
        target: Any = file
        try:
            target.write(text)
        except TypeError:  # a binary file
            target.write(text.encode("utf-8"))


# Shown and pickled under the documented path, whatever module holds the code.
publish("wts.record", __all__, globals())
