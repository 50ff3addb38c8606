"""The bot's searches, on worker threads: ``MCTSAgent`` releases the GIL while
it plays out games in C, so the event loop, and every other game, stays live
while the bot thinks. At most ``Limits.max_bot_searches`` run at once; the
others wait their turn."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from wts.engine.game import Game
from wts.engine.squares import square_name
from wts.players.agents import MCTSAgent

__all__ = ["BotRunner"]


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
        agent = MCTSAgent(level=level, stop=stop)
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
