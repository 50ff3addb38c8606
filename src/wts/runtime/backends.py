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
is yielded twice. Ctrl-C (KeyboardInterrupt) stops the workers this call
started and goes on; on a Ray cluster it joined, the chunks under way finish
there and are dropped.
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
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from wts._interrupts import WAIT_SLICE, interrupts_deferred, wait_for_first
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
    if address is not None:
        check_address(address)
    return name, count


def check_address(address: object) -> tuple[str, int] | None:
    """A Ray cluster's address: ``"auto"`` (None is returned), ``HOST:PORT`` or
    ``ray://HOST:PORT`` (their host and port); a ParameterError otherwise."""
    if not isinstance(address, str):
        raise ParameterError(f"address must be a str such as 'auto' or 'HOST:PORT', not "
                             f"{address!r}")
    if address == "auto":
        return None
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not (sep and host and host.isprintable() and not set(" /@?#") & set(host)
            and port.isascii()
            and port.isdigit() and 1 <= int(port) <= 65535 and len(address) <= 300):
        shown = address if len(address) <= 60 else address[:60] + "..."
        raise ParameterError(f"address must be 'auto', HOST:PORT or ray://HOST:PORT with a "
                             f"port from 1 to 65535, not {shown!r}")
    return host, int(port)


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
    """Workers leave Ctrl-C, and the SIGHUP of a closed terminal, to the driver,
    which stops them; on Linux a worker also ends with its driver, even one
    killed outright (``kill -9``), instead of playing its chunk to the end for
    nobody. A worker terminated (SIGTERM, how the pool ends its workers) first
    kills the engine programs it runs."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _end_worker)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if os.getppid() != driver:  # the driver died before the line above
            os._exit(1)


def _end_worker(signum: int, frame: object) -> None:
    """A worker's SIGTERM: the engine programs it started die with it (their
    own sessions would outlive it), then it exits at once."""
    client = sys.modules.get("wts.protocol.client")  # loaded only if engines were run
    if client is not None:
        client.kill_all_engines()
    os._exit(128 + signum)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """SIGINT held back while workers are started: a worker inherits the mask
    (across exec too), so a Ctrl-C to the whole process group cannot kill it
    half-started. A thread the mask does not cover (a library's) can still take
    the signal: it is deferred, never raised inside Ray's start-up, whose own
    ``except`` clauses would lose it."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    with interrupts_deferred():
        block(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            block(signal.SIG_UNBLOCK, {signal.SIGINT})  # a held signal is noted here


# A worker's BLAS runs on one thread, as Ray's workers do: the pool has a
# process a core already, and BLAS threads spinning between a network's
# calls would take the other workers' cores (az ran 2.4x its time a move).
_ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def _one_blas_thread() -> Iterator[None]:
    """The environment a worker starts with, while it starts; a value the
    user set is kept."""
    added = [name for name in _ONE_THREAD if name not in os.environ]
    os.environ.update(dict.fromkeys(added, "1"))
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


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
    # The chunks a broken pool held. Each is played again alone, so that only
    # a chunk whose own worker dies is charged a retry, not its neighbours.
    suspects: deque[tuple[int, Any]] = deque()
    alone: set[int] = set()  # the suspect running, by index
    attempts: dict[int, int] = {}
    while True:
        pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                   initargs=(os.getpid(),))
        running: dict[Future[Any], tuple[int, Any]] = {}
        held = None  # a chunk taken but not yet in the pool
        try:
            while True:
                # At most two chunks a worker queued; a suspect runs alone.
                while len(running) < 2 * workers and not any(
                        index in alone for index, _ in running.values()):
                    if suspects:
                        if running:
                            break
                        held = suspects.popleft()
                        alone.add(held[0])
                    else:
                        held = next(source, None)
                        if held is None:
                            break
                    # submit starts the workers it needs
                    with _interrupts_held(), _one_blas_thread():
                        future = pool.submit(task, held[1])  # or finds the pool broken
                    running[future], held = held, None
                if not running:
                    break
                done = wait_for_first(running)
                for future in done:
                    result = future.result()  # a dead worker raises here: keep its chunk
                    index = running.pop(future)[0]
                    alone.discard(index)
                    yield index, result
        except BrokenProcessPool:
            lost = sorted(running.values(), key=lambda item: item[0])
            alone.difference_update(index for index, _ in lost)
            if held is not None:
                suspects.appendleft(held)
            if len(lost) == 1:  # it ran alone: its own worker died; the others go first
                index = lost[0][0]
                attempts[index] = attempts.get(index, 0) + 1
                if attempts[index] > retries:
                    _stop_pool(pool)
                    raise _lost(index, retries) from None
                suspects.append(lost[0])
            else:
                suspects.extendleft(reversed(lost))
            _stop_pool(pool)
            continue
        except BaseException:
            _stop_pool(pool)
            raise
        pool.shutdown(wait=True)
        return


# An HTTP/2 client's first bytes, and an empty SETTINGS frame: Ray's control
# store speaks gRPC, so a server there answers with a SETTINGS frame of its own.
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _probe(address: str) -> None:
    """Nothing listening at HOST:PORT, or something that is not a gRPC server,
    is refused in seconds, not after Ray's minutes of retries; Ctrl-C ends the
    wait. ``auto`` and ``ray://`` addresses are Ray's to resolve."""
    found = check_address(address)
    if found is None or address.startswith("ray://"):
        return
    host, port = found
    try:
        with socket.create_connection((host, port), timeout=_CONNECT_SECONDS) as connection:
            connection.sendall(_HTTP2_HELLO)
            header = b""
            while len(header) < 9:
                chunk = connection.recv(9 - len(header))
                if not chunk:
                    break
                header += chunk
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise WtsError(f"no Ray cluster answers at {address} ({reason}): start one there "
                       "with `ray start --head`, or name another with --address") from None
    if len(header) < 9 or header[3] != 4:  # a frame of type 4, SETTINGS
        raise WtsError(f"what answers at {address} is not a Ray cluster (no gRPC server): "
                       "name the Ray head's address, as `ray start --head` printed it")


def _connect(ray: Any, workers: int, address: str | None) -> bool:
    """Ray initialised for this run; True if this call started it. Ray's
    processes started before a Ctrl-C (or a failure) are stopped with it."""
    if ray.is_initialized():
        return False
    if address is not None:
        _probe(address)
    # ray.init replaces a SIGTERM handler with sys.exit: the command line's own
    # (SIGTERM stopping a run as Ctrl-C does) is put back once Ray is up.
    sigterm = (signal.getsignal(signal.SIGTERM)
               if threading.current_thread() is threading.main_thread() else None)
    try:
        if address is None:
            # A Ctrl-C in the middle of Ray's start-up can land where Ray
            # ignores exceptions, and be lost: it is held until Ray is up,
            # then stops the run (and this Ray) at once.
            with _interrupts_held():
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, ValueError, RuntimeError, ray.exceptions.RayError) as exc:
        ray.shutdown()
        raise WtsError(f"cannot join a Ray cluster at {address or 'a new local Ray'}: "
                       f"{str(exc)[:500]}") from None
    except BaseException:
        ray.shutdown()
        raise
    finally:
        if callable(sigterm):
            signal.signal(signal.SIGTERM, sigterm)
    return True


def _run_on_ray(task: Callable[[Any], Any], chunks: Iterable[Any], workers: int,
                address: str | None, retries: int) -> Iterator[tuple[int, Any]]:
    try:
        import ray
    except ImportError as exc:
        raise ImportError("the ray backend needs Ray: python -m pip install ray "
                          "(the ray extra)") from exc
    started = _connect(ray, workers, address)
    try:
        yield from _ray_tasks(ray, task, chunks, workers, retries)
    finally:
        if started:  # a Ray this run started ends with it, as a process pool does
            ray.shutdown()


def _ray_tasks(ray: Any, task: Callable[[Any], Any], chunks: Iterable[Any], workers: int,
               retries: int) -> Iterator[tuple[int, Any]]:
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

    # Ctrl-C or an error leaves the tasks under way alone: ray.cancel races a
    # task's own reply, and Ray then aborts the driver (a failed internal
    # check). A Ray this run started stops with it; on a cluster it joined,
    # the chunks under way (one a worker) run to their end and are dropped.
    start_more()
    while running:
        done: list[Any] = []
        while not done:  # in slices, as wait_for_first does
            done, _ = ray.wait(list(running), num_returns=1, timeout=WAIT_SLICE)
        finished = [(ref, running.pop(ref)) for ref in done]
        # The next chunks start before the caller handles these results
        # (writes a shard, say), so no worker waits on the driver.
        start_more()
        for ref, index in finished:
            try:
                result = ray.get(ref)
            except ray.exceptions.RayTaskError as exc:
                raise exc.as_instanceof_cause() from None
            except ray.exceptions.RayError as exc:
                # A worker or node lost, memory short, an object lost: after
                # Ray's own retries the chunk cannot be played.
                raise WorkerLostError(
                    f"chunk {index}: Ray could not play it ({type(exc).__name__}: "
                    f"{str(exc)[:300]}); the run stops, and the same command resumes it"
                ) from None
            yield index, result
