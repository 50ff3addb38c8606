"""However the client ends, the engine's process group ends with it: Ctrl-C,
SIGTERM (a service manager's stop) and SIGHUP (a closed terminal) stop `wts
tournament` as one orderly stop with the exit status 128 + the signal, on
threads and on worker processes; a program using the library that raises or
just returns leaves no engine behind either."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.engines import MISBEHAVING
from tests.support.processes import ends, interruptible, run_python, running, start_python

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="needs /proc, fork and POSIX signals")

#: Seconds for a child to start its engine and reach ``go`` (imports, a spawned worker).
STARTS = 60.0
#: Seconds for a child to stop once signalled: far beyond what it takes (Ray's
#: shutdown is the longest, 2 s).
STOPS = 30.0

# The command line, its signals as a terminal's or a service's child gets them:
# the test runner may have started with SIGTERM or SIGHUP ignored (nohup).
CLI = """
import signal, sys
for name in ("SIGTERM", "SIGHUP"):
    signal.signal(getattr(signal, name), signal.SIG_DFL)
from wts.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

# A program using the library: an engine searching on a thread for ever, and
# the main thread that ends while it does, by an exception or by returning.
LIBRARY = """
import os, sys, threading, time, wts
from wts.protocol import Engine, Limit
engine = Engine.popen([sys.executable, sys.argv[1], "forker+hang", sys.argv[2]])
threading.Thread(target=engine.play, args=(wts.Game(), "black", Limit(infinite=True)),
                 daemon=True).start()
while not os.path.exists(sys.argv[2]):
    time.sleep(0.01)
if sys.argv[3] == "raise":
    raise RuntimeError("the program fails")
if sys.argv[3] == "killed":
    os.kill(os.getpid(), 9)
"""


def wait_for_pids(path: Path, proc: subprocess.Popen[str]) -> list[int]:
    """The engine's pid and its child's, once the engine is in ``go``."""
    deadline = time.monotonic() + STARTS
    while not path.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"the engine never reached go: {out} {err}")
        time.sleep(0.02)
    return [int(pid) for pid in path.read_text().split()]


def kill_left(pids: list[int]) -> None:
    for pid in pids:
        if running(pid):
            os.kill(pid, signal.SIGKILL)


def stop_a_match(tmp_path: Path, signum: int, *more: str, group: bool = False
                 ) -> tuple[int, str]:
    """``wts tournament`` of an engine that hangs in ``go`` (with a child in its
    group), sent ``signum`` there (to its whole process group, as a terminal
    does, with ``group``): its exit status and standard error, once the
    engine and its child are seen to end."""
    pids_file = tmp_path / "pids"
    engine = "engine:" + shlex.join([sys.executable, str(MISBEHAVING), "forker+hang",
                                     str(pids_file)])
    proc = start_python("-c", interruptible(CLI), "tournament", engine, "random", "--games",
                        "1", "--time-limit", "60", *more, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, start_new_session=group)
    pids: list[int] = []
    try:
        pids = wait_for_pids(pids_file, proc)
        sent = time.monotonic()
        if group:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
        _, err = proc.communicate(timeout=STOPS)
        print(f"\n{signal.Signals(signum).name}: exited {time.monotonic() - sent:.2f} s after")
        assert all(ends(pid) for pid in pids), pids
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        kill_left(pids)
    return proc.returncode, err


@pytest.mark.parametrize(("signum", "line"), [
    (signal.SIGINT, "wts tournament: interrupted"),
    (signal.SIGTERM, "wts tournament: stopped by SIGTERM"),
    (signal.SIGHUP, "wts tournament: stopped by SIGHUP"),
])
def test_a_signal_to_wts_tournament_ends_the_engines_process_group(
        tmp_path: Path, signum: int, line: str) -> None:
    status, err = stop_a_match(tmp_path, signum)
    assert status == 128 + signum and err.splitlines() == [line], (status, err)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_wts_tournament_on_threads_ends_the_engines(tmp_path: Path,
                                                                 signum: int) -> None:
    status, err = stop_a_match(tmp_path, signum, "--jobs", "2")
    assert status == 128 + signum, (status, err)
    assert err.splitlines()[-1] == f"wts tournament: stopped by {signal.Signals(signum).name}"


@pytest.mark.parametrize("group", [False, True], ids=["driver", "process group"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_wts_tournament_on_processes_ends_the_workers_engines(
        tmp_path: Path, signum: int, group: bool) -> None:
    status, err = stop_a_match(tmp_path, signum, "--backend", "process", "--workers", "1",
                               group=group)
    assert status == 128 + signum, (status, err)
    assert f"wts tournament: stopped by {signal.Signals(signum).name}" in err.splitlines()


@pytest.mark.xdist_group("ray")
def test_sigterm_to_wts_tournament_on_ray_ends_the_engines(tmp_path: Path) -> None:
    """ray.init sets a SIGTERM handler of its own: the command line's is put back."""
    pytest.importorskip("ray")
    status, err = stop_a_match(tmp_path, signal.SIGTERM, "--backend", "ray", "--workers", "1")
    assert status == 143 and err.splitlines()[-1] == "wts tournament: stopped by SIGTERM", err


@pytest.mark.parametrize("ending", ["raise", "return", "killed"])
def test_a_program_that_ends_while_its_engine_searches_ends_the_engine(
        tmp_path: Path, ending: str) -> None:
    """``killed``: SIGKILL leaves no atexit to run; the reaper ends the engine."""
    pids_file = tmp_path / "pids"
    done = run_python("-c", LIBRARY, str(MISBEHAVING), str(pids_file), ending, timeout=STARTS)
    pids = [int(pid) for pid in pids_file.read_text().split()]
    try:
        assert done.returncode == {"raise": 1, "return": 0, "killed": -9}[ending], done.stderr
        assert all(ends(pid) for pid in pids), pids
    finally:
        kill_left(pids)


def test_an_ignored_sighup_stays_ignored_and_a_second_signal_lets_the_stop_finish() -> None:
    done = run_python("-c", """if True:
        import os, signal
        from wts._interrupts import Terminated, termination_raised
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        with termination_raised() as received:
            print(signal.getsignal(signal.SIGHUP) is signal.SIG_IGN)
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(100):
                    signal.pthread_sigmask(signal.SIG_BLOCK, [])  # a moment for the handler
            except Terminated as exc:
                print(exc.exit_status)
                os.kill(os.getpid(), signal.SIGTERM)  # noted, not raised: the stop goes on
                print(received)
        print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)
    """, timeout=STARTS)
    assert done.stdout.split() == ["True", "143", "[15,", "15]", "True"], done


def test_a_termination_waits_for_a_step_that_must_be_whole_as_ctrl_c_does() -> None:
    done = run_python("-c", """if True:
        import os, signal, time
        from wts._interrupts import Terminated, interrupts_deferred, termination_raised
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        with termination_raised():
            try:
                with interrupts_deferred():
                    os.kill(os.getpid(), signal.SIGTERM)
                    time.sleep(0.2)
                    print("whole")
            except Terminated as exc:
                print("after", exc.signum)
    """, timeout=STARTS)
    assert done.stdout.split() == ["whole", "after", str(int(signal.SIGTERM))], done
