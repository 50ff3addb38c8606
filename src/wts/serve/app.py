"""The web app: pages and downloads over HTTP, live games over a WebSocket.

:func:`create_app` builds the Starlette application; ``wts serve`` runs it
under uvicorn. The static files are read into memory when the app is built
and served by exact name, so no request path ever reaches the file system.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus, urlsplit

from argon2 import PasswordHasher
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from wts.engine.game import Game
from wts.errors import WtsError
from wts.formats import record
from wts.serve import lessons
from wts.serve.account_routes import account_routes
from wts.serve.accounts import SESSION_COOKIE, Account, AccountError, Accounts
from wts.serve.bot import BotRunner
from wts.serve.bounds import AddressBuckets, Limits, TokenBucket
from wts.serve.events import Events
from wts.serve.lobby import Lobby
from wts.serve.lobby_routes import lobby_routes
from wts.serve.messages import (
    GAME_ID,
    PROTOCOL_VERSION,
    TOKEN,
    BadJson,
    CreateGame,
    EnterLobby,
    Hello,
    JoinGame,
    LessonMove,
    Move,
    describe_error,
    parse_body,
    parse_client,
)
from wts.serve.profiles import profile_routes
from wts.serve.refusals import answers, error
from wts.serve.rooms import Room, RoomError, Rooms, board_view, status_words, turn_events
from wts.serve.store import Store

__all__ = ["create_app", "SECURITY_HEADERS", "LOCAL_NAMES", "SameOrigin"]

#: The names this machine answers to on the loopback interface, always allowed.
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")

log = logging.getLogger("wts.serve")

#: Sent with every HTTP response: no inline script or style, no framing, no sniffing.
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}

_STATIC_TYPES = {
    "index.html": "text/html; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
_PAGES = ("/", "/game/{game}", "/join/{code}", "/learn", "/replay", "/new/{mode}", "/account",
          "/leaderboard", "/players/{name}", "/lobby")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]],
                    Callable[[Message], Awaitable[None]]], Awaitable[None]]


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response,
    a WebSocket handshake's refusal included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


#: Methods that change something: refused from another site (CSRF).
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _site(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin's parts, the default port filled in."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if scheme not in _DEFAULT_PORTS or parts.hostname is None or parts.username is not None:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether ``origin`` (an ``Origin`` header) is this server's own: the
    scheme, host and port the request came to (its ``Host``, which the
    trusted-host check has vetted). A page on another port of the same host
    is another origin."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.path or parts.query or parts.fragment:
        return False
    theirs = _site(parts.scheme.lower(), parts.netloc)
    return theirs is not None and theirs == _site(scheme, host)


class SameOrigin:
    """ASGI middleware refusing a request that changes something unless it
    comes from the server's own pages: its ``Origin`` is the scheme, host and
    port the request came to, or,
    without an ``Origin``, ``Sec-Fetch-Site`` says ``same-origin`` (or
    ``none``: typed by the user). A request with neither is refused too, so
    a foreign page's form or ``text/plain`` POST never acts for its visitor;
    a script names the server in ``Origin`` as a browser does."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            headers = {key.decode(): value.decode("latin-1") for key, value in scope["headers"]
                       if key in (b"origin", b"sec-fetch-site", b"host")}
            origin = headers.get("origin")
            if origin is not None:
                allowed = same_origin(origin, scope.get("scheme", "http"),
                                      headers.get("host", ""))
            else:
                allowed = headers.get("sec-fetch-site") in ("same-origin", "none")
            if not allowed:
                refusal = error(403, "foreign-origin", (
                    f"a request from {origin} may not change anything here" if origin
                    else "a request that changes something names its Origin (browsers "
                    "send it; a script sends Origin: http://HOST:PORT of this server)"))
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


# A Host header: a name or a bracketed IPv6 address, then perhaps a port.
_HOST_HEADER = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?", re.IGNORECASE)


class KnownHosts:
    """ASGI middleware answering a request whose ``Host`` is not one of
    ``hosts`` (a page of another site whose name was pointed at this
    machine: DNS rebinding) with ``400 bad-host``, before anything else reads it."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] in ("http", "websocket"):
            found = _HOST_HEADER.fullmatch(Headers(scope=scope).get("host", ""))
            if (found is None or found.group(1).lower() not in self.hosts
                    or not 0 < int(found.group(2) or 80) < 65536):
                refusal = error(400, "bad-host", "this server answers for its own names "
                                "only (wts serve --allowed-host NAME adds one)")
                if (scope["type"] == "websocket"
                        and "websocket.http.response" not in scope.get("extensions", {})):
                    await send({"type": "websocket.close", "code": 1008})
                else:
                    await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: The codes of the HTTP errors the router itself answers.
_HTTP_CODES = {404: "not-found", 405: "method-not-allowed"}


async def _http_error(request: Request, exc: Exception) -> Response:
    """A path that is not here, or a method a path does not take: a JSON
    error, as every other answer's."""
    status = exc.status_code if isinstance(exc, HTTPException) else 400
    message = {404: f"nothing here at {request.url.path}",
               405: f"{request.url.path} does not take {request.method}"}.get(
                   status, str(getattr(exc, "detail", "")) or "a bad request")
    answer = error(status, _HTTP_CODES.get(status, "bad-request"), message)
    if isinstance(exc, HTTPException) and exc.headers:
        answer.headers.update(exc.headers)  # a 405's Allow
    return answer


async def _gone(request: Request, exc: Exception) -> Response:
    """The client went away before its body came: nobody reads the answer,
    and nothing is logged."""
    return Response(status_code=400)


async def _server_error(request: Request, exc: Exception) -> Response:
    """A failure's answer: JSON, with the security headers (Starlette's error
    middleware sits outside :class:`SecurityHeaders`). The error is logged by
    the server, never sent."""
    return JSONResponse({"type": "error", "code": "server-error",
                         "message": "the server failed; the failure is logged"},
                        status_code=500, headers=SECURITY_HEADERS)


def _client(request: Request | WebSocket) -> str:
    return request.client.host if request.client is not None else "unknown"


async def _body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None when it is longer than ``limit`` bytes (read no further)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def addressed_game(query: bytes) -> str | None:
    """The game a socket's address names (``/ws?game=ID``), None for none.
    The proxy hashes the argument as sent; one spelt so that the server would
    read it as another (given twice, any case, percent-encoded) could reach a
    process that is not the game's, so it is refused."""
    found = [(name, value) for name, _, value in (part.partition(b"=")
                                                   for part in query.split(b"&"))
             if unquote_plus(name.decode("latin-1")).lower() == "game"]
    if not found:
        return None
    (name, value), = found if len(found) == 1 else [(b"", b"")]
    if name != b"game" or not re.fullmatch(GAME_ID, value.decode("latin-1")):
        raise RoomError("bad-message", "a game's socket names its game once, as game=ID")
    return value.decode("ascii")


def host_name(host: str) -> str:
    """A host as the ``Host`` header spells it: lower case, an IPv6 address in brackets."""
    host = host.strip().lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def create_app(db: str | Path = ":memory:", *, limits: Limits | None = None,
               allowed_hosts: Sequence[str] = (),
               password_hasher: PasswordHasher | None = None) -> Starlette:
    """The ``wts serve`` application, keeping its games in ``db``: an SQLite
    file, or a ``postgresql://`` URL shared by several processes.

    Requests are answered only when their ``Host`` is one of ``allowed_hosts`` or
    :data:`LOCAL_NAMES`, and a WebSocket, or a request that changes something, only
    from the server's own origin (:class:`SameOrigin`): a page from another site,
    even one whose name resolves to this machine (DNS rebinding), cannot reach the
    games. ``password_hasher`` sets the cost
    of the accounts' Argon2id hashes (argon2-cffi's defaults)."""
    limits = limits or Limits()
    hosts = list(dict.fromkeys([*LOCAL_NAMES, *(host_name(h) for h in allowed_hosts)]))
    static = {name: resources.files("wts.serve").joinpath("static").joinpath(name).read_bytes()
              for name in _STATIC_TYPES}
    lesson_list = lessons.load()
    state: dict[str, Any] = {"connections": 0, "by_address": {}}
    creates = AddressBuckets(limits.creates_burst, limits.creates_per_second)

    def rooms() -> Rooms:
        return app.state.rooms  # type: ignore[no-any-return]

    async def page(request: Request) -> Response:
        return Response(static["index.html"], media_type=_STATIC_TYPES["index.html"])

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static or name == "index.html":
            return error(404, "not-found", "no such file")
        return Response(static[name], media_type=_STATIC_TYPES[name],
                        headers={"cache-control": "no-cache"})

    async def favicon(request: Request) -> Response:
        """What every browser asks for, whatever the page names."""
        return Response(static["favicon.svg"], media_type=_STATIC_TYPES["favicon.svg"],
                        headers={"cache-control": "max-age=86400"})

    async def json_body(request: Request, limit: int = 4096) -> Any:
        body = await _body(request, limit)
        if body is None:
            raise RoomError("too-large", f"the request body is over {limit} bytes")
        return body

    def user_of(request: Request) -> int | None:
        """The account id of the request's session; None for a guest."""
        account = app.state.accounts.account_of(request.cookies.get(SESSION_COOKIE))
        return None if account is None else int(account.id)

    def limited(request: Request) -> None:
        """A request that makes something spends the address's creations bucket."""
        if not creates.take(_client(request)):
            raise RoomError("rate-limited", "too many requests from this address; wait a "
                            "few seconds")

    @answers
    async def create_game(request: Request) -> Response:
        limited(request)
        asked = parse_body(CreateGame, await json_body(request))
        clock = None if asked.clock is None else (asked.clock.kind, asked.clock.seconds)
        row, tokens = rooms().create(asked.mode, asked.color, asked.level, clock,
                                     _client(request), user_of(request), asked.rated)
        answer: dict[str, Any] = {"game": row.id, "tokens": tokens, "url": f"/game/{row.id}"}
        if row.invite is not None:
            answer["invite"] = row.invite
            answer["join_url"] = f"/join/{row.invite}"
        return JSONResponse(answer, status_code=201)

    @answers
    async def join_game(request: Request) -> Response:
        limited(request)
        asked = parse_body(JoinGame, await json_body(request))
        row, color, token = rooms().join(asked.code, user_of(request))
        return JSONResponse({"game": row.id, "color": color, "tokens": {color: token},
                             "url": f"/game/{row.id}"})

    def find(request: Request) -> Room:
        game_id = request.path_params["game"]
        room = rooms().get(game_id) if re.fullmatch(GAME_ID, game_id) else None
        if room is None:
            raise RoomError("no-game", "no such game")
        return room

    def of_a_game(answer: Callable[[Room], Response]) -> Callable[[Request], Awaitable[Response]]:
        """A handler of ``/api/games/{game}...``: ``answer`` for the game, 404 without one."""
        @answers
        async def handler(request: Request) -> Response:
            return answer(find(request))
        return handler

    def download(room: Room, text: str, media_type: str, suffix: str) -> Response:
        return Response(text, media_type=media_type, headers={
            "content-disposition": f'attachment; filename="wts-{room.row.id}.{suffix}"'})

    game_state = of_a_game(lambda room: JSONResponse(room.view(frozenset())))
    game_record = of_a_game(lambda room: download(
        room, room.record_text(), "text/plain; charset=utf-8", "wts"))
    game_svg = of_a_game(lambda room: download(room, room.svg_text(), "image/svg+xml", "svg"))

    def finished_seat(request: Request, act: str, acted: str) -> tuple[Room, frozenset[str]]:
        """The finished game of the path and the seats its bearer token holds."""
        room = find(request)
        auth = request.headers.get("authorization", "")
        token = auth.removeprefix("Bearer ").strip()
        held = room.seats_of([token]) if re.fullmatch(TOKEN, token) else frozenset()
        if not held:
            raise RoomError("bad-token", f"only a player of the game may {act} it")
        if not room.over:
            raise RoomError("not-over", f"a game is {acted} only once it is over")
        return room, held

    @answers
    async def delete_game(request: Request) -> Response:
        room, _ = finished_seat(request, "delete", "deleted")
        if room.row.rated:
            raise RoomError("rated-game-kept", "a rated game stays: it is in both players' "
                            "rating histories")
        rooms().evict(room)
        rooms().store.delete(room.row.id)
        return Response(status_code=204)

    @answers
    async def rematch(request: Request) -> Response:
        """The same game again, colours swapped online; the opponent is offered
        the new game's invitation in the old game's state."""
        limited(request)
        room, held = finished_seat(request, "ask for a rematch of", "played again")
        if room.rematch is not None:
            raise RoomError("rematch-offered", "your opponent has offered a rematch "
                            "already: play it from the game's page")
        row = room.row
        (mine,) = held if len(held) == 1 else ("black",)
        color = {"black": "white", "white": "black"}[mine] if row.mode == "online" else mine
        user = user_of(request)
        clock = None if row.clock is None else (row.clock["kind"], row.clock["seconds"])
        new, tokens = rooms().create(row.mode, color, row.bot_level or 1, clock,
                                     _client(request), user, row.rated and user is not None)
        if new.invite is not None:
            room.rematch = new.invite
            await room.broadcast()
        return JSONResponse({"game": new.id, "tokens": tokens, "url": f"/game/{new.id}"},
                            status_code=201)

    @answers
    async def replay(request: Request) -> Response:
        limited(request)
        body = await _body(request, limits.max_record)
        if body is None:
            return error(413, "too-large", f"a record may be at most {limits.max_record} bytes")
        try:
            read = record.loads(body.decode("utf-8"), engine=Game)
        except UnicodeDecodeError:
            return error(400, "bad-record", "a record is UTF-8 text")
        except (WtsError, ValueError) as exc:
            return error(400, "bad-record", str(exc))
        game = read.start.copy()
        frames = [{"turn": game.turn, **board_view(game), "last": None,
                   "words": status_words(game, None)}]
        for played in read.turns:
            result = game.play(played.black_move, played.white_move)
            frames.append({"turn": game.turn, **board_view(game), "last": turn_events(result),
                           "words": status_words(game, None)})
        return JSONResponse({"headers": read.headers, "frames": frames})

    async def lesson_list_route(request: Request) -> Response:
        return JSONResponse({"lessons": [lesson.public() for lesson in lesson_list]})

    @answers
    async def lesson_move(request: Request) -> Response:
        limited(request)
        number = request.path_params["number"]
        if not 1 <= number <= len(lesson_list):
            raise RoomError("no-lesson", "no such lesson")
        asked = parse_body(LessonMove, await json_body(request))
        return JSONResponse(lesson_list[number - 1].attempt(asked.square))

    async def socket(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        scheme = "https" if ws.url.scheme == "wss" else "http"
        if origin is not None and not same_origin(origin, scheme, ws.headers.get("host", "")):
            # Refused at the handshake: a foreign page never gets a socket.
            refusal = error(403, "origin-refused", "this server answers pages of its "
                             "own hosts only")
            if "websocket.http.response" in ws.scope.get("extensions", {}):
                await ws.send_denial_response(refusal)
            else:  # a server without denial responses answers 403 itself
                await ws.close(code=1008, reason="origin not allowed")
            return
        address = _client(ws)
        by_address: dict[str, int] = state["by_address"]
        if (state["connections"] >= limits.max_connections
                or by_address.get(address, 0) >= limits.max_connections_per_address):
            await ws.accept()
            await ws.send_json({"type": "error", "code": "too-many-connections", "message": (
                "the server holds as many connections as it can"
                if state["connections"] >= limits.max_connections else
                f"{limits.max_connections_per_address} connections from one address at most: "
                "close another tab")})
            await ws.close(code=1013)
            return
        state["connections"] += 1
        by_address[address] = by_address.get(address, 0) + 1
        try:
            await ws.accept()
            await _session(ws)
        finally:
            state["connections"] -= 1
            by_address[address] -= 1
            if not by_address[address]:
                del by_address[address]

    async def _session(ws: WebSocket) -> None:
        bucket = TokenBucket(limits.messages_burst, limits.messages_per_second)
        room: Room | None = None
        held: frozenset[str] = frozenset()
        refusals = 0
        in_lobby: list[Account | None] = []  # the viewer, once the socket is the lobby's

        async def send(message: dict[str, Any]) -> None:
            await ws.send_text(json.dumps(message))

        async def refuse(code: str, message: str) -> None:
            await send({"type": "error", "code": code, "message": message})

        try:
            while True:
                event = await ws.receive()
                if event["type"] == "websocket.disconnect":
                    return
                # Every frame counts against the rate, a binary one too.
                if not bucket.take():
                    refusals += 1
                    if refusals > 2 * limits.messages_burst:
                        await ws.close(code=1008, reason="too many messages")
                        return
                    await refuse("rate-limited", "too many messages; slow down")
                    continue
                text = event.get("text")
                if text is None:
                    await refuse("bad-message", "messages are JSON text frames")
                    continue
                if len(text.encode("utf-8", "surrogatepass")) > limits.max_frame:
                    await refuse("too-large", f"a message is at most {limits.max_frame} bytes")
                    await ws.close(code=1009)
                    return
                try:
                    message = parse_client(text)
                except (ValidationError, BadJson) as exc:
                    await refuse("bad-message", describe_error(exc))
                    continue
                except Exception as exc:  # a message the parser fails on is still refused
                    log.exception("a message the parser failed on")
                    await refuse("bad-message", f"the message could not be read: "
                                f"{type(exc).__name__}")
                    continue
                try:
                    if isinstance(message, EnterLobby):
                        if room is not None or in_lobby:
                            raise RoomError("bad-message", "a socket is one game's or the "
                                            "lobby's, once")
                        speaks(message.version)
                        viewer = lobby().join(send, ws.cookies.get(SESSION_COOKIE))
                        in_lobby.append(viewer)
                        await send(lobby().view(viewer))
                    elif isinstance(message, Hello):
                        if room is not None or in_lobby:
                            raise RoomError("bad-message", "hello is sent once")
                        speaks(message.version)
                        addressed = addressed_game(ws.scope.get("query_string", b""))
                        if addressed != message.game and (
                                addressed is not None or rooms().store.shared):
                            # The proxy sends a socket by its address's game.
                            raise RoomError("bad-message", "a game's socket is opened at "
                                            "/ws?game=ID, and its hello names that game")
                        found = rooms().get(message.game)
                        if found is None:
                            raise RoomError("no-game", "no such game")
                        held = found.seats_of(message.tokens)
                        room = found
                        room.sockets[send] = held
                        room.after_change()  # a bot game's player is here: the bot may start
                        await send({"type": "welcome", "version": PROTOCOL_VERSION,
                                    "you": sorted(held)})
                        await send(room.view(held))
                    elif isinstance(message, Move):
                        if room is None:
                            raise RoomError("bad-message", "send hello first")
                        await room.move(message.color, message.square, message.turn, held)
                    else:
                        await send({"type": "pong"})
                except RoomError as exc:
                    await refuse(exc.code, str(exc))
                except Exception as exc:  # one game's failure is reported, not spread
                    log.exception("error in game %s", None if room is None else room.row.id)
                    await refuse("server-error", f"the server failed: {type(exc).__name__}")
        except WebSocketDisconnect:
            return
        finally:
            if room is not None:
                room.sockets.pop(send, None)
                rooms().drop_if_idle(room)
            if in_lobby:
                lobby().leave(send)

    def speaks(version: int) -> None:
        if version != PROTOCOL_VERSION:
            raise RoomError("version", f"this server speaks version {PROTOCOL_VERSION}, "
                            f"not {version}")

    async def not_upgraded(request: Request) -> Response:
        return error(426, "upgrade-required", "/ws is a WebSocket: open it with an upgrade")

    def lobby() -> Lobby:
        return app.state.lobby  # type: ignore[no-any-return]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db)
        events = app.state.events = Events(store)
        app.state.rooms = Rooms(store, limits, BotRunner(limits.max_bot_searches), events)
        app.state.accounts = Accounts(store, hasher=password_hasher)
        # This process's name in the lobby's presence: new at every start.
        app.state.lobby = Lobby(app.state.rooms, app.state.accounts, events,
                                host=secrets.token_hex(8))
        events.handler = hear
        beating = asyncio.create_task(heartbeat())
        try:
            await events.start()
            yield
        finally:
            beating.cancel()
            with contextlib.suppress(Exception):
                lobby().close()
            await events.stop()
            app.state.rooms.close()
            store.close()

    async def hear(event: dict[str, Any]) -> None:
        """News from this process or another (wts.serve.events)."""
        kind, user = event["kind"], event.get("user")
        if kind == "seat" and isinstance(event.get("game"), str):
            await rooms().seat_taken(event["game"])
        elif kind == "matched" and isinstance(user, int):
            game = event.get("game")
            await lobby().matched(user, {"type": "matched", "seek": event.get("seek"),
                                         "game": game, "color": event.get("color"),
                                         "url": f"/game/{game}"})
        elif kind == "account-deleted" and isinstance(user, int):
            lobby().forget(user)
            await rooms().unrate_games_of(user)
            await lobby().broadcast()
        elif kind == "sessions" and isinstance(user, int):
            lobby().refresh(user)
        elif kind in ("lobby", "resync"):
            if kind == "resync":
                lobby().refresh()
            await lobby().broadcast()

    async def heartbeat() -> None:
        """This process is alive: its games in play are kept from expiring,
        its lobby's presence from going stale."""
        while True:
            await asyncio.sleep(limits.presence_seconds)
            try:
                rooms().store.touch(rooms().busy())
                await lobby().beat(time.time(), 3 * limits.presence_seconds)
            except Exception:  # the database is away: the next beat tries again
                log.exception("the heartbeat failed")

    routes: list[BaseRoute] = [Route(path, page) for path in _PAGES]
    routes += [
        Route("/static/{name}", static_file),
        Route("/favicon.ico", favicon),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/join", join_game, methods=["POST"]),
        Route("/api/games/{game}", game_state),
        Route("/api/games/{game}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game}/rematch", rematch, methods=["POST"]),
        Route("/api/games/{game}/record", game_record),
        Route("/api/games/{game}/svg", game_svg),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/lessons", lesson_list_route),
        Route("/api/lessons/{number:int}", lesson_move, methods=["POST"]),
        WebSocketRoute("/ws", socket),
        Route("/ws", not_upgraded, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
    ]

    async def account_body(request: Request) -> bytes:
        body = await _body(request, 4096)
        if body is None:
            raise AccountError("too-large", "the request body is over 4096 bytes")
        return body

    def deleted(account: Account) -> None:
        app.state.events.publish("account-deleted", user=account.id)

    routes += account_routes(lambda: app.state.accounts, limits, creates, _client, account_body,
                             lambda account: app.state.events.publish("sessions",
                                                                      user=account.id),
                             deleted)
    routes += profile_routes(lambda: app.state.rooms.store)
    routes += lobby_routes(lobby, lambda: app.state.accounts, _client, account_body, creates)
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: _http_error, ClientDisconnect: _gone,
                                        Exception: _server_error})
    app.router.redirect_slashes = False  # /api/session/ is not here: 404, not a redirect
    app.add_middleware(SameOrigin)
    app.add_middleware(KnownHosts, hosts=hosts)
    app.add_middleware(SecurityHeaders)
    return app
