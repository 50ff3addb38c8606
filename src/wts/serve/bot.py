"""The bot's searches, on worker threads: ``MCTSAgent`` releases the GIL while
it plays out games in C, and ``AZAgent`` in its tree and in BLAS, so the
event loop, and every other game, stays live while the bot thinks. Levels 1
to 5 are ``MCTSAgent``'s; level 6, the strongest, is the network player
``AZAgent`` thinking as long as level 5. At most ``Limits.max_bot_searches`` run at once; the
others wait their turn."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from wts.engine.game import Game
from wts.engine.squares import square_name
from wts.players.agents import Agent, MCTSAgent
from wts.players.az import AZAgent

__all__ = ["BotRunner", "NETWORK_LEVEL", "bot_agent"]

#: The bot level played by the network player (az:5).
NETWORK_LEVEL = 6


def bot_agent(level: int, stop: threading.Event) -> Agent:
    """The player of a bot ``level`` (1 to :data:`NETWORK_LEVEL`)."""
    if level == NETWORK_LEVEL:
        return AZAgent(level=5, stop=stop)
    return MCTSAgent(level=level, stop=stop)


class BotRunner:
    """Runs bot searches on ``workers`` threads; :meth:`close` stops them within milliseconds."""

    def __init__(self, workers: int) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="wts-bot")
        self._stop = threading.Event()

    @staticmethod
    def _search(position: str, moves: list[tuple[str, str]], color: str, level: int,
                stop: threading.Event) -> str:
        game = Game.from_fen(position)
        for black, white in moves:
            game.play(black, white)
        agent = bot_agent(level, stop)
        return square_name(agent.select(game, color))

    async def choose(self, position: str, moves: list[tuple[str, str]], color: str,
                     level: int) -> str:
        """The bot's square for ``color`` after ``moves`` played from ``position``."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._search, position, list(moves),
                                          color, level, self._stop)

    def close(self) -> None:
        self._stop.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
