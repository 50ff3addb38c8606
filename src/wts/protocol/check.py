"""``wts engine-check CMD``: a conformance run of an engine program, for its authors.

It checks, in order: the handshake (name, author, protocol version, options);
``isready``; every declared option set to its default; answers to malformed
input (each must be an ``error`` line, the engine still running); a move in
each of hundreds of positions (set-ups with rows about to close, sudden death,
crowded boards, many eggs, and whole games followed turn by turn with
``position ... moves``), each legal and in time; a game clock; ``stop`` ending
an ``infinite`` search; ``quit``; and, for an engine that declares the rules
part, a short differential fuzz of its rules against this package's
(``wts fuzz --against CMD`` runs the long one).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from wts.engine.game import Game
from wts.engine.pieces import Color
from wts.protocol.client import QUIT_GRACE, Engine, split_command
from wts.protocol.errors import EngineError, EngineTimeoutError
from wts.protocol.lines import Limit

__all__ = ["Check", "CheckReport", "check_engine", "MALFORMED"]

#: Lines an engine must answer with ``error`` (and go on running).
MALFORMED = (
    "hello",
    "position 9/9/9 - 0",
    "position 9/9/9/9/9/9/9/9/9 - 0 moves E5",
    "go purple movetime 100",
    "go black movetime soon",
    "setoption name no-such-option value 1",
)


@dataclass
class Check:
    """One check: its name, whether it passed, and what was seen."""

    name: str
    passed: bool
    detail: str


@dataclass
class CheckReport:
    """Every check of a run, and the engine's standard error at the end."""

    command: str
    checks: list[Check] = field(default_factory=list)
    stderr: str = ""

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def format(self) -> str:
        """The report ``wts engine-check`` prints."""
        lines = [f"wts engine-check: {self.command}"]
        for check in self.checks:
            lines.append(f"  {'PASS' if check.passed else 'FAIL'}  {check.name}: {check.detail}")
        failed = sum(not check.passed for check in self.checks)
        lines.append(f"{len(self.checks) - failed} of {len(self.checks)} checks passed"
                     + ("" if not failed else f"; {failed} failed"))
        if self.stderr.strip():
            tail = self.stderr.strip().splitlines()[-5:]
            lines.append("the engine's last lines on stderr:")
            lines += [f"  | {line[:200]}" for line in tail]
        return "\n".join(lines)


def _positions(count: int, seed: int) -> list[tuple[Game, Color]]:
    """Set-up positions of the fuzzer's kinds, not yet decided, and a colour to move."""
    from wts.devtools.fuzz.setups import SETUPS

    rng = random.Random(f"wts-engine-check:{seed}")
    kinds = [kind for kind in SETUPS if kind != "empty"]
    found: list[tuple[Game, Color]] = []
    while len(found) < count:
        setup = SETUPS[kinds[len(found) % len(kinds)]](rng)
        game = setup.build(Game)
        if not game.is_over():
            found.append((game, rng.choice((Color.BLACK, Color.WHITE))))
    return found


class _Run:
    def __init__(self, args: list[str], movetime: float,
                 progress: Callable[[str], None] | None) -> None:
        self.args = args
        self.limit = Limit(movetime=movetime)
        self.progress = progress
        self.engine: Engine | None = None
        self.stderr = ""

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    def start(self) -> Engine:
        if self.engine is None or not self.engine.alive:
            if self.engine is not None:
                self.stderr = self.engine.stderr
            self.engine = Engine.popen(self.args)
        return self.engine

    def raw(self, line: str) -> list[str]:
        """Send ``line``, then ``isready``: what the engine says before ``readyok``
        (it answers commands in order, so an answer to ``line`` comes first)."""
        engine = self.start()
        engine._send(line)
        engine._send("isready")
        said: list[str] = []
        deadline = time.monotonic() + engine.timeout
        while True:
            got = engine._readline(deadline, f"{line!r} and isready")
            if got is None:
                raise engine._fail(EngineTimeoutError(f"no readyok after {line!r} and isready"))
            if got.strip() == "readyok":
                return said
            said.append(got)


def _check_handshake(run: _Run) -> Check:
    engine = run.start()
    options = ", ".join(f"{o.name} ({o.type})" for o in engine.options.values()) or "none"
    features = ", ".join(sorted(engine.features)) or "none"
    missing = [what for what, value in (("id name", engine.name), ("id author", engine.author))
               if not value]
    detail = (f"name {engine.name!r}, author {engine.author!r}, protocol {engine.version}, "
              f"options: {options}; features: {features}")
    if missing:
        return Check("handshake", False, f"{detail}; missing: {', '.join(missing)}")
    return Check("handshake", True, detail)


def _check_ready(run: _Run) -> Check:
    run.start().ping()
    return Check("isready", True, "readyok")


def _check_options(run: _Run) -> Check:
    engine = run.start()
    values = {o.name: o.default for o in engine.options.values()
              if o.type != "button" and o.default is not None}
    engine.configure(values)
    return Check("options", True, f"{len(values)} set to their defaults, then isready answered")


def _check_malformed(run: _Run) -> Check:
    failures = []
    for line in MALFORMED:
        said = run.raw(line)
        if [answer.split()[0] for answer in said] != ["error"]:
            failures.append(f"{line!r} got {said!r}" if said else f"{line!r} got no answer")
    if failures:
        return Check("malformed input", False, "not answered with error: " + "; ".join(failures))
    return Check("malformed input", True, f"{len(MALFORMED)} lines each answered with error, "
                                          "and the engine still answers isready")


def _check_positions(run: _Run, count: int, seed: int) -> Check:
    failures: list[str] = []
    slowest = 0.0
    for number, (game, color) in enumerate(_positions(count, seed)):
        if number % 100 == 0:
            run.say(f"  positions: {number} of {count}")
        try:
            result = run.start().play(game, color, run.limit)
            slowest = max(slowest, result.seconds)
        except EngineError as exc:
            failures.append(f"{game.fen()} ({color.value}): {exc}")
            if len(failures) >= 5:
                break
    if failures:
        return Check("positions", False, f"{len(failures)} failed, first: {failures[0]}")
    return Check("positions", True, f"{count} set-up positions (rows about to close, sudden "
                                    f"death, crowded boards, eggs): every square legal, the "
                                    f"slowest {slowest:.3f} s for movetime "
                                    f"{run.limit.movetime:g} s")


def _check_games(run: _Run, games: int, seed: int) -> Check:
    rng = random.Random(f"wts-engine-check-games:{seed}")
    turns = 0
    for _ in range(games):
        game = Game()
        color = rng.choice((Color.BLACK, Color.WHITE))
        while not game.is_over():
            try:
                square = run.start().play(game, color, run.limit).square
            except EngineError as exc:
                return Check("games", False, f"turn {game.turn + 1} of a game followed with "
                                             f"position ... moves: {exc}")
            other = rng.choice(game.legal_moves())
            game.play(*((square, other) if color is Color.BLACK else (other, square)))
            turns += 1
    return Check("games", True, f"{games} whole games against random moves, followed turn by "
                                f"turn ({turns} moves)")


def _check_clock(run: _Run) -> Check:
    game = Game()
    left = 1.0
    while not game.is_over() and game.turn < 10:
        try:
            result = run.start().play(game, Color.BLACK, Limit(
                black_clock=left, white_clock=1.0, black_inc=0.05, white_inc=0.05))
        except EngineError as exc:
            return Check("game clock", False, str(exc))
        left = left - result.seconds + 0.05
        if left <= 0:
            return Check("game clock", False, f"the clock ran out at turn {game.turn + 1}")
        game.play(result.square, random.Random(game.turn).choice(
            [sq for sq in game.legal_moves() if sq != result.square] or game.legal_moves()))
    return Check("game clock", True, f"{game.turn} moves on a 1 s + 0.05 s clock, "
                                     f"{left:.2f} s left")


def _check_stop(run: _Run) -> Check:
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    started = time.monotonic()
    try:
        run.start().play(Game(), Color.BLACK, Limit(infinite=True), stop=stop)
    except EngineError as exc:
        return Check("stop", False, f"go infinite, then stop after 0.3 s: {exc}")
    finally:
        timer.cancel()
    took = time.monotonic() - started
    if took < 0.3:  # allowed to an engine that does not search
        return Check("stop", True, f"go infinite answered at once ({took:.3f} s), "
                                   "before stop was sent")
    return Check("stop", True, f"go infinite answered {took - 0.3:.3f} s after stop")


def _check_quit(run: _Run) -> Check:
    engine = run.start()
    engine._send("quit")
    started = time.monotonic()
    while engine.returncode is None and time.monotonic() - started < QUIT_GRACE:
        time.sleep(0.01)
    code = engine.returncode
    run.stderr = engine.stderr
    engine.kill()
    run.engine = None
    if code is None:
        return Check("quit", False, f"still running {QUIT_GRACE:g} s after quit (killed)")
    return Check("quit", True, f"exited with status {code} in "
                               f"{time.monotonic() - started:.3f} s")


def _check_rules(run: _Run, games: int, seed: int) -> Check:
    from wts.devtools.fuzz import BRANCHES, run_fuzz
    from wts.devtools.fuzz.compare import ENGINE_FAILURE
    from wts.engine.reference import Game as Reference
    from wts.protocol.rules import rules_game_class

    candidate = rules_game_class(run.args)
    try:
        report = run_fuzz(Reference, candidate, seed=seed, games=games, shrink_seconds=20.0)
    finally:
        candidate.close()
    failure = report.failure
    if failure is not None:
        what = "failed as a program" if failure.difference.field == ENGINE_FAILURE else \
            "differs from the rules"
        told = " ".join(candidate.describe_difference(failure.shrunk_difference).split())
        return Check("rules part", False, f"{what} in game {failure.index}: {told}; "
                                          "wts fuzz --against CMD prints a reproducer")
    unreached = "; ".join(BRANCHES[key] for key in report.unreached)
    return Check("rules part", True, f"{report.games} fuzzed games, {report.turns} turns, "
                                     f"the same as this package's rules ("
                                     + (f"not reached: {unreached}" if unreached
                                        else "every rule branch reached")
                                     + "; wts fuzz --against CMD runs longer)")


def check_engine(command: str | Sequence[str], *, positions: int = 300, games: int = 3,
                 rules_games: int = 60, seed: int = 0, movetime: float = 0.05,
                 progress: Callable[[str], None] | None = None) -> CheckReport:
    """Run every check on the engine ``command`` starts; the report says which passed."""
    args = split_command(command)
    run = _Run(args, movetime, progress)
    report = CheckReport(" ".join(args))
    steps: list[tuple[str, Callable[[], Check]]] = [
        ("handshake", lambda: _check_handshake(run)),
        ("isready", lambda: _check_ready(run)),
        ("options", lambda: _check_options(run)),
        ("malformed input", lambda: _check_malformed(run)),
        ("positions", lambda: _check_positions(run, positions, seed)),
        ("games", lambda: _check_games(run, games, seed)),
        ("game clock", lambda: _check_clock(run)),
        ("stop", lambda: _check_stop(run)),
        ("quit", lambda: _check_quit(run)),
    ]
    try:
        for name, step in steps:
            run.say(f"checking {name}")
            try:
                report.checks.append(step())
            except EngineError as exc:
                report.checks.append(Check(name, False, str(exc)))
                if name == "handshake":
                    return report
        if "rules" in run.start().features:
            run.say("checking the rules part")
            try:
                report.checks.append(_check_rules(run, rules_games, seed))
            except EngineError as exc:
                report.checks.append(Check("rules part", False, str(exc)))
    except EngineError as exc:
        report.checks.append(Check("restart", False, f"the engine cannot be started again: {exc}"))
    finally:
        if run.engine is not None:
            run.stderr = run.engine.stderr
            run.engine.quit()
    report.stderr = run.stderr
    return report

