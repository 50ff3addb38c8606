"""Engines on both sides of the protocol: the client (wts.protocol.Engine and
AsyncEngine), `wts engine` serving any player, engines as players in matches
on every backend, the example engines in Python and C, and every way an engine
can fail, each of which must forfeit a game and never take the caller down."""

from __future__ import annotations

import asyncio
import io
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import wts
from tests.support.compilers import unix_c_compiler
from tests.support.engines import misbehaving
from tests.support.processes import ROOT
from wts.cli import main as cli
from wts.players.agents import make_agent
from wts.players.ladder import run_ladder
from wts.players.specs import AgentSpec
from wts.players.tournament import format_result, play_match
from wts.protocol import AsyncEngine, Engine, Limit
from wts.protocol.client import STDERR_LIMIT
from wts.protocol.errors import (
    EngineIllegalMoveError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from wts.protocol.player import EngineAgent

EXAMPLES = ROOT / "examples" / "engines"
PYTHON = shlex.quote(sys.executable)


@pytest.fixture(autouse=True)
def time_to_quit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A loaded machine may take more than the second an engine is given to
    exit after quit (a Python engine tears its interpreter down); the tests
    of a late exit set their own."""
    import wts.protocol.check
    import wts.protocol.client

    monkeypatch.setattr(wts.protocol.client, "QUIT_GRACE", 10.0)
    monkeypatch.setattr(wts.protocol.check, "QUIT_GRACE", 10.0)


def wts_engine(agent: str = "random", *more: str) -> list[str]:
    """The command of `wts engine --agent AGENT`."""
    return [sys.executable, "-m", "wts", "engine", "--agent", agent, *more]


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The C example engine, built with the system's C compiler."""
    compiler = unix_c_compiler()
    if compiler is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH")
    program = tmp_path_factory.mktemp("c-engine") / "tiny_random"
    subprocess.run([compiler, "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o",
                    str(program), str(EXAMPLES / "tiny_random.c")], check=True)
    return str(program)


# --- the client and `wts engine` -------------------------------------------------------


def test_handshake_play_and_quit_through_wts_engine() -> None:
    with Engine.popen(wts_engine("greedy")) as engine:
        assert (engine.name, engine.author, engine.version) == ("wts greedy", "wts", 1)
        assert engine.options["seed"].type == "spin" and "rules" in engine.features
        engine.configure({"seed": 5})
        game = wts.Game.from_setup(black=["A1", "B1", "C1", "D1"], white=["A9"])
        result = engine.play(game, "black", Limit(movetime=0.5))
        assert result.square == wts.parse_square("E1")  # greedy completes its five
        assert result.info.time is not None and result.seconds < 1.5
        process = engine._process
    assert process.returncode == 0  # quit: it exited by itself


def test_an_engine_follows_the_game_with_the_moves_since_its_last_position() -> None:
    sent: list[str] = []
    game = wts.Game()
    fens = []
    with Engine.popen(wts_engine("random")) as engine:
        original = engine._send

        def recording(line: str) -> None:
            sent.append(line)
            original(line)

        engine._send = recording  # type: ignore[method-assign]
        for _ in range(3):
            fens.append(game.fen())
            square = engine.play(game, "white", Limit(movetime=0.2)).square
            game.play(next(sq for sq in game.legal_moves() if sq != square), square)
        engine.play(wts.Game(), "black", Limit(movetime=0.2))
    turns = [f"{wts.square_name(t.black_move)} {wts.square_name(t.white_move)}"
             for t in game.history]
    positions = [line for line in sent if line.startswith(("position", "newgame"))]
    assert positions == [
        "newgame", f"position {fens[0]}",
        f"position {fens[1]} moves {turns[0]}", f"position {fens[2]} moves {turns[1]}",
        "newgame", f"position {fens[0]}",  # another game starts afresh
    ]


def test_stop_ends_an_infinite_search_and_isready_is_answered_meanwhile() -> None:
    stop = threading.Event()
    with Engine.popen(wts_engine("mcts:5")) as engine:
        timer = threading.Timer(0.3, stop.set)
        timer.start()
        started = time.monotonic()
        result = engine.play(wts.Game(), wts.Color.WHITE, Limit(infinite=True), stop=stop)
        took = time.monotonic() - started
        assert took >= 0.3 and result.square in range(81)
        assert result.info.playouts is not None and result.info.playouts > 0
        engine.ping()


def test_the_asyncio_form_plays_and_quits() -> None:
    async def match() -> tuple[int, int]:
        engine = await AsyncEngine.popen(wts_engine("random"))
        try:
            await engine.ping()
            result = await engine.play(wts.Game(), "black", Limit(movetime=0.2))
            answer = await engine.rules_status("9/9/9/9/9/9/9/9/xxxxx4 - 7")
            return result.square, answer.counts[0]
        finally:
            await engine.quit()

    square, counts = asyncio.run(match())
    assert square in range(81) and counts == 5


def test_wts_engine_answers_every_bad_line_with_error() -> None:
    lines = ["wtsp 1", "hello", "go black", "position 9/9/9 - 0", "setoption name hash value 8",
             "rules play 9/9/9/9/9/9/9/9/9 - 0 E5", "isready", "quit"]
    proc = subprocess.run(wts_engine("random"), input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    out = proc.stdout.splitlines()
    errors = [line for line in out if line.startswith("error ")]
    assert len(errors) == 5, out
    assert "no position" in errors[1] and "no option 'hash'" in errors[3]
    assert out[-1] == "readyok" and proc.returncode == 0


# --- engines that fail -------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "error", "reason"), [
    ("crash", EngineTerminatedError, "exited with status 3"),
    ("hang", EngineTimeoutError, "did not answer go in time"),
    ("garbage", EngineProtocolError, "bestmove e2e4"),
    ("badsquare", EngineProtocolError, "J1"),
    ("refuse", EngineProtocolError, "I will not"),
])
def test_a_failing_engine_raises_the_reason_and_is_ended(mode: str, error: type,
                                                         reason: str) -> None:
    # The margin after the move time is short only where it is awaited to the end.
    engine = Engine.popen(misbehaving(mode), overhead=0.3 if mode == "hang" else 30.0)
    with pytest.raises(error, match=reason):
        engine.play(wts.Game(), "black", Limit(movetime=0.1))
    assert not engine.alive and engine._process.poll() is not None
    if mode == "crash":
        assert "crashing as asked" in engine.stderr
    with pytest.raises(EngineTerminatedError, match="ended"):  # and it stays ended
        engine.play(wts.Game(), "black", Limit(movetime=0.1))


def test_an_illegal_square_is_refused_by_the_client() -> None:
    engine = Engine.popen(misbehaving("occupied"))
    game = wts.Game.from_setup(black=["E5"])
    with pytest.raises(EngineIllegalMoveError, match="named E5 for white, which holds a black"):
        engine.play(game, "white", Limit(movetime=0.1))
    assert not engine.alive


@pytest.mark.parametrize(("mode", "reason"), [
    ("version", "protocol version 2"), ("silent", "no answer to the handshake"),
])
def test_a_bad_handshake_fails_popen(mode: str, reason: str) -> None:
    with pytest.raises((EngineProtocolError, EngineTimeoutError), match=reason):
        Engine.popen(misbehaving(mode), timeout=1.0 if mode == "silent" else 30.0)


def test_a_program_that_cannot_start_says_so() -> None:
    with pytest.raises(EngineTerminatedError, match="cannot start"):
        Engine.popen(["/nonexistent/engine"])
    with pytest.raises(ValueError, match="no program"):
        make_agent("engine:/nonexistent/engine --fast")


def test_stderr_is_kept_but_bounded() -> None:
    with Engine.popen(misbehaving("flood")) as engine:
        engine.play(wts.Game(), "black", Limit(movetime=0.5))
        deadline = time.monotonic() + 5
        while "the last line" not in engine.stderr and time.monotonic() < deadline:
            time.sleep(0.01)
        assert engine.stderr.endswith("the last line\n")
        assert len(engine.stderr) <= STDERR_LIMIT


@pytest.mark.usefixtures("sigint_raises")
def test_ctrl_c_during_a_search_kills_the_engine() -> None:
    engine = Engine.popen(misbehaving("hang"))
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        engine.play(wts.Game(), "black", Limit(infinite=True))
    assert engine._process.poll() is not None  # its process group was killed


@pytest.mark.usefixtures("sigint_raises")
def test_ctrl_c_taken_by_another_thread_still_stops_a_search_without_a_limit() -> None:
    """The signal lands on a thread of the process's, not the main one: that
    sets Python's flag but does not wake the main thread, which sees it at
    the end of its wait's current slice."""
    engine = Engine.popen(misbehaving("hang"))

    def interrupt_this_thread() -> None:
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    timer = threading.Timer(0.3, interrupt_this_thread)
    # Without slices the wait would last until the engine ends: 10 s, not for ever.
    watchdog = threading.Timer(10, engine._process.kill)
    timer.start()
    watchdog.start()
    try:
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            engine.play(wts.Game(), "black", Limit(infinite=True))
        assert time.monotonic() - started < 5
    finally:
        watchdog.cancel()
    assert engine._process.poll() is not None


def test_ctrl_c_before_go_kills_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Caught while the client waits for readyok: the engine is mid-exchange."""
    engine = Engine.popen(wts_engine("random"))

    def interrupted(what: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "_sync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        engine.play(wts.Game(), "black", Limit(movetime=0.1))
    assert not engine.alive and engine._process.poll() is not None


# --- engines as players -------------------------------------------------------------------


def spec(command: list[str] | str) -> str:
    return "engine:" + (command if isinstance(command, str) else shlex.join(command))


def test_engine_specs_keep_their_command_and_take_no_options() -> None:
    text = spec([sys.executable, str(EXAMPLES / "tiny_random.py")]) + " --Flag,x=1"
    assert AgentSpec.parse(text) == AgentSpec("engine", command=text[len("engine:"):])
    agent = make_agent(text, seed=3, time_limit=0.5)
    assert isinstance(agent, EngineAgent)
    assert agent.command[-1] == "--Flag,x=1" and agent.limit.movetime == 0.5


def test_forfeits_are_recorded_and_reported_in_a_match() -> None:
    result = play_match(spec(misbehaving("occupied")), "random", 2, seed=1)
    assert result.b_wins == 2 and len(result.forfeits) == 2
    assert all("forfeits: the engine named E5" in (r.forfeit or "") for r in result.forfeits)
    report = format_result(result)
    assert "forfeits" in report and "game 0 (black misbehaving occupied" in report  # its id name


def test_python_and_c_examples_play_wts_players_on_threads(c_engine: str) -> None:
    python_engine = spec([sys.executable, str(EXAMPLES / "tiny_random.py")])
    result = play_match(python_engine, "engine:" + c_engine, 4, seed=2, jobs=2)
    assert result.games == 4 and not result.forfeits
    result = play_match("greedy", "engine:" + c_engine, 4, seed=2)
    assert result.a_wins >= 3 and not result.forfeits  # greedy beats random moves


def test_engines_play_on_the_process_backend(c_engine: str) -> None:
    local = play_match("engine:" + c_engine, "random", 4, seed=5)
    spread = play_match("engine:" + c_engine, "random", 4, seed=5, backend="process",
                        workers=2)
    # The engine gets its seed through its seed option: the same games everywhere.
    assert [r.moves for r in spread.records] == [r.moves for r in local.records]
    assert not spread.forfeits


@pytest.mark.xdist_group("ray")
def test_engines_play_on_the_ray_backend(c_engine: str) -> None:
    pytest.importorskip("ray")
    result = play_match("engine:" + c_engine, "random", 4, seed=5, backend="ray", workers=2)
    assert result.games == 4 and not result.forfeits


def test_engines_in_the_ladder_and_the_command_line(c_engine: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    ladder = run_ladder([1], ["random", "engine:" + c_engine], games=2, seed=0)
    assert "engine:" + c_engine in [r.player for r in ladder.ratings]
    assert cli.main(["tournament", "engine:" + c_engine, "random", "--games", "2"]) == 0
    assert f"engine:{c_engine} vs random, 2 games" in capsys.readouterr().out
    assert cli.main(["play", "--black", "greedy", "--white", "engine:" + c_engine,
                     "--seed", "1"]) == 0
    assert "white engine:" in capsys.readouterr().out


def test_engine_check_passes_the_examples(c_engine: str) -> None:
    from wts.protocol.check import check_engine

    for command in (c_engine, [sys.executable, str(EXAMPLES / "tiny_random.py")]):
        report = check_engine(command, positions=150, games=2)
        assert report.passed, report.format()
        names = [check.name for check in report.checks]
        assert names == ["handshake", "isready", "options", "malformed input", "positions",
                         "games", "game clock", "stop", "during a search", "quit"]


def test_engine_check_reports_a_broken_engine(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["engine-check", shlex.join(misbehaving("occupied")), "--positions", "20"])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL  positions" in out and "named E5" in out and "FAIL  malformed input" in out


def test_no_engine_process_outlives_a_test() -> None:
    # Every engine above was quit or killed; none is left as a child of this process.
    children = Path(f"/proc/{os.getpid()}/task")
    if not children.exists():
        pytest.skip("needs /proc")
    ps = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(os.getpid())],
                        capture_output=True, text=True)
    assert "misbehaving.py" not in ps.stdout and "tiny_random" not in ps.stdout, ps.stdout


def test_an_engine_plays_itself_in_selfplay(c_engine: str, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from wts.scale.selfplay import load, selfplay

    report = selfplay(tmp_path / "run", 2, agent="engine:" + c_engine, seed=1)
    assert report.games == 2 and report.examples > 0
    data = load(tmp_path / "run")
    assert data.agent == "engine:" + c_engine  # the command keeps its case


@pytest.mark.parametrize(("command", "said", "unsaid"), [
    ("engine-check", "feature rules", "--rules"),  # engine-check has no --rules flag
    ("tournament", "engine:CMD", None),
    ("ladder", "engine:CMD", None),
])
def test_the_help_names_engine_programs_and_only_real_flags(
        command: str, said: str, unsaid: str | None,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert said in text
    assert unsaid is None or unsaid not in text
    if command == "tournament":
        assert "engine:CMD gets it as its movetime" in text and "1 s" in text


def test_the_protocol_document_agrees_with_the_client_and_engine_check() -> None:
    text = " ".join((ROOT / "docs" / "protocol.md").read_text().split())
    assert "| `id author TEXT` | its author. Expected |" in text  # engine-check fails without
    assert "4294967295" in text.split("**`rules status POSITION`**")[1]  # the turn cap's draw
    for fact in ("lower-case file", "sends `newgame` before the first `position`",
                 "gets it again mid-session", "standard error", "`setsid`",
                 "sends `isready` after every `position`"):
        assert fact in text, fact


def test_reports_and_records_name_an_engine_by_the_name_it_declares(tmp_path: Path) -> None:
    """``id name``, not the command line, in a match's table, an SPRT report
    and a game record."""
    from wts.cli import play as terminal
    from wts.players.pairs import format_sprt, play_sprt
    from wts.players.sprt import parse_sprt
    from wts.players.tournament import format_result, play_match

    tiny = spec([sys.executable, str(EXAMPLES / "tiny_random.py")])
    result = play_match(tiny, "random", 2, seed=1, time_limit=0.2)
    assert result.names == ["tiny random (Python)", None]
    table = format_result(result).split("\n", 1)[1]  # the first line is the header
    assert "tiny random (Python)" in table and "tiny_random.py" not in table
    sprt = play_sprt(tiny, "random", parse_sprt("elo0=0,elo1=100"), max_pairs=1, suite=1,
                     time_limit=0.2)
    report = format_sprt(sprt)
    assert "tiny random (Python) vs random" in report and "tiny_random.py" not in report
    saved = tmp_path / "game.wts"
    terminal.play_in_terminal(tiny, "random", seed=1, save=str(saved), out=io.StringIO(),
                              stdin=io.StringIO())
    black = wts.record.read(saved).headers["Black"]
    assert black.startswith("tiny random (Python) (engine:") and "(seed 1)" in black
