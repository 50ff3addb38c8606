"""The web app's stored games (docs/serve.md): a failure or a corrupt row
stays in its game, stored rows are checked when loaded, an older database
opens; and the package keeps the web app optional."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from tests.support.processes import run_python
from tests.support.serve_client import Socket, TestClient, create, turn_played
from wts.serve.bot import BotRunner

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


# ---- Packaging --------------------------------------------------------------------------


def test_import_wts_does_not_import_the_web_app() -> None:
    code = ("import sys, wts; bad = [m for m in ('starlette', 'uvicorn', 'pydantic', "
            "'wts.serve') if m in sys.modules]; print(bad)")
    out = run_python("-c", code, check=True).stdout
    assert out.strip() == "[]"


def test_serve_refuses_a_bad_port() -> None:
    from wts.cli.main import main

    assert main(["serve", "--port", "70000"]) == 2
