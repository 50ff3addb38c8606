"""``wts serve``'s connections, on a real server over loopback: replies are
not held back by Nagle's algorithm, a client that sends its headers a byte at
a time is cut off, a page of another origin is refused at the handshake, and
a browser's request for the icon is answered."""

from __future__ import annotations

import asyncio
import http.client
import socket
import time
from pathlib import Path

import pytest

from tests.support.serve_process import Server
from wts.serve.launch import listen

pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")

SLOW_SERVER = """
import sys
from wts.serve.bounds import Limits
from wts.serve.launch import run
run(port=0, db=sys.argv[1], limits=Limits(header_seconds=1.0))
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
