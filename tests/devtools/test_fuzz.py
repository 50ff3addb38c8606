"""The differential fuzzer: both engines agree, every rule branch is reached,
and a broken engine is caught and shrunk to a short reproducer."""

from __future__ import annotations

import io
import os
import subprocess
import time
from contextlib import redirect_stdout
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import wts
import wts.engine.reference
from tests.support.processes import run_python
from wts.cli import main as cli
from wts.devtools import fuzz
from wts.devtools.fuzz import (
    BRANCHES,
    POSITION_FIELDS,
    Script,
    Setup,
    classify_turn,
    compare_engines,
    format_coverage,
    replay,
    reproducer,
    run_fuzz,
    shrink,
    snapshot,
    unreached,
)
from wts.engine.events import TurnResult
from wts.engine.pieces import Piece, Status
from wts.engine.squares import SQUARE_NAMES, parse_square
from wts.errors import IllegalMoveError

REFERENCE = wts.reference.Game
FAST = wts.Game


def squares(*names: str) -> tuple[int, ...]:
    return tuple(parse_square(name) for name in names)


# --- Broken engines: each must be caught ------------------------------------------


class DropsHatches(wts.reference.Game):
    """Reports no hatches (the board is still right)."""

    __slots__ = ()

    def play(self, black_move: Any, white_move: Any) -> TurnResult:
        return super().play(black_move, white_move)._replace(hatched=())


class LouderErrors(wts.reference.Game):
    """Same exception type, different message."""

    __slots__ = ()

    def play(self, black_move: Any, white_move: Any) -> TurnResult:
        try:
            return super().play(black_move, white_move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{exc}!") from None


class CountsRefusedMoves(wts.reference.Game):
    """Raises the right error but counts the refused turn."""

    __slots__ = ()

    def play(self, black_move: Any, white_move: Any) -> TurnResult:
        try:
            return super().play(black_move, white_move)
        except IllegalMoveError:
            self._turn += 1
            raise


class ForgetsOldestEgg(wts.reference.Game):
    """Lists the eggs without the oldest one once there are three."""

    __slots__ = ()

    @property
    def eggs(self) -> tuple[int, ...]:
        eggs = super().eggs
        return eggs[1:] if len(eggs) >= 3 else eggs


class SharesStateOnCopy(wts.reference.Game):
    """copy() returns the game itself, so trial plays change the live game."""

    __slots__ = ()

    def copy(self) -> SharesStateOnCopy:
        return self


# --- (a) A state machine driving both engines with the same moves --------------------


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """The empty board, or any arrangement of turtles and eggs."""
    if draw(st.booleans()):
        return Setup()
    order = draw(st.permutations(range(81)))
    black = draw(st.integers(0, 30))
    white = draw(st.integers(0, 30))
    eggs = draw(st.integers(0, 81 - black - white))
    return Setup(
        tuple(order[:black]),
        tuple(order[black:black + white]),
        tuple(order[black + white:black + white + eggs]),
    )


class TwoEngines(RuleBasedStateMachine):
    """The reference and the fast engine fed the same moves, compared after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.ref: Any = None
        self.fast: Any = None
        # What the last step did in each engine: a TurnResult or (type, message).
        self.ref_outcome: Any = None
        self.fast_outcome: Any = None

    @initialize(setup=setups())
    def start(self, setup: Setup) -> None:
        self.ref = setup.build(REFERENCE)
        self.fast = setup.build(FAST)

    def _step(self, black_move: object, white_move: object) -> None:
        outcomes: list[tuple[Any, ...]] = []
        for game in (self.ref, self.fast):
            try:
                outcomes.append(("result", game.play(black_move, white_move)))
            except Exception as exc:
                outcomes.append(("error", type(exc), str(exc)))
        self.ref_outcome, self.fast_outcome = outcomes

    @precondition(lambda self: not self.ref.is_over())
    @rule(data=st.data(), collide=st.booleans())
    def play_legal(self, data: st.DataObject, collide: bool) -> None:
        legal = self.ref.legal_moves()
        black_move = data.draw(st.sampled_from(legal))
        white_move = black_move if collide else data.draw(st.sampled_from(legal))
        self._step(black_move, white_move)

    @rule(data=st.data())
    def play_illegal(self, data: st.DataObject) -> None:
        occupied = sorted(self.ref.black | self.ref.white | set(self.ref.eggs))
        bad = st.sampled_from(occupied) if occupied else st.just("J1")
        anything = st.one_of(bad, st.integers(-2, 82), st.sampled_from(["E0", "", " e5 ", None]))
        before = snapshot(self.ref)
        self._step(data.draw(anything), data.draw(anything))
        if self.ref_outcome[0] == "error":
            assert snapshot(self.ref) == before

    @rule()
    def pop_turn(self) -> None:
        """Undo the last turn: both engines give back the same turn (or the same
        error) and the position before it."""
        outcomes: list[tuple[Any, ...]] = []
        for game in (self.ref, self.fast):
            try:
                outcomes.append(("result", game.pop()))
            except Exception as exc:
                outcomes.append(("error", type(exc), str(exc)))
        self.ref_outcome, self.fast_outcome = outcomes

    @invariant()
    def same_position(self) -> None:
        if self.ref is None:
            return
        ref, fast = snapshot(self.ref), snapshot(self.fast)
        for name, a, b in zip(POSITION_FIELDS, ref, fast):
            assert a == b, f"position.{name}: reference {a!r}, fast {b!r}"

    @invariant()
    def same_outcome(self) -> None:
        ref, fast = self.ref_outcome, self.fast_outcome
        if ref is not None and ref[0] == "result" and fast[0] == "result":
            for name in TurnResult._fields:
                a, b = getattr(ref[1], name), getattr(fast[1], name, None)
                assert a == b, f"TurnResult.{name}: reference {a!r}, fast {b!r}"
        # a result against an error, or two errors: type and message must match
        assert ref == fast, f"outcome: reference {ref!r}, fast {fast!r}"


TwoEngines.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# About 20 s: like the corpus, a slow test (`python -m pytest -m slow`; ci.yml and
# the nightly sanitizer run take it).
TestTwoEngines = pytest.mark.slow(TwoEngines.TestCase)


# --- (b) The seeded corpus ----------------------------------------------------


@pytest.mark.slow
def test_corpus_of_10000_games_agrees_and_reaches_every_branch() -> None:
    jobs = min(2, os.cpu_count() or 1)
    started = time.monotonic()
    report = run_fuzz(REFERENCE, FAST, seed=20240501, games=10_000, jobs=jobs)
    elapsed = time.monotonic() - started
    print(f"\n10,000 games, {report.turns} turns in {elapsed:.1f} s on {jobs} jobs")
    print(format_coverage(report.coverage))
    if report.failure is not None:
        failure = report.failure
        pytest.fail(
            f"engines differ in game {failure.index}: {failure.shrunk_difference.describe()}\n"
            + reproducer(failure.shrunk, failure.shrunk_difference, FAST)
        )
    assert report.games == 10_000
    missing = unreached(report.coverage)
    assert not missing, "never reached: " + ", ".join(BRANCHES[key] for key in missing)


def test_games_are_reproducible_from_seed_and_index() -> None:
    first = fuzz.play_fuzz_game(REFERENCE, FAST, 7, 42)
    again = fuzz.play_fuzz_game(REFERENCE, FAST, 7, 42)
    other = fuzz.play_fuzz_game(REFERENCE, FAST, 7, 43)
    assert first.script == again.script and first.coverage == again.coverage
    assert first.script != other.script


def test_small_run_reaches_branches_and_formats_table() -> None:
    report = run_fuzz(REFERENCE, FAST, seed=3, games=200)
    assert report.failure is None and report.games == 200 and report.turns > 1000
    table = format_coverage(report.coverage)
    lines = table.splitlines()
    assert len(lines) == 2 + len(BRANCHES)
    for key, text in BRANCHES.items():
        assert any(line.startswith(text) for line in lines)
        assert (key in unreached(report.coverage)) == (report.coverage[key] == 0)
    # the count column is aligned: every row has the same width up to the count
    widths = {len(line.split("  <-")[0]) for line in lines[2:]}
    assert len(widths) == 1


def test_unreached_lists_the_missing_branches() -> None:
    counts = dict.fromkeys(BRANCHES, 1)
    assert unreached(counts) == []
    counts["draw"] = 0
    del counts["sd_held"]
    assert unreached(counts) == ["sd_held", "draw"]
    assert "never reached" in format_coverage(counts)


# --- Coverage detection on hand-made turns -------------------------------------------


def classify(setup: Setup, black_move: str, white_move: str) -> tuple[TurnResult, list[str]]:
    game = setup.build(REFERENCE)
    status, eggs = game.status, game.eggs
    result = game.play(black_move, white_move)
    return result, classify_turn(result, status, eggs)


def test_classify_bracket_closed_from_both_ends() -> None:
    # Black's G3 captures twice, so wave 1 hatches the two oldest eggs, A5 and
    # D5, together; they bracket the eggs B5 and C5 from both ends.
    setup = Setup(
        black=squares("D3", "G6"), white=squares("E3", "F3", "G4", "G5"),
        eggs=squares("A5", "D5", "B5", "C5"),
    )
    result, hit = classify(setup, "G3", "I9")
    assert [h.wave for h in result.hatched] == [1, 1]
    assert {"wave1", "both_ends", "captured_egg", "unpaid"} <= set(hit)
    assert "wave2" not in hit and "dissolve" not in hit


def sudden_death_setup() -> Setup:
    # Rows on ranks 3 and 7; black's C5 captures C7 out of white's row (with the
    # egg C6), white's D5 captures D3 out of black's (with the egg D4).
    return Setup(
        black=squares("A3", "B3", "C3", "D3", "E3", "C8"),
        white=squares("A7", "B7", "C7", "D7", "E7", "D2"),
        eggs=squares("I9", "C6", "D4"),
    )


def test_classify_both_rows_broken_with_a_dissolve() -> None:
    assert sudden_death_setup().build(REFERENCE).status is Status.SUDDEN_DEATH
    result, hit = classify(sudden_death_setup(), "C5", "D5")
    assert result.status is Status.ONGOING and result.dissolved == squares("I9")
    assert {"both_capture", "captured_egg", "dissolve", "sd_broken"} <= set(hit)
    assert "sd_held" not in hit and "wave1" not in hit


def test_classify_sudden_death_held_and_won() -> None:
    assert "sd_held" in classify(sudden_death_setup(), "H1", "H2")[1]
    result, hit = classify(sudden_death_setup(), "F3", "H2")
    assert result.status is Status.BLACK_WINS and "sd_won" in hit


def test_classify_sudden_death_entered_and_normal_win() -> None:
    setup = Setup(black=squares("A1", "B1", "C1", "D1"), white=squares("A9", "B9", "C9", "D9"))
    assert "sd_entered" in classify(setup, "E1", "E9")[1]
    result, hit = classify(setup, "E1", "H5")
    assert result.status is Status.BLACK_WINS and "won" in hit and "sd_won" not in hit


def test_classify_collision_filling_the_board_is_a_draw() -> None:
    setup = Setup(eggs=tuple(sq for sq in range(81) if SQUARE_NAMES[sq] != "E5"))
    result, hit = classify(setup, "E5", "E5")
    assert result.status is Status.DRAW and {"collision", "draw"} <= set(hit)


def test_classify_anticipatory_capture() -> None:
    # White's new turtle on B1 is trapped by black's D1 in the same turn.
    setup = Setup(black=squares("A1"), white=squares("C1"), eggs=squares("E5"))
    result, hit = classify(setup, "D1", "B1")
    assert len(result.captures) == 1 and "anticipatory" in hit and "wave1" in hit


# --- Comparing and shrinking --------------------------------------------------


def test_compare_engines_agrees_on_identical_engines() -> None:
    moves = [("E5", "E5"), ("A1", "B1"), (40, "C1"), ("I9", "D1")]
    assert compare_engines(REFERENCE, FAST, Setup(), moves) is None
    assert compare_engines(REFERENCE, REFERENCE, sudden_death_setup(), [("C5", "D5")]) is None


def test_compare_engines_reports_the_differing_field() -> None:
    setup = Setup(black=squares("A1"), white=squares("B1", "C1"), eggs=squares("E5"))
    difference = compare_engines(REFERENCE, DropsHatches, setup, [("H8", "H9"), ("D1", "I9")])
    assert difference is not None
    assert (difference.step, difference.field) == (1, "TurnResult.hatched")
    assert difference.candidate == () and len(difference.reference) == 1


def test_errors_must_match_in_type_and_message() -> None:
    setup = Setup(black=squares("A1"))
    assert compare_engines(REFERENCE, FAST, setup, [("A1", "B2")]) is None
    difference = compare_engines(REFERENCE, LouderErrors, setup, [("B2", "C3"), ("A1", "B2")])
    assert difference is not None and (difference.step, difference.field) == (1, "error")
    assert difference.candidate.message == difference.reference.message + "!"


def test_errors_must_leave_the_position_unchanged() -> None:
    difference = compare_engines(REFERENCE, CountsRefusedMoves, Setup(), [("E5", "J1")])
    assert difference is not None and difference.field == "position after error.turn"


def test_shrink_refuses_a_script_that_does_not_fail() -> None:
    with pytest.raises(ValueError):
        shrink(REFERENCE, FAST, Script(Setup(), (("E5", "E4"),)))


# --- (c) A deliberately broken engine is caught and shrunk -----------------------------


def run_reproducer(code: str, game_class: type) -> str:
    """Run a printed reproducer with ``Game`` bound to ``game_class``; its output."""
    body = code.replace("from wts.engine.reference import Game\n", "")
    assert body != code
    out = io.StringIO()
    with redirect_stdout(out):
        try:
            exec(compile(body, "<reproducer>", "exec"), {"Game": game_class})
        except Exception as exc:  # a broken engine may crash where the reference prints
            print(f"{type(exc).__name__}: {exc}")
    return out.getvalue()


@pytest.mark.parametrize(
    ("broken", "field", "max_steps", "max_pieces"),
    [
        (DropsHatches, "TurnResult.hatched", 5, 6),
        (LouderErrors, "error", 1, 2),
        (CountsRefusedMoves, "position after error.turn", 1, 2),
        (ForgetsOldestEgg, "position.eggs", 3, 3),
    ],
)
def test_broken_engine_is_caught_and_shrunk(
    broken: type, field: str, max_steps: int, max_pieces: int
) -> None:
    # The first failing game of seed 3 for each engine (how short it shrinks depends on it).
    report = run_fuzz(REFERENCE, broken, seed=3, games=2000)
    failure = report.failure
    assert failure is not None, "the broken engine went unnoticed"
    assert failure.shrunk_difference.field == field
    shrunk = failure.shrunk
    assert len(shrunk.steps) <= max_steps and shrunk.setup.pieces() <= max_pieces, shrunk
    assert len(shrunk.steps) <= len(failure.script.steps)
    # the shrunk script still fails, and the printed reproducer shows it
    assert replay(REFERENCE, broken, shrunk)[0] is not None
    code = reproducer(shrunk, failure.shrunk_difference, broken)
    assert "game = Game" in code
    if field.startswith(("position.", "TurnResult")):
        assert run_reproducer(code, REFERENCE) != run_reproducer(code, broken)


class FullBoardDraws(wts.reference.Game):
    """Calls a full board a draw even when the turn that filled it made a row of five."""

    __slots__ = ()

    def _settle(self) -> None:
        super()._settle()
        if self._status.winner is not None and not self.legal_moves_on_board():
            self._status = Status.DRAW

    def legal_moves_on_board(self) -> list[int]:
        return [sq for sq in range(81) if self.piece_at(sq) is Piece.EMPTY]


def test_a_win_on_the_turn_that_fills_the_board_is_compared() -> None:
    # point 11: the win stands on a full board. The full_win set-ups
    # fill the board and a row of six against five in one turn.
    report = run_fuzz(REFERENCE, FullBoardDraws, seed=1, games=100)
    assert report.failure is not None, "the full-board win went uncompared"
    assert report.failure.shrunk_difference.field == "TurnResult.status"
    assert fuzz.BRANCHES["won_full"] == "won on the turn that filled the board"
    clean = run_fuzz(REFERENCE, FAST, seed=1, games=100)
    assert clean.coverage["won_full"] > 0 and clean.failure is None


def candidate_option(engine: type) -> list[str]:
    """``--candidate MODULE:CLASS`` for an engine defined here."""
    return ["--candidate", f"{engine.__module__}:{engine.__qualname__}"]


def test_main_exits_1_and_prints_a_runnable_reproducer(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["fuzz", "--games", "500", "--seed", "1", "--quiet",
                       *candidate_option(DropsHatches)])
    out = capsys.readouterr().out
    assert status == 1
    assert "MISMATCH" in out and "TurnResult.hatched" in out
    code = out[out.index("reproducer:\n") + len("reproducer:\n"):]
    assert code.startswith("# Engines differ: TurnResult.hatched")
    assert 'game.play("' in code
    assert "hatched=(Hatch(" in run_reproducer(code, REFERENCE)
    assert "hatched=()" in run_reproducer(code, DropsHatches)


def test_a_copy_sharing_state_is_caught(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_fuzz(REFERENCE, SharesStateOnCopy, seed=1, games=500)
    failure = report.failure
    assert failure is not None and not failure.reproducible
    assert failure.difference.field == "candidate changed by plays on its copy()"
    assert cli.main(["fuzz", "--games", "500", "--seed", "1",
                     *candidate_option(SharesStateOnCopy)]) == 1
    out = capsys.readouterr().out
    assert "shows no difference" in out and f"--games {failure.index + 1}" in out


def test_parallel_jobs_find_and_shrink_the_same_game() -> None:
    serial = run_fuzz(REFERENCE, DropsHatches, seed=1, games=300)
    parallel = run_fuzz(REFERENCE, DropsHatches, seed=1, games=300, jobs=2)
    assert serial.failure is not None and parallel.failure is not None
    assert serial.failure.index == parallel.failure.index
    assert serial.failure.shrunk == parallel.failure.shrunk


def test_parallel_and_serial_runs_agree() -> None:
    serial = run_fuzz(REFERENCE, FAST, seed=5, games=150)
    parallel = run_fuzz(REFERENCE, FAST, seed=5, games=150, jobs=2)
    assert (serial.games, serial.turns, serial.coverage) == (
        parallel.games, parallel.turns, parallel.coverage
    )


# --- (d) The command line -------------------------------------------------------


def run_module(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return run_python("-m", *args, timeout=timeout)


def test_python_m_wts_fuzz_runs_on_a_time_budget() -> None:
    started = time.monotonic()
    # Seed 1 reaches every branch in 17 games (0.3 s); 5 s leave room for a loaded machine.
    proc = run_module("wts", "fuzz", "--seconds", "5", "--seed", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert time.monotonic() - started < 60
    out = proc.stdout
    assert "no mismatch" in out and "played " in out
    for text in BRANCHES.values():
        assert text in out


@pytest.mark.parametrize(
    "args", [["--seconds", "0"], ["--seconds", "soon"], ["--games", "0"], ["--jobs", "-1"],
             ["--seed", "x"], ["--candidate", "no_such_module:Game"], ["--frobnicate"]],
)
def test_bad_arguments_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fuzz", *args]) == 2
    assert "error:" in capsys.readouterr().err


def test_main_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fuzz", "--help"]) == 0
    assert "--seconds" in capsys.readouterr().out


# Seed 1 reaches every rule branch in its first 17 games.
FULL_COVERAGE_RUN = ["--games", "20", "--seed", "1"]


def test_candidate_option_loads_a_class(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fuzz", *FULL_COVERAGE_RUN, "--quiet",
                     "--candidate", "wts.reference:Game"]) == 0
    assert "wts.reference.Game against wts.reference.Game" in capsys.readouterr().out


# --- (e) A run that leaves a rule branch unreached fails -------------------------


def coverage_verdict(out: str) -> str:
    """The line of ``wts fuzz``'s output that says the coverage is incomplete."""
    lines = [line for line in out.splitlines() if line.startswith("COVERAGE INCOMPLETE")]
    assert len(lines) == 1, out
    return lines[0]


@pytest.mark.parametrize("budget", [["--games", "3"], ["--seconds", "0.001"]],
                         ids=["games", "seconds"])
def test_a_run_too_short_to_reach_every_branch_fails(
    budget: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status = cli.main(["fuzz", *budget, "--seed", "1", "--quiet"])
    out = capsys.readouterr().out
    assert status == fuzz.EXIT_UNREACHED == 3
    assert "no mismatch" in out
    games = int(out.split("played ")[1].split(" games")[0])
    missing = unreached(run_fuzz(REFERENCE, FAST, seed=1, games=games).coverage if games else {})
    assert missing
    verdict = coverage_verdict(out)
    assert f"{len(missing)} of {len(BRANCHES)} rule branches never reached in {games} game" in (
        verdict
    )
    for key in BRANCHES:
        assert (f"{BRANCHES[key]} ({key})" in verdict) == (key in missing), key


def never_dissolve(board: Any, eggs: Any, black_captures: int, white_captures: int) -> list[int]:
    return []


def sudden_death_is_normal_play(board: Any, black: int, white: int, turn: int) -> Status:
    status = ORIGINAL_DECIDE_STATUS(board, black, white, turn)
    return Status.ONGOING if status is Status.SUDDEN_DEATH else status


ORIGINAL_DECIDE_STATUS = wts.engine.reference.decide_status


@pytest.mark.parametrize(
    ("rule", "mutant", "lost"),
    [
        ("dissolve", never_dissolve, {"dissolve"}),
        ("decide_status", sudden_death_is_normal_play,
         {"sd_entered", "sd_held", "sd_broken", "sd_won"}),
    ],
    ids=["no dissolving", "no sudden death"],
)
def test_a_bug_copied_into_both_engines_is_caught_by_coverage(
    rule: str, mutant: Any, lost: set[str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The reference engine against itself: both engines carry the same bug, so
    # no game differs; only the branch the bug removed shows it.
    run = ["fuzz", *FULL_COVERAGE_RUN, "--quiet", "--candidate", "wts.reference:Game"]
    assert cli.main(run) == 0
    monkeypatch.setattr(wts.engine.reference, rule, mutant)
    assert cli.main(run) == fuzz.EXIT_UNREACHED
    out = capsys.readouterr().out
    assert "MISMATCH" not in out
    verdict = coverage_verdict(out)
    for key in lost:
        assert f"{BRANCHES[key]} ({key})" in verdict


class _OnceWrongGame(wts.engine.reference.Game):
    """A candidate wrong once, on its 40th turn played in this process, and
    never again: its answers depend on its past, not on the position."""

    plays = 0

    def play(self, black_move: Any, white_move: Any) -> TurnResult:
        result = super().play(black_move, white_move)
        type(self).plays += 1
        if type(self).plays == 40:
            return result._replace(collision=None if result.collision is not None else 0)
        return result


def test_a_difference_seen_once_is_reported_as_it_was_seen() -> None:
    _OnceWrongGame.plays = 0
    report = run_fuzz(REFERENCE, _OnceWrongGame, seed=3, games=20, shrink_seconds=2)
    failure = report.failure
    assert failure is not None and not failure.reproducible
    assert failure.difference.field.startswith("TurnResult.collision (flaky: on the first run")
    assert failure.difference.step >= 0


def test_classify_the_turn_cap_draw() -> None:
    # Two turns short of the cap, nothing decided: the second turn is drawn by the cap.
    game = Setup(black=squares("A1"), white=squares("I9"), turn=wts.MAX_TURN - 2).build(REFERENCE)
    game.play("E5", "E4")
    status, eggs = game.status, game.eggs
    result = game.play("C3", "C4")
    hit = classify_turn(result, status, eggs, turn=game.turn)
    assert result.status is Status.DRAW and game.turn == wts.MAX_TURN
    assert "turn_cap" in hit and "draw" not in hit
    # A full-board draw is not the cap's, even with the turn given.
    full = Setup(eggs=tuple(sq for sq in range(81) if SQUARE_NAMES[sq] != "E5")).build(REFERENCE)
    result = full.play("E5", "E5")
    assert "draw" in classify_turn(result, Status.ONGOING, (), board_full=True, turn=1)


def test_a_set_up_turn_is_part_of_the_script() -> None:
    setup = Setup(black=squares("A1"), turn=wts.MAX_TURN - 1)
    assert setup.build(FAST).turn == wts.MAX_TURN - 1
    assert setup.python().endswith(f"eggs=[], turn={wts.MAX_TURN - 1})")
    assert "turn_cap" in fuzz.SETUPS and "turn_cap" in BRANCHES


class IgnoresTheTurnCap(wts.reference.Game):
    """Plays on past the turn cap's draw, as if the cap were not there."""

    def play(self, black_move: Any, white_move: Any) -> TurnResult:
        result = super().play(black_move, white_move)
        room = any(self.piece_at(sq) is Piece.EMPTY for sq in range(81))
        if self.turn == wts.MAX_TURN and result.status is Status.DRAW and room:
            return result._replace(status=Status.ONGOING)
        return result


def test_an_engine_that_ignores_the_turn_cap_fails_the_fuzz() -> None:
    report = run_fuzz(REFERENCE, IgnoresTheTurnCap, seed=0, games=400, shrink_seconds=5)
    assert report.failure is not None
    assert report.failure.shrunk.setup.turn > wts.MAX_TURN - 5


class CopiesThatFail(wts.reference.Game):
    """A copy whose play raises, though the game's own play does not: only the
    fuzzer's look-ahead plays on copies meet it."""

    def copy(self) -> Any:
        game = super().copy()
        game.play = self._refuse  # type: ignore[method-assign]
        return game

    def _refuse(self, black_move: Any, white_move: Any) -> TurnResult:
        raise RuntimeError("a copy cannot play")


def test_a_look_ahead_that_raises_is_a_finding() -> None:
    report = run_fuzz(REFERENCE, CopiesThatFail, seed=0, games=200, shrink_seconds=2)
    assert report.failure is not None, "a failing look-ahead was swallowed"
    assert report.failure.difference.field == "copy().play"
    assert "raised on a copy of the candidate" in str(report.failure.difference.candidate)
