"""Ctrl-C stops every long call: within half a second, with KeyboardInterrupt
(exit status 130 for the command line), no thread or worker process left
running, and the caller's objects as they were.

Each case runs in a child process that prints "ready" just before the long
call; the test waits a moment for the call to get under way, sends SIGINT,
and reads what the child reports. The latencies are printed (``pytest -s``),
not asserted: the machine may be loaded; only a generous deadline is. The
children set SIGINT's handler themselves (``interruptible``), so these tests
pass in a run started with SIGINT ignored too, as the last test checks.
"""

from __future__ import annotations

import os
import pathlib
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.support.processes import (
    ROOT,
    interruptible,
    run_ignoring_sigint,
    run_python,
    start_python,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")

DEADLINE = 10.0  # seconds for anything the child does: far beyond the half second promised
UNDER_WAY = 0.3  # seconds after "ready" before SIGINT: the call is in its C loop by then

# Run by the child around each library case, which defines ``call`` and ``state``
# (what the caller's objects look like, to compare before and after).
LIBRARY_CHILD = """
import threading, time
import wts
{case}
before = state()
print("ready", flush=True)
began = time.perf_counter()
try:
    call()
except KeyboardInterrupt:
    print(f"interrupted after {{time.perf_counter() - began:.3f}} s", flush=True)
    print(f"threads {{threading.active_count()}}", flush=True)
    print(f"unchanged {{state() == before}}", flush=True)
else:
    print("finished", flush=True)
"""

LIBRARY_CASES = {
    "simulate, 1 thread": """
start = wts.Game.from_setup(black=["E5"], white=["E6"], eggs=["A1"])
state = lambda: (start.fen(), start.history)
call = lambda: wts.simulate(10**15, seed=1, threads=1, start=start)
""",
    "simulate, 2 threads": """
start = wts.Game.from_setup(black=["E5"], white=["E6"], eggs=["A1"])
state = lambda: (start.fen(), start.history)
call = lambda: wts.simulate(10**15, seed=1, threads=2, start=start)
""",
    "perft depth 4, fast engine": """
game = wts.Game()
game.play("E5", "E6")
state = lambda: (game.fen(), game.history)
call = lambda: wts.perft(game, 4)
""",
    "perft depth 3, reference engine": """
game = wts.reference.Game()
state = lambda: (game.fen(), game.history)
call = lambda: wts.perft(game, 3)
""",
    "MCTSAgent.select": """
from wts.players.agents import MCTSAgent
game = wts.Game()
agent = MCTSAgent(playouts=10**9, seed=1)
state = lambda: (game.fen(), agent._rng.getstate(), agent.last_search, agent.total_playouts)
call = lambda: agent.select(game, "black")
""",
    "Search.run": """
from wts.players._search import Search
game = wts.Game()
search = Search(game, seed=1)
state = lambda: game.fen()
call = lambda: search.run(10**9)
""",
    "play_match, 1 job": """
from wts.players.tournament import play_match
state = lambda: None
call = lambda: play_match("mcts:5", "mcts:5", 100, jobs=1)
""",
}

# The command line as ``wts`` runs it, saying "ready" first and, once main()
# has returned, how many threads and worker processes are left.
CLI_CHILD = """
import multiprocessing, sys, threading
from wts.cli.main import main
print("ready", flush=True)
status = main(sys.argv[1:])
print(f"threads {threading.active_count()}", flush=True)
print(f"processes {len(multiprocessing.active_children())}", flush=True)
sys.exit(status)
"""


class Child:
    """A child Python process whose stdout lines are read, timestamped, as they come."""

    def __init__(self, code: str, *args: str, new_session: bool = False) -> None:
        self.proc = start_python("-c", interruptible(code), *args, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, start_new_session=new_session)
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.out: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def wait_for(self, prefix: str) -> float:
        """When the first line starting with ``prefix`` came."""
        end = time.monotonic() + DEADLINE
        while True:
            try:
                when, line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                self.kill()
                pytest.fail(f"no {prefix!r} within {DEADLINE} s; output: {self.out}")
            if line is None:
                pytest.fail(f"the child ended before {prefix!r}: {self.out} {self.stderr()}")
            self.out.append(line)
            if line.startswith(prefix):
                return when

    def finish(self) -> tuple[int, float, list[str], str]:
        """Exit status, when it exited, every stdout line and stderr."""
        try:
            self.proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"the child did not exit within {DEADLINE} s of SIGINT: {self.out}")
        exited = time.monotonic()
        while (item := self.lines.get(timeout=DEADLINE))[1] is not None:
            self.out.append(item[1])
        return self.proc.returncode, exited, self.out, self.stderr()

    def stderr(self) -> str:
        assert self.proc.stderr is not None
        return self.proc.stderr.read() if self.proc.poll() is not None else ""

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def _report(case: str, sent: float, stopped: float, exited: float) -> None:
    """Print how long after SIGINT the call stopped (KeyboardInterrupt caught, or
    main() returned) and the process exited."""
    print(f"\n{case}: stopped {1e3 * (stopped - sent):.0f} ms after SIGINT, "
          f"exited {1e3 * (exited - sent):.0f} ms after")


@pytest.mark.parametrize("case", list(LIBRARY_CASES))
def test_a_long_library_call_stops_on_ctrl_c(case: str) -> None:
    child = Child(LIBRARY_CHILD.format(case=LIBRARY_CASES[case]))
    child.wait_for("ready")
    time.sleep(UNDER_WAY)
    sent = time.monotonic()
    child.proc.send_signal(signal.SIGINT)
    stopped = child.wait_for("interrupted after")
    status, exited, out, err = child.finish()
    _report(case, sent, stopped, exited)
    assert status == 0, err
    assert "threads 1" in out and "unchanged True" in out, out


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _parent_if_alive(int(entry)) == pid:
            found.add(int(entry))
    return found


def _parent_if_alive(pid: int) -> int | None:
    """The parent of ``pid``, or None if it is gone or a zombie (dead, not yet reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else int(fields[1])


def _interrupt_cli(case: str, args: list[str], workers: int = 0,
                   group: bool = False) -> list[str]:
    """Run ``wts ARGS``, interrupt it once under way (its first line printed,
    and its ``workers`` processes running), check it exits with 130, one line
    and nothing left running; returns its stdout lines."""
    child = Child(CLI_CHILD, *args, new_session=group)
    child.wait_for("ready")
    if args[0] in ("tournament", "fuzz"):  # each prints its header before it plays
        child.wait_for(f"wts {args[0]}:")
    time.sleep(UNDER_WAY)
    workers_seen: set[int] = set()
    if workers:
        end = time.monotonic() + DEADLINE
        while len(workers_seen) < workers and time.monotonic() < end:
            workers_seen = _children(child.proc.pid)
            time.sleep(0.05)
        assert len(workers_seen) == workers, workers_seen
    sent = time.monotonic()
    if group:
        os.killpg(child.proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C does
    else:
        child.proc.send_signal(signal.SIGINT)
    stopped = child.wait_for("threads")  # main() has returned
    status, exited, out, err = child.finish()
    _report(case, sent, stopped, exited)
    assert status == 130, (out, err)
    assert err.splitlines() == [f"wts {args[0]}: interrupted"], err
    assert "threads 1" in out and "processes 0" in out, out
    # Helpers that end when the command's pipes close (spawn's resource tracker)
    # may take a moment after it: give them the deadline.
    end = time.monotonic() + DEADLINE
    while [pid for pid in workers_seen if _parent_if_alive(pid) is not None] \
            and time.monotonic() < end:
        time.sleep(0.05)
    assert not [pid for pid in workers_seen if _parent_if_alive(pid) is not None]
    return out


def test_wts_tournament_on_threads_stops_on_ctrl_c() -> None:
    _interrupt_cli("wts tournament --jobs 2",
                   ["tournament", "mcts:5", "mcts:5", "--games", "100", "--jobs", "2"])


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="lists /proc")


@needs_proc
@pytest.mark.parametrize("group", [False, True], ids=["parent only", "process group"])
def test_wts_fuzz_on_processes_stops_on_ctrl_c(group: bool) -> None:
    out = _interrupt_cli(f"wts fuzz --jobs 2 ({'group' if group else 'parent'})",
                         ["fuzz", "--seconds", "600", "--jobs", "2"], workers=2, group=group)
    assert out[1].startswith("wts fuzz:"), out


@needs_proc
@pytest.mark.parametrize("group", [False, True], ids=["parent only", "process group"])
def test_wts_selfplay_on_processes_stops_on_ctrl_c(group: bool, tmp_path) -> None:
    out = _interrupt_cli(f"wts selfplay --backend process ({'group' if group else 'parent'})",
                         ["selfplay", "--agent", "mcts:5", "--games", "100", "--out",
                          str(tmp_path / "run"), "--backend", "process", "--workers", "2"],
                         workers=3, group=group)  # 2 workers and spawn's resource tracker
    assert not any(line.startswith("wts selfplay:") for line in out), out


@needs_proc
def test_wts_tournament_on_processes_stops_on_ctrl_c() -> None:
    _interrupt_cli("wts tournament --backend process",
                   ["tournament", "mcts:5", "mcts:5", "--games", "100", "--backend",
                    "process", "--workers", "2"], workers=3)


def _child(script: str) -> list[str]:
    result = run_python("-c", interruptible(script), timeout=60)
    return result.stdout.split() + ([result.stderr] if result.returncode else [])


def test_ctrl_c_taken_by_another_thread_while_workers_start_is_raised_after() -> None:
    """A thread started before the signal mask (as Ray's and gRPC's are) takes
    the signal: it is raised once the workers are up, never inside their
    start-up, whose own ``except`` clauses would lose it."""
    assert _child("""if True:
        import os, signal, threading, time
        from wts.runtime.backends import _interrupts_held
        idle = threading.Event()
        threading.Thread(target=idle.wait, daemon=True).start()
        try:
            with _interrupts_held():
                try:
                    os.kill(os.getpid(), signal.SIGINT)
                    time.sleep(0.5)
                except KeyboardInterrupt:
                    print("inside")
            print("not-raised")
        except KeyboardInterrupt:
            print("after")
    """) == ["after"]


def test_ctrl_c_while_a_shard_is_written_stops_the_run_with_the_shard_listed(
        tmp_path: pathlib.Path) -> None:
    """A shard's files and the manifest line that lists them are one step:
    a Ctrl-C between them waits for the manifest, then stops the run."""
    out = tmp_path / "run"
    assert _child(f"""if True:
        import json, os, signal, time
        from wts.scale.runfolder import RunFolder
        from wts.scale.selfplay import selfplay
        write_shard = RunFolder.write_shard
        def interrupted(self, played, agent):
            entry = write_shard(self, played, agent)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)  # the signal's handler runs here
            return entry
        RunFolder.write_shard = interrupted
        try:
            selfplay({str(out)!r}, agent="random", games=4, shard_size=2)
        except KeyboardInterrupt:
            listed = json.loads(open(os.path.join({str(out)!r}, "manifest.json")).read())
            print("listed", *sorted(listed["shards"]))
            print("written", *sorted(os.listdir(os.path.join({str(out)!r}, "games"))))
    """) == ["listed", "0", "written", "shard-00000.parquet"]


def test_ctrl_c_before_the_command_begins_is_reported_like_any_other(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from wts.cli import main as cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["demo"]) == 130
    assert capsys.readouterr().err == "wts: interrupted\n"


#: One Ctrl-C test of each kind: SIGINT sent to the test's own process, to a
#: child in a long call, by a child to itself while another thread runs, and
#: through a pseudo-terminal.
CTRL_C_TESTS = [
    "tests/cli/test_play_cli.py::test_ctrl_c_and_end_of_input_stop_cleanly",
    "tests/protocol/test_engines.py::test_ctrl_c_during_a_search_kills_the_engine",
    "tests/test_interrupt.py::test_a_long_library_call_stops_on_ctrl_c[Search.run]",
    "tests/test_interrupt.py::"
    "test_ctrl_c_taken_by_another_thread_while_workers_start_is_raised_after",
]


def test_the_ctrl_c_tests_pass_in_a_run_started_with_sigint_ignored() -> None:
    """A background job of a non-interactive shell (``bash -c 'pytest & wait'``)
    starts with SIGINT ignored, and so does every process it starts: the
    tests that need SIGINT set its handler themselves."""
    done = run_ignoring_sigint("-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
                               *CTRL_C_TESTS, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(CTRL_C_TESTS)} passed" in done.stdout, done.stdout
