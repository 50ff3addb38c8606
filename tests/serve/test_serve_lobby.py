"""The lobby: seeks seen live and accepted with one request, direct
challenges seen only by their player, rating ranges, seat tokens only to
their own player, seeks that end when their seeker leaves, and the live
games to watch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_client import (
    PASSWORD,
    Players,
    Socket,
    lobby,
    serving,
)
from wts.serve.accounts import SESSION_COOKIE
from wts.serve.bounds import Limits


@pytest.fixture
def players(tmp_path: Path) -> Iterator[Players]:
    with serving(tmp_path / "g.sqlite3") as client:
        yield Players(client, ["ann", "bob", "cyd"])


def seek(players: Players, name: str, **body: Any) -> Any:
    return players.as_(name).post("/api/seeks", json=body)


def test_a_seek_is_seen_live_and_accepted_with_one_request(players: Players) -> None:
    ann, bob, guest = lobby(players, "ann"), lobby(players, "bob"), lobby(players, None)
    posted = seek(players, "ann", color="black", clock={"kind": "move", "seconds": 30})
    assert posted.status_code == 201, posted.text
    seat = posted.json().pop("token")  # the seeker's seat token, in this answer alone
    shown = bob.until(lambda m: m["type"] == "lobby" and m["seeks"])["seeks"]
    assert shown == [{"id": posted.json()["id"], "by": "ann", "rating": 1500, "color": "black",
                      "clock": {"kind": "move", "seconds": 30}, "rated": False,
                      "range": [None, None], "to": None}]
    assert guest.until(lambda m: m["type"] == "lobby" and m["seeks"])["seeks"] == shown
    accepted = players.as_("bob").post(f"/api/seeks/{shown[0]['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["color"] == "white"
    matched = ann.until(lambda m: m["type"] == "matched")
    game = matched["game"]
    assert matched["color"] == "black" and matched["seek"] == posted.json()["id"]
    assert "tokens" not in matched and accepted.json()["game"] == game
    # Each token holds its own seat; no lobby socket was sent one.
    black = Socket(players.client, game, [seat])
    white = Socket(players.client, game, list(accepted.json()["tokens"].values()))
    assert black.welcome["you"] == ["black"] and white.welcome["you"] == ["white"]
    assert black.state["players"] == {"black": "ann", "white": "bob"}
    now = guest.until(lambda m: m["type"] == "lobby" and not m["seeks"])
    assert now["live"] == [{"game": game, "players": {"black": "ann", "white": "bob"},
                            "rated": False}]
    for other in (guest, bob):  # the seeker's token went to the seeker alone
        assert all(message["type"] == "lobby" for message in other.seen)
    assert players.as_("cyd").post(f"/api/seeks/{shown[0]['id']}/accept").json()["code"] \
        == "no-seek"  # taken
    for socket in (black, white, ann, bob, guest):
        socket.close()


def test_the_lobby_asks_for_an_account_and_bounds_seeks(players: Players) -> None:
    guest = players.as_(None)
    assert guest.post("/api/seeks", json={}).status_code == 401
    assert guest.get("/api/lobby").json() == {"type": "lobby", "seeks": [], "live": [],
                                                "matched": []}
    assert seek(players, "ann").json()["code"] == "not-in-lobby"
    ann = lobby(players, "ann")
    first = seek(players, "ann")
    assert first.status_code == 201
    assert seek(players, "ann").json()["code"] == "one-seek"
    mine = first.json()["id"]
    assert players.as_("ann").post(f"/api/seeks/{mine}/accept").json()["code"] == "own-seek"
    assert players.as_("bob").delete(f"/api/seeks/{mine}").status_code == 404
    assert players.as_("ann").delete(f"/api/seeks/{mine}").status_code == 204
    assert players.as_("ann").get("/api/lobby").json()["seeks"] == []
    for body in ({"color": "green"}, {"rated": False, "min_rating": 1400},
                 {"clock": {"kind": "move", "seconds": 1}}, {"to": "no such name!"}):
        assert seek(players, "ann", **body).status_code == 400, body
    ann.close()


def test_a_challenge_is_seen_by_its_player_alone(players: Players) -> None:
    ann, bob, cyd = lobby(players, "ann"), lobby(players, "bob"), lobby(players, "cyd")
    assert seek(players, "ann", to="nobody").json()["code"] == "no-player"
    assert seek(players, "ann", to="ann").json()["code"] == "own-seek"
    made = seek(players, "ann", to="BOB").json()
    assert made["to"] == "bob"
    assert bob.until(lambda m: m["type"] == "lobby" and m["seeks"])["seeks"][0]["id"] \
        == made["id"]
    assert players.as_("cyd").get("/api/lobby").json()["seeks"] == []
    assert players.as_("cyd").post(f"/api/seeks/{made['id']}/accept").json()["code"] \
        == "no-seek"
    assert players.as_("bob").post(f"/api/seeks/{made['id']}/accept").status_code == 200
    for socket in (ann, bob, cyd):
        socket.close()


def test_a_rated_seek_keeps_to_its_rating_range(players: Players) -> None:
    ann = lobby(players, "ann")
    assert seek(players, "ann", rated=True).json()["code"] == "rated-needs-clock"
    made = seek(players, "ann", rated=True, min_rating=1600,
                clock={"kind": "game", "seconds": 600}).json()
    refused = players.as_("bob").post(f"/api/seeks/{made['id']}/accept")
    assert refused.status_code == 403 and "yours is 1500" in refused.json()["message"]
    assert players.as_("ann").delete(f"/api/seeks/{made['id']}").status_code == 204
    empty = seek(players, "ann", rated=True, min_rating=2000, max_rating=1000,
                 clock={"kind": "game", "seconds": 600})
    assert empty.status_code == 400 and "nobody could accept" in empty.json()["message"]
    ann.close()


def test_a_seek_ends_when_its_seeker_leaves_the_lobby(players: Players) -> None:
    ann, bob = lobby(players, "ann"), lobby(players, "bob")
    seek(players, "ann")
    bob.until(lambda m: m["type"] == "lobby" and m["seeks"])
    ann.close()
    assert bob.until(lambda m: m["type"] == "lobby")["seeks"] == []
    bob.close()


def test_a_lobby_socket_of_an_ended_session_hears_nothing(players: Players) -> None:
    """A socket opened with a stolen cookie, after the victim logs out
    everywhere: her next seek's news goes to her new session alone, and its
    seat token only to the request that posted it."""
    stolen = lobby(players, "ann")
    assert players.as_("ann").delete("/api/sessions").status_code == 204
    players.as_(None).post("/api/session", json={"name": "ann", "password": PASSWORD})
    players.cookies["ann"] = players.client.cookies[SESSION_COOKIE]
    mine = lobby(players, "ann")
    made = seek(players, "ann").json()
    assert len(made["token"]) == 32
    assert players.as_("bob").post(f"/api/seeks/{made['id']}/accept").status_code == 200
    assert mine.until(lambda m: m["type"] == "matched")["seek"] == made["id"]
    stolen.until(lambda m: m["type"] == "lobby" and not m["seeks"])
    assert all(message["type"] == "lobby" for message in stolen.seen)
    stolen.close()
    mine.close()


def test_a_deleted_account_leaves_no_seek_and_no_id_to_inherit(players: Players) -> None:
    ann = lobby(players, "ann")
    seek(players, "ann", to="bob")
    assert players.as_("ann").request("DELETE", "/api/account",
                                      json={"password": PASSWORD}).status_code == 204
    assert players.as_("bob").get("/api/lobby").json()["seeks"] == []
    newcomer = Players(players.client, ["ann"])  # the name again: a new account
    assert newcomer.as_("ann").get("/api/players/ann").json()["games"] == []
    assert newcomer.as_("ann").get("/api/players/ann").json()["rating"]["games"] == 0
    ann.close()


def test_accepted_seeks_count_against_the_address_bound(tmp_path: Path) -> None:
    with serving(tmp_path / "g.sqlite3", Limits(max_open_games_per_address=1)) as client:
        players = Players(client, ["ann", "bob"])
        ann = lobby(players, "ann")
        first = seek(players, "ann").json()
        assert players.as_("bob").post(f"/api/seeks/{first['id']}/accept").status_code == 200
        ann.until(lambda m: m["type"] == "matched")
        second = seek(players, "ann").json()
        refused = players.as_("bob").post(f"/api/seeks/{second['id']}/accept")
        assert refused.status_code == 429 and refused.json()["code"] == "too-many-games-here"
        assert [s["id"] for s in players.as_("bob").get("/api/lobby").json()["seeks"]] \
            == [second["id"]]  # a game that could not be made leaves the seek open
        ann.close()


def test_a_played_seek_is_found_in_the_lobby_if_its_news_was_missed(players: Players) -> None:
    """The seeker's lobby says which game their seek made (its news may have
    been missed while a process reconnected), until the seeker leaves."""
    ann = lobby(players, "ann")
    made = seek(players, "ann", color="white").json()
    accepted = players.as_("bob").post(f"/api/seeks/{made['id']}/accept").json()
    game = accepted["game"]
    assert players.as_("ann").get("/api/lobby").json()["matched"] == [
        {"seek": made["id"], "game": game, "color": "white", "url": f"/game/{game}"}]
    assert players.as_("bob").get("/api/lobby").json()["matched"] == []
    assert players.as_(None).get("/api/lobby").json()["matched"] == []  # a guest: none
    # The seat is the seeker's token, from the post.
    white = Socket(players.client, game, [made["token"]])
    assert white.welcome["you"] == ["white"]
    white.close()
    ann.close()  # gone from the lobby: the played seek goes too
    assert players.as_("ann").get("/api/lobby").json()["matched"] == []
    again = lobby(players, "ann")
    assert seek(players, "ann").status_code == 201  # and a new one may be posted
    again.close()
