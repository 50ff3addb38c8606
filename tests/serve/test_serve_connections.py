"""``wts serve``'s connections, on a real server over loopback: replies are
not held back by Nagle's algorithm, a client that sends its headers a byte at
a time is cut off, a page of another origin is refused at the handshake, and
a browser's request for the icon is answered."""

from __future__ import annotations

import asyncio
import http.client
import socket
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_process import Server
from wts.serve.launch import listen

pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")

SLOW_SERVER = """
import sys
from wts.serve.bounds import Limits
from wts.serve.launch import run
run(port=0, db=sys.argv[1], limits=Limits(request_seconds=1.0))
"""
FEW_SERVER = """
import sys
from wts.serve.bounds import Limits
from wts.serve.launch import run
run(port=0, db=sys.argv[1], limits=Limits(max_http_connections_per_address=4))
"""


def test_accepted_connections_set_tcp_nodelay() -> None:
    """asyncio sets TCP_NODELAY on a connection only when its listening socket
    was made with IPPROTO_TCP; without it each move's reply waited about 40 ms
    on Nagle's algorithm and the client's delayed ACK."""
    async def accept_one() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(
            Probe, sock=listen("127.0.0.1", 0))
        port = server.sockets[0].getsockname()[1]
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            try:
                return await asyncio.wait_for(seen, 10)
            finally:
                writer.close()

    assert asyncio.run(accept_one()) != 0


def test_a_client_slow_to_send_its_headers_is_cut_off(tmp_path: Path) -> None:
    server = Server(tmp_path / "g.sqlite3", code=SLOW_SERVER)
    host, port = server.address.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=10) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            started = time.monotonic()
            closed = False
            while time.monotonic() - started < 8:  # a header line every 0.2 s, never ended
                try:
                    slow.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    closed = True
                    break
                slow.settimeout(0.2)
                try:
                    if slow.recv(4096) == b"":
                        closed = True
                        break
                except TimeoutError:
                    pass
                except OSError:
                    closed = True
                    break
            assert closed, "a slow client kept its connection"
            assert time.monotonic() - started < 5
        quick = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            # Three requests on one connection over 1.8 s: the deadline is each request's.
            for _ in range(3):
                quick.request("GET", "/favicon.ico")
                answer = quick.getresponse()
                assert answer.status == 200
                assert answer.getheader("content-type") == "image/svg+xml"
                assert answer.read().startswith(b"<svg")
                time.sleep(0.6)
        finally:
            quick.close()
    finally:
        server.stop()


def closed_within(conn: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``conn`` within ``seconds`` (reading what it sends)."""
    conn.settimeout(seconds)
    try:
        while conn.recv(4096):
            pass
    except TimeoutError:
        return False
    except OSError:
        pass
    return True


def test_a_client_slow_to_send_its_body_is_cut_off(tmp_path: Path) -> None:
    """The deadline covers the body too: a login whose body comes a byte at a
    time is closed with the request's time, as a slow header is."""
    server = Server(tmp_path / "g.sqlite3", code=SLOW_SERVER)
    host, port = server.address.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=10) as slow:
            slow.sendall(b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Origin: http://127.0.0.1:" + port.encode() + b"\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n{")
            started = time.monotonic()
            cut = False
            while time.monotonic() - started < 8:
                try:
                    slow.sendall(b" ")
                except OSError:
                    cut = True
                    break
                if closed_within(slow, 0.2):
                    cut = True
                    break
            assert cut and time.monotonic() - started < 5, "a slow body kept its connection"
    finally:
        server.stop()


def test_one_address_holds_a_bounded_number_of_http_connections(tmp_path: Path) -> None:
    """Past its bound an address's next connection is closed at once, so
    that one client cannot use up the server's files; one closed makes room."""
    server = Server(tmp_path / "g.sqlite3", code=FEW_SERVER)
    host, port = server.address.rsplit(":", 1)
    held: list[socket.socket] = []
    try:
        for _ in range(4):
            held.append(socket.create_connection((host, int(port)), timeout=10))
        time.sleep(0.3)  # each accepted and counted
        with socket.create_connection((host, int(port)), timeout=10) as fifth:
            assert closed_within(fifth, 5), "a connection past the bound stayed open"
        for conn in held:
            assert not closed_within(conn, 0.05)  # those within it are untouched
        held.pop().close()
        time.sleep(0.3)
        again = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            again.request("GET", "/favicon.ico")
            assert again.getresponse().status == 200
        finally:
            again.close()
    finally:
        for conn in held:
            conn.close()
        server.stop()


def test_a_foreign_origin_is_refused_with_403_at_the_handshake(tmp_path: Path) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    server = Server(tmp_path / "g.sqlite3")

    async def attempt(origin: str) -> int:
        try:
            async with connect(f"ws://{server.address}/ws", origin=origin):  # type: ignore[arg-type]
                return 101
        except InvalidStatus as refused:
            return refused.response.status_code

    try:
        assert asyncio.run(attempt("http://evil.example")) == 403
        assert asyncio.run(attempt(f"http://{server.address}")) == 101
    finally:
        server.stop()


def test_the_proxies_are_not_bounded_and_a_full_process_logs_once_a_minute() -> None:
    """Every client arrives through a trusted proxy, so its connections are
    not bounded per address (names, addresses, networks and * as uvicorn
    reads forwarded_allow_ips); asyncio's accept failure, logged at every
    retry when no file is left, reaches the log once a minute."""
    import logging

    from wts.serve import launch
    from wts.serve.http_protocol import _trusts

    trusts = _trusts(["127.0.0.1", "10.0.0.0/8", "proxy.internal"])
    assert [trusts(a) for a in ("127.0.0.1", "10.9.8.7", "11.0.0.1", "proxy.internal",
                                "::1")] == [True, True, False, True, False]
    assert _trusts(["*"])("203.0.113.9") and not _trusts([])("127.0.0.1")
    clock = [1000.0]
    failures = launch._AcceptFailures(clock=lambda: clock[0])

    def passes(message: str) -> bool:
        return failures.filter(logging.LogRecord("asyncio", logging.ERROR, "", 0, message,
                                                 None, None))

    full = "socket.accept() out of system resource\nsocket: ..."
    assert [passes(full), passes(full), passes("another error")] == [True, False, True]
    clock[0] += 61
    assert passes(full)


class GoneMidBody:
    """An ASGI client that sends a byte of its body, then leaves."""

    def __init__(self) -> None:
        self.arriving: list[MutableMapping[str, Any]] = [
            {"type": "http.request", "body": b"{", "more_body": True}]
        self.sent: list[MutableMapping[str, Any]] = []

    async def receive(self) -> MutableMapping[str, Any]:
        return self.arriving.pop(0) if self.arriving else {"type": "http.disconnect"}

    async def send(self, message: MutableMapping[str, Any]) -> None:
        self.sent.append(message)


def test_a_client_gone_before_its_body_came_is_no_server_error(tmp_path: Path) -> None:
    """Starlette raises ClientDisconnect when the client leaves mid-body; it is
    answered (to nobody) rather than raised, so no traceback reaches the log."""
    from starlette.testclient import TestClient

    from wts.serve.app import create_app

    app = create_app(tmp_path / "g.sqlite3")
    with TestClient(app):  # the app started
        for path in ("/api/session", "/api/games", "/api/replay"):
            client = GoneMidBody()
            scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                     "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
                     "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000),
                     "server": ("127.0.0.1", 8000), "headers": [
                         (b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000"),
                         (b"content-type", b"application/json"), (b"content-length", b"4000")]}
            asyncio.run(app(scope, client.receive, client.send))  # raises without the handler
            assert client.sent[0]["type"] == "http.response.start"
            assert client.sent[0]["status"] == 400
