"""Differential fuzzing of another implementation through the protocol's rules
part (`wts fuzz --against CMD`): an adapter over the reference engine passes,
and copies of it with one rule broken are caught and shrunk to a reproducer."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import wts
from tests.support.engines import ENGINES
from tests.support.processes import ROOT
from wts.cli import main as cli
from wts.devtools.fuzz import replay, run_fuzz
from wts.protocol import Engine
from wts.protocol.rules import rules_game_class

MUTANTS = ENGINES / "mutant_rules.py"
REFERENCE_ADAPTER = [sys.executable, "-m", "wts", "engine", "--agent", "random",
                     "--rules", "wts.reference:Game"]


def mutant(name: str) -> list[str]:
    return [sys.executable, str(MUTANTS), name]


@pytest.fixture(autouse=True)
def _engines_closed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test's rules engines quit at its end: no process or thread is left."""
    made: list[Any] = []
    original = rules_game_class

    def making(command: Any) -> Any:
        made.append(original(command))
        return made[-1]

    monkeypatch.setitem(globals(), "rules_game_class", making)
    yield
    for candidate in made:
        candidate.close()


def test_the_reference_adapter_passes_and_reaches_every_branch() -> None:
    report = run_fuzz(wts.reference.Game, rules_game_class(REFERENCE_ADAPTER), seed=1, games=60)
    assert report.failure is None
    assert report.unreached == [], report.unreached
    assert report.turns > 500


@pytest.mark.parametrize(("name", "seed", "field"), [
    ("no-dissolve", 3, "TurnResult.dissolved"),
    ("newest-egg-first", 3, "TurnResult.hatched"),
    ("full-board-draws", 1, "TurnResult.status"),
])
def test_a_broken_rule_is_caught_and_shrunk(name: str, seed: int, field: str) -> None:
    candidate = rules_game_class(mutant(name))
    report = run_fuzz(wts.reference.Game, candidate, seed=seed, games=200, shrink_seconds=30)
    failure = report.failure
    assert failure is not None, f"the {name} mutant went unnoticed"
    assert failure.shrunk_difference.field == field
    assert len(failure.shrunk.steps) <= len(failure.script.steps)
    assert len(failure.shrunk.steps) <= 6, failure.shrunk
    assert replay(wts.reference.Game, candidate, failure.shrunk)[0] is not None
    # The reproducer's last request, sent to the mutant, gets another answer than
    # the one this package expects.
    text = candidate.describe_script(failure.shrunk, failure.shrunk_difference)
    lines = text.splitlines()
    request = [line for line in lines if line.startswith("rules play")][-1]
    expected = lines[lines.index(request) + 1].removeprefix("  reference: ")
    engine_said = lines[lines.index(request) + 2]
    assert engine_said.startswith("  engine:    ") and engine_said.endswith("<- differs")
    with Engine.popen(mutant(name)) as engine:
        engine._send(request)
        answer = engine._readline(None, request)
    assert answer is not None and answer != expected
    with Engine.popen(REFERENCE_ADAPTER) as engine:
        engine._send(request)
        assert engine._readline(None, request) == expected


def test_wts_fuzz_against_prints_a_position_and_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["fuzz", "--games", "200", "--seed", "3", "--quiet", "--against",
                       shlex.join(mutant("no-dissolve"))])
    out = capsys.readouterr().out
    assert status == 1
    assert out.startswith(f"wts fuzz: {shlex.join(mutant('no-dissolve'))} against wts.reference")
    assert "MISMATCH" in out and "the dissolve events: the answers differ at step" in out
    assert "# Start position: " in out and "\nrules play " in out
    assert "  reference: rules result " in out and " dissolve " in out
    assert "  engine:    rules result " in out
    # the report speaks the protocol, not Python
    assert "TurnResult" not in out and "Capture(" not in out and "Hatch(" not in out


def test_wts_fuzz_against_a_program_without_the_rules_part_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    tiny = ROOT / "examples" / "engines" / "tiny_random.py"
    status = cli.main(["fuzz", "--games", "1", "--against", f"{sys.executable} {tiny}"])
    assert status == 2  # a program that cannot be fuzzed is a bad argument
    assert "does not declare 'feature rules'" in capsys.readouterr().err


def test_engine_check_fuzzes_the_rules_part() -> None:
    from wts.protocol.check import check_engine

    report = check_engine(mutant("newest-egg-first"), positions=20, games=1, rules_games=100)
    checks = {check.name: check for check in report.checks}
    assert checks["positions"].passed and not checks["rules part"].passed
    assert "the hatch events: the answers differ" in checks["rules part"].detail


FAULTY = ENGINES / "faulty_rules.py"


def faulty(*mode: str) -> list[str]:
    return [sys.executable, str(FAULTY), *mode]


def test_an_engine_that_ignores_the_turn_cap_is_caught() -> None:
    candidate = rules_game_class(mutant("no-turn-cap"))
    report = run_fuzz(wts.reference.Game, candidate, seed=1, games=300, shrink_seconds=20)
    failure = report.failure
    assert failure is not None, "an engine that ignores the turn cap went unnoticed"
    assert failure.shrunk_difference.field == "TurnResult.status"
    assert failure.shrunk.setup.turn > wts.MAX_TURN - 5
    text = candidate.describe_script(failure.shrunk, failure.shrunk_difference)
    assert " 4294967295 draw 0 0" in text and "<- differs" in text


@pytest.mark.parametrize(("mode", "said"), [
    (("crash", "40"), "exited with status 3"),
    (("hang", "40"), "no answer to rules play in time"),
    (("garbage", "40"), "malformed line 'rules resu1t whatever'"),
])
def test_a_crash_a_hang_or_a_malformed_answer_is_a_finding(
        mode: tuple[str, ...], said: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Most of the program's requests are the fuzzer's look-ahead plays on copies:
    # a failure there is reported too, not swallowed by a quiet restart.
    from wts.protocol import rules

    monkeypatch.setattr(rules, "TIMEOUT", 1.0)
    original = rules.rules_game_class
    monkeypatch.setattr(rules, "rules_game_class",
                        lambda command: original(command, timeout=1.0))
    status = cli.main(["fuzz", "--games", "9", "--quiet", "--against", shlex.join(faulty(*mode))])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "ENGINE FAILURE in game " in out and said in out
    assert "no mismatch" not in out and "the request: rules " in out


def test_a_crash_at_one_request_is_shrunk_to_its_request() -> None:
    candidate = rules_game_class(faulty("crash-collision"))
    report = run_fuzz(wts.reference.Game, candidate, seed=0, games=20, shrink_seconds=20)
    failure = report.failure
    assert failure is not None and failure.reproducible
    assert failure.shrunk_difference.field == "engine failure"
    assert len(failure.shrunk.steps) == 1
    told = candidate.describe_difference(failure.shrunk_difference)
    assert told.startswith("the engine failed at step 1: the engine exited with status 3")
    assert "  reference: rules result (the position after) ongoing 0 0 collision " in told
    text = candidate.describe_script(failure.shrunk, failure.shrunk_difference)
    assert text.splitlines()[-1].startswith("  engine:    (no answer: the engine exited")
