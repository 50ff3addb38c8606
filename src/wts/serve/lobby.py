"""The lobby: open seeks, direct challenges, and the live games to watch.

A seek is an account's offer of a game (a clock, rated or casual, a colour,
for rated games a rating range); a challenge is a seek addressed to one
named player, shown to that player alone. Anyone logged in accepts a seek
with one request; the game is made with both seats taken, and each player's
seat token goes to that player only: the seeker's in the answer to the
post (the seek keeps only its hash), the accepter's in the answer to the
accept; the seeker's lobby sockets (named by their session), in whichever
process they are, are told the game. Seeks and the lobby's presence (who
has a lobby socket open, in which process) are kept in the store, so every
process shows the same lobby; a seek ends with its seeker's last lobby
socket in any process, so a seek never waits for someone who has left, and
with a process that stops answering (its presence goes stale).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from wts.serve import glicko2
from wts.serve.accounts import Account, Accounts
from wts.serve.events import Events
from wts.serve.rooms import DELETED, RoomError, Rooms, Send, new_token, token_hash
from wts.serve.store import SeekRow

__all__ = ["Lobby", "LobbyError", "Seek"]


class LobbyError(RoomError):
    """A lobby's refusal, with a code for the client."""


@dataclass(frozen=True)
class Seek:
    """A seek as the lobby shows it: the stored seek and its players' names."""

    row: SeekRow
    by: str
    to: str | None

    @property
    def id(self) -> str:
        return self.row.id

    def public(self, rating: float) -> dict[str, Any]:
        """As the lobby shows it."""
        row = self.row
        return {"id": row.id, "by": self.by, "rating": round(rating), "color": row.color,
                "clock": None if row.clock is None else {"kind": row.clock[0],
                                                         "seconds": row.clock[1]},
                "rated": row.rated, "range": [row.low, row.high], "to": self.to}


class Lobby:
    """This process's lobby sockets, and the seeks in the store (at most
    ``max_seeks`` open). A socket is known by its session's token: who it
    is, is read from the session again before anything is sent for an
    account (a session ended by log out, a new password or a deleted account
    counts no more). ``host`` names this process in the store's presence."""

    def __init__(self, rooms: Rooms, accounts: Accounts, events: Events, host: str,
                 max_seeks: int = 500) -> None:
        self.rooms = rooms
        self.accounts = accounts
        self.events = events
        self.host = host
        self.max_seeks = max_seeks
        self.store = rooms.store
        self.sockets: dict[Send, tuple[Account | None, str | None]] = {}

    # --- sockets and presence ----------------------------------------------------------------

    def join(self, send: Send, token: str | None) -> Account | None:
        viewer = self.accounts.account_of(token)
        self.sockets[send] = (viewer, token if viewer is not None else None)
        if viewer is not None:
            self.store.arrive(self.host, viewer.id, time.time())
        return viewer

    def _gone(self, viewer: Account | None) -> None:
        """A socket of ``viewer`` is theirs no more: with their last one, in
        any process, their seeks end."""
        if viewer is not None and self.store.depart(self.host, viewer.id) \
                and self.store.drop_seeks_of(viewer.id):
            self.events.publish("lobby")

    def leave(self, send: Send) -> None:
        """A lobby socket closed (or failed): once, whichever saw it first."""
        viewer, _ = self.sockets.pop(send, (None, None))
        self._gone(viewer)

    def refresh(self, user: int | None = None) -> None:
        """Read the sockets' sessions again (after sessions of ``user``, or of
        anyone, ended): a socket whose session is over is a guest's from now on."""
        for send, (viewer, token) in list(self.sockets.items()):
            if viewer is not None and user in (None, viewer.id) \
                    and self.accounts.account_of(token) != viewer:
                self.sockets[send] = (None, None)
                self._gone(viewer)

    def forget(self, user_id: int) -> None:
        """A deleted account (its seeks and presence went with it): its
        sockets are guests'."""
        for send, (viewer, _) in list(self.sockets.items()):
            if viewer is not None and viewer.id == user_id:
                self.sockets[send] = (None, None)

    # --- what the lobby shows -----------------------------------------------------------------

    def visible(self, seek: SeekRow, viewer: Account | None) -> bool:
        return seek.to_id is None or (viewer is not None and viewer.id in (seek.user_id,
                                                                           seek.to_id))

    def _public(self) -> list[tuple[SeekRow, dict[str, Any]]]:
        rows = self.store.seeks()
        seekers = {r.user_id for r in rows}
        names = self.store.user_names(seekers | {r.to_id for r in rows if r.to_id is not None})
        ratings = self.store.ratings_of(seekers)  # three statements, however many seeks
        return [(row, Seek(row, names[row.user_id], None if row.to_id is None
                           else names.get(row.to_id)).public(
                               ratings.get(row.user_id, glicko2.DEFAULT.value)))
                for row in rows if row.user_id in names]

    def _live(self) -> list[dict[str, Any]]:
        games = self.store.live_games()
        names = self.store.user_names({u for g in games for u in (g.black_user, g.white_user)
                                       if u is not None})
        return [{"game": g.id, "players": {
                    c: None if u is None else names.get(u, DELETED)
                    for c, u in (("black", g.black_user), ("white", g.white_user))},
                 "rated": g.rated} for g in games]

    def view(self, viewer: Account | None,
             public: list[tuple[SeekRow, dict[str, Any]]] | None = None,
             live: list[dict[str, Any]] | None = None,
             played: dict[int, list[tuple[str, str, str]]] | None = None) -> dict[str, Any]:
        """The lobby message for one socket: its seeks and challenges, the live
        games, and the viewer's own seeks that were played (their games)."""
        seeks = [shown for seek, shown in (self._public() if public is None else public)
                 if self.visible(seek, viewer)]
        mine = [] if viewer is None else (
            self.store.played_seeks() if played is None else played).get(viewer.id, [])
        return {"type": "lobby", "seeks": seeks, "live": self._live() if live is None else live,
                "matched": [{"seek": s, "game": g, "color": c, "url": f"/game/{g}"}
                            for s, g, c in mine]}  # a guest's: none

    async def broadcast(self) -> None:
        if not self.sockets:
            return
        # Read once, not once a socket.
        public, live, played = self._public(), self._live(), self.store.played_seeks()
        for send, (viewer, _) in list(self.sockets.items()):
            try:
                await send(self.view(viewer, public, live, played))
            except Exception:  # a socket closing: it leaves now
                self.leave(send)

    # --- seeks ----------------------------------------------------------------------------------

    def post(self, by: Account, color: str, clock: tuple[str, int] | None, rated: bool,
             low: int | None, high: int | None, to: str | None) -> tuple[Seek, str]:
        """A new seek, and the seeker's seat token for the game it will make."""
        self.refresh(by.id)  # the seeker's sockets count only with a live session
        if not self.store.present(by.id):
            raise LobbyError("not-in-lobby", "open the lobby first: a seek lasts while you "
                             "are there to play it")
        if rated and clock is None:
            raise LobbyError("rated-needs-clock", "a rated game has a clock, so that an "
                             "abandoned game ends on time")
        to_id = None
        if to is not None:
            found = self.store.user_named(to)
            if found is None:
                raise LobbyError("no-player", f"no player is named {to}")
            if found[0] == by.id:
                raise LobbyError("own-seek", "a challenge is to someone else")
            to_id, to = found[0], found[1]
        token = new_token()
        row = SeekRow(secrets.token_urlsafe(9), by.id, color, clock, rated, low, high, to_id,
                      time.time(), token_hash(token))
        refused = self.store.add_seek(row, self.max_seeks)
        if refused == "one-seek":
            raise LobbyError("one-seek", "you have a seek open already: cancel it first")
        if refused == "lobby-full":
            raise LobbyError("lobby-full", "the lobby holds as many seeks as it can")
        self.events.publish("lobby")
        return Seek(row, by.name, to), token

    def cancel(self, seek_id: str, by: Account) -> None:
        if not self.store.take_seek(seek_id, by.id):
            raise LobbyError("no-seek", "you have no seek with that id")
        self.events.publish("lobby")

    async def accept(self, seek_id: str, by: Account, address: str) -> tuple[str, str, str]:
        """Play a seek: the game's id, the accepter's colour and seat token."""
        seek = self.store.seek(seek_id)
        if seek is None or not self.visible(seek, by):
            raise LobbyError("no-seek", "that seek is gone (taken or cancelled)")
        if seek.user_id == by.id:
            raise LobbyError("own-seek", "that seek is your own")
        if seek.rated:
            rating = self.store.rating(by.id)[0].value
            if (seek.low is not None and rating < seek.low) or (
                    seek.high is not None and rating > seek.high):
                raise LobbyError("out-of-range", f"that seek is for ratings {seek.low} to "
                                 f"{seek.high}; yours is {round(rating)}")
        # A game that cannot be made leaves the seek open; of two accepters, in
        # any processes, the one that takes the seek from the store plays it.
        self.rooms.check_bounds(address)
        if not self.store.take_seek(seek_id):
            raise LobbyError("no-seek", "that seek is gone (taken or cancelled)")
        color = seek.color if seek.color != "random" else secrets.choice(["black", "white"])
        other = "white" if color == "black" else "black"
        try:
            row, token = self.rooms.match({color: seek.user_id, other: by.id},
                                          (color, seek.token_hash), seek.clock, seek.rated,
                                          address)
        except BaseException:  # the seek is gone, unplayed
            self.store.played(seek_id, None, None)
            self.events.publish("lobby")
            raise
        self.store.played(seek_id, row.id, color)  # before the news: it is there to read
        self.events.publish("lobby")
        self.store.drop_seeks_of(by.id)
        self.events.publish("matched", user=seek.user_id, seek=seek.id, game=row.id,
                            color=color)
        return row.id, other, token

    async def matched(self, user: int, message: dict[str, Any]) -> None:
        """A seek of ``user`` was accepted (in any process): their sockets here,
        of a live session only, are told its game (the seat's token is the
        page's, from the post)."""
        self.refresh(user)
        for send, (viewer, _) in list(self.sockets.items()):
            if viewer is not None and viewer.id == user:
                try:
                    await send(message)
                except Exception:
                    self.leave(send)

    async def beat(self, now: float, stale_seconds: float) -> None:
        """This process is alive; the seeks of players whose every lobby
        socket was in a process that stopped answering end."""
        sockets: dict[int, int] = {}
        for viewer, _ in self.sockets.values():
            if viewer is not None:
                sockets[viewer.id] = sockets.get(viewer.id, 0) + 1
        if self.store.beat(self.host, sockets, now, now - stale_seconds):
            self.events.publish("lobby")

    def close(self) -> None:
        """This process stops: its sockets' presence goes (and the seeks of
        those with none left elsewhere)."""
        if self.store.leave_host(self.host):
            self.events.publish("lobby")
