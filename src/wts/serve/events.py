"""News that every process of a server must hear: a seat taken by
invitation, the lobby's seeks changed, a seek accepted, sessions ended, an
account deleted.

With SQLite there is one process and the news goes straight to it. With
PostgreSQL it travels by ``NOTIFY`` on the database every process already
holds open, so several processes need nothing else running; each process
``LISTEN``\\s on a connection of its own and hears its own news too, so the
news is handled one way wherever it starts. A notification is sent when its
statement commits, after the change it announces, so a process that hears
it reads the change. While a listening connection is lost, news is missed:
on reconnecting, the process is told ``resync`` and reads the lobby again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from wts.serve.database import CONNECTION
from wts.serve.store import Store

__all__ = ["Events", "CHANNEL"]

log = logging.getLogger("wts.serve")

#: PostgreSQL's channel for the server's news.
CHANNEL = "wts_serve"

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Events:
    """The news of ``store``'s server; ``handler`` hears each item as a dict
    with its ``kind``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.handler: Handler | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()  # set once news from other processes can arrive

    def publish(self, kind: str, **data: Any) -> None:
        event = {"kind": kind, **data}
        if self.store.shared:
            self.store.db.run("SELECT pg_notify(?, ?)", (CHANNEL, json.dumps(event)))
        else:
            self._deliver(event)

    def _deliver(self, event: dict[str, Any]) -> None:
        if self.handler is None:
            return
        task = asyncio.get_running_loop().create_task(self._handle(event))
        self._tasks.add(task)  # held, so it is not collected mid-run
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, event: dict[str, Any]) -> None:
        assert self.handler is not None
        try:
            await self.handler(event)
        except Exception:  # one item's failure is logged; the others are still heard
            log.exception("handling the news %s failed", event.get("kind"))

    async def start(self) -> None:
        if not self.store.shared:
            self.listening.set()
            return
        self._listener = asyncio.get_running_loop().create_task(self._listen())
        with contextlib.suppress(asyncio.TimeoutError):  # a database that is slow to answer
            await asyncio.wait_for(self.listening.wait(), 10)

    async def _listen(self) -> None:
        import psycopg

        first, delay = True, 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.store.db.url, **CONNECTION) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.5
                    if not first:  # news may have been missed while away
                        self._deliver({"kind": "resync"})
                    first = False
                    while True:
                        async for note in connection.notifies(timeout=30):
                            try:
                                event = json.loads(note.payload)
                            except ValueError:
                                continue
                            if isinstance(event, dict) and isinstance(event.get("kind"), str):
                                self._deliver(event)
                        await connection.execute("SELECT 1")  # quiet: is it still there?
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: try again, less often
                log.warning("listening for news failed (%s); again in %.1f s", exc, delay)
                self.listening.clear()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def stop(self) -> None:
        tasks = [*self._tasks, *([self._listener] if self._listener else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
