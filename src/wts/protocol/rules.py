"""An engine's rules part as a ``Game`` class: another implementation of the
rules, held to this one by the differential fuzzer (``wts fuzz --against CMD``).

:func:`rules_game_class` makes a class with the ``wts.Game`` API whose every
turn, and every set-up position's status, is resolved by the engine program
(``rules play``, ``rules status``): the position after a turn is the one the
engine writes back, and so are its events, status and winning counts. What
the protocol cannot carry is this package's own: a move that is not a square
is refused here, as ``wts.Game`` refuses it; the message of an illegal move is
written here from the engine's verdict (which player's square it refuses, or
that the game is over), so the fuzzer compares the verdict. Everything else
(the printed board, the key, the legal moves) is derived from the position the
engine wrote.

Each process runs its own copy of the program (the fuzzer's workers each start
theirs), started at the first request and ended with the process.

A crash, a hang (no answer within ``timeout`` seconds) or a malformed answer
is a finding, as a mismatch is: it is kept (:meth:`RulesGame.take_faults`)
and the fuzzer reports it at the step it happened in, even when it happened
in a look-ahead play on a copy; the program is started again for the next
request.

>>> import sys
>>> Game = rules_game_class([sys.executable, "-m", "wts", "engine", "--agent", "random"])
>>> game = Game.from_setup(black=["H5"], white=["F5", "G5"], eggs=["C3"])
>>> game.play("E5", "A1").hatched
(Hatch(C3, Color.BLACK, wave=1),)
>>> Game.close()  # the program quits; the next request would start it again
"""

from __future__ import annotations

import atexit
import os
import shlex
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, TypeVar, cast

from wts.devtools.fuzz.compare import ENGINE_FAILURE, Difference, Script
from wts.engine._history import NEW_GAME, History
from wts.engine.base import (
    GameBase,
    check_setup,
    check_turn,
    game_over_error,
    move_square,
    occupied_error,
)
from wts.engine.events import Capture, Hatch, TurnResult
from wts.engine.keys import position_key
from wts.engine.notation import STARTING_FEN, parse_fen
from wts.engine.pieces import Color, Piece, Status, check_color
from wts.engine.squares import NUM_SQUARES, SQUARE_NAMES, Square, SquareLike, to_square
from wts.errors import IllegalMoveError, NoTurnError, ParameterError
from wts.protocol import lines
from wts.protocol.client import TIMEOUT, Engine, split_command
from wts.protocol.errors import EngineError

__all__ = ["RulesGame", "rules_game_class", "transcript"]

_T = TypeVar("_T")


class RulesGame(GameBase):
    """A game whose rules are an engine's (see :func:`rules_game_class`)."""

    command: ClassVar[tuple[str, ...]] = ()
    #: Seconds the engine has to answer each request.
    timeout: ClassVar[float] = TIMEOUT
    #: The failures seen and not yet taken (:meth:`take_faults`), in this process.
    _faults: ClassVar[list[str]]
    #: Per class: (pid, engine) of the engine this process runs.
    _engine: ClassVar[tuple[int, Engine] | None] = None
    _lock: ClassVar[threading.Lock]  # held while the engine starts
    _call_lock: ClassVar[threading.Lock]  # one request at a time

    def __init__(self) -> None:
        self._black: frozenset[Square] = frozenset()
        self._white: frozenset[Square] = frozenset()
        self._eggs: tuple[Square, ...] = ()
        self._turn = 0
        self._status = Status.ONGOING
        self._counts = (0, 0)
        self._history: History = NEW_GAME

    @classmethod
    def engine(cls) -> Engine:
        """This process's engine, started (and its rules part checked) on first use."""
        with cls._lock:
            held = cls._engine
            if held is None or held[0] != os.getpid() or not held[1].alive:
                engine = Engine.popen(list(cls.command))
                engine.timeout = cls.timeout  # each request's; the start keeps TIMEOUT
                if "rules" not in engine.features:
                    engine.quit()
                    raise ParameterError(f"{shlex.join(cls.command)} does not declare "
                                         "'feature rules': it cannot be fuzzed")
                atexit.register(engine.kill)
                cls._engine = (os.getpid(), engine)
                return engine
            return held[1]

    @classmethod
    def _ask(cls, request: Callable[[Engine], _T]) -> _T:
        """One request to the engine; a failure of the engine is kept as a fault
        (a finding) before it is raised."""
        with cls._call_lock:
            try:
                return request(cls.engine())
            except EngineError as exc:
                cls._faults.append(str(exc))
                raise

    @classmethod
    def take_faults(cls) -> list[str]:
        """The engine's failures (crashes, hangs, malformed answers) since the last
        call, oldest first; the fuzzer reports each as a finding."""
        faults, cls._faults[:] = list(cls._faults), []
        return faults

    @classmethod
    def close(cls) -> None:
        """Quit this process's engine, if one runs (its process and reader threads
        end); the next game starts another."""
        with cls._lock:
            held, cls._engine = cls._engine, None
        if held is not None and held[0] == os.getpid():
            held[1].quit()

    @classmethod
    def from_setup(cls, black: Iterable[SquareLike] = (), white: Iterable[SquareLike] = (),
                   eggs: Iterable[SquareLike] = (), turn: int = 0) -> RulesGame:
        """A set-up position; its status and winning counts are the engine's reading."""
        black_squares, white_squares, egg_squares = check_setup(black, white, eggs)
        game = cls()
        game._black, game._white = frozenset(black_squares), frozenset(white_squares)
        game._eggs, game._turn = egg_squares, check_turn(turn)
        fen = game.fen()
        answer = cls._ask(lambda engine: engine.rules_status(fen))
        game._status, game._counts = answer.status, answer.counts
        return game

    def copy(self) -> RulesGame:
        game = type(self)()
        game._black, game._white, game._eggs = self._black, self._white, self._eggs
        game._turn, game._status, game._counts = self._turn, self._status, self._counts
        game._history = self._history
        return game

    def _current_history(self) -> History:
        return self._history

    @property
    def black(self) -> frozenset[Square]:
        return self._black

    @property
    def white(self) -> frozenset[Square]:
        return self._white

    @property
    def eggs(self) -> tuple[Square, ...]:
        return self._eggs

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def status(self) -> Status:
        return self._status

    @property
    def winning_counts(self) -> tuple[int, int]:
        return self._counts

    def winning_turtles(self, color: Color | str) -> frozenset[Square]:
        """The program reports counts, not squares: the squares are read off
        its board by the rule (the fuzzer compares the counts)."""
        from wts.engine.reference import winning_turtles

        board = [self.piece_at(sq) for sq in range(NUM_SQUARES)]
        return frozenset(winning_turtles(board, check_color(color)))

    def piece_at(self, square: SquareLike) -> Piece:
        sq = to_square(square)
        if sq in self._black:
            return Piece.BLACK
        if sq in self._white:
            return Piece.WHITE
        return Piece.EGG if sq in self._eggs else Piece.EMPTY

    def legal_moves(self) -> list[Square]:
        if self._status.is_over:
            return []
        taken = self._black | self._white | set(self._eggs)
        return [sq for sq in range(NUM_SQUARES) if sq not in taken]

    def key(self) -> int:
        return position_key(self._black, self._white, self._eggs)

    def play(self, black_move: SquareLike, white_move: SquareLike) -> TurnResult:
        """The turn as the engine resolves it. A move that is not a square is
        refused here; the engine refuses the others (its verdict, this package's words)."""
        squares = [move_square(color, move) for color, move in
                   ((Color.BLACK, black_move), (Color.WHITE, white_move))]
        if self._status.is_over and any(isinstance(sq, IllegalMoveError) for sq in squares):
            raise game_over_error(self._status)
        for sq in squares:
            if isinstance(sq, IllegalMoveError):
                raise sq
        b, w = squares[0], squares[1]
        assert isinstance(b, int) and isinstance(w, int)
        fen = self.fen()
        answer = self._ask(lambda engine: engine.rules_play(fen, b, w))
        if isinstance(answer, lines.RulesIllegal):
            if answer.who == "over":
                raise game_over_error(self._status)
            color = Color(answer.who)
            sq = b if color is Color.BLACK else w
            piece = self.piece_at(sq)
            if piece is Piece.EMPTY:
                raise IllegalMoveError(f"{color.value}'s move {SQUARE_NAMES[sq]} is illegal: "
                                       "the engine refuses an empty square")
            raise occupied_error(color, sq, piece)
        position = parse_fen(answer.fen)
        result = TurnResult(b, w, answer.collision, answer.captures, answer.dissolved,
                            answer.hatched, answer.status, answer.counts)
        history = self._history
        if not history:
            history = NEW_GAME if self._is_new() else History(self.copy())
        self._black, self._white = frozenset(position.black), frozenset(position.white)
        self._eggs, self._turn = position.eggs, position.turn
        self._status, self._counts = answer.status, answer.counts
        self._history = history.then(result)
        return result

    def _is_new(self) -> bool:
        return self._turn == 0 and not (self._black or self._white or self._eggs)

    @classmethod
    def describe_script(cls, script: Script, difference: Difference) -> str:
        """A fuzzer's shrunk script as an engine author replays it: the start
        position, the moves, and the rules requests, each with the answer of
        this package's reference rules and the answer of the engine, up to the
        step where they differ."""
        from wts.engine.reference import Game as Reference

        start = script.setup.build(Reference).fen()
        moves = ", ".join(f"{_shown(b)} {_shown(w)}" for b, w in script.steps) or "(none)"
        header = [f"# Start position: {start}",
                  f"# moves (black white): {moves}",
                  f"# Send these lines to {getattr(cls, 'engine_name', 'the engine')} after "
                  f"the handshake ({lines.PROTOCOL_NAME} {lines.PROTOCOL_VERSION}); "
                  "under each, the reference's answer and the engine's:"]
        return "\n".join(header + transcript(start, script.steps[:difference.step + 1],
                                              Reference, cls._answer_line))

    @classmethod
    def _answer_line(cls, request: str) -> str:
        """What the engine answers ``request`` (a rules request line), as it wrote it."""
        engine: Engine | None = None
        try:
            engine = cls.engine()
            with cls._call_lock:
                engine.last_line = None
                if request.startswith("rules status "):
                    engine.rules_status(request.removeprefix("rules status "))
                else:
                    *fen, black, white = request.removeprefix("rules play ").split()
                    engine.rules_play(" ".join(fen), lines.parse_square_token(black),
                                      lines.parse_square_token(white))
        except EngineError as exc:
            said = engine.last_line if engine is not None else None
            return f"{said.strip()}   (refused: {exc})" if said else f"(no answer: {exc})"
        # The request set it (a type checker keeps the None written above).
        answered = cast("str | None", engine.last_line)
        assert answered is not None  # a request was answered
        return answered.strip()

    @classmethod
    def describe_difference(cls, difference: Difference) -> str:
        """What differed, in the protocol's words: the part of the answer, and
        what the reference and the engine said there."""
        where = ("the start position's rules status" if difference.step < 0
                 else f"step {difference.step + 1}")
        if difference.field == ENGINE_FAILURE:
            return (f"the engine failed at {where}: {difference.candidate}\n"
                    f"  reference: {_protocol_words('', difference.reference)}")
        prefix, _dot, part = difference.field.rpartition(".")
        what = _PART_WORDS.get(part, part or difference.field)
        if prefix.startswith("position"):
            what = f"the position written back ({what})"
        return (f"{what}: the answers differ at {where}\n"
                f"  reference: {_protocol_words(part, difference.reference)}\n"
                f"  engine:    {_protocol_words(part, difference.candidate)}")

    def pop(self) -> TurnResult:
        """Undo the last turn: the game is played again from its start, without it."""
        history = self._history
        if not history:
            raise NoTurnError("no turn to undo: none was played since the game's start")
        shorter = history.previous()
        game = type(self)() if shorter.root is None else shorter.root.copy()
        for turn in shorter.turns():
            game.play(turn.black_move, turn.white_move)
        last = history.last
        assert last is not None  # the history holds a turn
        self._black, self._white, self._eggs = game._black, game._white, game._eggs
        self._turn, self._status, self._counts = game._turn, game._status, game._counts
        self._history = shorter
        return last


_PART_WORDS = {
    "collision": "the collision event", "captures": "the capture events",
    "dissolved": "the dissolve events", "hatched": "the hatch events",
    "status": "the status", "winning_counts": "the winning counts (black, white)",
    "black": "the black turtles", "white": "the white turtles",
    "eggs": "the eggs, oldest first", "turn": "the turn number",
    "legal_moves": "the empty squares", "key": "the position", "str": "the board",
    "from_setup": "the answer to rules status", "error": "the verdict (rules illegal or not)",
    "TurnResult": "the rules result",
}


def _protocol_words(part: str, value: Any) -> str:
    """``value`` (a part of a position or of a turn's result) as protocol tokens."""
    if value is None:
        return "none"
    if isinstance(value, TurnResult):
        events = [_protocol_words(p, getattr(value, p)) for p in (
            "collision", "captures", "dissolved", "hatched")
            if getattr(value, p) not in (None, ())]
        return (f"rules result (the position after) {value.status.value} "
                f"{value.winning_counts[0]} {value.winning_counts[1]} {' '.join(events)}"
                ).strip()
    if isinstance(value, Capture):
        names = [SQUARE_NAMES[sq] for sq in (*value.squares, value.closer, value.anchor)]
        return f"capture {value.color.value} {value.round} {' '.join(names)}"
    if isinstance(value, Hatch):
        return f"hatch {SQUARE_NAMES[value.square]} {value.color.value} {value.wave}"
    if isinstance(value, Status):
        return value.value
    if isinstance(value, IllegalMoveError) or type(value).__name__ == "_Raised":
        return f"refused ({getattr(value, 'message', value)})"
    if isinstance(value, (tuple, list, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else list(value)
        if part == "winning_counts":
            return " ".join(str(n) for n in items)
        word = {"dissolved": "dissolve "}.get(part, "")
        text = " ".join(_protocol_words(part, item) if not isinstance(item, int)
                        else word + SQUARE_NAMES[item] for item in items)
        return text or "none"
    if part == "collision" and isinstance(value, int):
        return f"collision {SQUARE_NAMES[value]}"
    if isinstance(value, str) and "\n" in value:
        return "\n    " + value.replace("\n", "\n    ")
    return str(value)


def _same_answer(said: str, expected: str) -> bool:
    """The two answer lines mean the same (each kind of event in the same order)."""
    try:
        return lines.parse_engine_line(said) == lines.parse_engine_line(expected)
    except ValueError:
        return False


def _shown(move: object) -> str:
    try:
        return SQUARE_NAMES[to_square(move)]
    except ValueError:
        return repr(move)


def rules_game_class(command: str | Sequence[str], *, timeout: float = TIMEOUT
                     ) -> type[RulesGame]:
    """A ``Game`` class whose rules are those of the engine ``command`` runs;
    ``timeout`` seconds to answer each request (an engine that takes longer hangs)."""
    args = tuple(split_command(command))
    name = shlex.join(args)
    return type("RulesGame", (RulesGame,), {
        "command": args, "timeout": float(timeout), "_faults": [], "_engine": None,
        "_lock": threading.Lock(),
        "_call_lock": threading.Lock(), "engine_name": name,
        "__module__": __name__, "__doc__": f"The rules of {name!r}, through the protocol.",
    })


def transcript(start: str, moves: Sequence[tuple[object, object]], reference: type[GameBase],
               answer: Callable[[str], str] | None = None) -> list[str]:
    """The rules requests that replay ``moves`` from position ``start`` (a
    position string), each followed by the answer ``reference`` gives and, with
    ``answer`` (a request line to the engine's answer line), the engine's: what
    an engine author types into the engine to see the turn where it differs."""
    game = reference.from_fen(start) if start != STARTING_FEN else reference()
    requests: list[str] = []

    def ask(request: str, expected: str) -> None:
        requests.extend([request, f"  reference: {expected}"])
        if answer is not None:
            said = answer(request)
            mark = "" if _same_answer(said, expected) else "   <- differs"
            requests.append(f"  engine:    {said}{mark}")

    ask(f"rules status {start}", lines.format_rules_status(game.status, game.winning_counts))
    for black, white in moves:
        try:
            b, w = to_square(black), to_square(white)
        except ValueError:
            requests.append(f"(a move that is not a square: {black!r} {white!r}; the client "
                            "refuses it before the engine sees it)")
            continue
        fen = game.fen()
        request = f"rules play {fen} {SQUARE_NAMES[b]} {SQUARE_NAMES[w]}"
        try:
            result = game.play(b, w)
        except IllegalMoveError as exc:
            who = "over" if game.status.is_over else (
                "black" if str(exc).startswith("black") else "white")
            ask(request, f"rules illegal {who}")
            continue
        ask(request, lines.format_rules_result(
            game.fen(), result.status, result.winning_counts, result.collision,
            result.captures, result.dissolved, result.hatched))
    return requests
