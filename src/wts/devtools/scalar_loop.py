"""The plain scalar C loop ``wts bench`` times beside ``simulate``.

``scalar_loop.c`` plays uniformly random games with its own small copy of the
rules, written directly in C for one game at a time. :func:`load` compiles it
with the machine's C compiler for the host CPU (``-O3 -march=native``) into a
shared library kept in the temporary directory, and loads it with ctypes.
It is a yardstick, not part of the engine: ``tests/test_scalar_loop.py``
replays its games on the engine to show both play the same game.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from wts.engine.squares import square_name

__all__ = ["SOURCE", "ScalarLoop", "ScalarLoopError", "load"]

SOURCE = Path(__file__).with_name("scalar_loop.c")

# Flag sets tried in order: the host CPU's instructions where the compiler
# has a way to ask for them, else plain -O3.
_FLAG_SETS = (["-march=native"], ["-mcpu=native"], [])
_STATUSES = ("ongoing", "black_wins", "white_wins", "draw")


class ScalarLoopError(RuntimeError):
    """No C compiler, or the loop did not compile: what was tried and why it failed."""


@dataclass(frozen=True)
class LoopGame:
    """One game of the loop: both players' squares each turn, and how it ended."""

    moves: list[tuple[int, int]]
    status: str

    def names(self) -> list[tuple[str, str]]:
        return [(square_name(b), square_name(w)) for b, w in self.moves]


class ScalarLoop:
    """The compiled loop: ``run`` plays games for speed, ``game`` returns one."""

    def __init__(self, library: ctypes.CDLL, command: list[str]) -> None:
        self._run = library.wts_scalar_loop_run
        self._run.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
        self._run.restype = ctypes.c_uint64
        self._game = library.wts_scalar_loop_game
        self._game.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.POINTER(ctypes.c_int32),
                               ctypes.c_uint64, ctypes.POINTER(ctypes.c_int32)]
        self._game.restype = ctypes.c_uint64
        #: The compiler and flags that built it, as ``wts bench`` names them.
        self.build = " ".join(command)

    def run(self, games: int, seed: int) -> int:
        """Plays ``games`` games from ``seed``; returns the turns played."""
        if not isinstance(games, int) or isinstance(games, bool) or not 0 <= games < 2**63:
            raise ValueError(f"games must be an int from 0 to 2**63 - 1, got {games!r}")
        return int(self._run(games, seed & (2**64 - 1)))

    def game(self, seed: int, index: int) -> LoopGame:
        """Game ``index`` of a run from ``seed``, move by move."""
        capacity = 256
        while True:
            moves = (ctypes.c_int32 * (2 * capacity))()
            status = ctypes.c_int32()
            turns = int(self._game(seed & (2**64 - 1), index & (2**64 - 1), moves, capacity,
                                   ctypes.byref(status)))
            if turns <= capacity:
                pairs = [(moves[2 * i], moves[2 * i + 1]) for i in range(turns)]
                return LoopGame(pairs, _STATUSES[status.value])
            capacity = turns


def _compiler() -> list[str]:
    """The C compiler: $CC, else the one Python was built with, else cc, gcc or clang."""
    for command in (os.environ.get("CC"), sysconfig.get_config_var("CC")):
        if command:
            words = shlex.split(command)
            if shutil.which(words[0]):
                return words
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return [name]
    raise ScalarLoopError("no C compiler found ($CC, Python's own, cc, gcc or clang): "
                          "the plain scalar C loop is not built")


def _suffix() -> str:
    return ".dll" if sys.platform == "win32" else ".so"


def load(directory: str | os.PathLike[str] | None = None) -> ScalarLoop:
    """Compiles the loop (once; the library is kept under ``directory``, by
    default the temporary directory, named by a hash of the source and the
    compiler) and loads it. Raises :class:`ScalarLoopError` when it cannot."""
    compiler = _compiler()
    # The extra flags every native build of wts takes (setup.py): a sanitizer
    # run builds the loop instrumented too.
    extra = shlex.split(os.environ.get("WTS_EXTRA_CFLAGS", ""))
    extra_link = shlex.split(os.environ.get("WTS_EXTRA_LDFLAGS", ""))
    source = SOURCE.read_bytes()
    folder = Path(directory) if directory is not None else Path(tempfile.gettempdir())
    folder = folder / "wts-scalar-loop"
    folder.mkdir(parents=True, exist_ok=True)
    failures = []
    for flags in _FLAG_SETS:
        command = [*compiler, "-O3", *flags, *extra]
        digest = hashlib.sha256(source + " ".join(command + extra_link).encode()).hexdigest()[:16]
        library = folder / f"scalar_loop_{digest}{_suffix()}"
        if not library.exists():
            # Built under a name of its own, then renamed: two processes may build at once.
            partial = folder / f"{library.stem}.{os.getpid()}.partial{_suffix()}"
            done = subprocess.run([*command, "-shared", "-fPIC", *extra_link, "-o", str(partial),
                                   str(SOURCE)], capture_output=True, text=True)
            if done.returncode != 0:
                failures.append(f"{' '.join(command)}: {done.stderr.strip()[:300]}")
                partial.unlink(missing_ok=True)
                continue
            os.replace(partial, library)
        return ScalarLoop(ctypes.CDLL(str(library)), command)
    raise ScalarLoopError("the plain scalar C loop did not compile:\n" + "\n".join(failures))
