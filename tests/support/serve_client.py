"""What the web app's tests (tests/serve/test_serve_*.py) share: a test client of a
new app, and a WebSocket session that keeps every message it received. The
``client`` fixture (conftest.py) is a client on a new database."""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

with warnings.catch_warnings():  # Starlette's notice about its test client's transport
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketDenialResponse
from argon2 import PasswordHasher
from starlette.websockets import WebSocketDisconnect

from wts.serve.accounts import SESSION_COOKIE
from wts.serve.app import create_app
from wts.serve.bounds import Limits

__all__ = ["CHEAP_HASHER", "OPEN", "PASSWORD", "Players", "Message", "Socket", "TestClient",
           "WebSocketDenialResponse", "WebSocketDisconnect", "create", "online", "serving",
           "turn_played", "LobbySocket", "lobby"]

Message = dict[str, Any]


OPEN: list[Any] = []

#: Argon2id at its least cost: the tests hash many passwords (the cost is a
#: parameter of the hash, tested in tests/serve/test_serve_accounts.py).
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@contextlib.contextmanager
def serving(path: Any, limits: Limits | None = None, *, base_url: str = "http://testserver",
            password_hasher: Any = None) -> Iterator[TestClient]:
    """A test client of a new app; the sockets a failed test left open are closed
    first, as the client waits for every one of them. Passwords are hashed
    with :data:`CHEAP_HASHER` unless ``password_hasher`` says otherwise."""
    app = create_app(path, limits=limits, allowed_hosts=["testserver"],
                     password_hasher=password_hasher or CHEAP_HASHER)
    # As a browser on the server's own page: Origin names it (SameOrigin).
    with TestClient(app, base_url=base_url, headers={"origin": base_url}) as test_client:
        try:
            yield test_client
        finally:
            while OPEN:
                with contextlib.suppress(Exception):
                    OPEN.pop().__exit__(None, None, None)


def create(client: TestClient, headers: dict[str, str] | None = None, **body: Any) -> Message:
    response = client.post("/api/games", json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


class Socket:
    """A WebSocket session that keeps every message it received."""

    def __init__(self, client: TestClient, game: str, tokens: list[str],
                 headers: dict[str, str] | None = None) -> None:
        # At its game's address, as the page opens it (a proxy routes by it).
        self.context = client.websocket_connect(f"/ws?game={quote(game, safe='')}",
                                                headers=dict(headers or {}))
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


#: The password of the accounts :class:`Players` signs up.
PASSWORD = "correct horse battery"


class Players:
    """Accounts signed up on one server, and one test client (one event loop,
    as one server has) whose session cookie is that of the player acting."""

    def __init__(self, client: TestClient, names: list[str]) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}
        for name in names:
            client.cookies.clear()
            assert client.post("/api/account", json={
                "name": name, "password": PASSWORD, "age_16_or_over": True}).status_code == 201
            self.cookies[name] = client.cookies[SESSION_COOKIE]

    def as_(self, name: str | None) -> TestClient:
        """The client, acting as ``name`` (None: a guest)."""
        self.client.cookies.clear()
        if name is not None:
            self.client.cookies.set(SESSION_COOKIE, self.cookies[name])
        return self.client


def lobby(players: Players, name: str | None) -> LobbySocket:
    """A lobby socket of ``name``'s browser (None: a guest's)."""
    headers = {} if name is None else {"cookie": f"{SESSION_COOKIE}={players.cookies[name]}"}
    return LobbySocket(players.as_(None), headers)


class LobbySocket:
    def __init__(self, client: TestClient, headers: dict[str, str]) -> None:
        self.context = client.websocket_connect("/ws", headers=headers)
        self.ws = self.context.__enter__()
        OPEN.append(self.context)
        self.seen: list[dict[str, Any]] = []
        self.ws.send_text(json.dumps({"type": "lobby", "version": 1}))
        self.state = self.next()
        assert self.state["type"] == "lobby"

    def next(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.seen.append(message)
        if message["type"] == "lobby":
            self.state = message
        return message

    def until(self, wanted: Any) -> dict[str, Any]:
        while True:
            message = self.next()
            if wanted(message):
                return message

    def close(self) -> None:
        OPEN.remove(self.context)
        self.context.__exit__(None, None, None)
