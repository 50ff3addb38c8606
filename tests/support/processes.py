"""Python in a child process, as every test starts one: this interpreter,
the wts under test first on the path (a source tree or an installed wheel,
whichever this process imported), ``tests.support`` and the test modules
importable, a bound on the time and the output kept as text."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import time
from collections.abc import Mapping
from typing import Any

import wts

#: The folder that holds the wts under test.
SOURCE = pathlib.Path(wts.__file__).resolve().parent.parent
#: The folder that holds tests/ (the source tree, or a copy of its tests).
ROOT = pathlib.Path(__file__).resolve().parents[2]
#: The tests' folder (a child names a test's class by module: ``tests.devtools.test_fuzz:X``).
TESTS = ROOT / "tests"
#: Seconds a child may run unless a test says otherwise: imports are slow on a loaded machine.
TIMEOUT = 120.0

#: The command line as ``wts`` runs it: ``run_python("-c", CLI, ARGS...)``.
CLI = "import sys; from wts.cli.main import main; sys.exit(main(sys.argv[1:]))"

#: A child started with SIGINT ignored (a background job's children are) keeps
#: it ignored: Python installs its handler only over the default. Code that a
#: test interrupts starts with this line.
SIGINT_RAISES = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"


def interruptible(code: str) -> str:
    """``code`` (for ``-c``) that Ctrl-C interrupts however this process was started."""
    return SIGINT_RAISES + code


def python_env(changes: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """This process's environment with :data:`SOURCE`, :data:`ROOT` and
    :data:`TESTS` first on PYTHONPATH, and ``changes`` made (a None value
    removes that variable)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(filter(None, [
        str(SOURCE), str(ROOT), str(TESTS), env.get("PYTHONPATH")])))
    for name, value in (changes or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def start_python(*args: str, env: Mapping[str, str | None] | None = None,
                 **popen: Any) -> subprocess.Popen[str]:
    """``python ARGS`` started, in text mode, with :func:`python_env` (``env``
    its changes); ``popen`` goes to :class:`subprocess.Popen` (pipes, cwd...)."""
    return subprocess.Popen([sys.executable, *args], env=python_env(env), text=True, **popen)


def run_python(*args: str, env: Mapping[str, str | None] | None = None,
               timeout: float | None = TIMEOUT, input: str | None = None,
               cwd: str | os.PathLike[str] | None = None,
               check: bool = False) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` (``"-c", code`` or ``"-m", module, ...``) run to its end
    with :func:`python_env` (``env`` its changes), its output captured as
    text. Past ``timeout`` seconds the child is killed and
    :class:`subprocess.TimeoutExpired` raised; ``check`` raises on a nonzero
    exit. Standard input is ``input``, else nothing (a child never reads the
    test's terminal)."""
    return subprocess.run([sys.executable, *args], env=python_env(env), timeout=timeout,
                          input=input, stdin=None if input is not None else subprocess.DEVNULL,
                          cwd=cwd, check=check, capture_output=True, text=True)


def run_ignoring_sigint(*args: str, **run: Any) -> subprocess.CompletedProcess[str]:
    """:func:`run_python` in a Python started with SIGINT ignored, as a
    background job of a non-interactive shell is: the disposition survives
    ``exec``, so the child starts as such a job's would."""
    trampoline = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
                  "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])")
    return run_python("-c", trampoline, *args, **run)


def traced_in_a_fresh_process(script: str) -> Any:
    """Run ``script`` in a fresh interpreter and read the last line it prints
    as JSON. On CPython before 3.12.9 stopping tracemalloc while other threads
    allocate (the test process's, or pyarrow's pool in any process) can crash
    the process (python/cpython#128679): the script never stops it, and the
    process ends by ``os._exit`` once its output is flushed, so that
    finalization does not stop it either."""
    script += "\nimport os, sys\nsys.stdout.flush()\nos._exit(0)\n"
    done = run_python("-c", script, timeout=300)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    return json.loads(done.stdout.splitlines()[-1])



def running(pid: int) -> bool:
    """The process exists and is not a zombie (one ended, waiting to be reaped);
    Linux only (it reads /proc)."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def ends(pid: int, within: float = 10.0) -> bool:
    """Whether the process ends within ``within`` seconds (a SIGKILL is
    delivered when the process is next scheduled, so a killed one may show as
    running for a moment)."""
    deadline = time.monotonic() + within
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
