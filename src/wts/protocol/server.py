"""``wts engine``: any ``wts`` player as an engine that speaks the protocol.

``wts engine --agent mcts:3`` reads commands on standard input and answers on
standard output (``docs/protocol.md``). The search runs on its own thread, so
``stop`` and ``isready`` are answered while it thinks. It also answers the
rules part, resolving turns with ``--rules`` (``wts:Game`` by default,
``wts.reference:Game`` for the reference engine): it is the adapter other
implementations of the rules are fuzzed against.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import replace
from typing import IO, Any

from wts.engine.base import GameBase
from wts.engine.pieces import Color
from wts.engine.squares import SQUARE_NAMES
from wts.errors import GameOverError, IllegalMoveError, WtsError
from wts.players.specs import AgentSpec
from wts.protocol import lines
from wts.protocol.errors import EngineProtocolError

__all__ = ["EngineServer", "serve"]

#: The largest seed the ``seed`` option takes (the protocol's counts are 63-bit).
_SEED_MAX = 2**63 - 1
#: Seconds kept back from a movetime, so that the answer is in time.
_SAFETY = 0.02


class EngineServer:
    """The protocol over one agent spec, reading ``stdin`` and writing ``stdout``."""

    def __init__(self, spec: str | AgentSpec, rules: type[GameBase], stdin: IO[bytes],
                 stdout: IO[bytes]) -> None:
        from wts.players.agents import make_agent

        self.spec = AgentSpec.parse(spec)
        self.name = self.spec.name
        self.rules = rules
        self._make_agent = make_agent
        self._stdin = stdin
        self._stdout = stdout
        self._out = threading.Lock()
        self._stop = threading.Event()
        self._seed = 0
        self._threads: int | None = None
        self._agent: Any = None
        self._game: GameBase | None = None
        self._search: threading.Thread | None = None
        self._busy = threading.Event()

    # --- output -----------------------------------------------------------------------

    def say(self, line: str) -> None:
        """Write one line and flush it."""
        with self._out:
            self._stdout.write(line.encode("utf-8") + b"\n")
            self._stdout.flush()

    def error(self, text: str) -> None:
        self.say("error " + " ".join(text.split()))

    # --- the agent --------------------------------------------------------------------

    def _options(self) -> list[lines.Option]:
        options = [lines.Option("seed", "spin", "0", 0, _SEED_MAX)]
        if self.name == "mcts":  # the network player's threads are BLAS's
            options.append(lines.Option("threads", "spin", "1", 1, 256))
        return options

    def agent(self) -> Any:
        if self._agent is None:
            spec = self.spec
            if self._threads is not None:
                options = tuple(o for o in spec.options if o[0] != "threads")
                spec = replace(spec, options=(*options, ("threads", self._threads)))
            self._agent = self._make_agent(spec, seed=self._seed, stop=self._stop)
        return self._agent

    @property
    def searching(self) -> bool:
        """A ``go`` is being answered (cleared just before its ``move`` is written)."""
        return self._busy.is_set()

    # --- commands ---------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Answer one command line; False once the engine should exit."""
        try:
            command = lines.parse_client_line(line)
        except EngineProtocolError as exc:
            self.error(str(exc))
            return True
        if isinstance(command, lines.SimpleCommand):
            if command.word == "quit":
                return False
            if command.word == "isready":
                if not self.searching:
                    self.agent()  # a player's start-up (a network's loading) before readyok
                self.say("readyok")
            elif self.searching:  # stop with no search running is a no-op, as in UCI
                self._stop.set()
            return True
        if self.searching and not isinstance(command, (lines.RulesStatusCommand,
                                                       lines.RulesPlayCommand)):
            self.error("a search is running: send stop and wait for its move first")
            return True
        if isinstance(command, lines.HelloCommand):
            self.hello(command.version)
        elif isinstance(command, lines.SetOptionCommand):
            self.set_option(command.name, command.value)
        elif isinstance(command, lines.NewGameCommand):
            self._game = None
            if self._agent is not None:
                self._agent.reset()
        elif isinstance(command, lines.PositionCommand):
            self.position(command)
        elif isinstance(command, lines.GoCommand):
            self.go(command)
        else:
            self.rules_request(command)
        return True

    def hello(self, version: int) -> None:
        if version < lines.PROTOCOL_VERSION:
            self.error(f"this engine speaks protocol {lines.PROTOCOL_VERSION}, not {version}")
            return
        self.say(f"id name wts {self.spec}")
        self.say("id author wts")
        self.say(f"protocol {lines.PROTOCOL_VERSION}")
        for option in self._options():
            self.say(lines.format_option(option))
        self.say("feature rules")
        self.agent()  # the player's start-up (a network loaded, its BLAS warm), before ready
        self.say("ready")

    def set_option(self, name: str, value: str | None) -> None:
        options = {option.name: option for option in self._options()}
        if name not in options:
            self.error(f"no option {name!r}; this engine has: {', '.join(options)}")
            return
        try:
            number = int(options[name].check(value))
        except EngineProtocolError as exc:
            self.error(str(exc))
            return
        if name == "seed":
            self._seed = number
        else:
            self._threads = number
        self._agent = None

    def position(self, command: lines.PositionCommand) -> None:
        from wts.engine.game import Game

        game: GameBase | None = None
        if self._game is not None and command.moves:
            # Follow the game, so the search keeps its tree.
            game = self._game.copy()
            try:
                for black, white in command.moves:
                    game.play(black, white)
            except WtsError:
                game = None
            if game is not None and game.fen() != command.fen:
                game = None
        if game is None:
            game = Game.from_fen(command.fen)
        self._game = game

    def go(self, command: lines.GoCommand) -> None:
        game = self._game
        if game is None:
            self.error("no position: send position before go")
            return
        if game.is_over():
            self.error(f"the game is over ({game.status.words}): there is no move to choose")
            return
        self._stop.clear()
        self._busy.set()
        self._search = threading.Thread(target=self._think, args=(game, command),
                                        name="wts-engine-search", daemon=True)
        self._search.start()

    def _think(self, game: GameBase, command: lines.GoCommand) -> None:
        try:
            answer = self._answer(game, command)
        except (WtsError, ValueError) as exc:
            answer = "error " + " ".join(str(exc).split())
        self._busy.clear()  # before the answer: the client may send the next command at once
        self.say(answer)

    def _answer(self, game: GameBase, command: lines.GoCommand) -> str:
        """The search's progress lines are written; the ``move`` line is returned."""
        agent = self.agent()
        limit = command.limit
        saved = (getattr(agent, "time_limit", None), getattr(agent, "playouts", None))
        if hasattr(agent, "time_limit"):
            left, inc = limit.clock(command.color)
            if limit.infinite:
                agent.time_limit = 86_400.0
            elif limit.movetime is not None:
                agent.time_limit = max(0.001, limit.movetime - _SAFETY)
            elif left is not None:
                agent.time_limit = max(0.001, min(left / 2, left / 20 + 0.75 * inc) - _SAFETY)
            elif limit.playouts is not None and limit.playouts > 0:
                agent.time_limit = None
                agent.playouts = limit.playouts
        started = time.monotonic()
        try:
            square = agent.select(game, Color(command.color))
        finally:
            if hasattr(agent, "time_limit"):
                agent.time_limit, agent.playouts = saved
        search = getattr(agent, "last_search", None)
        if search is not None:
            self.say(lines.format_info(lines.Info(
                playouts=search.playouts, nodes=search.nodes, time=search.seconds,
                value=search.value)))
        else:
            self.say(lines.format_info(lines.Info(time=time.monotonic() - started)))
        return f"move {SQUARE_NAMES[square]}"

    def rules_request(self, command: lines.ClientLine) -> None:
        """The rules part: a set-up position's status, or a turn resolved."""
        try:
            game = self.rules.from_fen(command.fen)  # type: ignore[union-attr]
        except WtsError as exc:
            self.error(f"cannot set up the position: {exc}")
            return
        if isinstance(command, lines.RulesStatusCommand):
            self.say(lines.format_rules_status(game.status, game.winning_counts))
            return
        assert isinstance(command, lines.RulesPlayCommand)
        try:
            result = game.play(command.black, command.white)
        except GameOverError:
            self.say("rules illegal over")
            return
        except IllegalMoveError as exc:
            self.say("rules illegal " + ("black" if str(exc).startswith("black") else "white"))
            return
        self.say(lines.format_rules_result(
            game.fen(), result.status, result.winning_counts, result.collision,
            result.captures, result.dissolved, result.hatched))

    # --- the loop ---------------------------------------------------------------------

    def run(self) -> int:
        """Answer commands until ``quit`` or the end of the input; returns 0."""
        try:
            while True:
                raw = self._stdin.readline(lines.MAX_LINE + 2)
                if not raw:
                    break
                if len(raw) > lines.MAX_LINE and not raw.endswith(b"\n"):
                    while True:  # skip the rest of an overlong line, then refuse it
                        more = self._stdin.readline(lines.MAX_LINE)
                        if not more or more.endswith(b"\n"):
                            break
                    self.error(f"a line longer than {lines.MAX_LINE} bytes")
                    continue
                # only spaces and tabs are blanks; a \r before the \n is dropped
                line = raw.decode("utf-8", "replace").removesuffix("\n").removesuffix(
                    "\r").strip(" \t")
                if line and not self.handle(line):
                    break
        finally:
            self._stop.set()
            if self._search is not None:
                self._search.join(5)
        return 0


def serve(spec: str, rules: type[GameBase] | None = None, stdin: IO[bytes] | None = None,
          stdout: IO[bytes] | None = None) -> int:
    """Run ``wts engine`` for the agent ``spec`` on the process's standard streams."""
    if rules is None:
        from wts.engine.game import Game

        rules = Game
    server = EngineServer(spec, rules, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)
    try:
        return server.run()
    except BrokenPipeError:  # the client went away
        return 0
