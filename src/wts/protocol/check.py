"""``wts engine-check CMD``: a conformance run of an engine program, for its authors.

It checks, in order: the handshake (name, author, protocol version, options);
``isready``; every declared option tried (a value it takes other than its
default, each button pressed, and values it must refuse with ``error``: out
of range, of the wrong type, an unknown choice), a move with them set, then
the defaults again; answers to malformed input (each must be an ``error``
line, the engine still running); a move in each of hundreds of positions
(set-ups with rows about to close, sudden death, crowded boards, many eggs,
turns near the turn cap, and whole games followed turn by turn with
``position ... moves``), each legal and in time; a game clock; ``stop``
ending an ``infinite`` search; ``isready``, a second ``wtsp`` and a
``position`` during a search; ``quit``; and, for an engine that declares the
rules part, the turn cap and malformed rules requests asked directly, then a
short differential fuzz of its rules against this package's (``wts fuzz
--against CMD`` runs the long one).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from wts.engine.game import Game
from wts.engine.pieces import MAX_TURN, Color
from wts.protocol.client import QUIT_GRACE, Engine, split_command
from wts.protocol.errors import EngineError, EngineProtocolError, EngineTimeoutError
from wts.protocol.lines import Limit, Option, parse_engine_line

__all__ = ["Check", "CheckReport", "check_engine", "MALFORMED"]

#: Lines an engine must answer with ``error`` (and go on running).
MALFORMED = (
    "hello",
    "position 9/9/9 - 0",
    "position 9/9/9/9/9/9/9/9/9 - 0 moves E5",
    "go purple movetime 100",
    "go black movetime soon",
    "setoption name no-such-option value 1",
    "position 9/9/9/9/9/9/9/9/9 - 0 moves 40 41",  # squares are names, never numbers
    "go black movetime -5",
    "quit now",  # a line the protocol does not define, even one starting with quit
    "isready now",
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


def _trials(option: Option) -> tuple[list[str | None], list[str]]:
    """Values to set ``option`` to: ones it takes, other than its default (None:
    press a button), and ones it must refuse with ``error``."""
    if option.type == "button":
        return [None], ["1"]
    if option.type == "check":
        return ["false" if option.default == "true" else "true"], ["maybe"]
    if option.type == "spin":
        assert option.min is not None and option.max is not None  # the grammar requires both
        default = int(option.default) if option.default is not None else option.min
        other = default + 1 if default < option.max else default - 1
        good: list[str | None] = [str(other)] if option.min <= other <= option.max else []
        return good, [str(option.max + 1), str(option.min - 1), "x"]
    if option.type == "combo":
        others = [choice for choice in option.choices if choice != option.default]
        unknown = "wts-no-such-choice"
        return list(others[:3]), [unknown] if unknown not in option.choices else []
    return ["wts-engine-check"], []  # a string takes any one-line value


def _default_error(option: Option) -> str | None:
    """Why ``option``'s declared default is wrong, or None."""
    if option.type == "button":
        return None if option.default is None else "a button has no default"
    if option.default is None:
        return "declares no default"
    try:
        option.check(option.default)
    except EngineProtocolError as exc:
        return f"its default is not a value it takes ({exc})"
    return None


def _setoption(name: str, value: str | None) -> str:
    return f"setoption name {name}" + ("" if value is None else f" value {value}")


def _check_options(run: _Run) -> Check:
    """Each option set to a value it takes (each button pressed) and to values it
    must refuse, then a move asked with the values set; then the defaults again."""
    engine = run.start()
    failures: list[str] = []
    taken = refused = 0
    for option in engine.options.values():
        wrong = _default_error(option)
        if wrong is not None:
            failures.append(f"{option.name}: {wrong}")
        good, bad = _trials(option)
        for value in good:
            said = run.raw(_setoption(option.name, value))
            taken += 1
            if said:
                failures.append(f"{_setoption(option.name, value)!r} got {said!r}, not nothing")
        for value in bad:
            said = run.raw(_setoption(option.name, value))
            refused += 1
            if [answer.split()[0] for answer in said] != ["error"]:
                failures.append(f"{_setoption(option.name, value)!r} got "
                                f"{said!r}, not one error line")
    try:
        game, color = _positions(1, 0)[0]
        run.start().play(game, color, run.limit)
    except EngineError as exc:
        failures.append(f"no move with the options set: {exc}")
    defaults = {o.name: o.default for o in engine.options.values()
                if o.type != "button" and o.default is not None and _default_error(o) is None}
    if run.engine is engine and engine.alive:
        engine.configure(defaults)
    if failures:
        return Check("options", False, "; ".join(failures[:5]))
    return Check("options", True, f"{len(engine.options)} declared: {taken} settings they "
                                  f"take (a value other than the default, a button pressed), "
                                  f"answered with nothing; {refused} wrong values, each "
                                  "answered with error; a move with them set; then the "
                                  "defaults again")


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


def _read_until(engine: Engine, wanted: str, seconds: float, what: str) -> list[str]:
    """The lines the engine says up to one starting with ``wanted`` (included),
    within ``seconds``; EngineTimeoutError if it does not come."""
    said: list[str] = []
    deadline = time.monotonic() + seconds
    while True:
        line = engine._readline(deadline, what)
        if line is None:
            raise engine._fail(EngineTimeoutError(f"no {wanted} in {seconds:g} s to {what} "
                                                  f"(it said {said[-3:]!r})"))
        said.append(line.strip())
        if line.split()[0] == wanted:
            return said


def _check_search(run: _Run) -> Check:
    """While ``go infinite`` runs: ``isready`` answered at once, a second
    ``wtsp`` and a ``position`` refused with ``error``, then ``stop`` answered."""
    engine = run.start()
    engine.new_game()
    engine._send("position 9/9/9/9/9/9/9/9/9 - 0")
    engine.ping()
    engine._send("go black infinite")
    engine._send("isready")
    said = _read_until(engine, "readyok", 1.0 + engine.overhead, "isready during a search")
    if any(line.split()[0] == "move" for line in said):  # it does not search
        return Check("during a search", True, "go infinite answered at once: no search "
                                              "runs, nothing to check during one")
    problems = [line for line in said if line.split()[0] != "info"][:-1]
    refused = []
    for line in ("wtsp 1", "position 9/9/9/9/9/9/9/9/9 - 0"):
        engine._send(line)
        answer = _read_until(engine, "error", engine.overhead + 1.0, f"{line!r} during a search")
        problems += [got for got in answer[:-1] if got.split()[0] != "info"]
        refused.append(line)
    engine._send("stop")
    said = _read_until(engine, "move", engine.overhead + 1.0, "stop")
    problems += [got for got in said[:-1] if got.split()[0] != "info"]
    if problems:
        return Check("during a search", False, f"said {problems[:3]!r} beside the answers")
    return Check("during a search", True, "isready answered while go infinite ran; "
                                          f"{' and '.join(refused)} refused with error; "
                                          "stop ended the search with a move")


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


def _cap_requests() -> list[tuple[str, str]]:
    """Rules requests at the turn cap (docs/rules.md, wts ruling 8) and the
    reference's answers: a draw there, sudden death drawn, a win still a win,
    and no turn played from it."""
    from wts.engine.reference import Game as Reference
    from wts.protocol.rules import transcript

    cap = MAX_TURN
    row = [f"{file}1" for file in "ABCDE"]
    cases = [  # (black, white, turn, moves)
        (["A1"], ["I9"], cap, []),
        (["A1"], ["I9"], cap - 1, [("E5", "E4")]),
        (row, [f"{file}9" for file in "ABCDE"], cap - 1, [("E5", "E4")]),
        (row[:4], ["I9"], cap - 1, [("E1", "E4")]),
        (["A1"], ["I9"], cap, [("E5", "E4")]),
    ]
    pairs: list[tuple[str, str]] = []
    for black, white, turn, moves in cases:
        start = Reference.from_setup(black=black, white=white, turn=turn).fen()
        said = transcript(start, moves, Reference)
        pairs += [(said[i], said[i + 1].removeprefix("  reference: "))
                  for i in range(0, len(said), 2)]
    return pairs


#: Rules requests that are no request of the protocol: a square is a name.
RULES_MALFORMED = (
    "rules play 9/9/9/9/9/9/9/9/9 - 0 J1 A1",
    "rules play 9/9/9/9/9/9/9/9/9 - 0 40 41",
    "rules status 9/9/9/9/9/9/9/9/9 - 4294967296",
)


def _check_rules_lines(run: _Run) -> Check:
    """The turn cap asked directly, and rules requests that must get ``error``."""
    failures = []
    pairs = _cap_requests()
    for request, expected in pairs:
        said = run.raw(request)
        try:
            same = len(said) == 1 and parse_engine_line(said[0]) == parse_engine_line(expected)
        except EngineProtocolError:
            same = False
        if not same:
            failures.append(f"{request!r}: the reference answers {expected!r}, the engine "
                            f"{said!r}")
    for request in RULES_MALFORMED:
        said = run.raw(request)
        if [answer.split()[0] for answer in said] != ["error"]:
            failures.append(f"{request!r} got {said!r}, not one error line")
    if failures:
        return Check("rules lines", False, "; ".join(failures[:3]))
    return Check("rules lines", True, f"{len(pairs)} requests at the turn cap ({MAX_TURN}) "
                                      "answered as the rules do; "
                                      f"{len(RULES_MALFORMED)} malformed ones with error")


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
        ("during a search", lambda: _check_search(run)),
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
            run.say("checking the rules lines")
            try:
                report.checks.append(_check_rules_lines(run))
            except EngineError as exc:
                report.checks.append(Check("rules lines", False, str(exc)))
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

