"""The client side: run an engine program and talk to it (think ``chess.engine``).

>>> import sys, wts
>>> from wts.protocol import Engine, Limit
>>> with Engine.popen([sys.executable, "-m", "wts", "engine", "--agent", "random"]) as engine:
...     result = engine.play(wts.Game(), "black", Limit(movetime=0.1))
...     engine.name, result.square in range(81)
('wts random', True)

Everything the engine says is checked (:mod:`.protocol`); the client enforces
every time limit itself, with a margin (``overhead``): an engine that is late,
crashes, says something malformed or names a square it may not play raises an
:class:`~wts.protocol.errors.EngineError` with the reason, and the engine's
process group is killed, as it is on Ctrl-C, on :meth:`Engine.close` and when
the object is garbage collected. The engine's standard error is kept, the
last ``stderr_limit`` characters of it, for the report (:attr:`Engine.stderr`).

:class:`AsyncEngine` is the same for asyncio: ``await AsyncEngine.popen(cmd)``
and ``await engine.play(...)``, each call run on the engine's own thread;
cancelling a call kills the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from wts._interrupts import WAIT_SLICE
from wts.engine.base import GameBase
from wts.engine.events import TurnResult
from wts.engine.pieces import Color
from wts.engine.squares import SQUARE_NAMES, Square
from wts.errors import ParameterError, ParameterTypeError
from wts.limits import MAX_HANDSHAKE_BYTES, MAX_OPTIONS
from wts.protocol import lines, pipes
from wts.protocol.errors import (
    EngineError,
    EngineIllegalMoveError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from wts.protocol.lines import Info, Limit, Option
from wts.protocol.pipes import kill_all_engines

__all__ = ["Engine", "AsyncEngine", "PlayResult", "split_command", "kill_all_engines",
           "STDERR_LIMIT"]

# What the engine was last sent, after a ``newgame`` with no position yet:
# matches no game, and asks for no second ``newgame``.
_ANNOUNCED: tuple[str, tuple[TurnResult, ...]] = ("", ())

#: Characters of an engine's standard error kept for the report.
STDERR_LIMIT = 16_384
#: Seconds an engine has to start, answer the handshake, isready or a rules request.
TIMEOUT = 10.0
#: Seconds added to every time limit before the engine is late.
OVERHEAD = 1.0
#: Seconds a search with no time limit (playouts, or none) may take.
SEARCH_TIMEOUT = 60.0
#: Seconds an engine has to exit after ``quit`` before it is killed.
QUIT_GRACE = 1.0
#: Seconds an engine whose pipe ended has to exit; after them it went on running.
END_GRACE = 1.0
#: Seconds the client waits, once an engine has exited, for the rest of what it
#: wrote to be read (a child of it may hold its pipes open: no end comes).
DRAIN = 1.0
#: Lines read ahead of the client; an engine writing more waits (its pipe fills).
LINES_AHEAD = 256

_T = TypeVar("_T")


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as its arguments: a string is split as a POSIX shell would
    (``shlex``), without running a shell; a sequence is taken as it is."""
    if isinstance(command, str):
        try:
            args = shlex.split(command)
        except ValueError as exc:
            raise ParameterError(f"cannot split the engine command {command!r}: {exc}") from None
    elif isinstance(command, Sequence) and all(isinstance(a, str) for a in command):
        args = list(command)
    else:
        raise ParameterTypeError(f"an engine command is a str or a list of str, not {command!r}")
    if not args or not args[0]:
        raise ParameterError("the engine command is empty")
    return args


@dataclass(frozen=True)
class PlayResult:
    """What one ``go`` gave: the square, the last progress the engine reported
    (its fields merged, latest first) and the seconds it took."""

    square: Square
    info: Info
    seconds: float


def _merge(old: Info, new: Info) -> Info:
    return Info(*(b if b not in (None, ()) else a
                  for a, b in zip(_info_fields(old), _info_fields(new))))


def _info_fields(info: Info) -> tuple[Any, ...]:
    return (info.playouts, info.time, info.value, info.nodes, info.pv, info.string)


class Engine:
    """A running engine program that speaks the protocol (``docs/protocol.md``).

    Made by :meth:`popen`, which runs the handshake. After it: :attr:`name`,
    :attr:`author`, :attr:`version`, :attr:`options` (name -> :class:`Option`)
    and :attr:`features` (``{"rules"}`` for an engine that answers the rules
    part). One call at a time; use it from one thread (or :class:`AsyncEngine`).
    """

    def __init__(self, args: list[str], process: subprocess.Popen[bytes], *,
                 timeout: float, overhead: float, search_timeout: float,
                 stderr_limit: int) -> None:
        self.args = args
        self.timeout = timeout
        self.overhead = overhead
        self.search_timeout = search_timeout
        self.name = ""
        self.author = ""
        self.version = 0
        self.options: dict[str, Option] = {}
        self.features: frozenset[str] = frozenset()
        self._process = process
        self._lines: queue.Queue[str | None] = queue.Queue(LINES_AHEAD)
        self._closed = threading.Event()
        self._stderr = pipes.Stderr(stderr_limit)
        self._stdout_quiet = pipes.Quiet()
        self._stderr_quiet = pipes.Quiet()
        self._read_bytes = 0  # of the lines read, for the handshake's bound
        self._ended = False
        self._sent: tuple[str, tuple[TurnResult, ...]] | None = None
        # Commands with no answer of their own sent since the last answer: an
        # ``error`` may answer one of them rather than the request read for.
        self._unanswered: list[str] = []
        #: The last non-empty line the engine wrote, as it wrote it (for reports).
        self.last_line: str | None = None
        assert process.stdout is not None and process.stderr is not None
        self._threads = [
            threading.Thread(target=pipes.read_lines,
                             args=(process.stdout, self._lines, self._closed,
                                   self._stdout_quiet),
                             name="wts-engine-stdout", daemon=True),
            threading.Thread(target=pipes.read_stderr,
                             args=(process.stderr, self._stderr, self._closed,
                                   self._stderr_quiet),
                             name="wts-engine-stderr", daemon=True),
        ]
        pipes.register(process, self._closed)
        for thread in self._threads:
            thread.start()
        self._finalizer = weakref.finalize(self, pipes.kill, process, self._closed)

    # --- starting and stopping ----------------------------------------------------------

    @classmethod
    def popen(cls, command: str | Sequence[str], *, timeout: float = TIMEOUT,
              overhead: float = OVERHEAD, search_timeout: float = SEARCH_TIMEOUT,
              stderr_limit: int = STDERR_LIMIT, cwd: str | os.PathLike[str] | None = None,
              env: Mapping[str, str] | None = None) -> Engine:
        """Start ``command`` (a string split by ``shlex``, or a list of arguments)
        and run the handshake. Raises :class:`EngineError` if the program cannot
        start or does not complete the handshake within ``timeout`` seconds."""
        args = split_command(command)
        for name, value in (("timeout", timeout), ("overhead", overhead),
                            ("search_timeout", search_timeout)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    0 <= value <= 86_400):
                raise ParameterError(f"{name} must be a number of seconds from 0 to 86400, "
                                     f"not {value!r}")
        try:
            process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=cwd, env=None if env is None else dict(env),
                start_new_session=sys.platform != "win32")
        except OSError as exc:
            raise EngineTerminatedError(
                f"cannot start the engine {shlex.join(args)!r}: {exc.strerror or exc}") from None
        engine = cls(args, process, timeout=float(timeout), overhead=float(overhead),
                     search_timeout=float(search_timeout), stderr_limit=stderr_limit)
        try:
            engine._handshake()
        except BaseException:
            engine.kill()
            raise
        return engine

    def _handshake(self) -> None:
        self._send(f"{lines.PROTOCOL_NAME} {lines.PROTOCOL_VERSION}")
        deadline = time.monotonic() + self.timeout
        features: set[str] = set()
        while True:
            line = self._expect(deadline, "the handshake")
            if self._read_bytes > MAX_HANDSHAKE_BYTES:
                raise self._fail(EngineProtocolError(
                    f"the handshake is longer than {MAX_HANDSHAKE_BYTES} bytes "
                    "(wts.limits.MAX_HANDSHAKE_BYTES)"))
            if isinstance(line, lines.Ready):
                break
            if isinstance(line, lines.Id):
                if line.key == "name":
                    self.name = line.value
                else:
                    self.author = line.value
            elif isinstance(line, lines.Version):
                self.version = line.version
            elif isinstance(line, lines.OptionLine):
                if line.option.name not in self.options and len(self.options) >= MAX_OPTIONS:
                    raise self._fail(EngineProtocolError(
                        f"the engine declares more than {MAX_OPTIONS} options "
                        "(wts.limits.MAX_OPTIONS)"))
                self.options[line.option.name] = line.option
            elif isinstance(line, lines.Feature):
                features.add(line.name)
            else:
                raise self._fail(EngineProtocolError(
                    f"unexpected answer during the handshake: {line}"))
        if self.version != lines.PROTOCOL_VERSION:
            raise self._fail(EngineProtocolError(
                f"the engine speaks protocol version {self.version or '(none given)'}; "
                f"this client speaks {lines.PROTOCOL_VERSION}"))
        self.features = frozenset(features)

    def quit(self) -> None:
        """Send ``quit`` and wait a moment for the engine to exit; then kill it."""
        if self._process.poll() is None and not self._ended:
            with contextlib.suppress(EngineError):
                self._send("quit")
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(QUIT_GRACE)
        self.kill()

    close = quit

    def kill(self) -> None:
        """Kill the engine's process group now; its reader threads end with it."""
        self._ended = True
        self._finalizer()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(1)  # bounded: they poll ``closed`` every 0.1 s

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    @property
    def alive(self) -> bool:
        """The process runs and has not failed."""
        return not self._ended and self._process.poll() is None

    @property
    def returncode(self) -> int | None:
        """The process's exit status once it ended, else None."""
        return self._process.poll()

    @property
    def stderr(self) -> str:
        """The last characters the engine wrote to its standard error."""
        with self._stderr.lock:
            return self._stderr.text

    def __repr__(self) -> str:
        name = self.name or shlex.join(self.args)
        return f"<wts.protocol.Engine {name!r} pid={self._process.pid}>"

    # --- lines ------------------------------------------------------------------------

    def _fail(self, error: EngineError) -> EngineError:
        """``error``, once the engine, now in an unknown state, is killed."""
        self.kill()
        return error

    def _send(self, line: str) -> None:
        if self._ended:
            raise EngineTerminatedError("the engine has ended (or failed earlier)")
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode("utf-8") + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._fail(self._terminated("while a command was sent", "input")) from None
        word = line.split(" ", 1)[0]
        if word in ("newgame", "setoption", "position"):
            self._unanswered.append(word)

    def _terminated(self, when: str, closed: str | None = None) -> EngineTerminatedError:
        """What ended the session, ``when``: the engine exited (its status), a
        signal killed it, or it closed its end of a pipe (``closed``: "output"
        or "input") and went on running, which the caller then kills. The last
        line of its standard error is quoted."""
        if closed is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(END_GRACE)
        code = self._process.poll()
        self._stderr_quiet.wait(DRAIN)
        text = self.stderr.strip()
        said = f"; its last words on stderr: {text.splitlines()[-1][:200]!r}" if text else ""
        if code is None:
            return EngineTerminatedError(
                f"the engine closed its standard {closed} and went on running ({when}); "
                f"its process group was killed{said}")
        if code < 0:
            return EngineTerminatedError(
                f"the engine was killed by signal {_signal_name(-code)} {when}{said}")
        return EngineTerminatedError(f"the engine exited with status {code} {when}{said}")

    def _exited(self) -> bool:
        """The engine's process has ended and every line it wrote has been taken:
        a child of it that still holds its output open does not keep it going."""
        if self._process.poll() is None:
            return False
        self._stdout_quiet.wait(DRAIN)
        return self._lines.empty()

    def _readline(self, deadline: float | None, what: str) -> str | None:
        """The next line, or None once ``deadline`` passed; EngineTerminatedError
        if the engine's output ended or its process did. The wait is sliced, so
        that Ctrl-C is seen whichever thread takes the signal, and the process
        is watched at each slice."""
        while True:
            wait = WAIT_SLICE if deadline is None else deadline - time.monotonic()
            if wait <= 0:
                if self._process.poll() is not None:  # its exit is the reason, not the time
                    raise self._fail(self._terminated(f"during {what}"))
                return None
            try:
                line = self._lines.get(timeout=min(wait, WAIT_SLICE))
            except queue.Empty:
                if self._exited():
                    raise self._fail(self._terminated(f"during {what}")) from None
                continue
            if line is None:
                with contextlib.suppress(queue.Full):
                    self._lines.put_nowait(None)  # the end stays the end for later reads
                raise self._fail(self._terminated(f"during {what}", "output"))
            self._read_bytes += lines.line_bytes(line)
            if line.strip(" \t"):
                self.last_line = line
                return line

    def _next(self, deadline: float | None, what: str) -> lines.EngineLine | None:
        """The next line parsed, or None once ``deadline`` passed."""
        line = self._readline(deadline, what)
        if line is None:
            return None
        try:
            parsed = lines.parse_engine_line(line)
        except EngineProtocolError as exc:
            raise self._fail(EngineProtocolError(f"during {what}: {exc}")) from None
        if isinstance(parsed, lines.EngineErrorLine):
            earlier = ", ".join(dict.fromkeys(self._unanswered))
            raise self._fail(EngineProtocolError(
                f"the engine answered {what} with an error: {parsed.text}" if not earlier else
                f"the engine answered with an error, to {what} or to an earlier command it "
                f"does not acknowledge ({earlier}): {parsed.text}"))
        return parsed

    def _sync(self, what: str) -> None:
        """``isready`` before ``what`` is sent, and ``readyok`` awaited: anything
        the engine says first answers no request of ours. An ``error`` answers
        an earlier command (newgame, position, setoption); a ``move`` or an
        ``info`` was said unasked, and would otherwise be taken as the answer."""
        self._send("isready")
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._readline(deadline, f"the isready sent before {what}")
            if line is None:
                raise self._fail(EngineTimeoutError(
                    f"no readyok in time to the isready sent before {what}"))
            try:
                parsed = lines.parse_engine_line(line)
            except EngineProtocolError as exc:
                raise self._fail(EngineProtocolError(f"before {what}: {exc}")) from None
            if isinstance(parsed, lines.ReadyOk):
                self._unanswered.clear()
                return
            if isinstance(parsed, lines.EngineErrorLine):
                earlier = ", ".join(dict.fromkeys(self._unanswered)) or "an earlier command"
                raise self._fail(EngineProtocolError(
                    f"the engine answered an earlier command ({earlier}) with an error, "
                    f"before {what} was sent: {parsed.text}"))
            raise self._fail(EngineProtocolError(
                f"before {what} was sent, the engine said something unasked: {line[:200]!r}"))

    def _expect(self, deadline: float | None, what: str) -> lines.EngineLine:
        parsed = self._next(deadline, what)
        if parsed is None:
            raise self._fail(EngineTimeoutError(f"no answer to {what} in time"))
        return parsed

    # --- commands ---------------------------------------------------------------------

    def ping(self) -> None:
        """``isready``, and wait for ``readyok``."""
        self._send("isready")
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._expect(deadline, "isready")
            if isinstance(line, lines.ReadyOk):
                self._unanswered.clear()
                return
            if not isinstance(line, lines.Info):
                raise self._fail(EngineProtocolError(f"expected readyok, got {line}"))

    def configure(self, options: Mapping[str, object]) -> None:
        """Set options the engine declared (``setoption``), then ``isready``: an
        engine refusing one answers ``error``, which raises."""
        for name, value in options.items():
            option = self.options.get(name)
            if option is None:
                raise ParameterError(f"the engine has no option {name!r}; it declares: "
                                     f"{', '.join(self.options) or 'none'}")
            text = option.check(value)
            self._send(f"setoption name {name}" + (f" value {text}" if text else ""))
        self.ping()

    def new_game(self) -> None:
        """``newgame``: the next position belongs to another game."""
        self._send("newgame")
        self._sent = _ANNOUNCED

    def _position(self, game: GameBase) -> str:
        """The ``position`` line for ``game``: the moves since the last position of
        the same game, or ``newgame`` first when it is another game."""
        history = game.history
        root = game.root().fen() if history else game.fen()
        sent = self._sent
        moves: tuple[TurnResult, ...] = ()
        if sent is not None and sent[0] == root and history[:len(sent[1])] == sent[1]:
            moves = history[len(sent[1]):]
        elif sent is not _ANNOUNCED:
            self.new_game()
        self._sent = (root, history)
        return lines.format_position(game.fen(), tuple((t.black_move, t.white_move)
                                                         for t in moves))

    def _deadline(self, color: str, limit: Limit) -> float | None:
        if limit.infinite:
            return None
        if limit.movetime is not None:
            return limit.movetime + self.overhead
        left, _inc = limit.clock(color)
        if left is not None:
            return left + self.overhead
        return self.search_timeout

    def play(self, game: GameBase, color: Color | str, limit: Limit | None = None, *,
             info: Callable[[Info], None] | None = None,
             stop: threading.Event | None = None) -> PlayResult:
        """The square the engine names for ``color`` in ``game`` (either engine's
        ``Game``), searching under ``limit``. ``info`` is called with every
        progress line; setting ``stop`` sends ``stop`` (needed to end an
        ``infinite`` search). The square is checked: one ``color`` may not play
        raises :class:`EngineIllegalMoveError`. Any failure kills the engine,
        and so does any exception mid-exchange (Ctrl-C, one raised by ``info``):
        its next line could not be trusted."""
        name = color.value if isinstance(color, Color) else str(color).strip().lower()
        if name not in lines.COLORS:
            raise ParameterError(f"expected a colour (wts.Color, 'black' or 'white'), "
                                 f"got {color!r}")
        if game.is_over():
            raise ParameterError(f"the game is over ({game.status.words}): there is no move "
                                 "to ask for")
        limit = limit or Limit()
        what = f"go {name}"
        merged = Info()
        stopped = False
        try:  # an exception at any step leaves the engine mid-exchange: it is killed
            position = self._position(game)
            self._send(position)
            self._sync(what)
            started = time.monotonic()
            self._send(lines.format_go(name, limit))
            allowed = self._deadline(name, limit)
            deadline = None if allowed is None else started + allowed
            while True:
                now = time.monotonic()
                if stop is not None and not stopped and stop.is_set():
                    self._send("stop")
                    stopped = True
                    deadline = now + self.overhead if deadline is None else min(
                        deadline, now + self.overhead)
                if deadline is not None and now >= deadline:
                    raise self._fail(EngineTimeoutError(
                        "the engine did not answer go in time: "
                        + (f"{self.overhead:g} s after stop" if allowed is None or stopped
                           else f"{allowed:.3g} s, the limit and {self.overhead:g} s of margin")))
                until = deadline
                if stop is not None and not stopped:  # look at the stop flag now and then
                    until = now + 0.05 if deadline is None else min(deadline, now + 0.05)
                line = self._next(until, what)
                if line is None:
                    continue
                if isinstance(line, Info):
                    merged = _merge(merged, line)
                    if info is not None:
                        info(line)
                    continue
                if not isinstance(line, lines.Move):
                    raise self._fail(EngineProtocolError(f"expected info or move after go, "
                                                         f"got {line}"))
                self._unanswered.clear()
                break
        except BaseException:
            self.kill()
            raise
        seconds = time.monotonic() - started
        if line.square not in game.legal_moves():
            raise self._fail(EngineIllegalMoveError(
                f"the engine named {SQUARE_NAMES[line.square]} for {name}, which "
                f"{_occupant(game, line.square)}"))
        return PlayResult(line.square, merged, seconds)

    # --- the rules part ---------------------------------------------------------------

    def _rules(self, line: str) -> lines.EngineLine:
        if "rules" not in self.features:
            raise ParameterError("the engine does not declare 'feature rules': it answers no "
                                 "rules requests")
        try:
            self._send(line)
            answer = self._expect(time.monotonic() + self.timeout, " ".join(line.split()[:2]))
        except EngineError as exc:
            # an engine may fail only after many requests: name the one that failed
            raise type(exc)(f"{exc} (the request: {line})") from None
        if not isinstance(answer, (lines.RulesStatus, lines.RulesResult,
                                   lines.RulesIllegal)):
            raise self._fail(EngineProtocolError(f"expected a rules answer to {line!r}, "
                                                 f"got {answer}"))
        self._unanswered.clear()
        return answer

    def rules_status(self, fen: str) -> lines.RulesStatus:
        """The status and winning counts the engine reads off position ``fen``."""
        answer = self._rules(f"rules status {fen}")
        if not isinstance(answer, lines.RulesStatus):
            raise self._fail(EngineProtocolError(f"expected rules status, got {answer}"))
        return answer

    def rules_play(self, fen: str, black: Square, white: Square
                   ) -> lines.RulesResult | lines.RulesIllegal:
        """The turn ``black``, ``white`` played from position ``fen``, as the engine
        resolves it: the result, or which move it refuses."""
        answer = self._rules(f"rules play {fen} {SQUARE_NAMES[black]} {SQUARE_NAMES[white]}")
        if not isinstance(answer, (lines.RulesResult, lines.RulesIllegal)):
            raise self._fail(EngineProtocolError(f"expected rules result or rules illegal, "
                                                 f"got {answer}"))
        return answer


def _signal_name(number: int) -> str:
    try:
        return f"{number} ({signal.Signals(number).name})"
    except ValueError:
        return str(number)


def _occupant(game: GameBase, square: Square) -> str:
    piece = game.piece_at(square).value
    return {"black": "holds a black turtle", "white": "holds a white turtle",
            "egg": "holds an egg"}.get(piece, "it may not play")


class AsyncEngine:
    """:class:`Engine` for asyncio: the same calls, awaited. Each call runs on the
    engine's own thread, so the event loop never blocks; cancelling a call
    kills the engine (an engine cannot be trusted mid-answer)."""

    def __init__(self, engine: Engine, executor: ThreadPoolExecutor) -> None:
        self.engine = engine
        self._executor = executor

    @classmethod
    async def popen(cls, command: str | Sequence[str], **kwargs: Any) -> AsyncEngine:
        """Start ``command`` and run the handshake (the arguments of :meth:`Engine.popen`)."""
        executor = ThreadPoolExecutor(1, thread_name_prefix="wts-async-engine")
        loop = asyncio.get_running_loop()
        try:
            engine = await loop.run_in_executor(executor, lambda: Engine.popen(command, **kwargs))
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(engine, executor)

    async def _call(self, func: Callable[[], _T]) -> _T:
        future = asyncio.get_running_loop().run_in_executor(self._executor, func)
        try:
            return await future
        except asyncio.CancelledError:
            self.engine.kill()
            raise

    async def play(self, game: GameBase, color: Color | str, limit: Limit | None = None, *,
                   info: Callable[[Info], None] | None = None,
                   stop: threading.Event | None = None) -> PlayResult:
        """:meth:`Engine.play`, awaited."""
        return await self._call(lambda: self.engine.play(game, color, limit, info=info,
                                                         stop=stop))

    async def configure(self, options: Mapping[str, object]) -> None:
        """:meth:`Engine.configure`, awaited."""
        await self._call(lambda: self.engine.configure(options))

    async def ping(self) -> None:
        """:meth:`Engine.ping`, awaited."""
        await self._call(self.engine.ping)

    async def new_game(self) -> None:
        """:meth:`Engine.new_game`, awaited."""
        await self._call(self.engine.new_game)

    async def rules_status(self, fen: str) -> lines.RulesStatus:
        """:meth:`Engine.rules_status`, awaited."""
        return await self._call(lambda: self.engine.rules_status(fen))

    async def rules_play(self, fen: str, black: Square, white: Square
                         ) -> lines.RulesResult | lines.RulesIllegal:
        """:meth:`Engine.rules_play`, awaited."""
        return await self._call(lambda: self.engine.rules_play(fen, black, white))

    async def quit(self) -> None:
        """:meth:`Engine.quit`, awaited; the engine's thread ends with it."""
        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, self.engine.quit)
        finally:
            self.engine.kill()
            self._executor.shutdown(wait=False)

    async def __aenter__(self) -> AsyncEngine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.quit()
