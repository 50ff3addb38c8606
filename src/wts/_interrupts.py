"""What every long call does on Ctrl-C: stop its workers, wait for them, then
let the KeyboardInterrupt through; and how the command line reports it."""

from __future__ import annotations

import concurrent.futures
import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells use.
EXIT_INTERRUPTED = 130
#: Seconds the main thread waits at a time. A SIGINT that another thread takes
#: only sets Python's flag: the main thread sees it, and raises
#: KeyboardInterrupt, once its wait returns.
WAIT_SLICE = 0.1


def wait_for_first(futures: Iterable[concurrent.futures.Future[Any]]
                   ) -> set[concurrent.futures.Future[Any]]:
    """The futures of ``futures`` that are done, once one is: a wait for the
    first to complete, in slices of :data:`WAIT_SLICE`."""
    futures = list(futures)
    while True:
        done, _ = concurrent.futures.wait(futures, timeout=WAIT_SLICE,
                                          return_when=concurrent.futures.FIRST_COMPLETED)
        if done:
            return done


def result_of(future: concurrent.futures.Future[Any]) -> Any:
    """``future.result()``, waited for in slices of :data:`WAIT_SLICE`."""
    wait_for_first([future])
    return future.result()


def join(thread: threading.Thread) -> None:
    """``thread.join()``, in slices of :data:`WAIT_SLICE`."""
    while thread.is_alive():
        thread.join(WAIT_SLICE)


def wait_through_interrupts(*waits: Callable[[], object]) -> None:
    """Run each of ``waits`` (joining threads, shutting a pool down) to the end
    even if Ctrl-C comes meanwhile, so that no worker outlives the call; a
    KeyboardInterrupt caught on the way is raised once all have finished."""
    interrupted: KeyboardInterrupt | None = None
    for wait in waits:
        while True:
            try:
                wait()
            except KeyboardInterrupt as exc:  # a second Ctrl-C: the workers are stopping anyway
                interrupted = interrupted or exc
                continue
            break
    if interrupted is not None:
        raise interrupted


def stop_pool(pool: concurrent.futures.Executor,
              futures: Iterable[concurrent.futures.Future[Any]]) -> None:
    """Shut ``pool`` down once its work has been told to stop: cancel the
    ``futures`` not started, wait for the running ones, then for the workers.
    The running work is awaited through its futures, not Thread.join(): on
    CPython 3.11 a Ctrl-C inside join() can mark a running thread as stopped."""
    futures = list(futures)
    for future in futures:
        future.cancel()
    wait_through_interrupts(lambda: concurrent.futures.wait(futures),
                            lambda: pool.shutdown(wait=True))


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """A Ctrl-C during the block is noted, not raised inside it, and raised
    (by the handler that was there before) once the block ends: for steps that
    must be whole (a shard and the manifest that lists it), and for library
    code that swallows exceptions. Only the main thread receives signals; in
    another thread, or under a handler set from C, the block runs as it is."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is None):
        yield
        return
    noted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if noted:
            signal.raise_signal(signal.SIGINT)


def report_interrupt(command: str, err: TextIO | None = None) -> int:
    """Say on one line that ``command`` was interrupted; returns :data:`EXIT_INTERRUPTED`."""
    print(f"{command}: interrupted", file=sys.stderr if err is None else err, flush=True)
    return EXIT_INTERRUPTED
