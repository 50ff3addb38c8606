"""``wts serve``: the web app (:mod:`wts.serve`), until Ctrl-C."""

from __future__ import annotations

import argparse
from typing import Any

from wts.cli import arguments

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``serve`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve", help="play in a web browser: against the bot, at one screen, or online",
        description="Serve What the Shell as a web app (needs the serve extra: pip install "
        "'wts[serve]'). It listens on 127.0.0.1 unless --host says otherwise; games live in "
        "the database --db (an SQLite file, or PostgreSQL shared by several processes "
        "behind a proxy), so a restarted server resumes them. The protocol and the "
        "deployment are in docs/serve.md.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=arguments.integer("a port", 0, 65535), default=8000,
                        help="the port (default 8000; 0: a free one, which the first line "
                        "printed names)")
    parser.add_argument("--db", default=None, metavar="PATH|URL",
                        help="the database: an SQLite file (default games.sqlite3 in the "
                        "user's data folder, ~/.local/share/wts on Linux; the first line "
                        "printed names it), or postgresql://USER[:PASSWORD]@HOST[:PORT]/NAME "
                        "(libpq's URL: PGPASSWORD and ~/.pgpass are read too), which several "
                        "processes share")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a name the pages may be reached by, besides --host and this "
                        "machine's loopback names (repeat for more)")
    parser.add_argument("--forwarded-allow-ips", default=None, metavar="ADDRESSES",
                        help="the reverse proxies (comma-separated addresses) whose "
                        "X-Forwarded-For names the client; by default it is not believed")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Serve the web app until Ctrl-C."""
    try:
        from wts.serve import launch
    except ImportError as exc:
        raise ImportError(f"{exc.name or exc} is missing: wts serve needs the serve extra, "
                          "pip install 'wts[serve]'") from None
    launch.run(host=args.host, port=args.port, db=args.db, open_browser=args.open,
               allowed_hosts=args.allowed_host, forwarded_allow_ips=args.forwarded_allow_ips)
    return 0
