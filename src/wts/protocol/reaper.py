"""A small watcher process that kills this process's engines once this
process is gone, however it ended: ``kill -9``, a pool's or Ray's hard exit,
the out-of-memory killer. The engines run in sessions of their own, so
nothing else would end them, and ``atexit`` runs only on an orderly exit.

The watcher reads the engines' process groups from a pipe (``+GROUP`` when
one starts, ``-GROUP`` when it is gone); the pipe's end is this process's
death, and then it kills the groups still listed. It starts with the first
engine, in a session of its own (a terminal's Ctrl-C is the client's to
handle), and needs nothing but the interpreter."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading

__all__ = ["watch", "forget"]

_WATCHER = """
import os, signal
for name in ("SIGINT", "SIGTERM", "SIGHUP"):
    signal.signal(getattr(signal, name), signal.SIG_IGN)
groups, rest = set(), b""
while True:
    chunk = os.read(0, 4096)
    if not chunk:
        break
    *lines, rest = (rest + chunk).split(b"\\n")
    for line in lines:
        (groups.add if line[:1] == b"+" else groups.discard)(int(line[1:]))
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""

# Reentrant: an engine's finalizer (forget) may run in a garbage collection
# that happens inside _send.
_lock = threading.RLock()
_pipe: int | None = None  # the write end; None before the first engine, or if it failed
_failed = False  # no watcher can start here: engines rely on atexit alone


def _start() -> int | None:
    read, write = os.pipe()
    try:
        subprocess.Popen([sys.executable, "-I", "-S", "-c", _WATCHER], stdin=read,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    except (OSError, ValueError, subprocess.SubprocessError):
        os.close(write)
        return None
    finally:
        os.close(read)
    return write


def _send(message: str, start: bool) -> None:
    global _pipe, _failed
    if sys.platform == "win32":  # engines there are not in process groups
        return
    with _lock:
        if _pipe is None and start and not _failed:
            _pipe = _start()
            _failed = _pipe is None
        if _pipe is None:
            return
        try:
            os.write(_pipe, message.encode("ascii"))
        except OSError:  # the watcher was killed: the engines rely on atexit
            with contextlib.suppress(OSError):
                os.close(_pipe)
            _pipe, _failed = None, True


def watch(group: int) -> None:
    """Kill process group ``group`` if this process dies before :func:`forget`."""
    _send(f"+{group}\n", start=True)


def forget(group: int) -> None:
    """Group ``group`` was killed here: the watcher lets it be."""
    _send(f"-{group}\n", start=False)


def _after_fork() -> None:
    """A forked child shares no watcher: the pipe's end is its parent's, and
    the child starts a watcher of its own with its first engine."""
    global _pipe, _failed, _lock
    _lock = threading.RLock()
    if _pipe is not None:
        with contextlib.suppress(OSError):
            os.close(_pipe)
    _pipe, _failed = None, False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)
