"""An engine program as a player: ``engine:CMD`` wherever a player is named.

``wts tournament "engine:./mybot --hash 64" mcts:2`` plays the program
``./mybot --hash 64`` (split as a shell would, run without one) against level
2. The spec is a string, so it travels to process and Ray workers, and the
program starts in the worker, at the player's first move. A match keeps it
running from game to game (:meth:`EngineAgent.new_game`), as cutechess and
fastchess do, and starts it again only after a failure (or for every game,
with ``restart="game"``); it is ended by :meth:`EngineAgent.close` or when
the player is reset.

>>> import sys, wts
>>> from wts.protocol.player import EngineAgent
>>> bot = EngineAgent([sys.executable, "-m", "wts", "engine", "--agent", "greedy"], seed=1)
>>> bot.select(wts.Game(), "black") in range(81)
True
>>> bot.close()
"""

from __future__ import annotations

import shlex
import shutil
import threading
from collections.abc import Mapping, Sequence

from wts.engine.base import GameBase
from wts.engine.pieces import Color
from wts.engine.squares import Square
from wts.errors import ParameterError
from wts.protocol.client import Engine, split_command
from wts.protocol.lines import Info, Limit

__all__ = ["DEFAULT_MOVETIME", "EngineAgent"]

#: Seconds a move an engine is given when nothing else says (``--time-limit``).
DEFAULT_MOVETIME = 1.0


class EngineAgent:
    """A player whose squares an engine program names (:class:`wts.protocol.Engine`).

    ``limit`` is the search limit of every move (default: ``time_limit``
    seconds a move, else :data:`DEFAULT_MOVETIME`); ``options`` are set on
    the engine; ``seed``, when the engine declares a ``seed`` option, is given
    to it, so a match's games can be played again. Failures raise
    :class:`wts.protocol.EngineError`: a match counts them as forfeits.
    """

    def __init__(self, command: str | Sequence[str], *, seed: int | None = None,
                 time_limit: float | None = None, limit: Limit | None = None,
                 options: Mapping[str, object] | None = None,
                 stop: threading.Event | None = None) -> None:
        self.command = split_command(command)
        if shutil.which(self.command[0]) is None:  # said now, not at the first move
            raise ParameterError(f"no program {self.command[0]!r} (in {command!r}): give a "
                                 "path to an executable, or the name of one on PATH")
        self.seed = seed
        if limit is None:
            limit = Limit(movetime=DEFAULT_MOVETIME if time_limit is None else time_limit)
        self.limit = limit
        self.options = dict(options or {})
        self.stop = stop
        self.last_info: Info | None = None
        self.total_seconds = 0.0
        self.moves = 0
        self._engine: Engine | None = None
        self._stderr = ""
        #: The name the engine declares (``id name``), once it has started.
        self.engine_name: str | None = None

    def engine(self) -> Engine:
        """The running engine, started (and configured) on first use."""
        if self._engine is None or not self._engine.alive:
            if self._engine is not None:
                self._stderr = self._engine.stderr
            engine = Engine.popen(self.command)
            try:
                options = {**self.options, **self._seed_option(engine)}
                if options:
                    engine.configure(options)
            except BaseException:
                engine.kill()
                raise
            self._engine = engine
            self.engine_name = engine.name or None
        return self._engine

    def _seed_option(self, engine: Engine) -> dict[str, object]:
        """The ``seed`` option to set for ``self.seed``: none unless the engine
        declares a numeric one and ``options`` does not set it."""
        option = engine.options.get("seed")
        if self.seed is None or option is None or option.type != "spin" \
                or "seed" in self.options:
            return {}
        low = option.min or 0
        high = option.max if option.max is not None else low
        return {"seed": low + self.seed % (high - low + 1)}

    def new_game(self, seed: int | None = None) -> None:
        """Ready for another game, played with ``seed``: a running engine is
        told ``newgame`` and given the seed, and plays on in the same process
        (an engine that ended starts again at the next move)."""
        self.seed = seed
        self.last_info = None
        if self._engine is None:
            return
        if not self._engine.alive:
            self.close()
            return
        try:
            self._engine.new_game()
            seeded = self._seed_option(self._engine)
            if seeded:
                self._engine.configure(seeded)
        except BaseException:
            self.close()
            raise

    def select(self, game: GameBase, color: Color | str) -> Square:
        """The square the engine names for ``color``; ``game`` is left unchanged."""
        result = self.engine().play(game, color, self.limit, stop=self.stop)
        self.last_info = result.info
        self.total_seconds += result.seconds
        self.moves += 1
        return result.square

    @property
    def stderr(self) -> str:
        """What the engine wrote to its standard error (the last part of it)."""
        return self._engine.stderr if self._engine is not None else self._stderr

    def reset(self) -> None:
        """End the engine; the next move starts it again."""
        self.close()

    def close(self) -> None:
        """Send ``quit``, and end the engine's process."""
        if self._engine is not None:
            self._engine.quit()
            self._stderr = self._engine.stderr
            self._engine = None

    def __repr__(self) -> str:
        return f"EngineAgent({shlex.join(self.command)!r}, seed={self.seed!r})"
