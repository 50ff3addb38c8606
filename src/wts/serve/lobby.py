"""The lobby: open seeks, direct challenges, and the live games to watch.

A seek is an account's offer of a game (a clock, rated or casual, a colour,
for rated games a rating range); a challenge is a seek addressed to one
named player, shown to that player alone. Anyone logged in accepts a seek
with one request; the game is made with both seats taken, and each player's
seat token goes to that player only: in the accepter's answer, and to the
seeker's lobby sockets (named by their session). Seeks live in this
process's memory and end with the seeker's last lobby socket, so a seek
never waits for someone who has left.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from wts.serve.accounts import Account
from wts.serve.rooms import RoomError, Rooms, Send

__all__ = ["Lobby", "LobbyError", "Seek"]


class LobbyError(RoomError):
    """A lobby's refusal, with a code for the client."""


@dataclass(frozen=True)
class Seek:
    id: str
    by: Account
    color: str  # black, white or random: the seeker's colour
    clock: tuple[str, int] | None
    rated: bool
    low: int | None
    high: int | None
    to: str | None  # a challenge's player (lower case), or None: open to all
    created: float

    def public(self, rating: float) -> dict[str, Any]:
        return {"id": self.id, "by": self.by.name, "rating": round(rating), "color": self.color,
                "clock": None if self.clock is None else {"kind": self.clock[0],
                                                          "seconds": self.clock[1]},
                "rated": self.rated, "range": [self.low, self.high], "to": self.to}


class Lobby:
    """The seeks and the lobby's sockets, with at most ``max_seeks`` open."""

    def __init__(self, rooms: Rooms, max_seeks: int = 500) -> None:
        self.rooms = rooms
        self.max_seeks = max_seeks
        self.seeks: dict[str, Seek] = {}
        self.sockets: dict[Send, Account | None] = {}

    def _rating(self, account: Account) -> float:
        return self.rooms.store.rating(account.id)[0].value

    def visible(self, seek: Seek, viewer: Account | None) -> bool:
        return seek.to is None or (viewer is not None and (
            viewer.id == seek.by.id or viewer.name.lower() == seek.to))

    def view(self, viewer: Account | None) -> dict[str, Any]:
        """The lobby message for one socket: its seeks and challenges, the live games."""
        seeks = [seek.public(self._rating(seek.by)) for seek in self.seeks.values()
                 if self.visible(seek, viewer)]
        live = [{"game": room.row.id, "players": room.players(), "rated": room.row.rated}
                for room in self.rooms.live()]
        return {"type": "lobby", "seeks": seeks, "live": live}

    async def broadcast(self) -> None:
        for send, viewer in list(self.sockets.items()):
            try:
                await send(self.view(viewer))
            except Exception:  # a socket closing: its own handler drops it
                self.sockets.pop(send, None)

    def post(self, by: Account, color: str, clock: tuple[str, int] | None, rated: bool,
             low: int | None, high: int | None, to: str | None) -> Seek:
        if not any(viewer is not None and viewer.id == by.id
                   for viewer in self.sockets.values()):
            raise LobbyError("not-in-lobby", "open the lobby first: a seek lasts while you "
                             "are there to play it")
        if any(seek.by.id == by.id for seek in self.seeks.values()):
            raise LobbyError("one-seek", "you have a seek open already: cancel it first")
        if len(self.seeks) >= self.max_seeks:
            raise LobbyError("lobby-full", "the lobby holds as many seeks as it can")
        if to is not None:
            found = self.rooms.store.user_named(to)
            if found is None:
                raise LobbyError("no-player", f"no player is named {to}")
            if found[0] == by.id:
                raise LobbyError("own-seek", "a challenge is to someone else")
        seek = Seek(secrets.token_urlsafe(9), by, color, clock, rated, low, high,
                    None if to is None else to.lower(), time.time())
        self.seeks[seek.id] = seek
        return seek

    def cancel(self, seek_id: str, by: Account) -> None:
        seek = self.seeks.get(seek_id)
        if seek is None or seek.by.id != by.id:
            raise LobbyError("no-seek", "you have no seek with that id")
        del self.seeks[seek_id]

    def drop_seeks_of(self, account: Account) -> bool:
        gone = [key for key, seek in self.seeks.items() if seek.by.id == account.id]
        for key in gone:
            del self.seeks[key]
        return bool(gone)

    async def accept(self, seek_id: str, by: Account, address: str) -> tuple[str, str, str]:
        """Play a seek: the game's id, the accepter's colour and seat token."""
        seek = self.seeks.get(seek_id)
        if seek is None or not self.visible(seek, by):
            raise LobbyError("no-seek", "that seek is gone (taken or cancelled)")
        if seek.by.id == by.id:
            raise LobbyError("own-seek", "that seek is your own")
        if seek.rated:
            rating = self._rating(by)
            if (seek.low is not None and rating < seek.low) or (
                    seek.high is not None and rating > seek.high):
                raise LobbyError("out-of-range", f"that seek is for ratings {seek.low} to "
                                 f"{seek.high}; yours is {round(rating)}")
        del self.seeks[seek_id]  # taken now: a second accepter finds it gone
        color = seek.color if seek.color != "random" else secrets.choice(["black", "white"])
        other = "white" if color == "black" else "black"
        room, tokens = self.rooms.match({color: seek.by.id, other: by.id}, seek.clock,
                                        seek.rated, address)
        self.drop_seeks_of(by)
        for send, viewer in list(self.sockets.items()):
            if viewer is not None and viewer.id == seek.by.id:
                try:
                    await send({"type": "matched", "game": room.row.id, "color": color,
                                "tokens": {color: tokens[color]}, "url": f"/game/{room.row.id}"})
                except Exception:
                    self.sockets.pop(send, None)
        await self.broadcast()
        return room.row.id, other, tokens[other]
