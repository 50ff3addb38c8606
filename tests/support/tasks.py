"""Backend tasks for tests/scale/test_scale.py, in a module that worker processes and
Ray workers can import (``tests.support.tasks``)."""

from __future__ import annotations

import os
import pathlib
import signal


def _kill_a_worker_once(flag: pathlib.Path) -> None:
    if flag.exists():
        return
    flag.write_text("killed")
    os.kill(os.getpid(), signal.SIGKILL)


def crash_once(chunk: tuple[int, str]) -> int:
    """A backend task whose first run of chunk 1 kills its own process."""
    index, flag = chunk
    if index == 1:
        _kill_a_worker_once(pathlib.Path(flag))
    return index * index


def always_crash(chunk: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return chunk


def kill_on_poison(chunk: str) -> str:
    """Kills its worker on the chunk "poison"; the others take a moment."""
    import time

    if chunk == "poison":
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.2)
    return chunk


def blas_threads(chunk: int) -> str | None:
    """The BLAS thread count a worker was started with."""
    return os.environ.get("OPENBLAS_NUM_THREADS")
