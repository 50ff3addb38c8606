"""``wts engine-check``: each declared option really tried, the lines an engine
must refuse, the commands of a search, the turn cap, and the report naming
what its short fuzz did not reach."""

from __future__ import annotations

import sys

import pytest

from tests.support.engines import ENGINES
from tests.support.processes import ROOT
from wts.protocol.check import MALFORMED, RULES_MALFORMED, check_engine


def program(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / name), *args]


def checks(command: list[str], **kwargs: int) -> dict[str, object]:
    report = check_engine(command, positions=5, games=1, rules_games=5, **kwargs)
    return {"report": report, **{check.name: check for check in report.checks}}


def test_every_option_is_set_pressed_and_refused_a_wrong_value() -> None:
    from wts.protocol.check import _check_options, _Run

    run = _Run(program("options.py", "strict"), 0.05, None)
    try:
        option = _check_options(run)
        assert run.engine is not None
        run.engine.ping()
        stderr = run.engine.stderr
    finally:
        assert run.engine is not None
        run.engine.quit()
    assert option.passed, option.detail
    # a value other than the default of each, and the button pressed
    for said in ("set seed 1", "set Hash 17", "set Ponder true", "set Style wild",
                 "set Book wts-engine-check", "pressed Clear"):
        assert said in stderr, stderr
    # then the defaults again
    assert stderr.index("set Hash 16") > stderr.index("set Hash 17")


def test_an_engine_taking_any_value_fails_the_options() -> None:
    option = checks(program("options.py", "lax"))["options"]
    assert not option.passed  # type: ignore[attr-defined]
    for wrong in ("seed value 1001", "seed value -1", "seed value x"):
        assert f"'setoption name {wrong}' got [], not one error line" in option.detail  # type: ignore[attr-defined]


def test_an_option_without_a_default_fails() -> None:
    option = checks(program("options.py", "nodefault"))["options"]
    assert not option.passed and "Hash: declares no default" in option.detail  # type: ignore[attr-defined]


def test_words_after_quit_are_an_error_not_a_quit() -> None:
    assert "quit now" in MALFORMED
    assert "position 9/9/9/9/9/9/9/9/9 - 0 moves 40 41" in MALFORMED
    malformed = checks(program("misbehaving.py", "quitwords"))["malformed input"]
    assert not malformed.passed and "'quit now'" in malformed.detail  # type: ignore[attr-defined]


def test_a_second_wtsp_during_a_search_must_be_refused() -> None:
    search = checks(program("misbehaving.py", "searchy"))["during a search"]
    assert not search.passed, search.detail  # type: ignore[attr-defined]
    assert "wtsp 1" in search.detail  # type: ignore[attr-defined]


def test_a_searching_engine_passes_the_search_check() -> None:
    search = checks([sys.executable, "-m", "wts", "engine", "--agent", "mcts:1"])[
        "during a search"]
    assert search.passed and "isready answered while go infinite ran" in search.detail  # type: ignore[attr-defined]


def test_the_turn_cap_is_checked_in_the_rules_lines() -> None:
    found = checks(program("mutant_rules.py", "no-turn-cap"))
    lines = found["rules lines"]
    assert not lines.passed  # type: ignore[attr-defined]
    assert "4294967295" in lines.detail and "rules status draw 0 0" in lines.detail  # type: ignore[attr-defined]
    good = checks([sys.executable, "-m", "wts", "engine", "--agent", "random"])["rules lines"]
    assert good.passed and f"{len(RULES_MALFORMED)} malformed" in good.detail  # type: ignore[attr-defined]


@pytest.mark.parametrize("request_line", RULES_MALFORMED)
def test_a_non_square_in_rules_play_is_an_error(request_line: str) -> None:
    from wts.protocol import Engine

    with Engine.popen([sys.executable, "-m", "wts", "engine", "--agent", "random"]) as engine:
        engine._send(request_line)
        answer = engine._readline(None, request_line)
    assert answer is not None and answer.startswith("error ")


def test_the_rules_part_names_the_branches_it_did_not_reach() -> None:
    part = checks([sys.executable, "-m", "wts", "engine", "--agent", "random"])["rules part"]
    assert part.passed and "not reached: " in part.detail  # type: ignore[attr-defined]
    assert "rule branches not reached" not in part.detail  # type: ignore[attr-defined]


def test_the_protocol_document_settles_each_question() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    summary = text.split("## The game in one paragraph")[1].split("### ")[0]
    assert "wins at once" in summary and "*dissolve*" in summary and "turn cap" in summary
    assert "decided by who has more" not in summary
    for settled in ("a number\n(`40`) is never a square", "`quit now` is answered with `error`",
                    "during a search it answers\n`error`", "During a search it is answered at once",
                    "declares its `default`", "a field not listed here",
                    "keep an engine process running from one game to the next",
                    "`--restart game` starts a new process for every game",
                    "`rules illegal` is only for",
                    "hatching for no one (rules point 8)", "no side may rely on it"):
        assert settled.lower().replace("\n", " ") in " ".join(text.lower().split()), settled
