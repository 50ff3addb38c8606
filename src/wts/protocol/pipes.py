"""An engine's process: its pipes read without ever blocking for good, the
tail of its standard error kept, and its process group killed, at exit too.
:mod:`wts.protocol.client` speaks the protocol over them."""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import IO

from wts.protocol import lines, reaper

__all__ = ["Stderr", "Quiet", "read_lines", "read_stderr", "register", "kill",
           "kill_all_engines"]

#: Seconds a reader waits for its pipe at a time (and how soon it sees ``closed``).
POLL = 0.1


class Stderr:
    """The last ``limit`` characters an engine wrote to its standard error."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.text = ""
        self.lock = threading.Lock()

    def add(self, chunk: str) -> None:
        with self.lock:
            self.text = (self.text + chunk)[-self.limit:]


class Quiet:
    """When a reader last found its pipe empty: once the engine has exited, the
    client waits for this to learn that all the engine wrote has been read,
    though a child of the engine may hold the pipe open and no end comes."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.count = 0
        self.ended = False

    def note(self) -> None:
        """The pipe was found empty (a wait for it timed out)."""
        with self.condition:
            self.count += 1
            self.condition.notify_all()

    def end(self) -> None:
        """The reader has ended."""
        with self.condition:
            self.ended = True
            self.condition.notify_all()

    def wait(self, timeout: float) -> bool:
        """Wait until the pipe has been found empty by a wait begun after this
        call (two notes from now: the first may come from a wait begun before),
        or the reader ended; False if ``timeout`` seconds passed first."""
        with self.condition:
            start = self.count
            return self.condition.wait_for(lambda: self.ended or self.count >= start + 2,
                                           timeout)


def chunks(stream: IO[bytes], closed: threading.Event,
           quiet: Quiet | None = None) -> Iterator[bytes]:
    """What ``stream`` gives, until its end or until ``closed`` is set. The
    pipe's descriptor is polled, never read blocking: a child the engine left
    behind may hold the pipe open for ever, and the reader must still end.
    ``quiet`` is told each time the pipe is found empty."""
    if sys.platform == "win32":  # no select on pipes
        while not closed.is_set():
            chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)
            if not chunk:
                return
            yield chunk
        return
    fd = stream.fileno()
    while not closed.is_set():
        ready, _, _ = select.select([fd], [], [], POLL)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            yield chunk
        elif quiet is not None:
            quiet.note()


def read_lines(stream: IO[bytes], received: queue.Queue[str | None],
               closed: threading.Event, quiet: Quiet | None = None) -> None:
    """Put each line of ``stream`` on ``received`` (a line too long is cut short
    and refused by the parser), then None at the end. ``received`` is bounded, so an
    engine that writes without being read waits; ``closed`` ends the wait.
    The reader closes its own stream (closing it from another thread would
    wait for the reader). ``quiet`` is told when the pipe is found empty,
    everything before it on ``received``."""

    def put(item: str | None) -> None:
        while not closed.is_set():
            try:
                received.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def line(raw: bytes) -> str:
        return raw.decode("utf-8", "replace").rstrip("\r")

    buffer = bytearray()
    skipping = False  # the rest of a line too long is dropped
    try:
        for chunk in chunks(stream, closed, quiet):
            buffer += chunk
            while True:
                end = buffer.find(b"\n")
                if end < 0:
                    if len(buffer) > lines.MAX_LINE:
                        if not skipping:  # the parser refuses the long line
                            put(line(bytes(buffer[:lines.MAX_LINE + 1])))
                            skipping = True
                        buffer.clear()
                    break
                raw = bytes(buffer[:min(end, lines.MAX_LINE + 1)])
                del buffer[:end + 1]
                if skipping:
                    skipping = False
                else:
                    put(line(raw))
        if buffer and not skipping:
            put(line(bytes(buffer)))
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError):
            stream.close()
    put(None)
    if quiet is not None:
        quiet.end()


def read_stderr(stream: IO[bytes], sink: Stderr, closed: threading.Event,
                quiet: Quiet | None = None) -> None:
    try:
        for chunk in chunks(stream, closed, quiet):
            sink.add(chunk.decode("utf-8", "replace"))
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError):
            stream.close()
        if quiet is not None:
            quiet.end()


# The engines running, by pid: killed when the process exits or, in a pool's
# worker, when the worker is terminated (see kill_all_engines).
LIVE: dict[int, tuple[subprocess.Popen[bytes], threading.Event]] = {}


def register(process: subprocess.Popen[bytes], closed: threading.Event) -> None:
    """A running engine, in a session of its own: killed at exit, and by the
    reaper if this process dies without one."""
    LIVE[process.pid] = (process, closed)
    reaper.watch(process.pid)


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the engine's process group (its own session), even once the
    engine itself ended: children it started may still run in the group."""
    try:
        if sys.platform != "win32":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()


def kill(process: subprocess.Popen[bytes], closed: threading.Event) -> None:
    """Kill the engine's process group, then reap the engine (a bounded wait);
    ``closed`` tells its reader threads to end (they close their streams)."""
    closed.set()
    LIVE.pop(process.pid, None)
    kill_group(process)
    reaper.forget(process.pid)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
    if process.stdin is not None:
        with contextlib.suppress(OSError, ValueError):
            process.stdin.close()


def kill_all_engines() -> None:
    """Kill the process group of every engine this process runs, at once and
    without waiting: for the end of the process (atexit) and for a pool's
    worker being terminated (its SIGTERM handler), which ends without running
    the engines' own clean-up."""
    for process, closed in list(LIVE.values()):
        closed.set()
        kill_group(process)
    LIVE.clear()


atexit.register(kill_all_engines)
