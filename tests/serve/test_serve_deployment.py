"""The deployment of docs/serve.md, for real: two ``wts serve`` processes on
one PostgreSQL behind nginx with deploy/nginx.conf. Players, seeks and
spectators arrive through different processes; the process playing a game
is killed mid-game, and the game resumes on its restart with nothing lost."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_process import Server
from tests.support.services import (
    NGINX_CONF,
    PostgresServer,
    free_port,
    new_database,
    render_nginx_config,
    require_services,
    start_nginx,
)

pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")
from websockets.exceptions import InvalidStatus  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

PASSWORD = "correct horse battery"
#: Black makes five in a row on turn 5; white's stones make no line.
BLACK = ["A1", "B1", "C1", "D1", "E1"]
WHITE = ["A9", "C9", "E9", "G9", "I9"]


class Browser:
    """One player's browser: cookies, and sockets to a server's address."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, headers={"origin": base}, timeout=10)

    def sign_up(self, name: str) -> None:
        answer = self.http.post("/api/account", json={"name": name, "password": PASSWORD,
                                                      "age_16_or_over": True})
        assert answer.status_code == 201, answer.text

    def socket(self, path: str, base: str | None = None) -> Socket:
        base = base or self.base
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        return Socket(connect("ws" + base.removeprefix("http") + path, additional_headers={
            "origin": base, **({"cookie": cookie} if cookie else {})}, open_timeout=10))


class Socket:
    def __init__(self, opening: Any) -> None:
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(opening)
        self.state: dict[str, Any] = {}

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=15))
            if message["type"] == "state":
                self.state = message
            if wanted(message):
                return message

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()


def game_socket(browser: Browser, game: str, tokens: list[str]) -> Socket:
    socket = browser.socket(f"/ws?game={game}")
    socket.send({"type": "hello", "version": 1, "game": game, "tokens": tokens})
    socket.until(lambda m: m["type"] == "state")
    return socket


def play(black: Socket, white: Socket, turn: int) -> None:
    """Turn ``turn`` (from 0) of the line: both commit, and it is resolved."""
    black.send({"type": "move", "color": "black", "square": BLACK[turn], "turn": turn})
    white.send({"type": "move", "color": "white", "square": WHITE[turn], "turn": turn})
    black.until(lambda m: m["type"] == "state" and m["turn"] == turn + 1)
    white.until(lambda m: m["type"] == "state" and m["turn"] == turn + 1)


@pytest.fixture
def deployment(tmp_path: Path, postgres: PostgresServer) -> Iterator[dict[str, Any]]:
    require_services("nginx")
    database = new_database(postgres)
    ports = [free_port(), free_port()]
    options = ("--forwarded-allow-ips", "127.0.0.1")
    servers = [Server(database, port=port, options=options) for port in ports]
    folder = tmp_path / "nginx"
    folder.mkdir()
    listen = free_port()
    proxy = start_nginx(folder, render_nginx_config(NGINX_CONF.read_text(), listen, ports,
                                                     folder))
    setup = {"database": database, "ports": ports, "options": options, "servers": servers,
             "proxy": f"http://127.0.0.1:{listen}"}
    try:
        yield setup
    finally:
        proxy.stop()
        for server in setup["servers"]:
            server.stop()


def test_two_processes_behind_nginx_play_one_club_and_a_killed_one_resumes_its_games(
        deployment: dict[str, Any]) -> None:
    proxy, ports = deployment["proxy"], deployment["ports"]
    direct = [f"http://127.0.0.1:{port}" for port in ports]
    ann, bob, cyd = Browser(proxy), Browser(proxy), Browser(proxy)
    for browser, name in ((ann, "ann"), (bob, "bob"), (cyd, "cyd")):
        browser.sign_up(name)

    # The lobby: ann's socket in the first process, bob's in the second.
    ann_lobby = ann.socket("/ws?lobby=1", direct[0])
    bob_lobby = bob.socket("/ws?lobby=1", direct[1])
    for socket in (ann_lobby, bob_lobby):
        socket.send({"type": "lobby", "version": 1})
        socket.until(lambda m: m["type"] == "lobby")
    posted = ann.http.post("/api/seeks", json={
        "color": "black", "rated": True, "clock": {"kind": "game", "seconds": 600}})
    assert posted.status_code == 201, posted.text
    bob_lobby.until(lambda m: m["type"] == "lobby" and [s["by"] for s in m["seeks"]] == ["ann"])
    accepted = bob.http.post(f"/api/seeks/{posted.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    matched = ann_lobby.until(lambda m: m["type"] == "matched")
    game = matched["game"]
    assert game == accepted.json()["game"]
    assert "tokens" not in matched  # the seeker's seat came with the post, to it alone
    ann_token, bob_token = posted.json()["token"], accepted.json()["tokens"]["white"]

    # The game, through the proxy, which sends its every request to one process.
    black = game_socket(ann, game, [ann_token])
    white = game_socket(bob, game, [bob_token])
    spectator = game_socket(cyd, game, [])
    play(black, white, 0)
    play(black, white, 1)
    black.send({"type": "move", "color": "black", "square": BLACK[2], "turn": 2})
    black.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    spectator.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    assert "yours" not in spectator.state  # a committed move is nobody else's to see
    # An address that nginx and a server could read as two games is refused at the proxy.
    ambiguous = ann.http.get(f"/ws?game={game}&%67ame=aaaaaaaaaaaa")
    assert ambiguous.status_code == 400 and ambiguous.json()["code"] == "bad-message"
    # A lobby in the other process lists the game among the live ones.
    cyd_lobby = cyd.socket("/ws?lobby=1", direct[1])
    cyd_lobby.send({"type": "lobby", "version": 1})
    listed = cyd_lobby.until(lambda m: m["type"] == "lobby")
    assert [g["game"] for g in listed["live"]] == [game]

    # The process playing the game is killed: its games wait (502), the rest answers.
    servers: list[Server] = deployment["servers"]
    owner = None
    for index, server in enumerate(servers):
        server.stop(kill=True)
        probe = ann.http.get(f"/api/games/{game}")
        if probe.status_code == 502:
            assert probe.json()["code"] == "process-down"  # JSON, as the server's errors
            with pytest.raises(InvalidStatus) as refused:  # its socket too
                ann.socket(f"/ws?game={game}")
            assert refused.value.response.status_code == 502
            assert json.loads(refused.value.response.body)["code"] == "process-down"
            owner = index
            break
        servers[index] = Server(deployment["database"], port=ports[index],
                                options=deployment["options"])
    assert owner is not None, "no process held the game"
    assert ann.http.get("/api/lobby").status_code == 200  # the other process answers
    for socket in (black, white, spectator):
        socket.close()

    # Restarted, it resumes the game where it stood: two turns, black's move committed.
    servers[owner] = Server(deployment["database"], port=ports[owner],
                            options=deployment["options"])
    black = game_socket(ann, game, [ann_token])
    white = game_socket(bob, game, [bob_token])
    assert black.state["turn"] == 2 and black.state["committed"] == {"black": True,
                                                                      "white": False}
    assert black.state["yours"] == BLACK[2] and black.state["moves"] == [
        [BLACK[0], WHITE[0]], [BLACK[1], WHITE[1]]]
    white.send({"type": "move", "color": "white", "square": WHITE[2], "turn": 2})
    white.until(lambda m: m["type"] == "state" and m["turn"] == 3)
    black.until(lambda m: m["type"] == "state" and m["turn"] == 3)
    play(black, white, 3)
    play(black, white, 4)
    assert black.state["over"] and black.state["status"] == "black_wins"

    # Nothing lost: the record holds every turn, and the ratings moved once.
    record = ann.http.get(f"/api/games/{game}/record").text
    assert all(square in record for square in BLACK + WHITE)
    assert '[Black "ann"]' in record and '[White "bob"]' in record  # the accounts' names
    deadline = time.monotonic() + 5
    while True:
        profile = cyd.http.get("/api/players/ann").json()
        if profile["games"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert profile["rating"]["games"] == 1 and profile["rating"]["value"] > 1500, profile
    for socket in (black, white, ann_lobby, bob_lobby, cyd_lobby):
        socket.close()


def test_the_club_load_benchmark_plays_rated_games_through_the_proxy() -> None:
    """bench/club_load.py, smallest: its own PostgreSQL, two processes and
    nginx; every game ends, every rating moves, and the figures are printed."""
    require_services("postgres", "nginx")
    bench = Path(__file__).resolve().parents[2] / "bench" / "club_load.py"
    done = subprocess.run([sys.executable, str(bench), "--games", "2", "--threads", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for figure in ("sign-ups", "logins", "move latency", "throughput",
                   "4 of 4 moved by their one rated game"):
        assert figure in done.stdout, done.stdout
