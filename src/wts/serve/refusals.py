"""Refusals: what a request cannot do, with a code for programs, a message
for people, and one HTTP status a code, wherever it is raised."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from wts.serve.messages import BadJson, describe_error

__all__ = ["Refusal", "STATUS", "error", "refused", "answers"]


class Refusal(Exception):
    """A request refused: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


#: Each code's HTTP status; a code not named here is 400.
STATUS = {
    # 401: who is asking is unknown
    "not-logged-in": 401, "bad-login": 401,
    # 403: known, and not allowed
    "bad-token": 403, "not-over": 403, "rated-needs-accounts": 403, "out-of-range": 403,
    "rated-game-kept": 403,
    # 404: no such thing
    "no-game": 404, "bad-game": 404, "no-seek": 404, "no-player": 404, "no-lesson": 404,
    # 409: the state is against it
    "game-full": 409, "game-over": 409, "own-game": 409, "rematch-offered": 409,
    "name-taken": 409, "one-seek": 409, "own-seek": 409, "not-in-lobby": 409,
    "game-moved": 409,
    # 413, 429, 503: bounds
    "too-large": 413, "rate-limited": 429, "too-many-games-here": 429, "bot-busy": 429,
    "too-many-games": 503, "lobby-full": 503,
}


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


def refused(exc: Refusal) -> JSONResponse:
    return error(STATUS.get(exc.code, 400), exc.code, str(exc))


Handler = Callable[[Request], Awaitable[Response]]


def answers(handler: Handler) -> Handler:
    """A handler whose bad bodies and refusals are answered as JSON errors."""
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except (ValidationError, BadJson) as exc:
            return error(400, "bad-message", describe_error(exc))
        except Refusal as exc:
            return refused(exc)
    return run
