"""``wts serve``: run the app under uvicorn."""

from __future__ import annotations

import contextlib
import socket
import threading
import webbrowser
from collections.abc import Sequence
from pathlib import Path

from wts.errors import WtsError
from wts.serve.bounds import Limits

__all__ = ["run", "LOCAL_HOSTS"]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
_ANY = ("0.0.0.0", "::", "")


def names_of_this_machine() -> list[str]:
    """The host name, its fully qualified form and its addresses."""
    names = [socket.gethostname(), socket.getfqdn()]
    with contextlib.suppress(OSError):
        names += socket.gethostbyname_ex(socket.gethostname())[2]
    return names


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (port 0: one the system picks,
    free by construction); a port in use, or an address not this machine's,
    is a :class:`wts.WtsError`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        # A restarted server binds while old connections linger; on Windows
        # that option would let another program take the port, so it is this one's.
        option = getattr(socket, "SO_EXCLUSIVEADDRUSE", socket.SO_REUSEADDR)
        listener.setsockopt(socket.SOL_SOCKET, option, 1)
        listener.bind((host, port))
        listener.listen(2048)
    except OSError as exc:
        listener.close()
        raise WtsError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return listener


def run(host: str = "127.0.0.1", port: int = 8000, db: str | Path = "wts-games.sqlite3",
        open_browser: bool = False, say: bool = True, limits: Limits | None = None,
        allowed_hosts: Sequence[str] = (), forwarded_allow_ips: str | None = None) -> None:
    """Serve What the Shell at http://host:port/ until Ctrl-C, keeping games in ``db``,
    within ``limits`` (default :class:`Limits()`). With ``port`` 0 the system
    picks a free port, which the line printed when ``say`` names.

    The ``Host`` a request names must be ``host``, a loopback name, or one of
    ``allowed_hosts`` (listening on every interface, this machine's names and
    addresses too). The client's address, which the per-address bounds count, is the
    connection's own unless ``forwarded_allow_ips`` names the reverse proxies (comma-
    separated addresses, as uvicorn's option) whose ``X-Forwarded-For`` is believed."""
    import uvicorn

    from wts.serve.app import create_app

    limits = limits or Limits()
    hosts = [*allowed_hosts, *(names_of_this_machine() if host in _ANY else [host])]
    app = create_app(db, limits=limits, allowed_hosts=hosts)
    listener = listen(host, port)  # bound before the line below: the address it names answers
    port = listener.getsockname()[1]
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
    proxies: dict[str, object] = {"proxy_headers": False}
    if forwarded_allow_ips is not None:
        proxies = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips}
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=4 * limits.max_frame,
                            ws_ping_interval=20.0, log_level="warning", server_header=False,
                            **proxies)  # type: ignore[arg-type]
    with listener:
        uvicorn.Server(config).run(sockets=[listener])
