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
from collections.abc import Iterable, Sequence
from typing import ClassVar

from wts.devtools.fuzz.compare import Difference, Script
from wts.engine._history import NEW_GAME, History
from wts.engine.base import (
    GameBase,
    check_setup,
    check_turn,
    game_over_error,
    move_square,
    occupied_error,
)
from wts.engine.events import TurnResult
from wts.engine.keys import position_key
from wts.engine.notation import STARTING_FEN, parse_fen
from wts.engine.pieces import Color, Piece, Status, check_color
from wts.engine.squares import NUM_SQUARES, SQUARE_NAMES, Square, SquareLike, to_square
from wts.errors import IllegalMoveError, NoTurnError, ParameterError
from wts.protocol import lines
from wts.protocol.client import Engine, split_command

__all__ = ["RulesGame", "rules_game_class", "transcript"]


class RulesGame(GameBase):
    """A game whose rules are an engine's (see :func:`rules_game_class`)."""

    command: ClassVar[tuple[str, ...]] = ()
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
                if "rules" not in engine.features:
                    engine.quit()
                    raise ParameterError(f"{shlex.join(cls.command)} does not declare "
                                         "'feature rules': it cannot be fuzzed")
                atexit.register(engine.kill)
                cls._engine = (os.getpid(), engine)
                return engine
            return held[1]

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
        with cls._call_lock:
            answer = cls.engine().rules_status(game.fen())
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
        with self._call_lock:
            answer = self.engine().rules_play(self.fen(), b, w)
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
        position, the moves, and the rules requests with the answers expected."""
        from wts.engine.reference import Game as Reference

        start = script.setup.build(Reference).fen()
        moves = ", ".join(f"{_shown(b)} {_shown(w)}" for b, w in script.steps) or "(none)"
        header = [f"# {difference.field} differs. Start position: {start}",
                 f"# moves (black white): {moves}",
                 f"# Send these lines to {getattr(cls, 'engine_name', 'the engine')} after "
                 f"the handshake ({lines.PROTOCOL_NAME} {lines.PROTOCOL_VERSION}); "
                 "each is followed by this package's answer:"]
        return "\n".join(header + transcript(start, script.steps, Reference))

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


def _shown(move: object) -> str:
    try:
        return SQUARE_NAMES[to_square(move)]
    except ValueError:
        return repr(move)


def rules_game_class(command: str | Sequence[str]) -> type[RulesGame]:
    """A ``Game`` class whose rules are those of the engine ``command`` runs."""
    args = tuple(split_command(command))
    name = shlex.join(args)
    return type("RulesGame", (RulesGame,), {
        "command": args, "_engine": None, "_lock": threading.Lock(),
        "_call_lock": threading.Lock(), "engine_name": name,
        "__module__": __name__, "__doc__": f"The rules of {name!r}, through the protocol.",
    })


def transcript(start: str, moves: Sequence[tuple[object, object]], reference: type[GameBase]
               ) -> list[str]:
    """The rules requests that replay ``moves`` from position ``start`` (a
    position string), each followed by the answer ``reference`` gives: what an
    engine author types into the engine to see the turn where it differs."""
    game = reference.from_fen(start) if start != STARTING_FEN else reference()
    requests = [f"rules status {start}",
                f"  expected: {lines.format_rules_status(game.status, game.winning_counts)}"]
    for black, white in moves:
        try:
            b, w = to_square(black), to_square(white)
        except ValueError:
            requests.append(f"(a move that is not a square: {black!r} {white!r}; the client "
                            "refuses it before the engine sees it)")
            continue
        fen = game.fen()
        requests.append(f"rules play {fen} {SQUARE_NAMES[b]} {SQUARE_NAMES[w]}")
        try:
            result = game.play(b, w)
        except IllegalMoveError as exc:
            who = "over" if game.status.is_over else (
                "black" if str(exc).startswith("black") else "white")
            requests.append(f"  expected: rules illegal {who}")
            continue
        requests.append("  expected: " + lines.format_rules_result(
            game.fen(), result.status, result.winning_counts, result.collision,
            result.captures, result.dissolved, result.hatched))
    return requests

