"""The web app's protocol (docs/serve.md), driven through Starlette's test
client: whole games in each mode, hidden moves, seats, records and clocks.
The hostile client is in tests/serve/test_serve_hostile.py, failures and stored
games in tests/serve/test_serve_storage.py."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

import wts
from tests.support.serve_client import OPEN, Socket, TestClient, create, online, turn_played
from wts.serve import rooms as rooms_module
from wts.serve.bot import BotRunner

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


def test_a_game_s_pages_name_their_downloads_and_a_missing_game_is_404(
        client: TestClient) -> None:
    made = create(client, mode="hotseat")
    page = f"/api/games/{made['game']}"
    assert client.get(page).json()["mode"] == "hotseat"
    for tail, suffix in (("/record", "wts"), ("/svg", "svg")):
        got = client.get(page + tail)
        assert got.headers["content-disposition"] == \
            f'attachment; filename="wts-{made["game"]}.{suffix}"'
    for game in ("0" * len(made["game"]), "not a game id"):
        for tail in ("", "/record", "/svg"):
            missing = client.get(f"/api/games/{game}{tail}")
            assert missing.status_code == 404 and missing.json()["code"] == "no-game"


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


def test_a_client_of_another_protocol_version_is_told_the_server_s(client: TestClient) -> None:
    """A hello or a lobby of version 2 is refused with the version spoken,
    and the socket may go on in version 1."""
    made = create(client, mode="hotseat")
    for first, then in (
            ({"type": "hello", "version": 2, "game": made["game"], "tokens": []},
             {"type": "hello", "version": 1, "game": made["game"], "tokens": []}),
            ({"type": "lobby", "version": 2}, {"type": "lobby", "version": 1})):
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps(first))
            assert json.loads(ws.receive_text()) == {
                "type": "error", "code": "version",
                "message": "this server speaks version 1, not 2"}
            ws.send_text(json.dumps(then))
            answer = json.loads(ws.receive_text())
            assert answer["type"] == ("welcome" if then["type"] == "hello" else "lobby")


def test_a_full_game_cannot_be_joined(client: TestClient) -> None:
    made, black, white, _ = online(client)
    for code in (made["invite"], made["invite"].lower()):  # a code in any case
        third = client.post("/api/join", json={"code": code})
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


# ---- Clocks ----------------------------------------------------------------------------


class StoppedClock:
    """The rooms' wall clock, stopped: only a test moves it on, so a clock's
    times are exact however slowly the machine runs the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = rooms_module.wall_clock()
        monkeypatch.setattr(rooms_module, "wall_clock", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> StoppedClock:
    return StoppedClock(monkeypatch)


def test_the_clock_waits_for_the_second_seat(client: TestClient,
                                              clock: StoppedClock) -> None:
    made = create(client, mode="online", clock={"kind": "move", "seconds": 5})
    clock.advance(60.0)
    state = client.get(f"/api/games/{made['game']}").json()
    assert not state["over"] and state["clock"]["left"] == {"black": 5.0, "white": 5.0}
    assert not state["clock"]["running"]
    joined = client.post("/api/join", json={"code": made["invite"]})
    assert joined.status_code == 200
    state = client.get(f"/api/games/{made['game']}").json()
    assert state["clock"]["running"] and state["seats"]["white"] == "taken"
    assert state["clock"]["left"]["black"] == 5.0


def test_a_finished_game_cannot_be_joined(client: TestClient) -> None:
    made = create(client, mode="online")
    room = client.app.state.rooms.get(made["game"])  # type: ignore[attr-defined]
    room.row.finished = True
    room.rooms.store.save(room.row)
    refused = client.post("/api/join", json={"code": made["invite"]})
    assert refused.status_code == 409 and refused.json()["code"] == "game-over"
    assert room.seat_state("white") == "free"


def test_at_one_screen_only_the_seat_asked_has_its_clock_running(
        client: TestClient, clock: StoppedClock) -> None:
    made = create(client, mode="hotseat", clock={"kind": "game", "seconds": 60})
    screen = Socket(client, made["game"], list(made["tokens"].values()))
    clock.advance(10.0)
    left = client.get(f"/api/games/{made['game']}").json()["clock"]["left"]
    assert left == {"black": 50.0, "white": 60.0}
    screen.move("black", "E5")
    screen.until(lambda m: m["type"] == "state" and m["committed"]["black"])
    clock.advance(20.0)  # 30 s in all, 20 of them white's
    left = client.get(f"/api/games/{made['game']}").json()["clock"]["left"]
    assert left == {"black": 50.0, "white": 40.0}
    screen.close()


def test_a_move_after_the_flag_fell_ends_the_game_instead(
        client: TestClient, clock: StoppedClock) -> None:
    made = create(client, mode="online", clock={"kind": "move", "seconds": 30})
    client.post("/api/join", json={"code": made["invite"]})
    black = Socket(client, made["game"], [made["tokens"]["black"]])
    clock.advance(30.05)  # the watcher sleeps a little past the flag
    black.move("black", "E5")
    ended = black.until(lambda m: m["type"] == "state" and m["over"])
    assert ended["ending"] == {"result": "draw", "reason": "time"}
    assert not ended["committed"]["black"] and "yours" not in ended
    black.close()


def test_a_rematch_swaps_the_colours_and_is_offered_to_the_opponent(client: TestClient) -> None:
    made, black, white, white_token = online(client)
    for turn, (b, w) in enumerate([("A1", "A9"), ("B1", "B9"), ("C1", "C9"), ("D1", "H8"),
                                   ("E1", "I2")]):
        black.move("black", b)
        white.move("white", w)
        black.until(turn_played(turn + 1))
        white.until(turn_played(turn + 1))
    early = client.post(f"/api/games/{made['game']}/rematch",
                        headers={"authorization": f"Bearer {white_token}"})
    assert early.status_code == 201  # the game is over: white asks
    again = early.json()
    assert list(again["tokens"]) == ["black"]  # white played white: now black
    offered = black.until(lambda m: m["type"] == "state" and "rematch" in m)
    joined = client.post("/api/join", json={"code": offered["rematch"]})
    assert joined.status_code == 200 and joined.json()["game"] == again["game"]
    assert joined.json()["color"] == "white"
    second = client.post(f"/api/games/{made['game']}/rematch",
                         headers={"authorization": f"Bearer {made['tokens']['black']}"})
    assert second.status_code == 409 and second.json()["code"] == "rematch-offered"
    watcher = Socket(client, made["game"], [])
    assert "rematch" not in watcher.state  # the players' alone
    for socket in (black, white, watcher):
        socket.close()


def test_a_rematch_needs_a_finished_game_and_a_seat(client: TestClient) -> None:
    made = create(client, mode="hotseat")
    token = made["tokens"]["black"]
    unfinished = client.post(f"/api/games/{made['game']}/rematch",
                             headers={"authorization": f"Bearer {token}"})
    assert unfinished.status_code == 403 and unfinished.json()["code"] == "not-over"
    stranger = client.post(f"/api/games/{made['game']}/rematch",
                           headers={"authorization": "Bearer " + "x" * 32})
    assert stranger.json()["code"] == "bad-token"
