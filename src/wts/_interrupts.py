"""What every long call does on Ctrl-C: stop its workers, wait for them, then
let the KeyboardInterrupt through; and how the command line reports it. The
command line turns SIGTERM and SIGHUP into the same orderly stop
(:func:`termination_raised`)."""

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
#: The signals that ask a process to end (a service manager's stop, a closed
#: terminal), where the platform has them.
TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                    if hasattr(signal, name))


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread as Ctrl-C raises
    KeyboardInterrupt, so that every clean-up Ctrl-C runs runs for it too:
    workers stopped and joined, engines' process groups killed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        """128 + the signal's number, as shells report a process it ended."""
        return 128 + self.signum
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
def termination_raised() -> Iterator[list[int]]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` in the
    main thread. The first one only: a later one is noted, so that the stop
    it began runs to its end. The list yielded holds the signals received. A
    signal ignored when the block begins (``nohup``) stays ignored, and one
    whose handler is not the default keeps it; each is as it was after."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def handler(signum: int, frame: object) -> None:
        received.append(signum)
        if len(received) == 1:
            raise Terminated(signum)

    previous = {}
    for signum in TERMINATING:
        if signal.getsignal(signum) is signal.SIG_DFL:
            previous[signum] = signal.signal(signum, handler)
    try:
        yield received
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """A Ctrl-C during the block is noted, not raised inside it, and raised
    (by the handler that was there before) once the block ends: for steps that
    must be whole (a shard and the manifest that lists it), and for library
    code that swallows exceptions. SIGTERM and SIGHUP are deferred so too
    where a Python handler takes them (:func:`termination_raised`). Only the
    main thread receives signals; in another thread, or under a handler set
    from C, the block runs as it is."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is None):
        yield
        return
    noted: list[int] = []
    deferred = [signal.SIGINT] + [signum for signum in TERMINATING
                                  if callable(signal.getsignal(signum))]
    previous = {signum: signal.signal(signum, lambda signum, frame: noted.append(signum))
                for signum in deferred}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        # a termination first: its exit status says more than Ctrl-C's
        for signum in sorted(set(noted), key=lambda signum: signum == signal.SIGINT):
            signal.raise_signal(signum)


def report_interrupt(command: str, err: TextIO | None = None) -> int:
    """Say on one line that ``command`` was interrupted; returns :data:`EXIT_INTERRUPTED`."""
    print(f"{command}: interrupted", file=sys.stderr if err is None else err, flush=True)
    return EXIT_INTERRUPTED


def report_termination(command: str, signum: int, err: TextIO | None = None) -> int:
    """Say on one line that a signal stopped ``command``; returns 128 + ``signum``.
    The terminal may be gone (SIGHUP): a line that cannot be written is dropped."""
    with contextlib.suppress(OSError, ValueError):
        print(f"{command}: stopped by {signal.Signals(signum).name}",
              file=sys.stderr if err is None else err, flush=True)
    return 128 + signum
