"""Glicko-2, held to Glickman's worked example, and rated games: an online
game between two accounts moves both ratings once, in the transaction that
ends it; guests, the bot and hotseat games stay unrated; profiles and the
leaderboard show ratings, their history and the games; a deleted player's
games stay."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_client import (
    PASSWORD,
    Players,
    Socket,
    TestClient,
    create,
    serving,
    turn_played,
)
from wts.serve import glicko2

#: Rated games have a clock (an abandoned one ends on time).
CLOCK = {"kind": "game", "seconds": 600}
# Black makes five in row 1 while White scatters: Black wins in five turns.
FIVE = [("A1", "A9"), ("B1", "B9"), ("C1", "C9"), ("D1", "H8"), ("E1", "I2")]


def test_glicko2_matches_glickmans_worked_example() -> None:
    """The paper's example (section "Example"): r 1500, RD 200, sigma 0.06
    against 1400/30 (won), 1550/100 (lost) and 1700/300 (lost). The paper
    rounds its steps; in its own units mu' = -0.2069, phi' = 0.8722 and
    sigma' = 0.05999, which are r' = 1464.06 and RD' = 151.52."""
    after = glicko2.update(glicko2.Rating(1500, 200, 0.06), [
        (glicko2.Rating(1400, 30), 1.0), (glicko2.Rating(1550, 100), 0.0),
        (glicko2.Rating(1700, 300), 0.0)])
    assert round((after.value - 1500) / 173.7178, 4) == -0.2069
    assert round(after.deviation / 173.7178, 4) == 0.8722
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.value == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    before = glicko2.Rating(1600, 100, 0.06)
    after = glicko2.update(before, [])
    assert after.value == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx(math.hypot(100, 0.06 * 173.7178))
    assert glicko2.update(glicko2.DEFAULT, []).deviation == 350  # never past a new player's


def test_a_draw_between_equals_leaves_the_values_and_narrows_the_deviations() -> None:
    after = glicko2.update(glicko2.DEFAULT, [(glicko2.DEFAULT, 0.5)])
    assert after.value == pytest.approx(1500) and after.deviation < 350
    assert after.provisional and not glicko2.Rating(1500, 80).provisional


@pytest.fixture
def two(tmp_path: Path) -> Iterator[Players]:
    with serving(tmp_path / "g.sqlite3") as client:
        yield Players(client, ["ann", "bob"])


def open_rated(two: Players) -> tuple[str, dict[str, str], Socket, Socket]:
    """A rated game made by ann (black) and joined by bob: its id, both seats'
    tokens and a socket for each."""
    made = create(two.as_("ann"), mode="online", color="black", rated=True, clock=CLOCK)
    joined = two.as_("bob").post("/api/join", json={"code": made["invite"]})
    assert joined.status_code == 200, joined.text
    tokens = {"black": made["tokens"]["black"], "white": joined.json()["tokens"]["white"]}
    black = Socket(two.client, made["game"], [tokens["black"]])
    white = Socket(two.client, made["game"], [tokens["white"]])
    return str(made["game"]), tokens, black, white


def play_turns(black: Socket, white: Socket, turns: list[tuple[str, str]]) -> None:
    for b, w in turns:
        turn = black.state["turn"]
        black.move("black", b)
        white.move("white", w)
        black.until(turn_played(turn + 1))
        white.until(turn_played(turn + 1))


def play_rated(two: Players, turns: list[tuple[str, str]]) -> str:
    game, _, black, white = open_rated(two)
    assert black.state["rated"] and black.state["players"] == {"black": "ann", "white": "bob"}
    play_turns(black, white, turns)
    assert black.state["over"]
    black.close()
    white.close()
    return game


def profile(client: TestClient, name: str) -> Any:
    return client.get(f"/api/players/{name}").json()


def test_a_rated_game_moves_both_ratings_once_at_its_end(two: Players) -> None:
    client = two.client
    assert profile(client, "ann")["rating"] == {"value": 1500.0, "deviation": 350.0,
                                                "volatility": 0.06, "provisional": True,
                                                "games": 0}
    game = play_rated(two, FIVE)
    won = glicko2.update(glicko2.DEFAULT, [(glicko2.DEFAULT, 1.0)])
    lost = glicko2.update(glicko2.DEFAULT, [(glicko2.DEFAULT, 0.0)])
    mine, theirs = profile(client, "ann"), profile(client, "BOB")
    assert mine["rating"]["value"] == round(won.value, 1) > 1500
    assert theirs["rating"]["value"] == round(lost.value, 1) < 1500
    assert mine["rating"]["games"] == theirs["rating"]["games"] == 1
    assert [h["game"] for h in mine["history"]] == [game]
    assert mine["games"] == [{"game": game, "color": "black", "rated": True, "mode": "online",
                              "opponent": "bob", "result": "win", "turns": 5,
                              "record": f"/api/games/{game}/record", "replay": f"/game/{game}"}]
    assert theirs["games"][0]["result"] == "loss"
    board = client.get("/api/leaderboard").json()["players"]
    assert [p["name"] for p in board] == ["ann", "bob"]
    # The rating is applied once: saving the finished game again changes nothing.
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    rooms.store.save(rooms.get(game).row, result="black")
    assert profile(client, "ann")["rating"] == mine["rating"]


def test_a_rating_that_fails_to_move_leaves_the_game_unended_and_both_ratings_as_they_were(
        two: Players, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's end and both ratings are one transaction: white's update
    failing after black's was computed writes neither the end nor black's."""
    update, calls = glicko2.update, []

    def second_fails(*args: Any) -> glicko2.Rating:
        calls.append(args)
        if len(calls) == 2:
            raise RuntimeError("a failure between the two ratings")
        return update(*args)

    monkeypatch.setattr(glicko2, "update", second_fails)
    game, _, black, white = open_rated(two)
    play_turns(black, white, FIVE[:-1])
    black.move("black", FIVE[-1][0])
    white.move("white", FIVE[-1][1])
    assert white.error()["code"] == "server-error"
    black.close()
    white.close()
    assert len(calls) == 2
    rooms = two.client.app.state.rooms  # type: ignore[attr-defined]
    rooms.rooms.clear()  # read back from the database
    stored = two.client.get(f"/api/games/{game}").json()
    assert not stored["over"] and stored["turn"] == len(FIVE) - 1
    for name in ("ann", "bob"):
        assert profile(two.client, name)["rating"]["games"] == 0
        assert profile(two.client, name)["history"] == []


def test_a_rated_game_is_kept_when_either_player_asks_to_delete_it(two: Players) -> None:
    """The loser cannot erase the winner's win: a rated game's result is in
    both players' rating histories."""
    game, tokens, black, white = open_rated(two)
    play_turns(black, white, FIVE)
    black.close()
    white.close()
    for token in (tokens["white"], tokens["black"]):
        refused = two.client.delete(f"/api/games/{game}",
                                    headers={"authorization": f"Bearer {token}"})
        assert refused.status_code == 403 and refused.json()["code"] == "rated-game-kept"
    assert profile(two.client, "ann")["games"][0]["game"] == game
    assert two.client.get(f"/api/games/{game}/record").status_code == 200


def test_an_account_deleted_mid_game_unrates_it_and_its_opponent_is_told_at_once(
        two: Players) -> None:
    _, _, black, white = open_rated(two)
    play_turns(black, white, FIVE[:2])
    bob = two.as_("bob")
    assert bob.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
    told = black.until(lambda m: m["type"] == "state" and not m["rated"])
    assert told["players"] == {"black": "ann", "white": "a deleted player"}
    assert told["turn"] == 2  # before any further move
    black.close()
    white.close()


def test_an_unrated_game_between_accounts_leaves_the_ratings(two: Players) -> None:
    made = create(two.as_("ann"), mode="online", color="black")
    assert two.as_("bob").post("/api/join", json={"code": made["invite"]}).status_code == 200
    assert profile(two.client, "ann")["rating"]["games"] == 0


def test_guests_the_bot_and_hotseat_games_are_unrated(two: Players) -> None:
    ann = two.as_("ann")
    for mode in ("bot", "hotseat"):
        for clock in (CLOCK, None):  # not online says more than no clock
            refused = ann.post("/api/games", json={"mode": mode, "rated": True, "clock": clock})
            assert refused.status_code == 403
            assert refused.json()["code"] == "rated-needs-accounts"
    made = create(ann, mode="online", rated=True, clock=CLOCK)
    assert ann.post("/api/join", json={"code": made["invite"]}).json()["code"] == "own-game"
    guest = two.as_(None)
    refused = guest.post("/api/join", json={"code": made["invite"]})
    assert refused.status_code == 403 and "log in" in refused.json()["message"]
    assert guest.post("/api/games", json={"mode": "online", "rated": True,
                                          "clock": CLOCK}).status_code == 403
    assert two.as_("bob").post("/api/join", json={"code": made["invite"]}).status_code == 200


def test_a_deleted_player_leaves_its_games_shown_as_by_a_deleted_player(two: Players) -> None:
    game = play_rated(two, FIVE)
    bob = two.as_("bob")
    assert bob.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
    assert bob.get("/api/players/bob").status_code == 404
    client = two.client
    assert profile(client, "ann")["games"][0]["opponent"] == "a deleted player"
    assert [p["name"] for p in client.get("/api/leaderboard").json()["players"]] == ["ann"]
    downloaded = client.get(f"/api/games/{game}/record")
    assert downloaded.status_code == 200
    assert '[Black "ann"]' in downloaded.text and '[White "a deleted player"]' in downloaded.text
    assert "bob" not in downloaded.text
    client.app.state.rooms.rooms.clear()  # type: ignore[attr-defined]  # read back from the store
    assert client.get(f"/api/games/{game}").json()["players"] == {
        "black": "ann", "white": "a deleted player"}


def test_an_unknown_player_is_a_clear_404(two: Players) -> None:
    for name in ("carol", "x" * 100, "bad name"):
        answer = two.client.get(f"/api/players/{name}")
        assert answer.status_code == 404 and answer.json()["code"] == "no-player"
