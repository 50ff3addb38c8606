"""The server's database shared by several processes: the store's promises
held on SQLite and on a real PostgreSQL (started in a temporary folder),
and two apps on one PostgreSQL seeing each other's lobby, matches, seats and
sessions through LISTEN/NOTIFY."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_client import (
    PASSWORD,
    LobbySocket,
    Players,
    Socket,
    TestClient,
    create,
    serving,
)
from tests.support.services import PostgresServer, new_database
from wts.errors import WtsError
from wts.serve.accounts import SESSION_COOKIE
from wts.serve.store import SCHEMA_VERSION, GameRow, SeekRow, StaleGame, Store


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database of each kind."""
    if request.param == "sqlite":
        return str(tmp_path / "g.sqlite3")
    return new_database(request.getfixturevalue("postgres"))


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    return new_database(postgres)


def two(url: str) -> tuple[Store, Store]:
    """Two processes' stores on one database."""
    return Store(url), Store(url)


def game(**fields: Any) -> GameRow:
    return GameRow(id=fields.pop("id", "aaaaaaaaaaaa"), mode=fields.pop("mode", "online"),
                   created=1.0, **fields)


# ---- The schema ----------------------------------------------------------------------------


def test_processes_starting_together_make_the_schema_once(url: str) -> None:
    stores: list[Store] = []
    failures: list[BaseException] = []

    def open_one() -> None:
        try:
            stores.append(Store(url))
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures and len(stores) == 4
    assert stores[0]._run("SELECT version FROM schema_version").rows == [(SCHEMA_VERSION,)]
    for store in stores:
        store.close()


def test_a_database_of_a_newer_wts_is_refused(url: str) -> None:
    store = Store(url)
    store._run("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    store.close()
    with pytest.raises(WtsError, match="newer wts"):
        Store(url)


def test_the_password_is_never_shown(pg_url: str) -> None:
    store = Store(pg_url.replace("wts@", "wts:hunter2@"))
    assert "hunter2" not in store.path and store.path.startswith("postgresql://wts@")
    store.close()


def test_a_database_that_cannot_be_reached_is_a_clear_error() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(WtsError, match="cannot connect to the database"):
        Store("postgresql://wts@127.0.0.1:1/none?connect_timeout=2")


def test_a_restarted_database_is_connected_again(postgres: PostgresServer,
                                                 pg_url: str) -> None:
    store = Store(pg_url)
    store.insert(game())
    postgres.restart()
    with pytest.raises(WtsError, match="database"):  # this statement's connection is gone
        store.load("aaaaaaaaaaaa")
    assert store.load("aaaaaaaaaaaa") is not None  # the next one has a new connection
    store.close()


# ---- Games and ratings between processes ---------------------------------------------------


def test_two_processes_saving_one_game_never_overwrite_each_other(url: str) -> None:
    first, second = two(url)
    first.insert(game())
    mine, theirs = first.load("aaaaaaaaaaaa"), second.load("aaaaaaaaaaaa")
    assert mine is not None and theirs is not None
    mine.moves.append(("E5", "D4"))
    first.save(mine)
    theirs.moves.append(("A1", "B2"))
    with pytest.raises(StaleGame):
        second.save(theirs)
    stored = second.load("aaaaaaaaaaaa")
    assert stored is not None and stored.moves == [("E5", "D4")]
    first.close()
    second.close()


def test_a_game_is_rated_once_whichever_process_ends_it(url: str) -> None:
    first, second = two(url)
    ann = first.add_user("ann", "x", 1.0)
    bob = first.add_user("bob", "x", 1.0)
    first.insert(game(black_user=ann, white_user=bob, rated=True))
    one, other = first.load("aaaaaaaaaaaa"), second.load("aaaaaaaaaaaa")
    assert one is not None and other is not None
    for row in (one, other):
        row.finished = True
    first.save(one, result="black")
    with pytest.raises(StaleGame):
        second.save(other, result="black")
    assert first.rating(ann)[1] == 1 and first.rating(bob)[1] == 1  # type: ignore[arg-type]
    assert first.rating(ann)[0].value > 1500 > first.rating(bob)[0].value  # type: ignore[arg-type]
    first.close()
    second.close()


def test_names_are_one_account_whatever_their_case(url: str) -> None:
    store = Store(url)
    assert store.add_user("Ann", "x", 1.0) is not None
    assert store.add_user("aNN", "y", 2.0) is None
    found = store.user_named("ANN")
    assert found is not None and found[1] == "Ann"
    store.close()


# ---- The lobby between processes -----------------------------------------------------------


def seek_row(user: int, seek_id: str = "seek1") -> SeekRow:
    return SeekRow(seek_id, user, "black", ("game", 300), True, None, None, None, 1.0, "h" * 64)


def test_a_seek_is_played_by_one_accepter_whichever_process_it_is_in(url: str) -> None:
    first, second = two(url)
    assert first.add_seek(seek_row(1), max_seeks=10) is None
    assert first.add_seek(seek_row(1, "seek2"), max_seeks=10) == "one-seek"
    assert [s.id for s in second.seeks()] == ["seek1"]
    assert [first.take_seek("seek1"), second.take_seek("seek1")] == [True, False]
    first.close()
    second.close()


def test_a_seek_lasts_while_its_player_has_a_lobby_socket_in_any_process(url: str) -> None:
    first, second = two(url)
    first.arrive("process-a", 7, time.time())
    second.arrive("process-b", 7, time.time())
    assert not first.depart("process-a", 7)  # still in the other process's lobby
    assert second.depart("process-b", 7)
    assert not first.present(7)
    first.close()
    second.close()


def test_the_seeks_of_a_stopped_process_end_when_its_presence_goes_stale(url: str) -> None:
    first, second = two(url)
    now = time.time()
    first.arrive("killed", 7, now - 100)
    first.add_seek(seek_row(7), max_seeks=10)
    second.arrive("alive", 8, now)
    second.add_seek(seek_row(8, "seek8"), max_seeks=10)
    assert second.beat("alive", {8: 1}, now, now - 30) == [7]
    assert [s.id for s in first.seeks()] == ["seek8"]
    first.close()
    second.close()


# ---- Two apps on one PostgreSQL --------------------------------------------------------------


def eventually(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the news never arrived"
        time.sleep(0.05)


@pytest.fixture
def apps(pg_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two server processes' apps (each its own event loop and its own
    LISTEN connection) on one PostgreSQL database."""
    with serving(pg_url) as first, serving(pg_url) as second:
        yield first, second


def lobby_socket(client: TestClient, cookie: str | None) -> LobbySocket:
    client.cookies.clear()
    return LobbySocket(client, {} if cookie is None else {"cookie": f"{SESSION_COOKIE}={cookie}"})


def test_a_seek_and_its_match_cross_processes(apps: tuple[TestClient, TestClient]) -> None:
    first, second = apps
    ann, bob = Players(first, ["ann"]), Players(second, ["bob"])
    ann_lobby = lobby_socket(first, ann.cookies["ann"])
    bob_lobby = lobby_socket(second, bob.cookies["bob"])
    posted = ann.as_("ann").post("/api/seeks", json={
        "color": "black", "rated": True, "clock": {"kind": "game", "seconds": 300}})
    assert posted.status_code == 201, posted.text
    shown = bob_lobby.until(lambda m: m["type"] == "lobby" and m["seeks"])
    assert shown["seeks"][0]["by"] == "ann"
    accepted = bob.as_("bob").post(f"/api/seeks/{posted.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    matched = ann_lobby.until(lambda m: m["type"] == "matched")
    assert matched["game"] == accepted.json()["game"] and matched["color"] == "black"
    # Both players' sockets meet in one process (the proxy's hash); the game is live there.
    black = Socket(first, matched["game"], [posted.json()["token"]])
    white = Socket(first, matched["game"], [accepted.json()["tokens"]["white"]])
    black.move("black", "E5")
    white.move("white", "D4")
    played = black.until(lambda m: m["type"] == "state" and m["turn"] == 1)
    assert played["players"] == {"black": "ann", "white": "bob"} and played["rated"]
    # The other process's lobby lists it among the live games.
    live = lobby_socket(second, None).state["live"]
    assert [g["game"] for g in live] == [matched["game"]]
    for socket in (black, white, ann_lobby, bob_lobby):
        socket.close()


def test_a_seat_taken_through_another_process_reaches_the_game(
        apps: tuple[TestClient, TestClient]) -> None:
    first, second = apps
    made = create(first, mode="online", color="black")
    black = Socket(first, made["game"], [made["tokens"]["black"]])
    assert black.state["seats"]["white"] == "free"
    joined = second.post("/api/join", json={"code": made["invite"]})
    assert joined.status_code == 200, joined.text
    seated = black.until(lambda m: m["type"] == "state" and m["seats"]["white"] == "taken")
    assert seated["turn"] == black.state["turn"]
    # The joiner's socket, in the game's process, is known at once.
    white = Socket(first, made["game"], [joined.json()["tokens"]["white"]])
    assert white.welcome["you"] == ["white"]
    black.close()
    white.close()


def test_a_session_ended_in_one_process_ends_in_the_others(
        apps: tuple[TestClient, TestClient]) -> None:
    first, second = apps
    ann = Players(first, ["ann"])
    cookie = ann.cookies["ann"]
    ann_lobby = lobby_socket(second, cookie)
    store = second.app.state.rooms.store  # type: ignore[attr-defined]
    account = second.app.state.accounts.account_of(cookie)  # type: ignore[attr-defined]
    assert store.present(account.id)
    ann.as_("ann")
    assert first.delete("/api/sessions").status_code == 204  # log out everywhere
    eventually(lambda: not store.present(account.id))
    # A seek needs a player in the lobby: the socket counts as a guest's now.
    login = first.post("/api/session", json={"name": "ann", "password": PASSWORD})
    assert login.status_code == 200
    refused = first.post("/api/seeks", json={"color": "black", "rated": False})
    assert refused.json()["code"] == "not-in-lobby"
    ann_lobby.close()


def test_a_game_socket_must_name_its_game_in_its_address(apps: tuple[TestClient, Any]) -> None:
    first, _ = apps
    made = create(first, mode="hotseat")
    with first.websocket_connect("/ws") as ws:  # no ?game=: a proxy could not route it
        ws.send_text(json.dumps({"type": "hello", "version": 1, "game": made["game"],
                                 "tokens": []}))
        answer = json.loads(ws.receive_text())
    assert answer["type"] == "error" and "/ws?game=ID" in answer["message"]


def test_a_process_taken_for_stopped_comes_back_at_its_next_beat(url: str) -> None:
    """A process that stalled past the stale time (its rows deleted by
    another) writes its lobby's presence again when it beats."""
    first, second = two(url)
    now = time.time()
    first.arrive("stalled", 7, now - 100)
    second.beat("alive", {}, now, now - 30)
    assert not first.present(7)
    first.beat("stalled", {7: 2}, now, now - 30)
    assert first.present(7)
    assert not first.depart("stalled", 7) and first.depart("stalled", 7)  # two sockets
    first.close()
    second.close()


def test_percent_signs_in_statements_mean_themselves(url: str) -> None:
    store = Store(url)
    assert store._run("SELECT '100%'").rows == [("100%",)]
    store.close()


def test_a_lobby_socket_that_fails_to_send_leaves_the_lobby(url: str) -> None:
    """A socket whose send fails is gone at once, presence and seeks too; the
    handler's own leave afterwards changes nothing."""
    import asyncio

    from tests.support.serve_client import CHEAP_HASHER
    from wts.serve.accounts import Accounts
    from wts.serve.bot import BotRunner
    from wts.serve.bounds import Limits
    from wts.serve.events import Events
    from wts.serve.lobby import Lobby
    from wts.serve.rooms import Rooms

    async def run() -> None:
        store = Store(url)
        events = Events(store)
        accounts = Accounts(store, hasher=CHEAP_HASHER)
        lobby = Lobby(Rooms(store, Limits(), BotRunner(1), events), accounts, events, "here")
        ann = await accounts.sign_up("ann", PASSWORD)

        async def broken(message: dict[str, Any]) -> None:
            raise ConnectionResetError

        lobby.join(broken, accounts.open_session(ann))
        lobby.post(ann, "black", None, False, None, None, None)
        await lobby.broadcast()
        assert not store.present(ann.id) and store.seeks() == []
        lobby.leave(broken)
        assert not store.present(ann.id)
        store.close()

    asyncio.run(run())


@pytest.mark.parametrize("query", [
    b"game=aaaaaaaaaaaa&%67ame=bbbbbbbbbbbb", b"game=aaaaaaaaaaaa&game=bbbbbbbbbbbb",
    b"GAME=aaaaaaaaaaaa", b"game=%61aaaaaaaaaaa", b"g%61me=aaaaaaaaaaaa", b"game=a+b",
])
def test_a_socket_address_a_proxy_could_read_as_another_game_is_refused(query: bytes) -> None:
    from wts.serve.app import addressed_game
    from wts.serve.rooms import RoomError

    with pytest.raises(RoomError, match="names its game once"):
        addressed_game(query)
    assert addressed_game(b"lobby=1") is None
    assert addressed_game(b"v=1&game=aaaaaaaaaaaa") == "aaaaaaaaaaaa"


def test_a_game_changed_elsewhere_is_dropped_and_its_connections_told(url: str) -> None:
    """Another process saved the game (its row's version moved on): this
    copy's next move writes nothing, and every connection hears game-moved."""
    with serving(url) as client:
        made = create(client, mode="online", color="black")
        joined = client.post("/api/join", json={"code": made["invite"]}).json()
        black = Socket(client, made["game"], [made["tokens"]["black"]])
        white = Socket(client, made["game"], [joined["tokens"]["white"]])
        store = client.app.state.rooms.store  # type: ignore[attr-defined]
        store._run("UPDATE games SET version = version + 1 WHERE id = ?", (made["game"],))
        black.move("black", "E5")
        assert black.error()["code"] == "game-moved"
        assert white.error()["code"] == "game-moved"
        stored = store.load(made["game"])
        assert stored is not None and stored.pending == {}
        # The next connection reads the stored game, and plays on.
        again = Socket(client, made["game"], [made["tokens"]["black"]])
        again.move("black", "E5")
        again.until(lambda m: m["type"] == "state" and m["committed"]["black"])
        for socket in (black, white, again):
            socket.close()
