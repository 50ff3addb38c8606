"""``wts serve``: run the app under uvicorn."""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path

from wts.serve.limits import Limits

__all__ = ["run", "LOCAL_HOSTS"]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def run(host: str = "127.0.0.1", port: int = 8000, db: str | Path = "wts-games.sqlite3",
        open_browser: bool = False, say: bool = True, limits: Limits | None = None) -> None:
    """Serve What the Shell at http://host:port/ until Ctrl-C, keeping games in ``db``,
    within ``limits`` (default :class:`Limits()`)."""
    import uvicorn

    from wts.serve.app import create_app

    limits = limits or Limits()
    app = create_app(db, limits=limits)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if say:
        where = ("only this machine can connect; --host 0.0.0.0 lets other machines in"
                 if host in LOCAL_HOSTS else "other machines can connect")
        print(f"wts serve: {url} ({where}); games kept in {db}", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    # Frames a little over the app's limit reach it and get a clear error; far larger
    # ones are cut off by the WebSocket layer before they are buffered (close code 1009).
    uvicorn.run(app, host=host, port=port, ws_max_size=4 * limits.max_frame,
                ws_ping_interval=20.0, log_level="warning", server_header=False)
