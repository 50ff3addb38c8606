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

from wts.serve.accounts import Account, Accounts
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
    to: str | None  # a challenge's player, as named, or None: open to all
    to_id: int | None  # that player's account: the challenge is theirs, not the name's
    created: float

    def public(self, rating: float) -> dict[str, Any]:
        """As the lobby shows it."""
        return {"id": self.id, "by": self.by.name, "rating": round(rating), "color": self.color,
                "clock": None if self.clock is None else {"kind": self.clock[0],
                                                          "seconds": self.clock[1]},
                "rated": self.rated, "range": [self.low, self.high], "to": self.to}


class Lobby:
    """The seeks and the lobby's sockets, with at most ``max_seeks`` open. A
    socket is known by its session's token: who it is, is read from the
    session again before anything is sent for an account (a session ended
    by log out, a new password or a deleted account counts no more)."""

    def __init__(self, rooms: Rooms, accounts: Accounts, max_seeks: int = 500) -> None:
        self.rooms = rooms
        self.accounts = accounts
        self.max_seeks = max_seeks
        self.seeks: dict[str, Seek] = {}
        self.sockets: dict[Send, tuple[Account | None, str | None]] = {}

    def join(self, send: Send, token: str | None) -> Account | None:
        viewer = self.accounts.account_of(token)
        self.sockets[send] = (viewer, token if viewer is not None else None)
        return viewer

    def refresh(self) -> None:
        """Read every socket's session again (after sessions ended): a socket
        whose session is over is a guest's from now on."""
        for send, (viewer, token) in list(self.sockets.items()):
            if viewer is not None and self.accounts.account_of(token) != viewer:
                self.sockets[send] = (None, None)

    def _present(self, account: Account) -> bool:
        self.refresh()
        return any(viewer is not None and viewer.id == account.id
                   for viewer, _ in self.sockets.values())

    def visible(self, seek: Seek, viewer: Account | None) -> bool:
        return seek.to_id is None or (viewer is not None and viewer.id in (seek.by.id,
                                                                           seek.to_id))

    def _public(self) -> list[tuple[Seek, dict[str, Any]]]:
        store = self.rooms.store
        return [(seek, seek.public(store.rating(seek.by.id)[0].value))
                for seek in self.seeks.values()]

    def view(self, viewer: Account | None,
             public: list[tuple[Seek, dict[str, Any]]] | None = None) -> dict[str, Any]:
        """The lobby message for one socket: its seeks and challenges, the live games."""
        seeks = [shown for seek, shown in (self._public() if public is None else public)
                 if self.visible(seek, viewer)]
        live = [{"game": room.row.id, "players": room.players(), "rated": room.row.rated}
                for room in self.rooms.live()]
        return {"type": "lobby", "seeks": seeks, "live": live}

    async def broadcast(self) -> None:
        public = self._public()  # the ratings read once, not once a socket
        for send, (viewer, _) in list(self.sockets.items()):
            try:
                await send(self.view(viewer, public))
            except Exception:  # a socket closing: its own handler drops it
                self.sockets.pop(send, None)

    def post(self, by: Account, color: str, clock: tuple[str, int] | None, rated: bool,
             low: int | None, high: int | None, to: str | None) -> Seek:
        if not self._present(by):
            raise LobbyError("not-in-lobby", "open the lobby first: a seek lasts while you "
                             "are there to play it")
        if any(seek.by.id == by.id for seek in self.seeks.values()):
            raise LobbyError("one-seek", "you have a seek open already: cancel it first")
        if len(self.seeks) >= self.max_seeks:
            raise LobbyError("lobby-full", "the lobby holds as many seeks as it can")
        if rated and clock is None:
            raise LobbyError("rated-needs-clock", "a rated game has a clock, so that an "
                             "abandoned game ends on time")
        to_id = None
        if to is not None:
            found = self.rooms.store.user_named(to)
            if found is None:
                raise LobbyError("no-player", f"no player is named {to}")
            if found[0] == by.id:
                raise LobbyError("own-seek", "a challenge is to someone else")
            to_id, to = found[0], found[1]
        seek = Seek(secrets.token_urlsafe(9), by, color, clock, rated, low, high, to, to_id,
                    time.time())
        self.seeks[seek.id] = seek
        return seek

    def cancel(self, seek_id: str, by: Account) -> None:
        seek = self.seeks.get(seek_id)
        if seek is None or seek.by.id != by.id:
            raise LobbyError("no-seek", "you have no seek with that id")
        del self.seeks[seek_id]

    def leave(self, send: Send) -> bool:
        """A lobby socket closed; a seek ends with its seeker's last one, so
        nobody waits for it. True if seeks ended (the others are to be told)."""
        viewer, _ = self.sockets.pop(send, (None, None))
        if viewer is None or any(other is not None and other.id == viewer.id
                                 for other, _ in self.sockets.values()):
            return False
        return self.drop_seeks_of(viewer)

    def forget(self, account: Account) -> None:
        """A deleted account: its seeks go, and its sockets are guests'."""
        self.drop_seeks_of(account)
        self.refresh()

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
        if not self.rooms.store.user_names({seek.by.id}):  # its account was deleted
            self.seeks.pop(seek_id, None)
            raise LobbyError("no-seek", "that seek is gone (its player left)")
        if seek.rated:
            rating = self.rooms.store.rating(by.id)[0].value
            if (seek.low is not None and rating < seek.low) or (
                    seek.high is not None and rating > seek.high):
                raise LobbyError("out-of-range", f"that seek is for ratings {seek.low} to "
                                 f"{seek.high}; yours is {round(rating)}")
        color = seek.color if seek.color != "random" else secrets.choice(["black", "white"])
        other = "white" if color == "black" else "black"
        # Nothing awaits between the look-up above and here: a second accepter
        # finds the seek gone. A game that cannot be made leaves the seek open.
        room, tokens = self.rooms.match({color: seek.by.id, other: by.id}, seek.clock,
                                        seek.rated, address)
        del self.seeks[seek_id]
        self.drop_seeks_of(by)
        self.refresh()  # the seeker's token goes to sockets of a live session only
        for send, (viewer, _) in list(self.sockets.items()):
            if viewer is not None and viewer.id == seek.by.id:
                try:
                    await send({"type": "matched", "game": room.row.id, "color": color,
                                "tokens": {color: tokens[color]}, "url": f"/game/{room.row.id}"})
                except Exception:
                    self.sockets.pop(send, None)
        await self.broadcast()
        return room.row.id, other, tokens[other]
