"""``wts serve``: run the app under uvicorn."""

from __future__ import annotations

import contextlib
import logging
import math
import socket
import threading
import time
import webbrowser
from collections.abc import Callable, Sequence
from pathlib import Path

from wts.errors import WtsError
from wts.serve.bounds import Limits
from wts.serve.database import Database, is_postgresql

__all__ = ["run", "default_db", "LOCAL_HOSTS"]

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
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets made so, and a
    # move's reply would otherwise wait on Nagle and delayed ACKs (40 ms).
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
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


def _addresses(forwarded_allow_ips: str | None) -> list[str]:
    """The proxies ``forwarded_allow_ips`` names (comma-separated), none for None."""
    if forwarded_allow_ips is None:
        return []
    return [entry.strip() for entry in forwarded_allow_ips.split(",") if entry.strip()]


class _AcceptFailures(logging.Filter):
    """Lets asyncio's "socket.accept() out of system resource" through once a
    minute: with every file in use it is logged at each retry, and would
    fill the disk."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.last = -math.inf

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith("socket.accept() out of system resource"):
            return True
        now = self.clock()
        if now - self.last < 60:
            return False
        self.last = now
        return True


def _more_files() -> None:
    """The soft limit of open files raised to the hard one (each connection
    holds a file), where the system has such limits."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1 << 16 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def default_db() -> Path:
    """Where games are kept unless ``--db`` says otherwise: the user's data
    folder (``~/.local/share/wts`` on Linux), never the current folder."""
    import platformdirs

    return platformdirs.user_data_path("wts", appauthor=False) / "games.sqlite3"


def run(host: str = "127.0.0.1", port: int = 8000, db: str | Path | None = None,
        open_browser: bool = False, say: bool = True, limits: Limits | None = None,
        allowed_hosts: Sequence[str] = (), forwarded_allow_ips: str | None = None) -> None:
    """Serve What the Shell at http://host:port/ until Ctrl-C, keeping games in ``db``
    (an SQLite file, default :func:`default_db`, or a ``postgresql://`` URL),
    within ``limits`` (default :class:`Limits()`).
    With ``port`` 0 the system picks a free port, which the line printed when
    ``say`` names.

    The ``Host`` a request names must be ``host``, a loopback name, or one of
    ``allowed_hosts`` (listening on every interface, this machine's names and
    addresses too). The client's address, which the per-address bounds count, is the
    connection's own unless ``forwarded_allow_ips`` names the reverse proxies (comma-
    separated addresses, as uvicorn's option) whose ``X-Forwarded-For`` is believed."""
    import uvicorn

    from wts.serve.app import create_app
    from wts.serve.http_protocol import guarded_h11

    limits = limits or Limits()
    if db is not None and is_postgresql(str(db)):
        probe = Database(str(db))  # a database that cannot be reached is said so, here
        shown_db = probe.name
        probe.close()
    elif db is None:
        db = default_db()
        try:
            db.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WtsError(f"cannot make the games' folder {db.parent}: "
                           f"{exc.strerror or exc}; name another with --db") from None
    if not is_postgresql(str(db)):
        shown_db = str(db)
    hosts = [*allowed_hosts, *(names_of_this_machine() if host in _ANY else [host])]
    app = create_app(db, limits=limits, allowed_hosts=hosts)
    listener = listen(host, port)  # bound before the line below: the address it names answers
    port = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if say:
        where = ("only this machine can connect; --host 0.0.0.0 lets other machines in"
                 if host in LOCAL_HOSTS else "other machines can connect")
        print(f"wts serve: {url} ({where}); games kept in {shown_db}", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    # Frames a little over the app's limit reach it and get a clear error; far larger
    # ones are cut off by the WebSocket layer before they are buffered (close code 1009).
    proxies: dict[str, object] = {"proxy_headers": False}
    if forwarded_allow_ips is not None:
        proxies = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips}
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=4 * limits.max_frame,
                            http=guarded_h11(limits.request_seconds,
                                             limits.max_http_connections_per_address,
                                             _addresses(forwarded_allow_ips)),
                            ws_ping_interval=20.0, log_level="warning", server_header=False,
                            **proxies)  # type: ignore[arg-type]
    _more_files()
    logging.getLogger("asyncio").addFilter(_AcceptFailures())
    with listener:
        uvicorn.Server(config).run(sockets=[listener])
