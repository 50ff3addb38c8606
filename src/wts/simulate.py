"""``wts.simulate``: random playouts in C, spread over OS threads.

Both players choose uniformly among the empty squares every turn. Game
``i`` of a run draws from its own xoshiro256** generator, filled by
splitmix64 from ``seed XOR (i * 0xD1B54A32D192ED03)``, so a run's result
depends only on ``games``, ``seed`` and the start position, never on the
number of threads. Black draws first, then white. A draw takes 32 bits of a
generator output (the high half, then the low half) to a padded bit 0..89 by
Lemire's multiply-shift, rejecting the 76 values that would bias it, and keeps
it if that square is empty; after four misses it picks among the empty
squares directly.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from wts._simulate import run_playouts
from wts.base import GameBase
from wts.game import Game
from wts.pieces import Status

__all__ = ["simulate", "SimulationResult"]

_BLOCK = 4096  # games a thread takes at a time: small enough to balance and report progress
_CODES = {status: code for code, status in enumerate(Status)}


@dataclass(frozen=True)
class SimulationResult:
    """The outcome of :func:`simulate`. ``lengths[i]`` is the number of turns game
    ``i`` lasted; ``seconds`` (wall time) is not part of equality."""

    games: int
    turns: int
    black_wins: int
    white_wins: int
    draws: int
    lengths: npt.NDArray[np.int32] = field(repr=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def turns_per_second(self) -> float:
        """Turns resolved per second of wall time."""
        return self.turns / self.seconds if self.seconds > 0 else float("inf")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        return (self.games, self.turns, self.black_wins, self.white_wins, self.draws) == (
            other.games, other.turns, other.black_wins, other.white_wins, other.draws,
        ) and np.array_equal(self.lengths, other.lengths)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"SimulationResult(games={self.games}, turns={self.turns}, "
            f"black_wins={self.black_wins}, white_wins={self.white_wins}, draws={self.draws}, "
            f"seconds={self.seconds:.3f})"
        )


def _check_count(value: object, name: str, minimum: int, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    number = int(value)
    if number < minimum or (maximum is not None and number > maximum):
        bound = f"from {minimum}" + (f" to {maximum}" if maximum is not None else " up")
        raise ValueError(f"{name} must be {bound}, not {number}")
    return number


def simulate(
    games: int,
    *,
    seed: int = 0,
    threads: int = 1,
    start: GameBase | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` uniformly random games to the end, in C without the GIL.

    ``start`` is the position every game starts from (the empty board by
    default); ``threads`` OS threads share the games; ``progress`` is called
    with the number of games finished so far, from the worker threads.
    """
    games = _check_count(games, "games", 0)
    seed = _check_count(seed, "seed", 0, 2**64 - 1)
    threads = _check_count(threads, "threads", 1, 1024)
    origin = _as_fast_game(start)
    lengths = np.zeros(games, dtype=np.int32)
    statuses = np.zeros(games, dtype=np.uint8)
    blocks = iter(range(0, games, _BLOCK))
    lock = threading.Lock()
    done = [0]
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            while True:
                with lock:
                    first = next(blocks, None)
                if first is None:
                    return
                stop = min(first + _BLOCK, games)
                run_playouts(origin, seed, first, stop, lengths, statuses)
                if progress is not None:
                    with lock:
                        done[0] += stop - first
                        progress(done[0])
        except BaseException as exc:  # surfaced in the calling thread below
            failures.append(exc)

    began = time.perf_counter()
    if threads == 1:
        worker()
    else:
        pool = [threading.Thread(target=worker, name=f"wts-simulate-{i}") for i in range(threads)]
        for thread in pool:
            thread.start()
        for thread in pool:
            thread.join()
    seconds = time.perf_counter() - began
    if failures:
        raise failures[0]
    counts = np.bincount(statuses, minlength=len(_CODES))
    return SimulationResult(
        games=games,
        turns=int(lengths.sum(dtype=np.int64)),
        black_wins=int(counts[_CODES[Status.BLACK_WINS]]),
        white_wins=int(counts[_CODES[Status.WHITE_WINS]]),
        draws=int(counts[_CODES[Status.DRAW]]),
        lengths=lengths,
        seconds=seconds,
    )


def _as_fast_game(start: GameBase | None) -> Game:
    if start is None:
        return Game()
    if isinstance(start, Game):
        return start
    if isinstance(start, GameBase):
        return Game.from_setup(black=start.black, white=start.white, eggs=start.eggs)
    raise TypeError(f"start must be a wts game, not {type(start).__name__}")
