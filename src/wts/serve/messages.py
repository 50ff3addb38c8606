"""The messages of the ``wts serve`` protocol (docs/serve.md), validated by
pydantic: every field typed, sized and ranged, unknown fields refused.

Client to server over the WebSocket: :class:`Hello`, :class:`Move`,
:class:`Ping`. Over HTTP: :class:`CreateGame`, :class:`JoinGame`,
:class:`LessonMove`. What the server sends is built by
:mod:`wts.serve.rooms` and described in docs/serve.md.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from wts.limits import MAX_MESSAGE_TURN
from wts.serve.defaults import BOT_LEVEL, PLAYER_COLOR

__all__ = ["PROTOCOL_VERSION", "Hello", "Move", "Ping", "ClientMessage", "CreateGame",
           "JoinGame", "LessonMove", "Clock", "parse_client", "describe_error",
           "GAME_ID", "TOKEN", "SQUARE", "INVITE", "BadJson", "DuplicateKey",
           "TooDeep", "MAX_DEPTH", "parse_body", "SignUp", "LogIn", "ChangePassword",
           "DeleteAccount", "PostSeek", "EnterLobby", "NAME", "PASSWORD_MIN", "PASSWORD_MAX"]

#: The protocol's version: a client says which it speaks in its Hello.
PROTOCOL_VERSION = 1

GAME_ID = r"^[a-z2-9]{12}$"
INVITE = r"^[A-Z2-9]{6}$"
TOKEN = r"^[A-Za-z0-9_-]{32}$"
#: A user name: 3 to 20 letters, digits, ``_`` or ``-``; unique whatever the case.
NAME = r"^[A-Za-z0-9_-]{3,20}$"
#: Passwords: at least 8 characters (any), at most 256 (the hash's input is bounded).
PASSWORD_MIN, PASSWORD_MAX = 8, 256
SQUARE = r"^[A-Ia-i][1-9]$"


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    """The first message on a socket: the game, and the seats' tokens (none: watch)."""

    type: Literal["hello"]
    version: int = Field(ge=1, le=1000)
    game: Annotated[str, Field(pattern=GAME_ID)]
    tokens: list[Annotated[str, Field(pattern=TOKEN)]] = Field(default_factory=list,
                                                                max_length=2)


class Move(_Message):
    """A seat's move for turn ``turn`` (the game's turn number before it is played)."""

    type: Literal["move"]
    color: Literal["black", "white"]
    square: Annotated[str, Field(pattern=SQUARE)]
    turn: int = Field(ge=0, le=MAX_MESSAGE_TURN)


class Ping(_Message):
    """Asks for a Pong; keeps the socket alive through proxies."""

    type: Literal["ping"]


class EnterLobby(_Message):
    """The first message of a lobby socket (instead of a game's hello): the
    seeks and live games, then every change to them."""

    type: Literal["lobby"]
    version: int = Field(ge=1, le=1000)


ClientMessage = Annotated[Hello | Move | Ping | EnterLobby, Field(discriminator="type")]
_CLIENT: TypeAdapter[Hello | Move | Ping | EnterLobby] = TypeAdapter(ClientMessage)


class Clock(_Message):
    """A clock: ``game`` seconds for all of one's moves, or ``move`` seconds for each."""

    kind: Literal["game", "move"]
    seconds: int = Field(ge=5, le=24 * 3600)


class CreateGame(_Message):
    """POST /api/games: a game against the bot, at one screen, or online."""

    mode: Literal["bot", "hotseat", "online"]
    color: Literal["black", "white"] = PLAYER_COLOR
    level: int = Field(default=BOT_LEVEL, ge=1, le=6)
    #: Online games between accounts only: the result moves both ratings.
    rated: bool = False
    clock: Clock | None = None


class JoinGame(_Message):
    """POST /api/join: take the free seat of the online game with this invitation code."""

    code: Annotated[str, Field(pattern=INVITE)]

    @field_validator("code", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value  # as a person may type it


class LessonMove(_Message):
    """POST /api/lessons/{n}: the learner's square in lesson n."""

    square: Annotated[str, Field(pattern=SQUARE)]


class SignUp(_Message):
    """``POST /api/account``: a new account, its holder 16 or over (the rulebook's age)."""

    name: Annotated[str, Field(pattern=NAME)]
    password: Annotated[str, Field(min_length=PASSWORD_MIN, max_length=PASSWORD_MAX)]
    age_16_or_over: bool

    @field_validator("age_16_or_over")
    @classmethod
    def _adult(cls, value: bool) -> bool:
        if value is not True:
            raise ValueError("an account is for a holder of 16 or over: age_16_or_over "
                             "must be true")
        return value


class LogIn(_Message):
    """``POST /api/session``."""

    name: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=PASSWORD_MAX)]


class ChangePassword(_Message):
    """``POST /api/account/password``."""

    current: Annotated[str, Field(max_length=PASSWORD_MAX)]
    new: Annotated[str, Field(min_length=PASSWORD_MIN, max_length=PASSWORD_MAX)]


class PostSeek(_Message):
    """``POST /api/seeks``: an open seek, or with ``to`` a challenge to that player."""

    color: Literal["black", "white", "random"] = "random"
    clock: Clock | None = None
    rated: bool = False
    min_rating: int | None = Field(default=None, ge=0, le=5000)
    max_rating: int | None = Field(default=None, ge=0, le=5000)
    to: Annotated[str, Field(pattern=NAME)] | None = None


class DeleteAccount(_Message):
    """``DELETE /api/account``: the password says it is the holder."""

    password: Annotated[str, Field(max_length=PASSWORD_MAX)]


#: The deepest nesting of arrays and objects a message may have: the messages
#: need 3, and a parser's recursion must never be what refuses one.
MAX_DEPTH = 16


class BadJson(ValueError):
    """JSON that is refused before the model reads it."""


class DuplicateKey(BadJson):
    """A JSON object naming one key twice (which value counts differs between readers)."""


class TooDeep(BadJson):
    """JSON nested deeper than :data:`MAX_DEPTH`."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)  # a string, or its unended rest
_BRACKET = re.compile(r"[\[\]{}]")


def _depth(text: str | bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKey(f"{key}: the key is given twice")
        seen[key] = value
    return seen


def check_keys(text: str | bytes) -> None:
    """Raise :class:`TooDeep` for JSON ``text`` nested past :data:`MAX_DEPTH`
    and :class:`DuplicateKey` when an object in it repeats a key; text that is
    not JSON is left for the model to report."""
    opened = (text.count("[") + text.count("{") if isinstance(text, str)
              else text.count(b"[") + text.count(b"{"))
    if opened > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise TooDeep(f"message: nested more than {MAX_DEPTH} deep")
    try:
        json.loads(text, object_pairs_hook=_refuse_duplicates)
    except DuplicateKey:
        raise
    except ValueError:
        return


_Model = TypeVar("_Model", bound=BaseModel)


def parse_body(model: type[_Model], body: str | bytes) -> _Model:
    """An HTTP request's JSON body as ``model``; raises ValidationError or BadJson."""
    check_keys(body)
    return model.model_validate_json(body)


def describe_error(error: ValidationError | BadJson) -> str:
    """One line naming what was wrong and where, for the client."""
    if isinstance(error, BadJson):
        return str(error)
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "message"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def parse_client(text: str) -> Hello | Move | Ping | EnterLobby:
    """A client's WebSocket message from its JSON text; raises ValidationError or
    BadJson."""
    check_keys(text)
    return _CLIENT.validate_json(text)
