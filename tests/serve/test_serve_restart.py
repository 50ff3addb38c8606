"""A ``wts serve`` killed with SIGKILL mid-game and started again on the same
database: both players resume from the same position, the move committed
before the kill, and the same clock."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_process import Server

pytest.importorskip("uvicorn")
websockets_sync = pytest.importorskip("websockets.sync.client")


def post(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"http://{url}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json",
                                              "origin": f"http://{url}"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


class Seat:
    def __init__(self, url: str, game: str, token: str) -> None:
        self.ws = websockets_sync.connect(f"ws://{url}/ws").__enter__()
        self.ws.send(json.dumps({"type": "hello", "version": 1, "game": game,
                                 "tokens": [token]}))
        assert json.loads(self.ws.recv(timeout=30))["type"] == "welcome"
        self.state = self.until(lambda m: m["type"] == "state")

    def until(self, wanted: Any) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if wanted(message):
                return message  # type: ignore[no-any-return]

    def move(self, color: str, square: str) -> None:
        self.ws.send(json.dumps({"type": "move", "color": color, "square": square,
                                 "turn": self.state["turn"]}))


def test_kill_9_mid_game_then_both_players_resume(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    url = server.address
    try:
        made = post(url, "/api/games", {"mode": "online", "color": "black",
                                         "clock": {"kind": "game", "seconds": 600}})
        joined = post(url, "/api/join", {"code": made["invite"]})
        black = Seat(url, made["game"], made["tokens"]["black"])
        white = Seat(url, made["game"], joined["tokens"]["white"])
        black.move("black", "E5")
        white.move("white", "D4")
        black.state = black.until(lambda m: m["type"] == "state" and m["turn"] == 1)
        black.move("black", "F6")
        committed = black.until(lambda m: m["type"] == "state" and m["committed"]["black"])
        assert committed["yours"] == "F6"
    finally:
        server.stop(kill=True)

    server = Server(db)
    url = server.address
    try:
        black = Seat(url, made["game"], made["tokens"]["black"])
        white = Seat(url, made["game"], joined["tokens"]["white"])
        for seat in (black, white):
            assert seat.state["moves"] == [["E5", "D4"]] and seat.state["turn"] == 1
            assert seat.state["committed"] == {"black": True, "white": False}
            assert seat.state["clock"]["left"]["black"] == committed["clock"]["left"]["black"]
        assert black.state["yours"] == "F6" and "yours" not in white.state
        white.move("white", "C3")
        played = white.until(lambda m: m["type"] == "state" and m["turn"] == 2)
        assert played["moves"] == [["E5", "D4"], ["F6", "C3"]]
    finally:
        server.stop()
