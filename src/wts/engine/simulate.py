"""``wts.simulate``: random playouts in C, spread over OS threads.

Both players choose uniformly among the empty squares every turn. Game
``i`` of a run draws from its own xoshiro256** generator, filled by
splitmix64 from ``seed XOR (i * 0xD1B54A32D192ED03)``, so a run's result
depends only on ``games``, ``seed`` and the start position, never on the
number of threads. Each turn takes one generator output: its high 32 bits
give black's move, its low 32 bits white's, each an exactly uniform index
below the number of empty squares by Lemire's multiply-shift (the few biased
values are drawn again from the same generator), then the empty square of
that rank. Builds with AVX2 play eight games at once in SIMD lanes and hand
every turn that is not simple to the same scalar turn: the same games.

Memory does not grow with the number of games: the threads take blocks of
4,096 games, each into its own two small buffers, and add them to a histogram
of game lengths and counts of the final statuses. Per-game arrays (5 bytes a
game) are kept only when asked for (``per_game=True``).

Ctrl-C stops a run within a block (about 10 ms): the worker threads stop
before their next block, the calling thread joins them all, then the
KeyboardInterrupt goes on; nothing the caller passed is changed.
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields

import numpy as np
import numpy.typing as npt

from wts._interrupts import WAIT_SLICE, wait_through_interrupts
from wts.engine._core import STATUSES
from wts.engine._simulate import Playouts
from wts.engine.base import GameBase
from wts.engine.game import Game, as_fast_game
from wts.engine.pieces import Status
from wts.errors import ParameterTypeError
from wts.limits import MAX_GAMES, MAX_THREADS
from wts.params import check_bool, check_int, check_seed, usable_cores

__all__ = ["simulate", "SimulationResult", "MAX_GAMES"]

_BLOCK = 4096  # games a thread takes at a time: about 10 ms, so Ctrl-C and progress are prompt
_CODES = {status: code for code, status in enumerate(STATUSES)}


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """The outcome of :func:`simulate`.

    ``length_counts[k]`` is the number of games that lasted ``k`` turns: the
    histogram of the game lengths, as ``np.bincount`` gives it (one entry
    more than the longest game's turns; empty when no game was played).
    ``lengths[i]`` and ``statuses[i]`` are game ``i``'s turns and final
    status code (an index into :data:`wts.STATUSES`), kept only when
    :func:`simulate` is called with ``per_game=True``, else None.
    Equality compares every field but ``seconds`` (wall time).
    """

    games: int
    turns: int
    black_wins: int
    white_wins: int
    draws: int
    length_counts: npt.NDArray[np.int64] = field(repr=False)
    lengths: npt.NDArray[np.int32] | None = field(default=None, repr=False)
    statuses: npt.NDArray[np.uint8] | None = field(default=None, repr=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def mean_length(self) -> float:
        """Turns per game (NaN when no game was played)."""
        return self.turns / self.games if self.games else math.nan

    @property
    def turns_per_second(self) -> float:
        """Turns resolved per second of wall time."""
        return self.turns / self.seconds if self.seconds > 0 else float("inf")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        return all(_same(getattr(self, f.name), getattr(other, f.name))
                   for f in fields(self) if f.compare)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"SimulationResult(games={self.games}, turns={self.turns}, "
            f"black_wins={self.black_wins}, white_wins={self.white_wins}, draws={self.draws}, "
            f"seconds={self.seconds:.3f})"
        )


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    return a == b


def _sum_counts(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Two histograms added, as long as the longer one."""
    if len(a) < len(b):
        a, b = b, a
    total: npt.NDArray[np.int64] = a.copy()
    total[: len(b)] += b
    return total


class _Tally:
    """What one thread has counted so far: the histogram of lengths and the statuses."""

    def __init__(self) -> None:
        self.length_counts = np.zeros(0, dtype=np.int64)
        self.status_counts = np.zeros(len(_CODES), dtype=np.int64)

    def add(self, lengths: npt.NDArray[np.int32], statuses: npt.NDArray[np.uint8]) -> None:
        self.length_counts = _sum_counts(self.length_counts,
                                         np.bincount(lengths).astype(np.int64))
        self.status_counts += np.bincount(statuses, minlength=len(_CODES))

    def absorb(self, other: _Tally) -> None:
        self.length_counts = _sum_counts(self.length_counts, other.length_counts)
        self.status_counts += other.status_counts


def simulate(
    games: int,
    *,
    seed: int = 0,
    threads: int = 1,
    start: GameBase | None = None,
    per_game: bool = False,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` uniformly random games to the end, in C without the GIL.

    ``start`` is the position every game starts from (the empty board by
    default; it is read once and never changed); up to ``threads`` OS threads
    share the games, no more than there are cores (the results are the same
    on any number); ``per_game=True`` also keeps each game's length and
    final status (5 bytes a game; otherwise memory does not grow with
    ``games``); ``progress`` is called with the number of games finished so
    far, from the worker threads.

    >>> result = simulate(1000, seed=7)
    >>> result.games == result.black_wins + result.white_wins + result.draws == 1000
    True
    >>> int(result.length_counts.sum()), result.lengths is None
    (1000, True)
    >>> simulate(1000, seed=7, per_game=True).lengths.shape
    (1000,)

    Counts, seeds and options out of range raise :class:`wts.ParameterError`,
    of the wrong type :class:`wts.ParameterTypeError`.
    """
    games = check_int(games, "games", 0, MAX_GAMES)
    threads = check_int(threads, "threads", 1, MAX_THREADS)
    per_game = check_bool(per_game, "per_game")
    if progress is not None and not callable(progress):
        raise ParameterTypeError(f"progress must be callable, not {type(progress).__name__}")
    playouts = Playouts(_as_fast_game(start), check_seed(seed))
    lengths = np.empty(games, dtype=np.int32) if per_game else None
    statuses = np.empty(games, dtype=np.uint8) if per_game else None
    blocks = iter(range(0, games, _BLOCK))
    lock = threading.Lock()
    stop = threading.Event()
    done = 0

    def work(tally: _Tally) -> None:
        nonlocal done
        own_lengths = np.empty(min(_BLOCK, games), dtype=np.int32)
        own_statuses = np.empty(min(_BLOCK, games), dtype=np.uint8)
        while not stop.is_set():
            with lock:
                first = next(blocks, None)
            if first is None:
                return
            last = min(first + _BLOCK, games)
            if lengths is not None and statuses is not None:
                block = lengths[first:last], statuses[first:last]
            else:
                block = own_lengths[: last - first], own_statuses[: last - first]
            playouts.play(first, last, *block)
            tally.add(*block)
            if progress is not None:
                with lock:
                    done += last - first
                    progress(done)

    # At most a thread per block (a short run starts no idle threads) and per
    # core: threads beyond the cores only queue for them, and each one still
    # in a block when Ctrl-C comes delays the stop by its block.
    tallies = [_Tally() for _ in range(min(threads, usable_cores(),
                                           max(1, -(-games // _BLOCK))))]
    began = time.perf_counter()
    if len(tallies) == 1:
        work(tallies[0])  # in the calling thread, which sees Ctrl-C between blocks
    else:
        _run_in_threads([functools.partial(work, tally) for tally in tallies], stop)
    seconds = time.perf_counter() - began
    total = tallies[0]
    for tally in tallies[1:]:
        total.absorb(tally)
    counts = total.status_counts
    return SimulationResult(
        games=games,
        turns=sum(length * int(count) for length, count in enumerate(total.length_counts)),
        black_wins=int(counts[_CODES[Status.BLACK_WINS]]),
        white_wins=int(counts[_CODES[Status.WHITE_WINS]]),
        draws=int(counts[_CODES[Status.DRAW]]),
        length_counts=total.length_counts,
        lengths=lengths,
        statuses=statuses,
        seconds=seconds,
    )


def _run_in_threads(tasks: Sequence[Callable[[], None]], stop: threading.Event) -> None:
    """Run each task on a thread of its own and wait for them all. An error in
    one, or Ctrl-C in the calling thread, sets ``stop`` (which the tasks check
    between blocks); every thread is joined before the error is raised."""
    failures: list[BaseException] = []
    finished = [threading.Event() for _ in tasks]

    def guarded(task: Callable[[], None], done: threading.Event) -> None:
        try:
            task()
        except BaseException as exc:  # raised in the calling thread below
            failures.append(exc)
            stop.set()
        finally:
            done.set()

    pool = [threading.Thread(target=guarded, args=(task, done), name=f"wts-simulate-{i}")
            for i, (task, done) in enumerate(zip(tasks, finished))]

    def join_started() -> None:
        for thread, done in zip(pool, finished):
            if thread.ident is not None:
                # Wait on our own event first: on CPython 3.11, Ctrl-C during
                # Thread.join() can mark a running thread as stopped, and a
                # second join() would then return at once.
                while not done.wait(WAIT_SLICE):
                    pass
                thread.join()

    try:
        for thread in pool:
            thread.start()
        join_started()
    except BaseException:
        stop.set()
        wait_through_interrupts(join_started)
        raise
    if failures:
        raise failures[0]


def _as_fast_game(start: GameBase | None) -> Game:
    if start is None:
        return Game()
    if isinstance(start, GameBase):
        return as_fast_game(start)
    raise ParameterTypeError(f"start must be a wts game, not {type(start).__name__}")
