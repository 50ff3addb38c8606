"""A hostile client attacks every rule of the web app's security section
(docs/serve.md), through Starlette's test client: reading a committed move
early, moving for the other seat, joining a full game, replaying a move, bad
frames and requests, floods, other origins and hosts, and the bounds one
address cannot get round; the command names its proxy and hosts."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import run_python
from tests.support.serve_client import (
    Socket,
    TestClient,
    WebSocketDenialResponse,
    WebSocketDisconnect,
    create,
    serving,
)
from tests.support.serve_process import Server
from wts.serve.app import SECURITY_HEADERS, create_app
from wts.serve.bot import BotRunner
from wts.serve.bounds import Limits

# ---- Hostile frames ---------------------------------------------------------------------


def still_plays(screen: Socket) -> None:
    """The socket is still open after a refusal, and a move goes through."""
    screen.move("black", "E5")
    assert screen.until(lambda m: m["type"] == "state")["committed"]["black"]
    screen.close()


@pytest.mark.parametrize("frame", [
    "not json",
    "[]",
    '{"type": "move"}',
    '{"type": "move", "color": "black", "square": "E5", "turn": true}',
    '{"type": "move", "color": "black", "square": "E5", "turn": -1}',
    '{"type": "move", "color": "black", "square": "E5", "turn": "0"}',
    '{"type": "move", "color": "green", "square": "E5", "turn": 0}',
    '{"type": "move", "color": "black", "square": "E10", "turn": 0}',
    '{"type": "move", "color": "black", "square": "E5", "turn": 0, "extra": 1}',
    '{"type": "launch"}',
])
def test_malformed_messages_get_a_clear_error(client: TestClient, frame: str) -> None:
    made = create(client, mode="hotseat")
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    screen.ws.send_text(frame)
    error = screen.error()
    assert error["code"] == "bad-message" and error["message"]
    still_plays(screen)


def test_binary_and_oversized_frames_are_refused(client: TestClient) -> None:
    made = create(client, mode="hotseat")
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    screen.ws.send_bytes(b"\x00\x01")
    assert screen.error()["code"] == "bad-message"
    screen.ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
    assert screen.error()["code"] == "too-large"
    with pytest.raises(WebSocketDisconnect) as closed:
        screen.ws.receive_text()
    assert closed.value.code == 1009


def test_deeply_nested_json_is_refused_with_a_clear_error(client: TestClient) -> None:
    """1,000 nested arrays in 2,000 bytes: under the size bounds, and past any
    parser's recursion; refused by depth, on HTTP and on the socket."""
    nested = "[" * 1000 + "]" * 1000
    for path in ("/api/games", "/api/join", "/api/lessons/1"):
        response = client.post(path, content=nested, headers={"content-type": "text/plain"})
        assert response.status_code == 400, path
        assert response.json()["message"] == "message: nested more than 16 deep"
    made = create(client, mode="hotseat")
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    for frame in (nested, '{"type": "ping", "x": ' + nested + "}"):
        screen.ws.send_text(frame)
        assert screen.error() == {"type": "error", "code": "bad-message",
                                  "message": "message: nested more than 16 deep"}
    screen.ws.send_text('{"type": "ping", "pad": "' + "[" * 1000 + '"}')  # in a string: fine
    assert screen.error()["code"] == "bad-message"  # the pad key, not the depth
    still_plays(screen)


def test_the_frame_limit_counts_bytes(client: TestClient) -> None:
    """2,000 three-byte characters are 6,000 bytes: over the 2,048-byte limit."""
    made = create(client, mode="hotseat")
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    screen.ws.send_text(json.dumps({"type": "ping", "pad": "\u20ac" * 600}, ensure_ascii=False))
    assert screen.error()["code"] == "bad-message"  # 1,800 bytes: read, and refused by key
    screen.ws.send_text(json.dumps({"type": "ping", "pad": "\u20ac" * 2000},
                                   ensure_ascii=False))
    assert screen.error() == {"type": "error", "code": "too-large",
                              "message": "a message is at most 2048 bytes"}
    with pytest.raises(WebSocketDisconnect) as closed:
        screen.ws.receive_text()
    assert closed.value.code == 1009


def test_a_non_ascii_bearer_token_is_refused(client: TestClient) -> None:
    made = create(client, mode="hotseat")
    for token in ("\u00e9" * 32, "\u00e9", "x" * 31 + "\u00ff"):
        response = client.delete(f"/api/games/{made['game']}", headers={
            "authorization": b"Bearer " + token.encode("latin-1")})
        assert response.status_code == 403 and response.json()["code"] == "bad-token", token
        for name, value in SECURITY_HEADERS.items():
            assert response.headers[name] == value


def test_a_server_failure_is_a_json_error_with_the_security_headers(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from wts.serve.rooms import Rooms

    def fail(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Rooms, "create", fail)
    app = create_app(tmp_path / "g.sqlite3", allowed_hosts=["testserver"])
    with TestClient(app, raise_server_exceptions=False,
                    headers={"origin": "http://testserver"}) as client:
        response = client.post("/api/games", json={"mode": "hotseat"})
    assert response.status_code == 500
    assert response.json() == {"type": "error", "code": "server-error",
                               "message": "the server failed; the failure is logged"}
    for name, value in SECURITY_HEADERS.items():
        assert response.headers[name] == value


@pytest.mark.parametrize("kind", ["text", "binary"])
def test_a_flood_is_refused_then_cut_off(tmp_path: Any, kind: str) -> None:
    """Binary frames count against the rate as text ones do (each is refused)."""
    limits = Limits(messages_burst=5, messages_per_second=0.001)
    with serving(tmp_path / "g.sqlite3", limits) as client:
        made = create(client, mode="hotseat")
        screen = Socket(client, made["game"], list(made["tokens"].values()))
        replies = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):
                if kind == "text":
                    screen.send({"type": "ping"})
                else:
                    screen.ws.send_bytes(b"\x00")
            while True:
                reply = screen.next()
                replies.append(reply.get("code", reply["type"]))
        assert closed.value.code == 1008
        first = "pong" if kind == "text" else "bad-message"
        assert replies[:4] == [first] * 4 and "rate-limited" in replies
        assert len(replies) <= 3 * limits.messages_burst


def test_creating_games_is_rate_limited_and_bounded(tmp_path: Any) -> None:
    limits = Limits(creates_burst=3, creates_per_second=0.001)
    with serving(tmp_path / "g.sqlite3", limits) as client:
        codes = [client.post("/api/games", json={"mode": "hotseat"}).status_code
                 for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
    with serving(tmp_path / "h.sqlite3", Limits(max_open_games=2)) as client:
        codes = [client.post("/api/games", json={"mode": "hotseat"}).status_code
                 for _ in range(3)]
        assert codes == [201, 201, 503]
        assert "as many games" in client.post("/api/games",
                                              json={"mode": "hotseat"}).json()["message"]


def test_connections_are_bounded(tmp_path: Any) -> None:
    limits = Limits(max_connections_per_address=2)
    with serving(tmp_path / "g.sqlite3", limits) as client:
        made = create(client, mode="hotseat")
        sockets = [Socket(client, made["game"], []) for _ in range(2)]
        with client.websocket_connect("/ws") as third:
            assert third.receive_json()["code"] == "too-many-connections"
        for socket in sockets:
            socket.close()


@pytest.mark.parametrize("body", [
    '{"mode": "chess"}', '{"mode": "bot", "level": 9}', '{"mode": "bot", "level": "1"}',
    '{"mode": "online", "clock": {"kind": "game", "seconds": 1}}', "{", "x" * 10_000,
])
def test_bad_requests_get_a_clear_error(client: TestClient, body: str) -> None:
    response = client.post("/api/games", content=body,
                           headers={"content-type": "application/json"})
    # Over the 4 KiB of a request's body: 413 too-large, as everywhere.
    assert response.status_code == (413 if len(body) > 4096 else 400)
    assert response.json()["message"]


# ---- Origin, headers, files -------------------------------------------------------------


def test_a_socket_from_another_origin_is_refused(client: TestClient) -> None:
    with pytest.raises(WebSocketDenialResponse) as refused, \
            client.websocket_connect("/ws", headers={"origin": "http://evil.example"}):
        pass
    assert refused.value.status_code == 403
    assert refused.value.json()["code"] == "origin-refused"
    made = create(client, mode="hotseat")
    same = Socket(client, made["game"], [], headers={"origin": "http://testserver"})
    assert same.welcome["type"] == "welcome"
    same.close()


def test_a_foreign_page_changes_nothing_and_locks_nobody_out(tmp_path: Any) -> None:
    """CSRF: a page of another site POSTing text/plain (no preflight) as its
    visitor. Refused before any bound counts it, so the visitor's address can
    still make games."""
    limits = Limits(max_open_games_per_address=2, creates_burst=2)
    with serving(tmp_path / "g.sqlite3", limits) as client:
        del client.headers["origin"]  # each request names its own, or none
        for headers in ({"origin": "http://evil.example"}, {"origin": "null"},
                        {"origin": ""}, {}, {"sec-fetch-site": "cross-site"},
                        {"origin": "http://testserver.evil.example"},
                        {"origin": "http://testserver:9999"}, {"origin": "https://testserver"},
                        {"origin": "http://user@testserver"}, {"origin": "http://localhost:3000"},
                        {"origin": "http://evil.example", "sec-fetch-site": "same-origin"}):
            for _ in range(5):
                response = client.post("/api/games", content='{"mode": "hotseat"}',
                                       headers={"content-type": "text/plain", **headers})
                assert response.status_code == 403, headers
                assert response.json()["code"] == "foreign-origin"
                if not headers.get("origin"):
                    assert "names its Origin" in response.json()["message"]
        mine = {"origin": "http://testserver"}
        made = create(client, mode="hotseat", headers=mine)  # nothing made or counted
        token = made["tokens"]["black"]
        assert client.delete(f"/api/games/{made['game']}", headers={
            "origin": "http://evil.example", "authorization": f"Bearer {token}"}
        ).status_code == 403
        same = client.post("/api/games", json={"mode": "hotseat"},
                           headers={"sec-fetch-site": "same-origin"})
        assert same.status_code == 201  # a browser that sends no Origin, on this page
        assert client.get(f"/api/games/{made['game']}").status_code == 200  # reads: any


def test_pages_carry_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/learn", "/static/app.js", "/api/lessons", "/nowhere"):
        response = client.get(path)
        for name, value in SECURITY_HEADERS.items():
            assert response.headers[name] == value
    csp = SECURITY_HEADERS["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp
    page = client.get("/").text
    assert "<script>" not in page and "<script src=" in page and " on" + "click=" not in page


def test_every_error_the_router_answers_is_json_with_the_security_headers(
        client: TestClient) -> None:
    """Paths that are not here and methods a path does not take, as every
    other refusal: a JSON error with a code, and the headers."""
    for method, path, code, status in (
            ("GET", "/nowhere", "not-found", 404), ("GET", "/static/nothing.js", "not-found", 404),
            ("GET", "/api/join", "method-not-allowed", 405),
            ("PUT", "/api/games", "method-not-allowed", 405)):
        response = client.request(method, path)
        assert response.status_code == status, (method, path)
        assert response.headers["content-type"] == "application/json"
        assert response.json()["type"] == "error" and response.json()["code"] == code
        for name, value in SECURITY_HEADERS.items():
            assert response.headers[name] == value
    assert client.get("/api/join").headers["allow"] == "POST"


def test_no_request_path_reaches_the_file_system(client: TestClient) -> None:
    for path in ("/static/../app.py", "/static/%2e%2e%2fapp.py", "/static/lessons.json",
                 "/static/index.html", "/static/app.py"):
        assert client.get(path).status_code == 404
    assert client.get("/static/style.css").status_code == 200


# ---- Bounds that one address cannot get round -------------------------------------------


def stale(client: TestClient, game: str, seconds: float) -> None:
    """Make ``game`` look untouched for ``seconds``, as after a long wait."""
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    rooms.store._run("UPDATE games SET updated = updated - ? WHERE id = ?", (seconds, game))


def test_unfinished_games_expire_and_one_address_has_a_bound(tmp_path: Any) -> None:
    limits = Limits(max_open_games_per_address=2)
    with serving(tmp_path / "g.sqlite3", limits) as client:
        first, second = create(client, mode="hotseat"), create(client, mode="hotseat")
        refused = client.post("/api/games", json={"mode": "hotseat"})
        assert refused.status_code == 429 and refused.json()["code"] == "too-many-games-here"
        assert "2 unfinished games" in refused.json()["message"]
        stale(client, first["game"], limits.idle_game_seconds - 60)
        assert client.post("/api/games", json={"mode": "hotseat"}).status_code == 429
        stale(client, first["game"], 120)
        third = create(client, mode="online")  # the idle game expired, freeing its place
        assert client.get(f"/api/games/{first['game']}").status_code == 404
        assert client.get(f"/api/games/{second['game']}").status_code == 200
        stale(client, third["game"], limits.unjoined_game_seconds + 1)
        create(client, mode="hotseat")  # the online game nobody joined expired too
        late = client.post("/api/join", json={"code": third["invite"]})
        assert late.status_code == 404 and late.json()["code"] == "no-game"


def test_forwarded_for_is_believed_only_from_a_named_proxy(tmp_path: Path) -> None:
    """uvicorn believes X-Forwarded-For from 127.0.0.1 unless told not to: a spoofed
    header would make every request a new address."""
    for proxies, wanted in ((None, [201, 201, 429]), ("127.0.0.1", [201, 201, 201])):
        code = ("import sys; from wts.serve.bounds import Limits; "
                "from wts.serve.launch import run; "
                "run(port=0, db=sys.argv[1], "
                "limits=Limits(max_open_games_per_address=2), forwarded_allow_ips="
                f"{proxies!r})")
        server = Server(tmp_path / f"{proxies}.sqlite3", code=code)
        try:
            codes = [post_game(server.url, f"10.0.0.{i}") for i in range(3)]
        finally:
            server.stop()
        assert codes == wanted, proxies


def post_game(url: str, forwarded: str) -> int:
    request = urllib.request.Request(
        f"{url}/api/games", data=b'{"mode": "hotseat"}',
        headers={"content-type": "application/json", "x-forwarded-for": forwarded,
                 "origin": url})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_the_bot_waits_for_its_player_and_one_address_has_a_bound(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    searches: list[int] = []
    search = BotRunner._search

    def counted(*args: Any) -> str:
        searches.append(1)
        return search(*args)

    monkeypatch.setattr(BotRunner, "_search", staticmethod(counted))
    with serving(tmp_path / "g.sqlite3", Limits(max_bot_games_per_address=2)) as client:
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        made = create(client, mode="bot", color="white", level=1)
        create(client, mode="bot", color="white", level=1)
        busy = client.post("/api/games", json={"mode": "bot"})
        assert busy.status_code == 429 and busy.json()["code"] == "bot-busy"
        assert client.post("/api/games", json={"mode": "hotseat"}).status_code == 201
        # Nobody holds the human seat: no search has started, none is queued.
        assert rooms.get(made["game"])._bot_task is None and not searches
        human = Socket(client, made["game"], [made["tokens"]["white"]])
        human.until(lambda m: m["type"] == "state" and m["committed"]["black"])
        assert len(searches) == 1
        human.close()


# ---- Hosts ------------------------------------------------------------------------------


def test_a_page_rebound_to_this_server_is_refused(client: TestClient) -> None:
    """DNS rebinding: evil.example resolves to this server, so the page's Origin and the
    request's Host agree; neither is a name the server answers to."""
    for host in ("evil.example", "evil.example:8000", "localhost.evil.example", "",
                 "localhost/x", "[::2]:8000", "127.0.0.1:80:80", "localhost:99999",
                 "localhost:0"):
        refused = client.get("/", headers={"host": host})
        assert refused.status_code == 400 and refused.json()["code"] == "bad-host", host
        assert refused.headers["x-content-type-options"] == "nosniff"
    with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(
            "/ws", headers={"host": "evil.example", "origin": "http://evil.example"}):
        pass
    assert denied.value.status_code == 400 and denied.value.json()["code"] == "bad-host"
    assert denied.value.headers["x-frame-options"] == "DENY"  # a refusal is a page too
    for origin in ("http://evil.example", "null", "http://testserver.evil.example"):
        with pytest.raises(WebSocketDenialResponse) as refused, \
                client.websocket_connect("/ws", headers={"origin": origin}):
            pass
        assert refused.value.status_code == 403
        assert refused.value.headers["content-security-policy"].startswith("default-src")
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
        assert client.get("/", headers={"host": host}).status_code == 200


def test_the_command_names_the_proxy_and_the_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    from wts.cli import main as cli
    from wts.serve import launch as server

    seen: dict[str, object] = {}
    monkeypatch.setattr(server, "run", lambda **kwargs: seen.update(kwargs))
    assert cli.main(["serve", "--port", "8123", "--allowed-host", "games.example",
                     "--allowed-host", "wts.example", "--forwarded-allow-ips", "10.0.0.1"]) == 0
    assert seen["allowed_hosts"] == ["games.example", "wts.example"]
    assert seen["forwarded_allow_ips"] == "10.0.0.1" and seen["host"] == "127.0.0.1"
    assert cli.main(["serve"]) == 0 and seen["forwarded_allow_ips"] is None
    assert seen["db"] is None  # the user's data folder: launch.default_db


def test_the_default_database_is_in_the_user_data_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not the current folder (a clone's, say): XDG_DATA_HOME on Linux."""
    from wts.serve import launch

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if sys.platform.startswith("linux"):
        assert launch.default_db() == tmp_path / "data" / "wts" / "games.sqlite3"
    code = "from wts.serve.launch import run; run(port=0)"
    server = Server(tmp_path / "unused.sqlite3", code=code)
    try:
        said = "".join(server.output)
        assert f"games kept in {launch.default_db()}" in said, said
        assert post_game(server.url, "10.0.0.1") == 201  # a game, kept there
    finally:
        server.stop()
    assert launch.default_db().exists()


def test_a_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_python("-m", "wts", "serve", "--port", str(port), "--db",
                            str(tmp_path / "g.sqlite3"), timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
