"""``wts serve``: What the Shell in a web browser.

An ASGI app (Starlette, run by uvicorn) with WebSockets for live games and
plain HTTP for pages and downloads; games, seats and records live in one
SQLite file. The protocol is documented in ``docs/serve.md``. Needs the
``serve`` extra (``pip install "wts[serve]"``); ``import wts`` does not
import this package.

One module, one job:

- :mod:`wts.serve.messages`: the protocol's messages, validated by pydantic;
- :mod:`wts.serve.store`: the SQLite store (WAL);
- :mod:`wts.serve.rooms`: games being played, their seats and watchers;
- :mod:`wts.serve.bot`: the bot's searches, on worker threads;
- :mod:`wts.serve.bounds`: sizes, counts and rates;
- :mod:`wts.serve.defaults`: the bot a game gets when it asks for none (``wts play``'s too);
- :mod:`wts.serve.lessons`: the tutorial's lessons (``lessons.json``);
- :mod:`wts.serve.app`: the HTTP routes, the WebSocket endpoint, the headers.
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from wts.serve.app import create_app

        return create_app
    raise AttributeError(name)
