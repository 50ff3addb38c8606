"""Running many games: in chunks over worker processes, with Ctrl-C handled.

Games 0, 1, 2, ... of a seed are played until a number of games or a time
budget runs out, or until the first difference, which is replayed and shrunk.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from wts._interrupts import stop_pool, wait_for_first

from .branches import unreached
from .compare import ENGINE_FAILURE, Difference, EngineClass, Script
from .games import play_fuzz_game
from .shrink import shrink

__all__ = ["Failure", "FuzzReport", "run_fuzz"]


@dataclass
class Failure:
    """The first game where the engines differed, before and after shrinking."""

    seed: int
    index: int
    script: Script
    difference: Difference
    shrunk: Script
    shrunk_difference: Difference
    reproducible: bool = True
    """False when replaying the moves alone shows no difference (see :func:`shrink`)."""


@dataclass
class FuzzReport:
    """What a fuzz run did: games, turns, branch coverage and the first failure."""

    seed: int
    games: int = 0
    turns: int = 0
    seconds: float = 0.0
    coverage: Counter[str] = field(default_factory=Counter)
    setups: Counter[str] = field(default_factory=Counter)
    policies: Counter[str] = field(default_factory=Counter)
    failure: Failure | None = None

    @property
    def unreached(self) -> list[str]:
        """The rule branches no game of the run reached (keys of ``BRANCHES``)."""
        return unreached(self.coverage)


class _Chunk(NamedTuple):
    games: int
    turns: int
    coverage: Counter[str]
    setups: Counter[str]
    policies: Counter[str]
    failed: int | None
    difference: Difference | None  # the failed game's, as this worker saw it


class _Flag(Protocol):
    def is_set(self) -> bool: ...


def _run_indices(
    reference: EngineClass, candidate: EngineClass, seed: int, indices: Iterable[int],
    deadline: float | None, stop: _Flag | None = None,
) -> _Chunk:
    games = turns = 0
    coverage: Counter[str] = Counter()
    setups: Counter[str] = Counter()
    policies: Counter[str] = Counter()
    for index in indices:
        if deadline is not None and time.time() > deadline:
            break
        if stop is not None and stop.is_set():  # Ctrl-C in the parent
            break
        record = play_fuzz_game(reference, candidate, seed, index)
        games += 1
        turns += record.turns
        coverage.update(record.coverage)
        setups[record.plan.setup_kind] += 1
        policies[record.plan.name] += 1
        if record.difference is not None:
            return _Chunk(games, turns, coverage, setups, policies, index, record.difference)
    return _Chunk(games, turns, coverage, setups, policies, None, None)


_WORKER_ENGINES: tuple[EngineClass, EngineClass] | None = None
_WORKER_STOP: _Flag | None = None


def _init_worker(reference: EngineClass, candidate: EngineClass, stop: _Flag) -> None:
    global _WORKER_ENGINES, _WORKER_STOP
    _WORKER_ENGINES = (reference, candidate)
    _WORKER_STOP = stop
    # Ctrl-C is the parent's to handle: it sets ``stop`` and joins the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _worker_chunk(seed: int, start: int, stop: int, deadline: float | None) -> _Chunk:
    assert _WORKER_ENGINES is not None
    return _run_indices(*_WORKER_ENGINES, seed, range(start, stop), deadline, _WORKER_STOP)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold SIGINT back while worker processes start: they inherit the mask and
    unblock it only once they ignore SIGINT, so a Ctrl-C sent to the whole
    process group then reaches only this process (on leaving the block)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def run_fuzz(
    reference: EngineClass,
    candidate: EngineClass,
    seed: int = 0,
    games: int | None = None,
    seconds: float | None = None,
    jobs: int = 1,
    progress: Callable[[FuzzReport], None] | None = None,
    shrink_seconds: float = 60.0,
) -> FuzzReport:
    """Fuzz ``candidate`` against ``reference`` until ``games`` or ``seconds`` run out.

    Games 0, 1, 2, ... of ``seed`` are played (in chunks over ``jobs``
    processes when ``jobs > 1``). Stops at the first difference, which is
    shrunk and stored in :attr:`FuzzReport.failure`. The report counts the
    rule branches the games reached; :attr:`FuzzReport.unreached` names the
    ones none did. On Ctrl-C the worker
    processes finish the game they are playing and are joined (within about
    0.1 s), then the KeyboardInterrupt goes on.
    """
    if games is None and seconds is None:
        raise ValueError("give a number of games, a time budget, or both")
    start = time.time()
    deadline = None if seconds is None else start + seconds
    report = FuzzReport(seed)
    failed: dict[int, Difference | None] = {}
    chunk_size = 25

    def merge(chunk: _Chunk) -> None:
        report.games += chunk.games
        report.turns += chunk.turns
        report.coverage.update(chunk.coverage)
        report.setups.update(chunk.setups)
        report.policies.update(chunk.policies)
        if chunk.failed is not None:
            failed[chunk.failed] = chunk.difference
        report.seconds = time.time() - start
        if progress is not None:
            progress(report)

    def chunks() -> Iterable[tuple[int, int]]:
        first = 0
        while games is None or first < games:
            stop = first + chunk_size if games is None else min(first + chunk_size, games)
            yield first, stop
            first = stop

    if jobs <= 1:
        for first, stop in chunks():
            merge(_run_indices(reference, candidate, seed, range(first, stop), deadline))
            if failed or (deadline is not None and time.time() > deadline):
                break
    else:
        context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
        stop_workers = context.Event()
        pool = concurrent.futures.ProcessPoolExecutor(
            jobs, mp_context=context, initializer=_init_worker,
            initargs=(reference, candidate, stop_workers),
        )
        pending: set[concurrent.futures.Future[_Chunk]] = set()
        source = iter(chunks())
        exhausted = False

        def refill() -> None:
            nonlocal exhausted
            while not exhausted and len(pending) < 2 * jobs:
                if failed or (deadline is not None and time.time() > deadline):
                    exhausted = True
                    return
                try:
                    first, stop = next(source)
                except StopIteration:
                    exhausted = True
                    return
                pending.add(pool.submit(_worker_chunk, seed, first, stop, deadline))

        try:
            with _sigint_held():
                refill()  # the first submit starts the workers
            while pending:
                done = wait_for_first(pending)
                for future in done:
                    pending.discard(future)
                    merge(future.result())
                refill()
        except BaseException:
            stop_workers.set()
            stop_pool(pool, pending)
            raise
        pool.shutdown(wait=True)
    report.seconds = time.time() - start
    if failed:
        index = min(failed)
        record = play_fuzz_game(reference, candidate, seed, index)
        # A flaky candidate (one whose answers depend on its past, say) may
        # agree on the second run: the first run's difference is reported.
        seen = failed[index]
        difference = record.difference
        if difference is None and seen is not None and seen.field == ENGINE_FAILURE:
            difference = Difference(seen.step, ENGINE_FAILURE, seen.reference,
                                    f"{seen.candidate} (on the first run only)")
        elif difference is None:
            difference = Difference(
                seen.step if seen is not None else -1,
                f"{seen.field if seen is not None else 'a difference'} (flaky: on the first "
                "run only)", seen.reference if seen is not None else "-",
                seen.candidate if seen is not None else "none on a second run")
        try:
            shrunk, shrunk_difference = shrink(reference, candidate, record.script, shrink_seconds)
            reproducible = True
        except ValueError:  # only the live game (with its trial plays) shows it
            shrunk, shrunk_difference, reproducible = record.script, difference, False
        report.failure = Failure(
            seed, index, record.script, difference, shrunk, shrunk_difference, reproducible
        )
    return report
