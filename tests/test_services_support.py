"""The deployment tests' servers (tests/support/services.py): a real
PostgreSQL answers a query, and nginx on deploy/nginx.conf, in front of two
small HTTP servers standing in for two ``wts serve`` processes, sends each
game to one process, spreads the rest over both, and does not move a game to
the other process when its own is down.

Skips where PostgreSQL or nginx is missing, but fails in CI (CI or
WTS_REQUIRE_SERVICES=1; .ci/run installs both)."""

from __future__ import annotations

import http.client
import http.server
import pathlib
import threading
from collections.abc import Iterator

import pytest

from tests.support.services import (
    NGINX_CONF,
    ProxyServer,
    free_port,
    render_nginx_config,
    require_services,
    start_nginx,
    start_postgres,
)

#: Game ids of the form ``wts serve`` makes ([A-Za-z0-9_-]{6,32}).
GAME_IDS = ["AAAAAAAA", "game_01", "Zz-9_Zz-9", "x" * 32, "q1w2e3r4t5", "LOBBY-7",
            "abcdef", "0123456789", "k_k_k_k", "MixedCase42"]


class Backend(http.server.ThreadingHTTPServer):
    """An HTTP server in a thread that answers every GET with its name."""

    daemon_threads = True

    def __init__(self, name: str) -> None:
        self.name = name

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = name.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                # What the proxy sent on, for the test to compare.
                self.send_header("X-Seen-Path", self.path)
                for header in ("Host", "X-Forwarded-For", "X-Forwarded-Proto"):
                    self.send_header(f"X-Seen-{header}", self.headers.get(header, ""))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass  # quiet

        super().__init__(("127.0.0.1", free_port()), Handler)
        self.port: int = self.server_address[1]
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


def request(proxy: ProxyServer, path: str,
            headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    """The response to ``GET path`` through the proxy, read, on a new connection."""
    connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        response.read()
        return response
    finally:
        connection.close()


def get(proxy: ProxyServer, path: str) -> tuple[int, str]:
    """The status and body of ``GET path`` through the proxy."""
    connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


@pytest.fixture
def backends() -> Iterator[dict[str, Backend]]:
    servers = {name: Backend(name) for name in ("one", "two")}
    yield servers
    for server in servers.values():
        if server.socket.fileno() != -1:
            server.stop()


@pytest.fixture
def proxy(tmp_path: pathlib.Path, backends: dict[str, Backend]) -> Iterator[ProxyServer]:
    require_services("nginx")
    folder = tmp_path / "nginx"
    folder.mkdir()
    config = render_nginx_config(NGINX_CONF.read_text(), free_port(),
                                 [server.port for server in backends.values()], folder)
    with start_nginx(folder, config) as server:
        yield server


def test_postgres_answers(tmp_path: pathlib.Path) -> None:
    require_services("postgres")
    with start_postgres(tmp_path / "postgres") as server:
        assert server.dsn == f"postgresql://wts@127.0.0.1:{server.port}/wts"
        assert server.query("SELECT 1") == "1"
        assert server.query("SELECT current_database(), current_user") == "wts|wts"
        assert server.query("SHOW server_encoding") == "UTF8"
    server.stop()  # stopping again does nothing
    with pytest.raises(Exception, match="psql"):
        server.query("SELECT 1")


def test_rendered_config(tmp_path: pathlib.Path) -> None:
    config = render_nginx_config(NGINX_CONF.read_text(), 9000, [9101, 9102], tmp_path)
    assert "listen 127.0.0.1:9000;" in config
    assert config.count("server 127.0.0.1:9101 ") == 2  # in both upstream blocks
    assert config.count("server 127.0.0.1:9102 ") == 2
    directives = "\n".join(line.split("#")[0] for line in config.splitlines())
    assert ":8001" not in directives and ":8002" not in directives
    for written in ("nginx.pid", "error.log", "access.log", "temp/proxy"):
        assert str(tmp_path.resolve() / written) in config
    with pytest.raises(ValueError, match="upstream ports"):
        render_nginx_config(NGINX_CONF.read_text(), 9000, [9101], tmp_path)


def test_proxy_routes_games_to_one_process(proxy: ProxyServer,
                                           backends: dict[str, Backend]) -> None:
    owners: dict[str, str] = {}
    for game in GAME_IDS:
        paths = [f"/api/games/{game}", f"/api/games/{game}/record", f"/ws?game={game}",
                 f"/ws?v=1&game={game}"]
        answers = {get(proxy, paths[attempt % len(paths)]) for attempt in range(5)}
        assert len(answers) == 1, (game, answers)
        ((status, owner),) = answers
        assert status == 200
        owners[game] = owner
    assert set(owners.values()) == set(backends), owners  # the games are spread

    # Everything else goes to both.
    assert {get(proxy, "/")[1] for _ in range(40)} == set(backends)
    assert {get(proxy, "/ws")[1] for _ in range(40)} == set(backends)
    # Not game ids (too short, a bad character): spread like the rest.
    assert {get(proxy, "/api/games/abc/record")[1] for _ in range(40)} == set(backends)
    # A game argument the server could read as another game is refused.
    assert get(proxy, "/ws?game=AAAAAAAA&GAME=game_01")[0] == 400
    assert get(proxy, "/ws?game=%41AAAAAAA")[0] == 400

    # The request as the client sent it, the client as the proxy saw it.
    for path in ("/api/games/AAAAAAAA/record?x=%2F%20", "/static/a%20b.css?v=%3F"):
        response = request(proxy, path, {"Host": "play.example", "X-Forwarded-For": "6.6.6.6"})
        assert response.getheader("X-Seen-Path") == path
        assert response.getheader("X-Seen-Host") == "play.example"
        assert response.getheader("X-Seen-X-Forwarded-For") == "127.0.0.1"
        assert response.getheader("X-Seen-X-Forwarded-Proto") == "http"

    # With its process down, a game answers 502, not the other process's answer.
    dead = owners[GAME_IDS[0]]
    backends[dead].stop()
    (alive,) = set(backends) - {dead}
    for game, owner in owners.items():
        for path in (f"/api/games/{game}/record", f"/ws?game={game}"):
            status, body = get(proxy, path)
            if owner == dead:
                assert status == 502, (game, path, body)
            else:
                assert (status, body) == (200, owner), (game, path)
    assert {get(proxy, "/") for _ in range(10)} == {(200, alive)}
