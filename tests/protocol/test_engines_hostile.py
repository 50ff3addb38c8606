"""Engines that fight the client: each hostile case ends in a typed error that
says what happened, within its time, with the client's memory bounded and the
engine's process group ended; and the lines are held to the protocol's grammar."""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

import wts
from tests.support.engines import MISBEHAVING, child_pid, misbehaving
from tests.support.processes import ends, run_python, running, traced_in_a_fresh_process
from wts.limits import MAX_HANDSHAKE_BYTES, MAX_LINE_BYTES, MAX_OPTIONS
from wts.protocol import Engine, Limit
from wts.protocol.errors import EngineProtocolError, EngineTerminatedError

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="needs /proc and fork")


def test_an_engine_that_exits_while_its_child_holds_its_output_is_reported_at_once() -> None:
    engine = Engine.popen(misbehaving("forker+crash"), overhead=30.0)
    child = child_pid(engine)
    try:
        started = time.monotonic()
        with pytest.raises(EngineTerminatedError,
                           match=r"exited with status 3 during go black; its last words on "
                                 r"stderr: 'misbehaving: crashing as asked'"):
            engine.play(wts.Game(), "black", Limit(movetime=30.0))
        assert time.monotonic() - started < 10  # not the minute of the limit and margin
        assert ends(child) and not engine.alive
    finally:
        if running(child):
            os.kill(child, signal.SIGKILL)


def test_an_engine_that_closes_its_output_and_runs_on_is_reported_and_killed() -> None:
    engine = Engine.popen(misbehaving("closeout"), overhead=30.0)
    with pytest.raises(EngineTerminatedError,
                       match=r"closed its standard output and went on running \(during go "
                             r"black\); its process group was killed"):
        engine.play(wts.Game(), "black", Limit(movetime=30.0))
    assert ends(engine._process.pid) and engine._process.returncode == -9


def test_an_engine_that_closes_its_input_and_runs_on_is_reported_and_killed() -> None:
    engine = Engine.popen(misbehaving("closein"), overhead=30.0)
    game = wts.Game()
    assert engine.play(game, "black", Limit(movetime=30.0)).square == wts.parse_square("E5")
    with pytest.raises(EngineTerminatedError,
                       match=r"closed its standard input and went on running \(while a "
                             r"command was sent\); its process group was killed"):
        engine.play(game, "black", Limit(movetime=30.0))
    assert ends(engine._process.pid) and engine._process.returncode == -9


def test_an_engine_killed_by_a_signal_is_named_so() -> None:
    engine = Engine.popen(misbehaving("hang"), overhead=30.0)
    threading.Timer(0.5, engine._process.kill).start()
    with pytest.raises(EngineTerminatedError, match=r"killed by signal 9 \(SIGKILL\) during go"):
        engine.play(wts.Game(), "black", Limit(movetime=30.0))


def test_an_exception_from_the_info_callback_kills_the_engine() -> None:
    engine = Engine.popen([sys.executable, "-m", "wts", "engine", "--agent", "mcts:1"])

    def fails(info: object) -> None:
        raise RuntimeError("the caller's own bug")

    with pytest.raises(RuntimeError, match="own bug"):
        engine.play(wts.Game(), "black", Limit(movetime=0.2), info=fails)
    assert not engine.alive and ends(engine._process.pid)


# Peaks of the client's memory (tracemalloc, every thread) while an engine
# tries to make it hold much: the bound is far above what it needs and far
# below what it held before (41 MB to 392 MB for a million options).
HOSTILE_MEMORY = """
import json, sys, time, tracemalloc
from wts.protocol import Engine, Limit
import wts
tracemalloc.start()
began = time.monotonic()
try:
    engine = Engine.popen([sys.executable, {script!r}, {mode!r}], overhead=30.0)
    engine.play(wts.Game(), "black", Limit(movetime=30.0))
    error = None
except Exception as exc:
    error = f"{{type(exc).__name__}}: {{exc}}"
print(json.dumps({{"peak": tracemalloc.get_traced_memory()[1], "error": error,
                  "seconds": time.monotonic() - began}}))
"""


@pytest.mark.parametrize(("mode", "reason"), [
    ("options", f"EngineProtocolError: the engine declares more than {MAX_OPTIONS} options"),
    ("features", f"EngineProtocolError: the handshake is longer than {MAX_HANDSHAKE_BYTES} "
                 "bytes"),
    ("longline", f"EngineProtocolError: during go black: malformed line 'move E5.*longer "
                 f"than {MAX_LINE_BYTES} bytes"),
])
def test_an_engine_cannot_make_the_client_hold_much(mode: str, reason: str) -> None:
    got = traced_in_a_fresh_process(HOSTILE_MEMORY.format(script=str(MISBEHAVING), mode=mode))
    print(f"\n{mode}: peak {got['peak'] / 1e6:.1f} MB, {got['seconds']:.2f} s")
    assert got["error"] is not None and re.match(reason, got["error"]), got["error"]
    assert got["peak"] < 16e6, got
    assert got["seconds"] < 20, got


def test_a_square_outside_ascii_is_refused_through_the_client() -> None:
    engine = Engine.popen(misbehaving("dotless"))
    with pytest.raises(EngineProtocolError, match=r"expected a square like E5, got '\u01315'"):
        engine.play(wts.Game(), "black", Limit(movetime=1.0))
    assert not engine.alive



def test_wts_engine_holds_its_input_to_the_same_limit_and_blanks() -> None:
    wide = "info string " + "\u3000" * 30_000  # under the limit in characters, over in bytes
    sent = ["wtsp 1", wide, "isready\u00a0", " \t", "\u3000", "isready\r"]
    done = run_python("-m", "wts", "engine", "--agent", "random",
                      input="\n".join(sent) + "\n", timeout=60)
    out = [line for line in done.stdout.splitlines() if not line.startswith(("id ", "option"))]
    assert out[out.index("ready") + 1:] == [
        f"error a line longer than {MAX_LINE_BYTES} bytes",
        "error malformed line 'isready\\xa0': unknown command 'isready\\xa0'",
        "error malformed line '\\u3000': unknown command '\\u3000'",
        "readyok"], done.stdout
