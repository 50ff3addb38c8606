"""The engine client's processes and threads: nothing an engine starts outlives
it, nothing hangs the caller, and lines the client did not ask for are refused."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import wts
from tests.support.engines import child_pid, misbehaving
from tests.support.processes import ends, running
from wts.protocol import Engine, Limit
from wts.protocol.errors import EngineProtocolError, EngineTerminatedError
from wts.runtime import backends

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="needs /proc and fork")


@pytest.fixture
def no_thread_left() -> Iterator[None]:
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t not in before and t.name.startswith("wts-")]
    for thread in left:  # a reader sees its pipe closed within 0.1 s, on an idle machine
        thread.join(10)
    assert not [t for t in left if t.is_alive()], left


def quit_in_a_thread(engine: Engine) -> bool:
    """Whether ``engine.quit()`` returned (a hang is reported, not waited for)."""
    thread = threading.Thread(target=engine.quit, daemon=True)
    thread.start()
    thread.join(30)
    return not thread.is_alive()


def test_a_child_holding_the_engines_pipes_is_killed_and_quit_returns(
        no_thread_left: None) -> None:
    engine = Engine.popen(misbehaving("forker"))
    child = child_pid(engine)
    try:
        assert quit_in_a_thread(engine)
        assert ends(child)  # its process group was killed, though the engine had exited
    finally:
        if running(child):
            os.kill(child, signal.SIGKILL)


def test_a_child_that_left_the_engines_session_cannot_hang_the_caller(
        no_thread_left: None) -> None:
    engine = Engine.popen(misbehaving("setsid"))
    child = child_pid(engine)
    try:
        assert quit_in_a_thread(engine)
        for thread in engine._threads:
            thread.join(10)
        assert not any(thread.is_alive() for thread in engine._threads)
    finally:
        os.kill(child, signal.SIGKILL)


_KEPT: list[Engine] = []


def start_a_forking_engine(_: object) -> tuple[int, int]:
    """In a pool's worker: an engine left running, with a child of its own."""
    engine = Engine.popen(misbehaving("forker"))
    _KEPT.append(engine)
    return engine._process.pid, child_pid(engine)


def test_a_terminated_pool_worker_kills_its_engines() -> None:
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=backends._start_worker, initargs=(os.getpid(),))
    pids: tuple[int, int] = (0, 0)
    try:
        pids = pool.submit(start_a_forking_engine, None).result(60)
        backends._stop_pool(pool)  # as on Ctrl-C: the workers are terminated
        assert ends(pids[0]) and ends(pids[1])
    finally:
        backends._stop_pool(pool)
        for pid in pids:
            if pid and running(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_move_the_client_did_not_ask_for_is_refused(no_thread_left: None) -> None:
    engine = Engine.popen(misbehaving("early"))
    try:
        with pytest.raises(EngineProtocolError, match=r"before go.*unasked.*move A1"):
            engine.play(wts.Game(), "black", Limit(movetime=0.5))
    finally:
        engine.kill()


def test_an_error_answering_position_names_the_command_it_answers(
        no_thread_left: None) -> None:
    engine = Engine.popen(misbehaving("errposition"))
    try:
        with pytest.raises(EngineProtocolError,
                           match=r"earlier command.*position.*I refuse this position"):
            engine.play(wts.Game(), "black", Limit(movetime=0.5))
    finally:
        engine.kill()


def test_a_failed_rules_request_is_named_in_the_error(no_thread_left: None) -> None:
    engine = Engine.popen(misbehaving("rulesexit"))
    fen = wts.Game().fen()
    try:
        with pytest.raises(EngineTerminatedError,
                           match=f"status 4 .*the request: rules play {fen} A1 B1"):
            engine.rules_play(fen, wts.parse_square("A1"), wts.parse_square("B1"))
    finally:
        engine.kill()
