"""A ``wts serve`` process of a test's own, on a port the system picks (free
by construction, so no other test can take it first): its address is read
from the line the server prints once it listens."""

from __future__ import annotations

import queue
import re
import subprocess
import threading
from pathlib import Path

from tests.support.processes import start_python

#: Seconds a server may take to start: imports on a loaded machine are slow.
START_SECONDS = 60.0
_ADDRESS = re.compile(r"wts serve: http://(\S+?)/ ")


class Server:
    """``wts serve --port PORT`` (0: one the system picks), with ``options``,
    or ``run(port=0)`` in ``code``, on ``db`` (a path or a database URL).
    ``address`` is HOST:PORT; everything the server prints is kept in
    ``output`` (read as it comes, so its pipe never fills)."""

    def __init__(self, db: Path | str, *, code: str | None = None, port: int = 0,
                 options: tuple[str, ...] = ()) -> None:
        args = (["-c", code, str(db)] if code is not None else
                ["-m", "wts", "serve", "--port", str(port), "--db", str(db), *options])
        self.process = start_python(*args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.output: list[str] = []
        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(lines,), daemon=True).start()
        try:
            while True:
                line = lines.get(timeout=START_SECONDS)
                if line is None:
                    raise RuntimeError("the server stopped:\n" + "".join(self.output))
                found = _ADDRESS.search(line)
                if found:
                    self.address = found.group(1)
                    self.url = f"http://{self.address}"
                    return
        except queue.Empty:
            self.stop()
            raise RuntimeError(f"the server did not start in {START_SECONDS:g} s:\n"
                               + "".join(self.output)) from None
        except BaseException:
            self.stop()
            raise

    def _read(self, lines: queue.Queue[str | None]) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            lines.put(line)
        lines.put(None)

    def stop(self, *, kill: bool = False) -> None:
        """End the server (SIGKILL with ``kill``) and wait for it."""
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        self.process.wait(30)
