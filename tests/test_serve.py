"""The web app's protocol (docs/serve.md), driven through Starlette's test
client: whole games in each mode, and a hostile client attacking every rule
of the security section (reading a committed move early, moving for the
other seat, joining a full game, replaying a move, bad frames, floods)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from socket import socket as new_socket
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette's notice about its test client's transport
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

import wts
from wts.serve import rooms as rooms_module
from wts.serve.app import SECURITY_HEADERS, create_app
from wts.serve.bot import BotRunner
from wts.serve.limits import Limits

Message = dict[str, Any]


OPEN: list[Any] = []


@contextlib.contextmanager
def serving(path: Any, limits: Limits | None = None) -> Iterator[TestClient]:
    """A test client of a new app; the sockets a failed test left open are closed
    first, as the client waits for every one of them."""
    app = create_app(path, limits=limits, allowed_hosts=["testserver"])
    with TestClient(app) as test_client:
        try:
            yield test_client
        finally:
            while OPEN:
                with contextlib.suppress(Exception):
                    OPEN.pop().__exit__(None, None, None)


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with serving(tmp_path / "games.sqlite3") as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> Message:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


class Socket:
    """A WebSocket session that keeps every message it received."""

    def __init__(self, client: TestClient, game: str, tokens: list[str],
                 headers: dict[str, str] | None = None) -> None:
        self.context = client.websocket_connect("/ws", headers=dict(headers or {}))
        self.ws = self.context.__enter__()
        OPEN.append(self.context)
        self.seen: list[str] = []
        self.send({"type": "hello", "version": 1, "game": game, "tokens": tokens})
        self.welcome = self.next()
        self.state = self.until(lambda m: m["type"] == "state")

    def send(self, message: Message) -> None:
        self.ws.send_text(json.dumps(message))

    def next(self) -> Message:
        text = self.ws.receive_text()
        self.seen.append(text)
        return json.loads(text)  # type: ignore[no-any-return]

    def until(self, wanted: Callable[[Message], bool]) -> Message:
        while True:
            message = self.next()
            if wanted(message):
                if message["type"] == "state":
                    self.state = message
                return message

    def error(self) -> Message:
        return self.until(lambda m: m["type"] == "error")

    def move(self, color: str, square: str, turn: int | None = None) -> None:
        self.send({"type": "move", "color": color, "square": square,
                   "turn": self.state["turn"] if turn is None else turn})

    def close(self) -> None:
        if self.context in OPEN:
            OPEN.remove(self.context)
            self.context.__exit__(None, None, None)


def turn_played(turn: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "state" and m["turn"] == turn


def online(client: TestClient) -> tuple[Message, Socket, Socket, str]:
    made = create(client, mode="online", color="black")
    joined = client.post("/api/join", json={"code": made["invite"]})
    assert joined.status_code == 200
    black = Socket(client, made["game"], [made["tokens"]["black"]])
    white = Socket(client, made["game"], [joined.json()["tokens"]["white"]])
    return made, black, white, joined.json()["tokens"]["white"]


# ---- Whole games ---------------------------------------------------------------------

BLACK_FIVE = [("A1", "A9"), ("B1", "B9"), ("C1", "C9"), ("D1", "H8"), ("E1", "I1")]


def test_hotseat_game_to_a_win(client: TestClient) -> None:
    made = create(client, mode="hotseat")
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    assert screen.welcome["you"] == ["black", "white"]
    for turn, (black, white) in enumerate(BLACK_FIVE):
        screen.move("black", black)
        committed = screen.until(lambda m: m["type"] == "state" and m["committed"]["black"])
        # A screen holding both seats is told that black chose, never what.
        assert "yours" not in committed and black not in json.dumps(committed["moves"])
        screen.move("white", white)
        state = screen.until(turn_played(turn + 1))
    assert state["over"] and state["status"] == "black_wins"
    assert state["words"] == "Black wins with 5 winning turtles"
    assert state["winning"]["black"] == ["A1", "B1", "C1", "D1", "E1"]
    assert state["last"]["black"] == "E1"
    screen.move("black", "F5")
    assert screen.error()["code"] == "game-over"
    screen.close()


def test_online_game_with_spectator(client: TestClient) -> None:
    made, black, white, _ = online(client)
    watcher = Socket(client, made["game"], [])
    assert watcher.welcome["you"] == []
    for turn, (b, w) in enumerate(BLACK_FIVE):
        black.move("black", b)
        white.move("white", w)
        for socket in (black, white, watcher):
            socket.until(turn_played(turn + 1))
    assert watcher.state["status"] == "black_wins" and watcher.state["moves"][-1] == ["E1", "I1"]
    record = client.get(f"/api/games/{made['game']}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    read = wts.record.loads(record.text)
    assert read.result == "1-0" and [tuple(map(wts.square_name, m)) for m in read.moves] \
        == BLACK_FIVE
    picture = client.get(f"/api/games/{made['game']}/svg")
    assert picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.text.startswith("<svg")
    for socket in (black, white, watcher):
        socket.close()


def test_bot_game_to_the_end(client: TestClient) -> None:
    made = create(client, mode="bot", color="white", level=1)
    human = Socket(client, made["game"], [made["tokens"]["white"]])
    assert human.state["seats"] == {"black": "bot", "white": "taken"}
    thinking_seen = human.state["thinking"]
    while not human.state["over"]:
        turn = human.state["turn"]
        empty = [wts.SQUARE_NAMES[i] for i, c in enumerate(human.state["board"]) if c == "."]
        human.move("white", empty[(turn * 7) % len(empty)])
        while human.state["turn"] == turn and not human.state["over"]:
            message = human.until(lambda m: m["type"] == "state")
            thinking_seen = thinking_seen or message["thinking"]
    assert thinking_seen
    assert human.state["status"] in ("black_wins", "white_wins", "draw")
    human.close()


def test_the_bot_searches_off_the_event_loop(client: TestClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """While the bot's search holds its thread, another game is played to the end."""
    gate = threading.Event()
    search = BotRunner._search

    def held(*args: Any) -> str:
        gate.wait(60)
        return search(*args)

    monkeypatch.setattr(BotRunner, "_search", staticmethod(held))
    made = create(client, mode="bot", color="black", level=1)
    human = Socket(client, made["game"], [made["tokens"]["black"]])
    if not human.state["thinking"]:
        human.until(lambda m: m["type"] == "state" and m["thinking"])
    human.move("black", "E5")
    assert human.until(lambda m: m["type"] == "state")["thinking"]
    other = create(client, mode="hotseat")
    screen = Socket(client, other["game"], list(other["tokens"].values()))
    for turn, (b, w) in enumerate(BLACK_FIVE):
        screen.move("black", b)
        screen.move("white", w)
        screen.until(turn_played(turn + 1))
    assert screen.state["over"]
    gate.set()
    assert human.until(turn_played(1))["moves"][0][0] == "E5"
    human.close()
    screen.close()


# ---- Hidden moves ----------------------------------------------------------------------

def test_a_committed_move_reaches_nobody_before_both_commit(client: TestClient) -> None:
    made, black, white, white_token = online(client)
    watcher = Socket(client, made["game"], [])
    black.move("black", "E5")
    mine = black.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    assert mine["yours"] == "E5"
    for socket in (white, watcher):
        socket.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    # White tries everything: a move for black, a resent hello, a bad move, each answered.
    white.move("black", "A1")
    white.send({"type": "hello", "version": 1, "game": made["game"], "tokens": []})
    white.move("white", "J1")
    errors = [white.error() for _ in range(3)]
    assert [e["code"] for e in errors] == ["not-your-seat", "bad-message", "bad-message"]
    pages = [client.get(f"/api/games/{made['game']}{tail}").text
             for tail in ("", "/record", "/svg")]
    # A second connection on white's seat sees what white sees.
    again = Socket(client, made["game"], [white_token])
    leaked = white.seen + watcher.seen + again.seen + pages
    assert all("E5" not in text for text in leaked), [t for t in leaked if "E5" in t]
    white.move("white", "B4")
    played = white.until(turn_played(1))
    assert played["last"]["black"] == "E5"
    for socket in (black, white, watcher, again):
        socket.close()


def test_a_move_committed_when_the_clock_falls_is_never_shown(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client, mode="online", color="black", clock={"kind": "move", "seconds": 30})
    client.post("/api/join", json={"code": made["invite"]})
    black = Socket(client, made["game"], [made["tokens"]["black"]])
    watcher = Socket(client, made["game"], [])
    black.move("black", "E5")
    black.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    real = rooms_module.wall_clock
    monkeypatch.setattr(rooms_module, "wall_clock", lambda: real() + 31.0)
    ended = watcher.until(lambda m: m["type"] == "state" and m["over"])
    assert ended["status"] == "black_wins" and ended["words"] == "Black wins on time"
    assert ended["ending"] == {"result": "black", "reason": "time"}
    assert all("E5" not in text for text in watcher.seen)
    record = client.get(f"/api/games/{made['game']}/record").text
    assert "E5" not in record and '[Result "1-0"]' in record
    black.close()
    watcher.close()


# ---- Seats ------------------------------------------------------------------------------

def test_nobody_moves_for_another_seat(client: TestClient) -> None:
    made, black, white, _ = online(client)
    watcher = Socket(client, made["game"], [])
    watcher.move("black", "E5")
    assert watcher.error()["code"] == "not-your-seat"
    black.move("white", "E5")
    assert black.error()["code"] == "not-your-seat"
    stranger = Socket.__new__(Socket)
    stranger.context = client.websocket_connect("/ws")
    stranger.ws = stranger.context.__enter__()
    stranger.seen = []
    OPEN.append(stranger.context)
    stranger.send({"type": "hello", "version": 1, "game": made["game"],
                   "tokens": ["A" * 32]})
    assert stranger.next()["code"] == "bad-token"
    stranger.move = Socket.move.__get__(stranger)  # type: ignore[method-assign]
    stranger.state = {"turn": 0}
    stranger.move("black", "E5")
    assert stranger.next()["code"] == "bad-message"  # no seat: hello first
    for socket in (black, white, watcher, stranger):
        socket.close()


def test_a_full_game_cannot_be_joined(client: TestClient) -> None:
    made, black, white, _ = online(client)
    third = client.post("/api/join", json={"code": made["invite"]})
    assert third.status_code == 409 and third.json()["code"] == "game-full"
    assert black.state["seats"] == {"black": "taken", "white": "taken"}
    assert "invite" not in black.state
    missing = client.post("/api/join", json={"code": "ZZZZZZ"})
    assert missing.status_code == 404
    black.close()
    white.close()


def test_an_old_move_cannot_be_replayed(client: TestClient) -> None:
    _, black, white, _ = online(client)
    black.move("black", "E5")
    black.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    black.move("black", "E6")
    assert black.error()["code"] == "already-committed"
    white.move("white", "D4")
    black.until(turn_played(1))
    black.move("black", "E5", turn=0)
    assert black.error()["code"] == "wrong-turn"
    black.move("black", "E5", turn=1)
    assert black.error()["code"] == "illegal-move"
    black.close()
    white.close()


def test_a_seat_resumes_after_the_tab_is_closed(client: TestClient) -> None:
    made, black, white, _ = online(client)
    black.move("black", "C3")
    black.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    black.close()
    back = Socket(client, made["game"], [made["tokens"]["black"]])
    assert back.state["yours"] == "C3" and back.state["you"] == ["black"]
    white.move("white", "G7")
    assert back.until(turn_played(1))["moves"] == [["C3", "G7"]]
    back.close()
    white.close()


# ---- Hostile frames ---------------------------------------------------------------------

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
    screen.move("black", "E5")  # the socket is still open and works
    assert screen.until(lambda m: m["type"] == "state")["committed"]["black"]
    screen.close()


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


def test_a_flood_is_refused_then_cut_off(tmp_path: Any) -> None:
    limits = Limits(messages_burst=5, messages_per_second=0.001)
    with serving(tmp_path / "g.sqlite3", limits) as client:
        made = create(client, mode="hotseat")
        screen = Socket(client, made["game"], list(made["tokens"].values()))
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):
                screen.send({"type": "ping"})
            while True:
                codes.append(screen.next()["type"])
        assert closed.value.code == 1008
        assert codes.count("pong") == 4 and "error" in codes


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
    assert response.status_code == 400 and response.json()["message"]


# ---- Origin, headers, files -------------------------------------------------------------

def test_a_socket_from_another_origin_is_refused(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as refused, \
            client.websocket_connect("/ws", headers={"origin": "http://evil.example"}):
        pass
    assert refused.value.code == 4403
    made = create(client, mode="hotseat")
    same = Socket(client, made["game"], [], headers={"origin": "http://testserver"})
    assert same.welcome["type"] == "welcome"
    same.close()


def test_pages_carry_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/learn", "/static/app.js", "/api/lessons", "/nowhere"):
        response = client.get(path)
        for name, value in SECURITY_HEADERS.items():
            assert response.headers[name] == value
    csp = SECURITY_HEADERS["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp
    page = client.get("/").text
    assert "<script>" not in page and "<script src=" in page and " on" + "click=" not in page


def test_no_request_path_reaches_the_file_system(client: TestClient) -> None:
    for path in ("/static/../app.py", "/static/%2e%2e%2fapp.py", "/static/lessons.json",
                 "/static/index.html", "/static/app.py"):
        assert client.get(path).status_code == 404
    assert client.get("/static/style.css").status_code == 200


# ---- Records ---------------------------------------------------------------------------

def test_replay_of_an_uploaded_record(client: TestClient) -> None:
    text = wts.record.dumps([("E5", "E5"), ("D4", "F6")])
    frames = client.post("/api/replay", content=text).json()["frames"]
    assert len(frames) == 3 and frames[1]["last"]["collision"] == "E5"
    assert frames[2]["board"][wts.parse_square("D4")] == "x"
    bad = client.post("/api/replay", content="E5 E5\nE5 D4\n")
    assert bad.status_code == 400 and "line 2" in bad.json()["message"]
    huge = client.post("/api/replay", content="; " + "x" * 70_000)
    assert huge.status_code == 413
    binary = client.post("/api/replay", content=b"\xff\xfe")
    assert binary.status_code == 400


def test_a_finished_game_is_deleted_only_by_a_player(client: TestClient) -> None:
    made = create(client, mode="hotseat")
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    url = f"/api/games/{made['game']}"
    token = made["tokens"]["black"]
    assert client.delete(url, headers={"authorization": f"Bearer {token}"}).status_code == 403
    for turn, (b, w) in enumerate(BLACK_FIVE):
        screen.move("black", b)
        screen.move("white", w)
        screen.until(turn_played(turn + 1))
    screen.close()
    assert client.delete(url).status_code == 403
    assert client.delete(url, headers={"authorization": f"Bearer {token}"}).status_code == 204
    assert client.get(url).status_code == 404


# ---- Failures stay in their game --------------------------------------------------------

def test_a_bot_failure_stays_in_its_game(client: TestClient,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> str:
        raise RuntimeError("search failed")

    monkeypatch.setattr(BotRunner, "_search", staticmethod(broken))
    made = create(client, mode="bot", color="black", level=1)
    human = Socket(client, made["game"], [made["tokens"]["black"]])
    failed = human.state if human.state["failure"] else human.until(
        lambda m: m["type"] == "state" and m["failure"])
    assert failed["failure"] == "the bot failed: RuntimeError"
    other = create(client, mode="hotseat")
    screen = Socket(client, other["game"], list(other["tokens"].values()))
    screen.move("black", "E5")
    screen.move("white", "D5")
    assert screen.until(turn_played(1))["moves"] == [["E5", "D5"]]
    human.close()
    screen.close()


def test_a_corrupt_stored_game_stays_in_its_game(client: TestClient) -> None:
    made = create(client, mode="hotseat")
    good = create(client, mode="hotseat")
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    rooms.rooms.clear()
    rooms.store._run("UPDATE games SET moves = ? WHERE id = ?",
                     ('[["E5", "E5"], ["E5", "D4"]]', made["game"]))
    rooms.store._run("UPDATE games SET pending = ? WHERE id = ?", ("{", good["game"]))
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "version": 1, "game": made["game"]}))
        assert ws.receive_json()["code"] == "bad-game"
        ws.send_text(json.dumps({"type": "hello", "version": 1, "game": good["game"]}))
        assert ws.receive_json()["code"] == "bad-game"  # unreadable JSON in its row
    good = create(client, mode="hotseat")
    screen = Socket(client, good["game"], list(good["tokens"].values()))
    assert screen.state["turn"] == 0
    screen.close()


# ---- Packaging --------------------------------------------------------------------------

def test_import_wts_does_not_import_the_web_app() -> None:
    code = ("import sys, wts; bad = [m for m in ('starlette', 'uvicorn', 'pydantic', "
            "'wts.serve') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_serve_refuses_a_bad_port() -> None:
    from wts.interfaces.cli import main

    assert main(["serve", "--port", "70000"]) == 2


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
        with new_socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        code = ("import sys; from wts.serve.limits import Limits; "
                "from wts.serve.server import run; "
                "run(port=int(sys.argv[1]), db=sys.argv[2], say=False, "
                "limits=Limits(max_open_games_per_address=2), forwarded_allow_ips="
                f"{proxies!r})")
        server = subprocess.Popen([sys.executable, "-c", code, str(port),
                                   str(tmp_path / f"{port}.sqlite3")])
        try:
            codes = [post_game(port, f"10.0.0.{i}", server) for i in range(3)]
        finally:
            server.terminate()
            server.wait(30)
        assert codes == wanted, proxies


def post_game(port: int, forwarded: str, server: subprocess.Popen[bytes]) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games", data=b'{"mode": "hotseat"}',
        headers={"content-type": "application/json", "x-forwarded-for": forwarded})
    for _ in range(400):
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return int(response.status)
        except urllib.error.HTTPError as refused:
            return int(refused.code)
        except OSError:
            assert server.poll() is None, "the server stopped"
            time.sleep(0.05)
    raise AssertionError("the server did not start")


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
        assert rooms.rooms[made["game"]]._bot_task is None and not searches
        human = Socket(client, made["game"], [made["tokens"]["white"]])
        human.until(lambda m: m["type"] == "state" and m["committed"]["black"])
        assert len(searches) == 1
        human.close()


# ---- Clocks ----------------------------------------------------------------------------

def later(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    real = rooms_module.wall_clock
    monkeypatch.setattr(rooms_module, "wall_clock", lambda: real() + seconds)


def test_the_clock_waits_for_the_second_seat(client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client, mode="online", clock={"kind": "move", "seconds": 5})
    later(monkeypatch, 60.0)
    state = client.get(f"/api/games/{made['game']}").json()
    assert not state["over"] and state["clock"]["left"] == {"black": 5.0, "white": 5.0}
    assert not state["clock"]["running"]
    joined = client.post("/api/join", json={"code": made["invite"]})
    assert joined.status_code == 200
    state = client.get(f"/api/games/{made['game']}").json()
    assert state["clock"]["running"] and state["seats"]["white"] == "taken"
    assert state["clock"]["left"]["black"] > 4.0


def test_a_finished_game_cannot_be_joined(client: TestClient) -> None:
    made = create(client, mode="online")
    room = client.app.state.rooms.get(made["game"])  # type: ignore[attr-defined]
    room.row.finished = True
    room.rooms.store.save(room.row)
    refused = client.post("/api/join", json={"code": made["invite"]})
    assert refused.status_code == 409 and refused.json()["code"] == "game-over"
    assert room.seat_state("white") == "free"


def test_at_one_screen_only_the_seat_asked_has_its_clock_running(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client, mode="hotseat", clock={"kind": "game", "seconds": 60})
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    later(monkeypatch, 10.0)
    left = client.get(f"/api/games/{made['game']}").json()["clock"]["left"]
    assert left["white"] == 60.0 and 49.0 <= left["black"] <= 50.0
    screen.move("black", "E5")
    screen.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    later(monkeypatch, 20.0)  # 30 s in all, 20 of them white's
    left = client.get(f"/api/games/{made['game']}").json()["clock"]["left"]
    assert 49.0 <= left["black"] <= 50.0 and 39.0 <= left["white"] <= 40.0
    screen.close()


def test_a_move_after_the_flag_fell_ends_the_game_instead(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client, mode="online", clock={"kind": "move", "seconds": 30})
    client.post("/api/join", json={"code": made["invite"]})
    black = Socket(client, made["game"], [made["tokens"]["black"]])
    later(monkeypatch, 30.05)  # the watcher sleeps a little past the flag
    black.move("black", "E5")
    ended = black.until(lambda m: m["type"] == "state" and m["over"])
    assert ended["ending"] == {"result": "draw", "reason": "time"}
    assert not ended["committed"]["black"] and "yours" not in ended
    black.close()


# ---- Stored rows and messages ---------------------------------------------------------------

@pytest.mark.parametrize(("pending", "words"), [
    ('{"black": "E5", "white": "E5"}', "both seats' moves"),
    ('{"black": "Z9"}', "not a square name"),
    ('{"black": "E5"}', "not an empty square"),
    ('{"green": "E4"}', "not black or white"),
    ('["E5"]', "not a table"),
    ('{}', "[1, 2], which is not a square name"),
])
def test_a_stored_row_is_checked_when_loaded(client: TestClient, pending: str,
                                             words: str) -> None:
    made = create(client, mode="hotseat")
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    rooms.rooms.clear()
    moves = '[["E5", [1, 2]]]' if pending == "{}" else '[["E5", "D4"]]'
    rooms.store._run("UPDATE games SET moves = ?, pending = ? WHERE id = ?",
                     (moves, pending, made["game"]))
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "version": 1, "game": made["game"]}))
        refused = ws.receive_json()
    assert refused["code"] == "bad-game" and words in refused["message"]


def test_a_stored_row_that_cannot_be_read_is_named_in_words(client: TestClient) -> None:
    made = create(client, mode="hotseat")
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    rooms.rooms.clear()
    rooms.store._run("UPDATE games SET moves = ? WHERE id = ?", ('[["E5"]]', made["game"]))
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "version": 1, "game": made["game"]}))
        message = ws.receive_json()
    assert message["code"] == "bad-game"
    assert message["message"].endswith("its stored row is damaged (its turns or clock "
                                       "cannot be read)")


@pytest.mark.parametrize("body", ['{"mode": "bot", "mode": "online"}',
                                  '{"mode": "online", "clock": {"kind": "game", '
                                  '"kind": "move", "seconds": 60}}'])
def test_a_key_given_twice_is_refused(client: TestClient, body: str) -> None:
    response = client.post("/api/games", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 400 and "given twice" in response.json()["message"]
    made = create(client, mode="hotseat")
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    screen.ws.send_text('{"type": "ping", "type": "move", "color": "black", '
                        '"square": "E5", "turn": 0}')
    assert "given twice" in screen.error()["message"]
    screen.close()


# ---- Hosts ------------------------------------------------------------------------------

def test_a_page_rebound_to_this_server_is_refused(client: TestClient) -> None:
    """DNS rebinding: evil.example resolves to this server, so the page's Origin and the
    request's Host agree; neither is a name the server answers to."""
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(
            "/ws", headers={"host": "evil.example", "origin": "http://evil.example"}):
        pass
    assert denied.value.status_code == 400
    for origin in ("http://evil.example", "null", "http://testserver.evil.example"):
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect("/ws", headers={"origin": origin}):
            pass
        assert closed.value.code == 4403
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
        assert client.get("/", headers={"host": host}).status_code == 200


def test_a_database_from_before_the_creator_column_opens(tmp_path: Path) -> None:
    import sqlite3

    from wts.serve.store import GameRow, Store

    path = tmp_path / "old.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as old:
        old.executescript(
            "CREATE TABLE games (id TEXT PRIMARY KEY, invite TEXT UNIQUE, mode TEXT NOT NULL, "
            "created REAL NOT NULL, updated REAL NOT NULL, black_hash TEXT, white_hash TEXT, "
            "bot_color TEXT, bot_level INTEGER, moves TEXT NOT NULL, pending TEXT NOT NULL, "
            "clock TEXT, ending TEXT, finished INTEGER NOT NULL DEFAULT 0);"
            "INSERT INTO games VALUES ('aaaaaaaaaaaa', NULL, 'hotseat', 0, 0, NULL, NULL, "
            "NULL, NULL, '[]', '{}', NULL, NULL, 0);")
    store = Store(path)
    assert store.load("aaaaaaaaaaaa") is not None
    store.insert(GameRow(id="bbbbbbbbbbbb", mode="hotseat", created=1.0, creator="10.0.0.1"))
    assert store.open_games_of("10.0.0.1") == 1
    store.close()


def test_the_command_names_the_proxy_and_the_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    from wts.interfaces import cli
    from wts.serve import server

    seen: dict[str, object] = {}
    monkeypatch.setattr(server, "run", lambda **kwargs: seen.update(kwargs))
    assert cli.main(["serve", "--port", "8123", "--allowed-host", "games.example",
                     "--allowed-host", "wts.example", "--forwarded-allow-ips", "10.0.0.1"]) == 0
    assert seen["allowed_hosts"] == ["games.example", "wts.example"]
    assert seen["forwarded_allow_ips"] == "10.0.0.1" and seen["host"] == "127.0.0.1"
    assert cli.main(["serve"]) == 0 and seen["forwarded_allow_ips"] is None
