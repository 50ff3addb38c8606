"""Where a run's games are played: this process, a pool of processes, or Ray.

A run is cut into chunks of games, each described by a small picklable value;
:func:`run_chunks` calls a module-level ``task(chunk)`` for every chunk on the
chosen backend and yields ``(index, result)`` as chunks finish, in whatever
order they finish. A chunk's result depends on the chunk alone, so the caller,
putting results back in chunk order, gets the same run whatever the backend or
the number of workers.

- ``local``: every chunk in this process, one after the other.
- ``process``: a pool of ``workers`` processes on this machine (started by
  ``spawn``, so nothing of the parent's threads is inherited).
- ``ray``: Ray tasks, ``workers`` at a time, on the cluster at ``address``
  (``"auto"`` for the one ``ray start`` made here), else on a local Ray
  started with ``workers`` CPUs. Ray is the ``ray`` extra.

A worker process that dies (killed, out of memory) costs only the chunks it
was playing: they are played again, up to ``retries`` times each, and nothing
is yielded twice. Ctrl-C (KeyboardInterrupt) cancels the chunks not finished,
stops the workers and goes on.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from wts.errors import ParameterError, WtsError
from wts.params import check_choice, check_int

__all__ = ["BACKENDS", "WorkerLostError", "run_chunks", "check_backend", "default_workers"]

#: The backends :func:`run_chunks` knows.
BACKENDS = ("local", "process", "ray")

#: How often a chunk whose worker died is played again before the run stops.
RETRIES = 3
#: How long a Ray cluster's address may take to answer before it is given up.
_CONNECT_SECONDS = 10.0

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


class WorkerLostError(WtsError, RuntimeError):
    """A chunk's worker died more often than the retries allow."""


def default_workers(backend: str) -> int:
    """One worker for ``local``; this machine's cores otherwise."""
    if backend == "local":
        return 1
    return multiprocessing.cpu_count() or 1


def check_backend(backend: object, workers: object, address: object) -> tuple[str, int]:
    """The backend's name and its number of workers, or the ParameterError saying
    what is wrong with them."""
    name = check_choice(backend, "backend", BACKENDS)
    count = default_workers(name) if workers is None else check_int(workers, "workers", 1, 4096)
    if address is not None and name != "ray":
        raise ParameterError(
            f"address= joins a Ray cluster: it needs backend='ray', not {name!r}")
    if address is not None and not isinstance(address, str):
        raise ParameterError(f"address must be a str such as 'auto', not {address!r}")
    return name, count


def run_chunks(
    task: Callable[[Chunk], Result],
    chunks: Iterable[Chunk],
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    retries: int = RETRIES,
) -> Iterator[tuple[int, Result]]:
    """``(index, task(chunks[index]))`` for every chunk, as each finishes.

    ``task`` must be a module-level function, importable where the workers run.
    ``chunks`` is read as the workers free up, so it may be a generator as
    long as the run: only the chunks in flight are held.
    """
    backend, workers = check_backend(backend, workers, address)
    retries = check_int(retries, "retries", 0, 100)
    if backend == "local":
        return ((index, task(chunk)) for index, chunk in enumerate(chunks))
    if backend == "process":
        return _run_on_processes(task, chunks, workers, retries)
    return _run_on_ray(task, chunks, workers, address, retries)


def _start_worker(driver: int) -> None:
    """Workers leave Ctrl-C to the driver, which stops them; on Linux a worker
    also ends with its driver, even one killed outright (``kill -9``), instead
    of playing its chunk to the end for nobody."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if os.getppid() != driver:  # the driver died before the line above
            os._exit(1)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """SIGINT held back while workers are started: a worker inherits the mask
    (across exec too), so a Ctrl-C to the whole process group cannot kill it
    half-started; the driver gets the held signal as soon as this ends."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    block(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        block(signal.SIG_UNBLOCK, {signal.SIGINT})


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the workers now, not after their chunk, and join the pool's threads."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
    else:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
    pool.shutdown(wait=True, cancel_futures=True)


def _lost(index: int, retries: int) -> WorkerLostError:
    return WorkerLostError(
        f"chunk {index}: its worker died {retries + 1} times; the run stops (a worker "
        "also dies at once when a script starts a process pool without an "
        "`if __name__ == '__main__':` guard)")


def _run_on_processes(task: Callable[[Any], Any], chunks: Iterable[Any], workers: int,
                      retries: int) -> Iterator[tuple[int, Any]]:
    context = multiprocessing.get_context("spawn")
    source = enumerate(chunks)  # taken as the workers free up: memory stays with them
    again: deque[tuple[int, Any]] = deque()  # chunks whose worker died, in order
    attempts: dict[int, int] = {}
    while True:
        pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                   initargs=(os.getpid(),))
        running: dict[Future[Any], tuple[int, Any]] = {}
        held = None  # a chunk taken but not yet in the pool
        try:
            while True:
                # At most two chunks a worker queued.
                while len(running) < 2 * workers:
                    held = again.popleft() if again else next(source, None)
                    if held is None:
                        break
                    with _interrupts_held():  # submit starts the workers it needs
                        future = pool.submit(task, held[1])  # or finds the pool broken
                    running[future], held = held, None
                if not running:
                    break
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    result = future.result()  # a dead worker raises here: keep its chunk
                    yield running.pop(future)[0], result
        except BrokenProcessPool:
            # A worker died: every chunk the pool held goes back, in order.
            lost = sorted(running.values(), key=lambda item: item[0])
            for index, _chunk in lost:
                attempts[index] = attempts.get(index, 0) + 1
                if attempts[index] > retries:
                    _stop_pool(pool)
                    raise _lost(index, retries) from None
            if held is not None:
                again.appendleft(held)
            again.extendleft(reversed(lost))
            _stop_pool(pool)
            continue
        except BaseException:
            _stop_pool(pool)
            raise
        pool.shutdown(wait=True)
        return


def _probe(address: str) -> None:
    """A HOST:PORT with nothing listening is refused in seconds, not after Ray's
    minutes of retries; Ctrl-C ends the wait."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # "auto" and ray:// addresses are Ray's to resolve
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_SECONDS):
            pass
    except (OSError, ValueError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise WtsError(f"no Ray cluster answers at {address} ({reason}): start one there "
                       "with `ray start --head`, or name another with --address") from None


def _connect(ray: Any, workers: int, address: str | None) -> bool:
    """Ray initialised for this run; True if this call started it. Ray's
    processes started before a Ctrl-C (or a failure) are stopped with it."""
    if ray.is_initialized():
        return False
    if address is not None:
        _probe(address)
    try:
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except ConnectionError as exc:
        ray.shutdown()
        raise WtsError(f"cannot join a Ray cluster at {address}: {exc}") from None
    except BaseException:
        ray.shutdown()
        raise
    return True


def _run_on_ray(task: Callable[[Any], Any], chunks: Iterable[Any], workers: int,
                address: str | None, retries: int) -> Iterator[tuple[int, Any]]:
    try:
        import ray
    except ImportError as exc:
        raise ImportError("the ray backend needs Ray: python -m pip install ray "
                          "(the ray extra)") from exc
    _connect(ray, workers, address)
    # Ray plays a task again when its worker dies (a system failure), up to
    # max_retries; an exception the task raises is not retried.
    remote = ray.remote(num_cpus=1, max_retries=retries, retry_exceptions=False)(task)
    source = enumerate(chunks)  # taken as tasks finish: memory stays with the workers
    running: dict[Any, int] = {}

    def start_more() -> None:
        while len(running) < workers:
            item = next(source, None)
            if item is None:
                return
            running[remote.remote(item[1])] = item[0]

    try:
        start_more()
        while running:
            done, _ = ray.wait(list(running), num_returns=1)
            finished = [(ref, running.pop(ref)) for ref in done]
            # The next chunks start before the caller handles these results
            # (writes a shard, say), so no worker waits on the driver.
            start_more()
            for ref, index in finished:
                try:
                    result = ray.get(ref)
                except (ray.exceptions.WorkerCrashedError,
                        ray.exceptions.NodeDiedError) as exc:
                    raise _lost(index, retries) from exc
                except ray.exceptions.RayTaskError as exc:
                    raise exc.as_instanceof_cause() from None  # type: ignore[no-untyped-call]
                yield index, result
    except BaseException:
        for ref in running:
            ray.cancel(ref, force=True)
        raise
