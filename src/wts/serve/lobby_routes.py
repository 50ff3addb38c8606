"""The lobby over HTTP: post, cancel and accept seeks, and read the lobby.
Its live side is the WebSocket's ``lobby`` message (docs/serve.md)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from wts.serve.accounts import SESSION_COOKIE, Account, Accounts
from wts.serve.bounds import AddressBuckets
from wts.serve.lobby import Lobby, LobbyError
from wts.serve.messages import PostSeek, parse_body
from wts.serve.refusals import answers

__all__ = ["lobby_routes"]

def lobby_routes(lobby: Callable[[], Lobby], accounts: Callable[[], Accounts],
                 client: Callable[[Request], str],
                 read_body: Callable[[Request], Awaitable[bytes]],
                 creates: AddressBuckets) -> list[Route]:
    """The routes; posting and accepting spend the address's creations
    bucket, as making a game does."""
    def account_of(request: Request) -> Account:
        account = accounts().account_of(request.cookies.get(SESSION_COOKIE))
        if account is None:
            raise LobbyError("not-logged-in", "log in to use the lobby")
        if not creates.take(client(request)):
            raise LobbyError("rate-limited", "too many requests from this address; wait a "
                             "few seconds")
        return account

    @answers
    async def post_seek(request: Request) -> Response:
        by = account_of(request)
        asked = parse_body(PostSeek, await read_body(request))
        if not asked.rated and (asked.min_rating is not None or asked.max_rating is not None):
            raise LobbyError("bad-message", "a rating range is for rated seeks")
        if (asked.min_rating is not None and asked.max_rating is not None
                and asked.min_rating > asked.max_rating):
            raise LobbyError("bad-message", f"min_rating ({asked.min_rating}) is above "
                             f"max_rating ({asked.max_rating}): nobody could accept the seek")
        clock = None if asked.clock is None else (asked.clock.kind, asked.clock.seconds)
        seek, token = lobby().post(by, asked.color, clock, asked.rated, asked.min_rating,
                                   asked.max_rating, asked.to)
        # The seeker's seat token, to this answer alone: the page keeps it
        # for the game the seek makes (the seek itself keeps only its hash).
        return JSONResponse({**seek.public(lobby().rooms.store.rating(by.id)[0].value),
                             "token": token}, status_code=201)

    @answers
    async def cancel_seek(request: Request) -> Response:
        lobby().cancel(request.path_params["seek"], account_of(request))
        return Response(status_code=204)

    @answers
    async def accept_seek(request: Request) -> Response:
        game, color, token = await lobby().accept(request.path_params["seek"],
                                                  account_of(request), client(request))
        return JSONResponse({"game": game, "color": color, "tokens": {color: token},
                             "url": f"/game/{game}"})

    async def read(request: Request) -> Response:
        viewer = accounts().account_of(request.cookies.get(SESSION_COOKIE))
        view: dict[str, Any] = lobby().view(viewer)
        return JSONResponse(view)

    return [Route("/api/lobby", read), Route("/api/seeks", post_seek, methods=["POST"]),
            Route("/api/seeks/{seek}", cancel_seek, methods=["DELETE"]),
            Route("/api/seeks/{seek}/accept", accept_seek, methods=["POST"])]
