"""The fuzz targets: plain functions of bytes that raise when a promise breaks.

The promise they check: bad input gets a typed ``wts`` error that says what was
wrong and where, and changes nothing; the fast engine and the reference agree
on everything; nothing reachable from Python crashes or hangs. Each target
decodes its bytes into calls on one public entry point and lets any exception
other than the expected ``wts`` errors escape (or raises ``AssertionError``),
so atheris reports it.

- ``fen``: position strings (``parse_fen``, ``Game.from_fen`` on both engines);
- ``record``: game records (``wts.record.loads`` on both engines, ``dumps``);
- ``moves``: ``Game.play`` with arbitrary objects as moves, on both engines;
- ``batch``: ``BatchGame.step`` with arrays of any shape, dtype and values.

The byte layouts of ``moves`` and ``batch`` are documented on their decoders;
``seeds.py`` encodes the seed corpus with them.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Iterable
from typing import Any, cast

import numpy as np

import wts
import wts.engine.reference
from wts.engine.base import GameBase
from wts.engine.notation import STARTING_FEN, format_fen, parse_fen
from wts.engine.squares import SQUARE_NAMES
from wts.errors import (
    BatchError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    WtsError,
)
from wts.formats import record as records
from wts.params import describe_int

ENGINES: tuple[type[GameBase], ...] = (wts.Game, wts.reference.Game)

# Positions the move and batch targets start from, each picked by one byte:
# new, mid-game, set up before a capture that hatches, about to win on both
# sides, sudden death, won, one square from a full board, crowded with eggs.
START_FENS: tuple[str, ...] = (
    STARTING_FEN,
    "9/9/9/9/4x2x1/9/2e6/9/o8 C3 1",
    "e7e/4x4/1o2o4/1x2o4/1x3oox1/9/9/9/2e6 C1,A9,I9 0",
    "oooo5/9/9/9/9/9/9/9/xxxx5 - 8",
    "ooooo4/9/9/9/9/9/9/9/xxxxx4 - 9",
    "9/9/9/9/9/9/9/9/xxxxx4 - 7",
    format_fen([], [], range(80), 80),
    "1e1e2x2/3oxxx1o/xe2oxxxe/2o2ex1o/ooxo3oe/1o4oxo/oee3o1o/e2xe3x/5xe1x "
    "B9,C3,F6,I7,B7,A2,I5,B3,D9,G1,E2 26",
    "x1xx1oo2/1exxoo1oo/eo1ee2xx/xxo2x2x/e1oxo1xxo/1oo2o1oe/1x1xexx1o/oooo1o1xx/xooo1oo1o "
    "D7,I4,A5,A7,E7,B8,E3 34",
)
_STARTS = [tuple(engine.from_fen(fen) for engine in ENGINES) for fen in START_FENS]


class ByteReader:
    """An input read a few bytes at a time; past its end every read gives zero
    bytes, so any input decodes to something."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.offset = 0

    def remaining(self) -> int:
        return max(len(self.data) - self.offset, 0)

    def take(self, count: int) -> bytes:
        chunk = self.data[self.offset : self.offset + count]
        self.offset += count
        return chunk.ljust(count, b"\0")

    def byte(self) -> int:
        return self.take(1)[0]

    def pick(self, options: tuple[Any, ...]) -> Any:
        return options[self.byte() % len(options)]


def _outcome(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, WtsError | None]:
    """(value, None), or (None, the wts error raised); anything else escapes."""
    try:
        return call(*args, **kwargs), None
    except WtsError as exc:
        return None, exc


def _same_error(a: BaseException, b: BaseException) -> bool:
    return type(a) is type(b) and str(a) == str(b)


def _game_state(game: GameBase) -> tuple[Any, ...]:
    return (game.fen(), game.status, game.winning_counts, game.history)


def _same_game(game: GameBase, other: GameBase) -> bool:
    """The same position, status and history (cheaper than comparing fen())."""
    return (game == other and game.status is other.status
            and game.winning_counts == other.winning_counts
            and game.history == other.history)


# --- Position strings -----------------------------------------------------------------


def fuzz_fen(data: bytes) -> None:
    """Any text parses to a position whose string it is, or raises NotationError
    naming a position within the text; both engines and ``parse_fen`` agree."""
    text = data.decode("utf-8", "surrogateescape")
    position, error = _outcome(parse_fen, text)
    games = [_outcome(engine.from_fen, text) for engine in ENGINES]
    if error is not None:
        assert isinstance(error, NotationError), repr(error)
        assert error.position is not None and 0 <= error.position <= len(text), repr(error)
        assert error.line is None, repr(error)
        assert str(error).startswith(f"position {error.position}: expected"), str(error)
        for _, game_error in games:
            assert game_error is not None and _same_error(game_error, error), (game_error, error)
        return
    for game, game_error in games:
        assert game_error is None, f"parse_fen accepts what from_fen refuses: {game_error!r}"
        assert game.fen() == text, (game.fen(), text)
        assert parse_fen(game.fen()) == position
        assert game.history == () and game.turn == position.turn
        assert (tuple(sorted(game.black)), tuple(sorted(game.white)), game.eggs) == \
            position[:3]
    fast, reference = (game for game, _ in games)
    assert _game_state(fast) == _game_state(reference)
    assert fast.legal_moves() == reference.legal_moves()


# --- Game records -----------------------------------------------------------------------


def _record_key(rec: records.GameRecord) -> tuple[Any, ...]:
    return (rec.headers, rec.start.fen(), rec.turns, _game_state(rec.game), rec.comments)


def _has_control_character(value: str) -> bool:
    return any(ord(c) < 32 or c == "\x7f" for c in value)


def fuzz_record(data: bytes) -> None:
    """Any text reads to a record or raises NotationError naming a line within
    it; both engines agree; a record read writes back to text that reads to the
    same record."""
    text = data.decode("utf-8", "surrogateescape")
    results = [_outcome(records.loads, text, engine=engine) for engine in ENGINES]
    (fast, error), (reference, reference_error) = results
    if error is not None:
        assert isinstance(error, NotationError), repr(error)
        assert error.line is not None and 1 <= error.line <= text.count("\n") + 1, repr(error)
        assert str(error).startswith(f"line {error.line}: "), str(error)
        assert reference_error is not None and _same_error(reference_error, error), (
            reference_error, error)
    else:
        assert reference_error is None, repr(reference_error)
        assert _record_key(fast) == _record_key(reference)
        assert fast.game.history == fast.turns and fast.game.root() == fast.start
        _check_round_trip(fast)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        # As bytes the text is not UTF-8: read() must say so, and on which line.
        try:
            records.read(io.BytesIO(data))
        except NotationError as exc:
            assert exc.line is not None and 1 <= exc.line <= data.count(b"\n") + 1, repr(exc)
            assert str(exc) == f"line {exc.line}: expected UTF-8 text", str(exc)
        else:
            raise AssertionError("read() took bytes that are not UTF-8")


def _check_round_trip(rec: records.GameRecord) -> None:
    written, error = _outcome(records.dumps, rec)
    if error is not None:
        # Reading accepts control characters in tag values; writing refuses them
        # (docs/notation.md: "written without control characters").
        assert isinstance(error, NotationError), repr(error)
        assert any(_has_control_character(v) for v in rec.headers.values()), repr(error)
        return
    back = records.loads(written)
    assert (back.start.fen(), back.turns, back.comments) == (rec.start.fen(), rec.turns,
                                                              rec.comments), written
    assert _game_state(back.game) == _game_state(rec.game)
    # dumps fills in the standard tags and writes SetUp from the start position.
    given = {k: v for k, v in rec.headers.items() if k != "SetUp"}
    assert {k: back.headers[k] for k in given if k in back.headers} == given, written
    assert set(back.headers) - set(given) <= {*records.STANDARD_TAGS, "SetUp"}, written
    assert back.setup == rec.setup
    assert records.dumps(back) == written


# --- Moves ------------------------------------------------------------------------------

_SCALAR_TYPES: tuple[type, ...] = (
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.intp, np.float16, np.float32, np.float64, np.bool_,
)
_ARRAY_SHAPES: tuple[tuple[int, ...], ...] = ((), (1,), (2,), (1, 1), (0,))
_ARRAY_DTYPES: tuple[Any, ...] = (np.int64, np.int8, np.uint8, np.uint64, np.float64,
                                  np.bool_, object)

MOVE_KINDS = ("legal", "small_int", "big_int", "numpy_scalar", "numpy_array", "text", "name",
              "float", "none", "bool", "bytes", "sequence", "int_subclass")


class IntSubclass(int):
    """An int that is not exactly ``int``: it misses the fast engine's shortcut."""


def _numpy_values(reader: ByteReader, dtype: Any, shape: tuple[int, ...]) -> Any:
    size = int(np.prod(shape))
    if dtype is object:
        values = np.empty(size, dtype=object)
        values[:] = [_signed(reader.byte()) for _ in range(size)]
        return values.reshape(shape)
    if dtype is np.bool_:
        return np.array([reader.byte() & 1 for _ in range(size)], dtype=bool).reshape(shape)
    width = np.dtype(dtype).itemsize
    return np.frombuffer(reader.take(size * width), dtype=dtype).reshape(shape).copy()


def _signed(byte: int) -> int:
    return byte - 256 if byte >= 128 else byte


def decode_move(reader: ByteReader, legal: list[int], depth: int = 0) -> object:
    """One move object: a kind byte (``MOVE_KINDS``), then what that kind needs.

    legal: one byte picks a legal square; small_int: a signed byte; big_int: a
    sign-and-shift pair of bytes and a signed byte c, giving +-2**shift + c (up
    to about 5,000 digits); numpy_scalar: a type byte, then the value's raw
    bytes; numpy_array: shape and dtype bytes, then the values; text and
    bytes: a length byte and the bytes; name: one byte picks a square name and
    its spelling; float: eight bytes; bool: one byte; sequence: a byte for
    list or tuple and length (0-3), then the items, moves themselves (two deep);
    int_subclass: a signed byte, as an ``IntSubclass``.
    """
    kind = reader.pick(MOVE_KINDS)
    if kind == "legal":
        choice = reader.byte()
        return legal[choice % len(legal)] if legal else choice
    if kind == "small_int":
        return _signed(reader.byte())
    if kind == "big_int":
        high, low = reader.byte(), reader.byte()
        shift = (high & 0x7F) * 130 + low % 130  # up to 16,639 bits
        sign = -1 if high & 0x80 else 1
        return sign * (1 << shift) + _signed(reader.byte())
    if kind == "numpy_scalar":
        scalar_type = reader.pick(_SCALAR_TYPES)
        if scalar_type is np.bool_:
            return np.bool_(reader.byte() & 1)
        width = np.dtype(scalar_type).itemsize
        return np.frombuffer(reader.take(width), dtype=scalar_type)[0]
    if kind == "numpy_array":
        shape = reader.pick(_ARRAY_SHAPES)
        return _numpy_values(reader, reader.pick(_ARRAY_DTYPES), shape)
    if kind == "text":
        return reader.take(reader.byte() % 16).decode("utf-8", "surrogateescape")
    if kind == "name":
        choice = reader.byte()
        name = SQUARE_NAMES[choice % 81]
        return (name, name.lower(), f" {name} ", name)[choice // 81]
    if kind == "float":
        return struct.unpack("<d", reader.take(8))[0]
    if kind == "none":
        return None
    if kind == "bool":
        return (True, False, np.True_, np.False_)[reader.byte() % 4]
    if kind == "sequence" and depth < 2:
        form = reader.byte()
        items = [decode_move(reader, legal, depth + 1) for _ in range(form % 4)]
        return tuple(items) if form & 4 else items
    if kind == "int_subclass":
        return IntSubclass(_signed(reader.byte()))
    return reader.take(reader.byte() % 4)


MAX_TURNS = 4


def fuzz_moves(data: bytes) -> None:
    """``play`` with any objects as moves: both engines play the same turn, or
    raise the same IllegalMoveError and stay as they were.

    Layout: a byte picks the start (``START_FENS``), then up to ``MAX_TURNS``
    turns of two moves each (``decode_move``), while bytes remain.
    """
    reader = ByteReader(data)
    fast, reference = (game.copy() for game in _STARTS[reader.byte() % len(_STARTS)])
    for _ in range(MAX_TURNS):
        legal = fast.legal_moves()
        black, white = decode_move(reader, legal), decode_move(reader, legal)
        fast_before, reference_before = fast.copy(), reference.copy()
        played, error = _outcome(fast.play, black, white)
        reference_played, reference_error = _outcome(reference.play, black, white)
        if error is not None:
            assert isinstance(error, IllegalMoveError), repr(error)
            assert reference_error is not None and _same_error(reference_error, error), (
                reference_error, error)
            for game, before in ((fast, fast_before), (reference, reference_before)):
                assert _same_game(game, before), (type(game), black, white)
        else:
            assert reference_error is None, repr(reference_error)
            assert played == reference_played, (played, reference_played)
            assert type(played.black_move) is int and type(played.white_move) is int
            assert _same_game(fast, reference) and fast.history == reference.history
        if reader.remaining() == 0:
            break


# --- Batches ----------------------------------------------------------------------------

_INT_DTYPES: tuple[Any, ...] = (np.int64, np.int8, np.int16, np.int32, np.uint8, np.uint16,
                                np.uint32, np.uint64, np.intp, np.dtype(">i8"), np.dtype(">u2"),
                                np.dtype(">u8"))
_ANY_DTYPES: tuple[Any, ...] = (*_INT_DTYPES, np.float32, np.float64, np.bool_, object)
ARRAY_FORMS = ("ints", "ints", "ints", "any_dtype", "wrong_shape", "list", "ragged", "scalar",
               "view")
MAX_GAMES = 4
MAX_STEPS = 3


def _smart_value(reader: ByteReader, choice: int, game: wts.Game, dtype: Any) -> Any:
    """A move for one game in ``dtype``, by the byte ``choice``: mostly a legal
    square or NO_MOVE, else raw bytes that follow."""
    legal = game.legal_moves()
    if choice < 160:
        value = legal[choice % len(legal)] if choice < 128 and legal else wts.NO_MOVE
        return value if dtype is object else np.array(value).astype(dtype)[()]
    return _numpy_values(reader, dtype, ())[()]


def decode_moves_array(reader: ByteReader, games: list[wts.Game]) -> object:
    """One argument of ``step``: a form byte (``ARRAY_FORMS``), then its values.

    ints: a dtype byte (integer types), then one value per game: a byte below
    128 picks a legal square, below 160 NO_MOVE, else the raw bytes follow;
    any_dtype: the same over every dtype, floats, bool and object too;
    wrong_shape: a shape byte, then int64 values; list: a Python list of ints,
    -1 and huge ones; ragged: a list with a list inside; scalar: one move object;
    view: like ints, as a read-only view with a stride of two items.
    """
    form = reader.pick(ARRAY_FORMS)
    n = len(games)
    if form in ("ints", "any_dtype", "view"):
        dtype = reader.pick(_ANY_DTYPES if form == "any_dtype" else _INT_DTYPES)
        array = np.zeros(2 * n if form == "view" else n, dtype=dtype)
        for i, game in enumerate(games):
            array[2 * i if form == "view" else i] = _smart_value(reader, reader.byte(), game, dtype)
        if form == "view":
            array = array[::2]
            array.flags.writeable = False
        return array
    if form == "wrong_shape":
        shape = reader.pick(((n + 1,), (max(n - 1, 0),), (), (n, 1), (1, n), (0,)))
        return _numpy_values(reader, np.int64, shape)
    if form in ("list", "ragged"):
        values: list[Any] = []
        for game in games:
            choice = reader.byte()
            if choice >= 224:
                values.append((1 << (choice - 161)) - reader.byte())  # 2**63 - 255 and up
            else:
                values.append(int(_smart_value(reader, choice, game, np.int64)))
        if form == "ragged":
            values.insert(reader.byte() % (n + 1), [reader.byte()] * (reader.byte() % 3))
        return values
    return decode_move(reader, [])


def _expected_step(games: list[wts.Game], black: object, white: object) -> tuple[
        list[tuple[wts.TurnResult | None, wts.Game]] | None, type[WtsError] | None, str | None]:
    """What ``step`` should do, found with ``Game.play`` one game at a time: the
    turn of each game, or the error type and (for a bad move) its message."""
    arrays = []
    for moves in (black, white):
        try:
            array = np.asarray(moves)
        except (ValueError, TypeError, OverflowError):
            return None, BatchError, None
        if array.shape != (len(games),):
            return None, BatchError, None
        if not isinstance(moves, np.ndarray) and any(
                isinstance(v, (bool, np.bool_)) for v in cast(Iterable[Any], moves)):
            return None, BatchError, None  # a bool is not a square, even among ints
        if array.dtype.kind not in "iu" and array.size:
            # A list of Python ints past int64 reads as float64 or object: still moves.
            items = [] if isinstance(moves, np.ndarray) else list(cast(Iterable[Any], moves))
            if not items or not all(isinstance(v, (int, np.integer))
                                    and not isinstance(v, (bool, np.bool_)) for v in items):
                return None, BatchError, None
            array = np.array([int(v) for v in items], dtype=object)
        arrays.append(array)
    played = []
    for i, game in enumerate(games):
        b, w = int(arrays[0][i]), int(arrays[1][i])
        after = game.copy()
        if game.is_over():
            if (b, w) != (wts.NO_MOVE, wts.NO_MOVE):
                return None, GameOverError, (f"game {i}: the game is over ({game.status.words}); "
                                             f"give it NO_MOVE (-1), not {describe_int(b)} and "
                                             f"{describe_int(w)}")
            played.append((None, after))
            continue
        result, error = _outcome(after.play, b, w)
        if error is not None:
            return None, type(error), f"game {i}: {error}"
        played.append((result, after))
    return played, None, None


def _batch_state(batch: wts.BatchGame) -> tuple[bytes, bytes, bytes]:
    return batch.observation().tobytes(), batch.turns.tobytes(), batch.status.tobytes()


def fuzz_batch(data: bytes) -> None:
    """``BatchGame.step`` with any arrays: it steps every game as ``Game.play``
    would, or raises the error ``Game.play`` would (naming the game) or a
    BatchError, and no game changes.

    Layout: a byte for the number of games (0 to ``MAX_GAMES``), a byte per
    game picking its start (``START_FENS``), then up to ``MAX_STEPS`` steps of
    two arrays each (``decode_moves_array``), while bytes remain.
    """
    reader = ByteReader(data)
    n = reader.byte() % (MAX_GAMES + 1)
    games = [_STARTS[reader.byte() % len(_STARTS)][0].copy() for _ in range(n)]
    batch = wts.BatchGame.from_games(games)
    for _ in range(MAX_STEPS):
        black, white = decode_moves_array(reader, games), decode_moves_array(reader, games)
        played, error_type, message = _expected_step(games, black, white)
        before = _batch_state(batch)
        step, error = _outcome(batch.step, black, white)
        if error is not None:
            assert type(error) is error_type, (repr(error), error_type, message)
            assert message is None or str(error) == message, (str(error), message)
            assert _batch_state(batch) == before, (black, white)
            return
        assert error_type is None and played is not None, (error_type, message, black, white)
        for i, (result, game) in enumerate(played):
            assert batch[i] == game and batch[i].status is game.status
            assert batch[i].winning_counts == game.winning_counts
            assert step.status[i] == wts.STATUSES.index(game.status)
            by_black = 0 if result is None else sum(
                c.color is wts.Color.BLACK for c in result.captures)
            by_white = 0 if result is None else len(result.captures) - by_black
            hatches = 0 if result is None else len(result.hatched)
            assert step.captures[i].tolist() == [by_black, by_white], (i, result)
            assert step.hatches[i] == hatches, (i, result)
        games = [game for _, game in played]
        assert batch.turns.tolist() == [game.turn for game in games]
        if reader.remaining() == 0:
            break


TARGETS: dict[str, Callable[[bytes], None]] = {
    "fen": fuzz_fen,
    "record": fuzz_record,
    "moves": fuzz_moves,
    "batch": fuzz_batch,
}
"""Every target by name; ``corpus/NAME/`` holds its seeds."""

