"""The seed corpus, written out: ``python -m tests.fuzz --write-seeds`` writes
each seed to ``corpus/TARGET/seed-NAME``, and tests/devtools/test_fuzz_targets.py checks
the files still match. Reproducers of bugs the fuzzer found sit next to them
as ``corpus/TARGET/bug-*`` files, written by hand.

Position strings and records are plain text; the ``moves`` and ``batch``
inputs are encoded here with the layouts their decoders in ``targets.py`` read.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from .targets import (
    _ANY_DTYPES,
    _ARRAY_DTYPES,
    _ARRAY_SHAPES,
    _INT_DTYPES,
    _SCALAR_TYPES,
    ARRAY_FORMS,
    MOVE_KINDS,
    START_FENS,
)

NEW, EARLY, BIG_TURN, BOTH_NEAR_FIVE, SUDDEN_DEATH, BLACK_WON, ONE_SQUARE_LEFT, CROWDED, \
    LATE = range(len(START_FENS))

# --- Position strings: docs/notation.md and tests/engine/test_notation.py ------------------------

FEN_SEEDS = {
    "new-game": "9/9/9/9/9/9/9/9/9 - 0",
    "docs-capture-before": "9/9/9/9/5oox1/9/2e6/9/9 C3 0",
    "docs-capture-after": "9/9/9/9/4x2x1/9/2x6/9/o8 - 1",
    "docs-one-egg": "9/9/9/9/4x2x1/9/2e6/9/o8 C3 1",
    "eggs-newest-last": "8e/9/9/9/4e4/9/9/9/e8 I9,A1,E5 3",
    "eggs-other-order": "8e/9/9/9/4e4/9/9/9/e8 A1,E5,I9 3",
    "black-five": "9/9/9/9/9/9/9/9/xxxxx4 - 7",
    "both-five": "ooooo4/9/9/9/9/9/9/9/xxxxx4 - 9",
    "full-board-draw": START_FENS[ONE_SQUARE_LEFT].replace("eeeeeeee1", "eeeeeeeee").replace(
        "H9 80", "H9,I9 4294967295"),
    "big-turn-setup": START_FENS[BIG_TURN],
    "late-game": START_FENS[LATE],
    "crowded": START_FENS[CROWDED],
    "max-turn": "9/9/9/9/9/9/9/9/9 - 4294967295",
    "error-empty": "",
    "error-eight-ranks": "9/9/9/9/9/9/9/9 - 0",
    "error-ten-ranks": "9/9/9/9/9/9/9/9/9/9 - 0",
    "error-short-rank": "9/9/9/9/9/9/9/9/8 - 0",
    "error-two-digits": "9/9/9/9/45/9/9/9/9 - 0",
    "error-ten": "10/9/9/9/9/9/9/9/9 - 0",
    "error-long-rank": "xxxxxxxxxx/9/9/9/9/9/9/9/9 - 0",
    "error-run-too-long": "5x4/9/9/9/9/9/9/9/9 - 0",
    "error-upper-case-piece": "X8/9/9/9/9/9/9/9/9 - 0",
    "error-two-spaces": "9/9/9/9/9/9/9/9/9  - 0",
    "error-negative-turn": "9/9/9/9/9/9/9/9/9 - -0",
    "error-no-turn": "9/9/9/9/9/9/9/9/9 -",
    "error-leading-zero": "9/9/9/9/9/9/9/9/9 - 00",
    "error-turn-too-big": "9/9/9/9/9/9/9/9/9 - 4294967296",
    "error-trailing-space": "9/9/9/9/9/9/9/9/9 - 0 ",
    "error-newline": "9/9/9/9/9/9/9/9/9 - 0\n",
    "error-arabic-digit": "9/9/9/9/9/9/9/9/9 - \u0663",
    "error-eggs-unlisted": "9/9/9/9/9/9/9/9/e8 - 0",
    "error-egg-not-on-board": "9/9/9/9/9/9/9/9/e8 B1 0",
    "error-lower-case-egg": "9/9/9/9/9/9/9/9/e8 a1 0",
    "error-egg-no-rank": "9/9/9/9/9/9/9/9/e8 A 0",
    "error-egg-twice": "9/9/9/9/9/9/9/9/e8 A1,A1 0",
    "error-egg-missing": "9/9/9/9/9/9/9/9/ee7 A1 0",
    "error-egg-trailing-comma": "9/9/9/9/9/9/9/9/ee7 A1, 0",
    "error-egg-semicolon": "9/9/9/9/9/9/9/9/e8 A1;B1 0",
    "error-two-turns": "9/9/9/9/9/9/9/9/9 - 0 1",
}

# --- Game records: docs, tests/formats/test_record.py and tests/golden, trimmed ------------------

_HEADERS = '[Black "Ann"]\n[White "Bob"]\n[Date "2025.06.01"]\n[Result "*"]\n\n'
RECORD_SEEDS = {
    "docs-example": _HEADERS + "E5 B4\nE4 E4 ; a collision: an egg on E4\n",
    "docs-setup": '[Black "Ann"]\n[White "Bob"]\n[Date "????.??.??"]\n[Result "*"]\n'
                  '[SetUp "9/9/9/9/5oox1/9/2e6/9/9 C3 0"]\n\nE5 A1\n',
    "golden-big-turn": '[Black "rulebook"]\n[White "rulebook"]\n[Date "?"]\n[Result "*"]\n'
                       '[SetUp "e7e/4x4/1o2o4/1x2o4/1x3oox1/9/9/9/2e6 C1,A9,I9 0"]\n\n'
                       "E5 B4 ; the big turn: two black captures, one white; C1 dissolves, "
                       "A9 hatches\nI8 I8\n",
    "golden-random-4422-start": '[Black "random"]\n[White "random"]\n[Date "2025.01.01"]\n'
                                '[Result "*"]\n\n; random moves, seed 4422\n'
                                "F8 F8\nA2 F2\nC2 I3\nB3 C8\nE6 E6\nI5 I5\nE3 H3\nI7 I8\n",
    "example-game-start": '[Black "mcts:3 (seed 2)"]\n[White "mcts:3 (seed 3)"]\n'
                          '[Date "2026.12.02"]\n[Result "*"]\n\n'
                          "F5 E5\nE6 G3\nF4 H1\nF6 D9\nF7 D7\nF8 G4\nF5 F5\nI1 G5\n",
    "black-wins": '[Result "1-0"]\n[SetUp "9/9/9/9/9/9/9/9/xxxx5 - 0"]\n\nE1 I9\n',
    "sudden-death": '[SetUp "oooo5/9/9/9/9/9/9/9/xxxx5 - 8"]\n\nE1 E9\nA5 I5\n',
    "full-board-draw": f'[Result "1/2-1/2"]\n[SetUp "{START_FENS[ONE_SQUARE_LEFT]}"]\n\nI9 I9\n',
    "comments": '[Black "Ann"]\n; before the first turn\nE5 B4 ; black takes the centre\n'
                "; and a second line\nI9 I9\nA1 A2 ;\n",
    "escaped-tags": '[Black "Ann \\"the shell\\" \\\\ Smith; [x]"]\n[Event "Club night"]\n\n',
    "lenient": '\ufeff[Black  "Ann"]  ; note\r\n\r\n  e5\tb4  \r\ne4 E4\r\n',
    "no-tags": "E5 B4\nE4 E4\n",
    "empty": "",
    "resignation": '[Result "0-1"]\n\nE5 A1\n',
    "unicode-values": '[Black "Ann\u00e9 \u4e2d"]\n[White "\u2028"]\nE5 B4 ; caf\u00e9\n',
    "error-one-square": "E5\n",
    "error-three-squares": "E5 B4 C3\n",
    "error-bad-square": "\n\nE5 J4\n",
    "error-rank-zero": "E0 B4\n",
    "error-occupied": "E5 B4\nE5 A1\n",
    "error-white-occupied": "E5 B4\nA1 B4\n",
    "error-tag-after-turn": 'E5 B4\n[Black "Ann"]\n',
    "error-tag-twice": '[Black "Ann"]\n[Black "Bob"]\n',
    "error-unclosed-value": '[Black "Ann]\n',
    "error-unquoted": "[Black Ann]\n",
    "error-tag-name": '[1Black "Ann"]\n',
    "error-no-space": '[Black"Ann"]\n',
    "error-unclosed-tag": '[Black "Ann"\n',
    "error-turn-after-tag": '[Black "Ann"] E5 B4\n',
    "error-bad-escape": '[Black "A\\nn"]\n',
    "error-bad-result": '[Result "black"]\n',
    "error-bad-setup": '\n[SetUp "9/9/9/9/9/9/9/9/9 - x"]\n',
    "error-after-game-over": '[SetUp "9/9/9/9/9/9/9/9/xxxx5 - 0"]\n\nE1 I9\nH8 H9\n',
    "error-result-contradicts": '[Result "0-1"]\n[SetUp "9/9/9/9/9/9/9/9/xxxx5 - 0"]\n\nE1 I9\n',
}
RECORD_BYTES = {"error-not-utf8": b'[Black "Ann"]\nE5 B4 ; caf\xe9\n'}


# --- Moves: the layout of targets.decode_move -------------------------------------------


def _kind(name: str) -> bytes:
    return bytes([MOVE_KINDS.index(name)])


def legal(choice: int) -> bytes:
    return _kind("legal") + bytes([choice])


def small_int(value: int) -> bytes:
    return _kind("small_int") + bytes([value & 0xFF])


def big_int(shift: int, offset: int = 0, negative: bool = False) -> bytes:
    """+-2**shift + offset."""
    return _kind("big_int") + bytes([(shift // 130) | (0x80 * negative), shift % 130,
                                     offset & 0xFF])


def numpy_scalar(scalar_type: type, value: Any) -> bytes:
    raw = bytes([value & 1]) if scalar_type is np.bool_ else np.array(
        value, dtype=scalar_type).tobytes()
    return _kind("numpy_scalar") + bytes([_SCALAR_TYPES.index(scalar_type)]) + raw


def numpy_array(shape: tuple[int, ...], dtype: Any, values: Sequence[int]) -> bytes:
    head = _kind("numpy_array") + bytes([_ARRAY_SHAPES.index(shape), _ARRAY_DTYPES.index(dtype)])
    if dtype is object or dtype is np.bool_:
        return head + bytes(v & 0xFF for v in values)
    return head + np.array(values, dtype=dtype).tobytes()


def text(value: str) -> bytes:
    raw = value.encode("utf-8", "surrogateescape")
    return _kind("text") + bytes([len(raw)]) + raw


def name(square: int, spelling: int = 0) -> bytes:
    """spelling: 0 upper case, 1 lower case, 2 with spaces around."""
    return _kind("name") + bytes([square + 81 * spelling])


def float_(value: float) -> bytes:
    return _kind("float") + struct.pack("<d", value)


def none() -> bytes:
    return _kind("none")


def bool_(choice: int) -> bytes:
    """0 True, 1 False, 2 numpy.True_, 3 numpy.False_."""
    return _kind("bool") + bytes([choice])


def raw_bytes(value: bytes) -> bytes:
    return _kind("bytes") + bytes([len(value)]) + value


def sequence(*items: bytes, as_tuple: bool = False) -> bytes:
    return _kind("sequence") + bytes([len(items) + 4 * as_tuple]) + b"".join(items)


def int_subclass(value: int) -> bytes:
    return _kind("int_subclass") + bytes([value & 0xFF])


def turns(start: int, *moves: bytes) -> bytes:
    return bytes([start]) + b"".join(moves)


E5, I9, A1 = 40, 80, 0
MOVE_SEEDS = {
    "collision-by-name": turns(NEW, name(E5), name(E5)),
    "names-all-spellings": turns(NEW, name(E5, 1), name(A1, 2), name(I9), name(I9, 1)),
    "big-turn-capture": turns(BIG_TURN, name(E5), name(28)),
    "legal-early": turns(EARLY, legal(3), legal(7), legal(3), legal(3), legal(10), legal(200)),
    "legal-both-near-five": turns(BOTH_NEAR_FIVE, name(4), name(76)),
    "legal-sudden-death": turns(SUDDEN_DEATH, legal(0), legal(1), legal(2), legal(2)),
    "legal-late": turns(LATE, legal(0), legal(1), legal(2), legal(3), legal(4), legal(4)),
    "legal-crowded": turns(CROWDED, legal(5), legal(6), legal(7), legal(7)),
    "game-over": turns(BLACK_WON, legal(0), legal(1)),
    "game-over-bad-square": turns(BLACK_WON, text("J1"), none()),
    "last-square-draw": turns(ONE_SQUARE_LEFT, name(I9), name(I9), name(E5), name(E5)),
    "occupied": turns(EARLY, name(E5), name(A1)),
    "occupied-white": turns(EARLY, name(1), name(20)),
    "ints": turns(NEW, small_int(-1), small_int(81), small_int(40), small_int(41)),
    "int-127": turns(NEW, small_int(127), small_int(-128)),
    "int-2-63": turns(NEW, big_int(63), small_int(0)),
    "int-2-64-minus-1": turns(NEW, big_int(64, -1), small_int(0)),
    "int-minus-2-63-minus-1": turns(NEW, big_int(63, -1, negative=True), small_int(0)),
    "int-2-100-white": turns(NEW, small_int(0), big_int(100)),
    "numpy-int8": turns(NEW, numpy_scalar(np.int8, 40), numpy_scalar(np.uint8, 41)),
    "numpy-uint64-max": turns(NEW, numpy_scalar(np.uint64, 2**64 - 1), small_int(0)),
    "numpy-int64-min": turns(NEW, numpy_scalar(np.int64, -(2**63)), small_int(0)),
    "numpy-float64": turns(NEW, numpy_scalar(np.float64, 40), small_int(0)),
    "numpy-bool": turns(NEW, numpy_scalar(np.bool_, 1), small_int(0)),
    "array-0d": turns(NEW, numpy_array((), np.int64, [40]), small_int(0)),
    "array-0d-float": turns(NEW, numpy_array((), np.float64, [40]), small_int(0)),
    "array-1-1": turns(NEW, small_int(0), numpy_array((1, 1), np.uint8, [40])),
    "array-empty": turns(NEW, numpy_array((0,), np.int64, []), small_int(0)),
    "array-object": turns(NEW, numpy_array((2,), object, [40, 41]), small_int(0)),
    "array-bool": turns(NEW, numpy_array((), np.bool_, [1]), small_int(0)),
    "text-names": turns(NEW, text("e5"), text(" I9 ")),
    "text-not-squares": turns(NEW, text("J1"), text("E0")),
    "text-empty": turns(NEW, text(""), text("E5")),
    "text-look-alikes": turns(NEW, text("\u0131" + "5"), text("\uff255")),
    "text-newline": turns(NEW, text("E5\n"), text("\tE5")),
    "text-surrogate": turns(NEW, text("\udce9"), small_int(0)),
    "float-nan": turns(NEW, float_(float("nan")), float_(float("inf"))),
    "float-40": turns(NEW, float_(40.0), small_int(0)),
    "none": turns(NEW, none(), none()),
    "bools": turns(NEW, bool_(0), bool_(1), bool_(2), bool_(3)),
    "bytes-name": turns(NEW, raw_bytes(b"E5"), small_int(0)),
    "list": turns(NEW, sequence(name(E5)), sequence(small_int(1), text("A1"), as_tuple=True)),
    "list-with-huge-int": turns(NEW, sequence(big_int(15000)), small_int(0)),
    "int-subclass": turns(NEW, int_subclass(E5), int_subclass(2), int_subclass(-1),
                          int_subclass(3)),
}


# --- Batches: the layout of targets.decode_moves_array ----------------------------------


def _form(form: str) -> bytes:
    return bytes([ARRAY_FORMS.index(form)])


def _values(dtype: Any, specs: Sequence[int | str]) -> bytes:
    """A legal square's choice (an int below 128), "none" for NO_MOVE, or
    ("raw", value) for a value in ``dtype``."""
    out = b""
    for spec in specs:
        if spec == "none":
            out += bytes([128])
        elif isinstance(spec, tuple):
            out += bytes([200]) + (bytes([spec[1] & 0xFF]) if dtype in (object, np.bool_)
                                   else np.array(spec[1]).astype(dtype).tobytes())
        else:
            out += bytes([spec])
    return out


def ints(dtype: Any, *specs: Any) -> bytes:
    return _form("ints") + bytes([_INT_DTYPES.index(dtype)]) + _values(dtype, specs)


def any_dtype(dtype: Any, *specs: Any) -> bytes:
    return _form("any_dtype") + bytes([_ANY_DTYPES.index(dtype)]) + _values(dtype, specs)


def view(dtype: Any, *specs: Any) -> bytes:
    return _form("view") + bytes([_INT_DTYPES.index(dtype)]) + _values(dtype, specs)


def wrong_shape(shape_choice: int, values: Sequence[int]) -> bytes:
    """shape_choice: 0 (n+1,), 1 (n-1,), 2 (), 3 (n, 1), 4 (1, n), 5 (0,)."""
    return _form("wrong_shape") + bytes([shape_choice]) + np.array(values, np.int64).tobytes()


def python_list(*specs: Any) -> bytes:
    """Like ``ints``; ("big", k, c) is 2**(k+63) - c."""
    out = _form("list")
    for spec in specs:
        out += bytes([224 + spec[1], spec[2]]) if isinstance(spec, tuple) and spec[0] == "big" \
            else _values(np.int64, [spec])
    return out


def ragged(at: int, inner: int, *specs: Any) -> bytes:
    return _form("ragged") + _values(np.int64, specs) + bytes([at, 40, inner])


def scalar(move: bytes) -> bytes:
    return _form("scalar") + move


def batch(starts: Sequence[int], *arrays: bytes) -> bytes:
    return bytes([len(starts), *starts]) + b"".join(arrays)


BATCH_SEEDS = {
    "empty-batch": batch([], ints(np.int64), ints(np.int64)),
    "empty-list": batch([], python_list(), python_list()),
    "four-games-three-steps": batch(
        [NEW, EARLY, CROWDED, LATE],
        ints(np.int64, 0, 1, 2, 3), ints(np.int64, 0, 2, 4, 5),
        ints(np.int32, 10, 11, 12, 13), ints(np.int16, 20, 21, 22, 23),
        ints(np.uint8, 30, 31, 32, 33), ints(np.uint64, 30, 30, 30, 30)),
    "big-turn": batch([BIG_TURN], ints(np.int64, ("raw", E5)), ints(np.int64, ("raw", 28))),
    "game-over-no-move": batch([BLACK_WON, NEW], ints(np.int64, "none", 3),
                               ints(np.int8, "none", 4)),
    "game-over-played": batch([NEW, BLACK_WON], ints(np.int64, 1, ("raw", 0)),
                              ints(np.int64, 2, ("raw", 1))),
    "game-over-one-no-move": batch([BLACK_WON], ints(np.int64, "none"), ints(np.int64, 0)),
    "game-over-uint64-max": batch([BLACK_WON], ints(np.uint64, ("raw", 2**64 - 1)),
                                  ints(np.uint64, ("raw", 2**64 - 1))),
    "uint64-max": batch([NEW], ints(np.uint64, ("raw", 2**64 - 1)), ints(np.int64, 0)),
    "game-over-big-endian-uint64-max": batch(
        [BLACK_WON], ints(np.dtype(">u8"), ("raw", 2**64 - 1)),
        ints(np.dtype(">u8"), ("raw", 2**64 - 1))),
    "uint8-255": batch([NEW, NEW], ints(np.uint8, 0, ("raw", 255)), ints(np.int64, 1, 1)),
    "no-move-for-a-running-game": batch([NEW], ints(np.int8, "none"), ints(np.int8, 0)),
    "occupied": batch([EARLY, EARLY], ints(np.int64, 0, ("raw", E5)), ints(np.int64, 1, 0)),
    "out-of-range": batch([NEW, NEW], ints(np.int64, 0, ("raw", 81)), ints(np.int64, 1, 1)),
    "draw-by-last-square": batch([ONE_SQUARE_LEFT, SUDDEN_DEATH], ints(np.int64, 0, 0),
                                 ints(np.int64, 0, 1), ints(np.int64, "none", 0),
                                 ints(np.int64, "none", 1)),
    "both-near-five": batch([BOTH_NEAR_FIVE], ints(np.int64, ("raw", 4)),
                            ints(np.int64, ("raw", 76))),
    "float-array": batch([NEW, NEW], any_dtype(np.float64, 0, 1), ints(np.int64, 1, 2)),
    "float32-array": batch([NEW], ints(np.int64, 0), any_dtype(np.float32, 1)),
    "bool-array": batch([NEW, NEW], any_dtype(np.bool_, 0, 1), ints(np.int64, 1, 2)),
    "object-array": batch([NEW, NEW], any_dtype(object, 0, 1), ints(np.int64, 1, 2)),
    "shape-one-more": batch([NEW, NEW], wrong_shape(0, [0, 1, 2]), ints(np.int64, 3, 4)),
    "shape-one-less": batch([NEW, NEW], ints(np.int64, 3, 4), wrong_shape(1, [0])),
    "shape-scalar": batch([NEW], wrong_shape(2, [0]), ints(np.int64, 3)),
    "shape-column": batch([NEW, NEW], wrong_shape(3, [0, 1]), ints(np.int64, 3, 4)),
    "list-of-ints": batch([NEW, EARLY], python_list(0, 1), python_list(2, 3)),
    "list-with-2-64": batch([NEW, NEW], python_list(0, ("big", 1, 0)), python_list(2, 3)),
    "list-with-2-63": batch([NEW], python_list(("big", 0, 0)), python_list(2)),
    "list-with-0-and-2-63": batch([NEW, NEW], python_list(0, ("big", 0, 0)), python_list(2, 3)),
    "list-with-2-63-minus-1": batch([NEW], python_list(("big", 0, 1)), python_list(2)),
    "list-with-no-move": batch([BLACK_WON, NEW], python_list("none", 0), python_list("none", 1)),
    "ragged-list": batch([NEW, NEW], ragged(1, 1, 0, 1), python_list(2, 3)),
    "ragged-empty-inside": batch([NEW], ragged(0, 0, 0), python_list(2)),
    "scalar-none": batch([NEW], scalar(none()), ints(np.int64, 0)),
    "scalar-text": batch([NEW], ints(np.int64, 0), scalar(text("E5"))),
    "scalar-array": batch([NEW, NEW], scalar(numpy_array((2,), np.int64, [0, 1])),
                          ints(np.int64, 2, 3)),
    "scalar-huge-int": batch([NEW], scalar(big_int(16000)), ints(np.int64, 0)),
    "strided-read-only-views": batch([NEW, EARLY], view(np.int64, 0, 1), view(np.int32, 2, 3),
                                     view(np.uint64, 4, 5), view(np.int8, 6, 6)),
    "big-endian": batch([NEW, CROWDED], ints(np.dtype(">i8"), 0, 1), ints(np.dtype(">u2"), 2, 3)),
}

SEEDS: dict[str, dict[str, bytes]] = {
    "fen": {k: v.encode() for k, v in FEN_SEEDS.items()},
    "record": {**{k: v.encode() for k, v in RECORD_SEEDS.items()}, **RECORD_BYTES},
    "moves": MOVE_SEEDS,
    "batch": BATCH_SEEDS,
}
