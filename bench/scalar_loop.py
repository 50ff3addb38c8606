"""The plain scalar C loop, the yardstick ``simulate`` is timed against:
``python bench/scalar_loop.py`` prints the ratio, measured side by side.

``scalar_loop.c`` plays uniformly random games with its own small copy of the
rules, written directly in C for one game at a time. :func:`load` compiles it
with the machine's C compiler (GCC or Clang) for the host CPU (``-O3
-march=native``) into a shared library kept in a private cache folder, and
loads it with ctypes. It is a yardstick, not part of the engine (nor of the
package): ``bench/test_scalar_loop.py`` replays its games, and plays set-ups
through it, on the engine to show both play the same game.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import platform
import shlex
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import wts
from wts.engine.squares import to_square
from wts.errors import IllegalMoveError, ParameterError, SetupError
from wts.params import check_int, check_seed

__all__ = ["SOURCE", "LoopGame", "LoopPosition", "ScalarLoop", "ScalarLoopError", "load"]

SOURCE = Path(__file__).with_name("scalar_loop.c")
# The engine's status codes and last turn number, which the loop includes.
HEADER = Path(wts.get_include()) / "wts_status.h"

#: Extra compiler and linker flags for the loop (tools/sanitize.sh sets them).
CFLAGS_VARIABLE = "WTS_SCALAR_LOOP_CFLAGS"
LDFLAGS_VARIABLE = "WTS_SCALAR_LOOP_LDFLAGS"

# Flag sets tried in order: the host CPU's instructions where the compiler
# has a way to ask for them, else plain -O3.
_FLAG_SETS: tuple[list[str], ...] = (["-march=native"], ["-mcpu=native"], [])
_COMPILE_SECONDS = 300
# Games a call into C plays: a run stops on Ctrl-C between two calls.
_CHUNK = 10_000
# Libraries of other sources or flags older than this are removed.
_STALE_SECONDS = 86_400
_build_lock = threading.Lock()


class ScalarLoopError(RuntimeError):
    """No C compiler, or the loop did not build or load: what was tried and why."""


@dataclass(frozen=True)
class LoopGame:
    """One random game of the loop: both players' squares each turn, and how it ended."""

    moves: list[tuple[int, int]]
    status: str


@dataclass(frozen=True)
class LoopPosition:
    """Where :meth:`ScalarLoop.play` stopped: the turns it played, the
    position (eggs oldest first) and its status."""

    turns: int
    black: frozenset[int]
    white: frozenset[int]
    eggs: tuple[int, ...]
    status: str


class ScalarLoop:
    """The compiled loop: ``run`` plays random games for speed, ``game``
    returns one of them, ``play`` plays given moves from a set-up."""

    def __init__(self, library: ctypes.CDLL, command: list[str]) -> None:
        self._run = library.wts_scalar_loop_run
        self._run.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_uint64]
        self._run.restype = ctypes.c_uint64
        self._game = library.wts_scalar_loop_game
        self._game.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.POINTER(ctypes.c_int32),
                               ctypes.c_uint64, ctypes.POINTER(ctypes.c_int32)]
        self._game.restype = ctypes.c_uint64
        self._play = library.wts_scalar_loop_play
        self._play.argtypes = [ctypes.POINTER(ctypes.c_int8), ctypes.POINTER(ctypes.c_int8),
                               ctypes.POINTER(ctypes.c_int32), ctypes.c_uint32,
                               ctypes.POINTER(ctypes.c_int32), ctypes.c_int32,
                               ctypes.POINTER(ctypes.c_int32)]
        self._play.restype = ctypes.c_int32
        #: The compiler and flags that built it, as ``wts bench`` names them.
        self.build = " ".join(command)

    def run(self, games: int, seed: int = 0) -> int:
        """Plays ``games`` random games from ``seed``; returns the turns played."""
        games = check_int(games, "games", 0, 2**63 - 1)
        seed = check_seed(seed)
        turns = 0
        for first in range(0, games, _CHUNK):
            turns += int(self._run(first, min(_CHUNK, games - first), seed))
        return turns

    def game(self, seed: int, index: int) -> LoopGame:
        """Game ``index`` of a run from ``seed``, move by move."""
        seed = check_seed(seed)
        index = check_int(index, "index", 0, 2**64 - 1)
        capacity = 256
        while True:
            moves = (ctypes.c_int32 * (2 * capacity))()
            status = ctypes.c_int32()
            turns = int(self._game(seed, index, moves, capacity, ctypes.byref(status)))
            if turns <= capacity:
                pairs = [(moves[2 * i], moves[2 * i + 1]) for i in range(turns)]
                return LoopGame(pairs, wts.STATUSES[status.value].value)
            capacity = turns

    def play(self, moves: Iterable[Sequence[object]], *, black: Iterable[object] = (),
             white: Iterable[object] = (), eggs: Iterable[object] = (),
             turn: int = 0) -> LoopPosition:
        """Plays ``moves`` (black's square, white's) from the set-up of
        ``black``, ``white`` and ``eggs`` (oldest first) at turn number
        ``turn``, until they run out or the game is over. Squares are names
        or indices; a square named twice in the set-up raises
        :class:`wts.SetupError`, a move on a square that is not empty
        :class:`wts.IllegalMoveError`."""
        eggs = list(eggs)
        cells = (ctypes.c_int8 * 81)()
        queue = (ctypes.c_int8 * 81)()
        seen: set[int] = set()
        for code, squares in ((1, black), (2, white), (3, eggs)):
            for value in squares:
                square = to_square(value)
                if square in seen:
                    raise SetupError(f"square {square} is named twice in the set-up")
                seen.add(square)
                cells[square] = code
        for i, value in enumerate(eggs):
            queue[i] = to_square(value)
        pairs = []
        for k, move in enumerate(moves):
            if isinstance(move, (str, bytes)) or not hasattr(move, "__len__") or len(move) != 2:
                raise ParameterError(f"turn {k} must be a pair of squares (black's, white's), "
                                     f"not {move!r}")
            pairs.append((to_square(move[0]), to_square(move[1])))
        flat = (ctypes.c_int32 * max(1, 2 * len(pairs)))(*[s for pair in pairs for s in pair])
        n_eggs = ctypes.c_int32(len(eggs))
        status = ctypes.c_int32()
        played = int(self._play(cells, queue, ctypes.byref(n_eggs),
                                check_int(turn, "turn", 0, 2**32 - 1), flat, len(pairs),
                                ctypes.byref(status)))
        if played < 0:
            raise IllegalMoveError(f"turn {-played - 1} names a square that is not empty")
        return LoopPosition(
            played,
            frozenset(s for s in range(81) if cells[s] == 1),
            frozenset(s for s in range(81) if cells[s] == 2),
            tuple(queue[i] for i in range(n_eggs.value)),
            wts.STATUSES[status.value].value,
        )


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


def _machine(compiler: list[str]) -> bytes:
    """What a library built with -march=native depends on besides its source:
    the compiler's version and the CPU (on Linux, its feature flags)."""
    try:
        version = subprocess.run([*compiler, "--version"], capture_output=True, text=True,
                                 timeout=60).stdout.partition("\n")[0]
    except (OSError, subprocess.SubprocessError) as error:
        raise ScalarLoopError(f"the C compiler {compiler[0]} did not run: {error}") from None
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            cpu = next((line for line in info if line.startswith(("flags", "Features"))), cpu)
    except OSError:
        pass
    return "\n".join([platform.machine(), version, cpu]).encode()


def _private_folder(folder: Path) -> bool:
    """Whether ``folder`` is ours alone: no one else could have put a library there."""
    try:
        info = folder.stat()
    except OSError:
        return False
    if not hasattr(os, "getuid"):
        return True
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _cache_folder(directory: str | os.PathLike[str] | None) -> Path:
    """``directory``/wts-scalar-loop, else the user's cache folder's; a fresh
    temporary folder where neither is private to this user."""
    base = Path(directory) if directory is not None else Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "wts-scalar-loop"
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if _private_folder(folder):
        return folder
    return Path(tempfile.mkdtemp(prefix="wts-scalar-loop-"))


def _suffix() -> str:
    return ".dll" if sys.platform == "win32" else ".so"


def _build(command: list[str], link: list[str], library: Path) -> str | None:
    """Compiles the loop into ``library``; None, or why it failed."""
    descriptor, partial = tempfile.mkstemp(dir=library.parent, prefix=library.stem,
                                           suffix=".partial" + _suffix())
    os.close(descriptor)
    try:
        done = subprocess.run([*command, "-shared", "-fPIC", f"-I{HEADER.parent}", *link,
                               "-o", partial, str(SOURCE)], capture_output=True, text=True,
                              timeout=_COMPILE_SECONDS)
        if done.returncode != 0:
            return f"{' '.join(command)}: {done.stderr.strip()[:300]}"
        os.replace(partial, library)
        return None
    except (OSError, subprocess.SubprocessError) as error:
        return f"{' '.join(command)}: {error}"
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


def _prune(folder: Path, keep: Path) -> None:
    """Removes the libraries of other sources or flags left for a day."""
    now = time.time()
    for path in folder.glob("scalar_loop_*"):
        try:
            if path != keep and now - path.stat().st_mtime > _STALE_SECONDS:
                path.unlink()
        except OSError:
            pass


def load(directory: str | os.PathLike[str] | None = None) -> ScalarLoop:
    """Compiles the loop (once: the library is kept in a folder private to
    the user, under ``directory`` if given, else the user's cache folder, and
    named by a hash of the source, the flags, the compiler and the CPU) and
    loads it. Raises :class:`ScalarLoopError` when it cannot."""
    with _build_lock:
        compiler = _compiler()
        extra = shlex.split(os.environ.get(CFLAGS_VARIABLE, ""))
        link = shlex.split(os.environ.get(LDFLAGS_VARIABLE, ""))
        try:
            identity = SOURCE.read_bytes() + HEADER.read_bytes() + _machine(compiler)
        except OSError as error:
            raise ScalarLoopError(f"the loop's source is missing: {error}") from None
        folder = _cache_folder(directory)
        failures = []
        for flags in _FLAG_SETS:
            command = [*compiler, "-O3", *flags, *extra]
            digest = hashlib.sha256(identity + " ".join(command + link).encode()).hexdigest()
            library = folder / f"scalar_loop_{digest[:16]}{_suffix()}"
            if not library.exists():
                failure = _build(command, link, library)
                if failure is not None:
                    failures.append(failure)
                    continue
            try:
                loaded = ctypes.CDLL(str(library))
            except OSError:
                # A damaged file: built again, once.
                failure = _build(command, link, library)
                try:
                    loaded = ctypes.CDLL(str(library))
                except OSError as error:
                    failures.append(f"{' '.join(command)}: {failure or error}")
                    continue
            _prune(folder, library)
            return ScalarLoop(loaded, command)
    raise ScalarLoopError("the plain scalar C loop did not build:\n" + "\n".join(failures))


def target(kernel: str) -> float:
    """How many times the loop's speed ``simulate`` should reach on one core
    with ``kernel``: with SIMD lanes 1.6x on AVX2 and 2.0x on AVX-512, else
    (the scalar kernels) 1.0x."""
    return {"x86-64-v3": 1.6, "x86-64-v4": 2.0}.get(kernel, 1.0)


def compare(games: int, rounds: int) -> tuple[float, float]:
    """Turns a second of ``simulate`` on one thread and of the loop, the same
    number of random games each, alternated for ``rounds`` rounds, the best of
    each kept: a busy machine slows both alike."""
    loop = load()
    best_simulate = best_loop = 0.0
    for _ in range(rounds):
        result = wts.simulate(games, seed=11, threads=1)
        best_simulate = max(best_simulate, result.turns / result.seconds)
        began = time.perf_counter()
        turns = loop.run(games, seed=11)
        best_loop = max(best_loop, turns / (time.perf_counter() - began))
    return best_simulate, best_loop


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="simulate beside the plain scalar C loop, "
                                                 "one thread each, measured side by side")
    parser.add_argument("--games", type=int, default=200_000, help="games a round (200,000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (3)")
    args = parser.parse_args(argv)
    try:
        simulated, looped = compare(args.games, args.rounds)
    except ScalarLoopError as error:
        print(f"scalar_loop.py: {error}", file=sys.stderr)
        return 1
    kernel = wts.cpu_kernel()
    goal = target(kernel)
    ratio = simulated / looped
    print(f"simulate ({kernel}), 1 thread   {simulated / 1e6:6.2f} M turns/s")
    print(f"plain scalar C loop, 1 thread   {looped / 1e6:6.2f} M turns/s")
    print(f"simulate / loop                 {ratio:6.2f}x   target >= {goal:.1f}x   "
          f"{'met' if ratio >= goal else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
