"""Games being played: each :class:`Room` holds one game's engine, its seats'
connections and its watchers, takes the seats' moves and resolves a turn
once both have committed.

What a connection is sent depends only on the seats it holds (its view): a
committed move is shown to nobody until the turn is resolved, except to the
one connection that holds that seat alone (a hotseat screen, which holds both
seats, is told only *that* a seat has committed, never the square).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn

from wts.engine import svg, text
from wts.engine.base import GameBase
from wts.engine.events import TurnResult
from wts.engine.game import Game
from wts.engine.notation import STARTING_FEN
from wts.engine.pieces import Color, Piece, Status
from wts.engine.squares import SQUARES, square_name
from wts.errors import WtsError
from wts.formats import record
from wts.serve.bot import BotRunner
from wts.serve.bounds import Limits
from wts.serve.database import DatabaseError
from wts.serve.events import Events
from wts.serve.refusals import Refusal
from wts.serve.store import GameRow, StaleGame, Store

__all__ = ["Room", "Rooms", "RoomError", "DamagedRow", "turn_events", "new_token",
           "token_hash"]

log = logging.getLogger("wts.serve")

COLORS = ("black", "white")
_ID_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789"
_INVITE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

Send = Callable[[dict[str, Any]], Awaitable[None]]
#: Messages on their way to the connections of a dropped game.
_TELLING: set[asyncio.Task[None]] = set()


def wall_clock() -> float:
    """Seconds since the epoch: the clocks' time (one name, so tests can move it)."""
    return time.time()


def seat_state(row: GameRow, color: str) -> str:
    """A seat of a stored game: ``bot``, ``taken`` or ``free``."""
    if row.bot_color == color:
        return "bot"
    stored = row.black_hash if color == "black" else row.white_hash
    return "taken" if stored is not None else "free"


class RoomError(Refusal):
    """A request the room refuses: ``code`` for programs, the message for people."""


#: How a game shows a player whose account was deleted.
DELETED = "a deleted player"


class DamagedRow(ValueError):
    """A stored game's row that does not describe a game this server could have written."""


_SQUARE = re.compile(r"[A-I][1-9]")


def check_pending(pending: object, game: GameBase) -> dict[str, str]:
    """The committed moves of a stored row, checked against the position they belong
    to: at most one seat (two would have resolved the turn), each an empty square."""
    if not isinstance(pending, dict):
        raise DamagedRow("its committed moves are not a table of colours to squares")
    if len(pending) >= 2:
        raise DamagedRow("it holds both seats' moves for a turn that was never resolved")
    for color, square in pending.items():
        if color not in COLORS:
            raise DamagedRow(f"a committed move is for {color!r}, not black or white")
        if not isinstance(square, str) or not _SQUARE.fullmatch(square):
            raise DamagedRow(f"{color}'s committed move {square!r} is not a square name")
        if game.piece_at(square) is not Piece.EMPTY:
            raise DamagedRow(f"{color}'s committed move {square} is not an empty square")
    return pending


def new_token() -> str:
    """An unguessable seat token: 24 random bytes, 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def new_clock(clock: tuple[str, int] | None) -> dict[str, Any] | None:
    """A game's clock as stored: its kind, seconds, each seat's time left, and
    when the running time was last read."""
    if clock is None:
        return None
    kind, seconds = clock
    return {"kind": kind, "seconds": seconds, "left": {c: float(seconds) for c in COLORS},
            "started": wall_clock()}


def new_game_id() -> str:
    return "".join(secrets.choice(_ID_LETTERS) for _ in range(12))


def new_invite() -> str:
    return "".join(secrets.choice(_INVITE_LETTERS) for _ in range(6))


def turn_events(result: TurnResult) -> dict[str, Any]:
    """A resolved turn as the protocol sends it, events in the order the engine
    reports them (point 14)."""
    name = square_name
    return {
        "black": name(result.black_move),
        "white": name(result.white_move),
        "collision": None if result.collision is None else name(result.collision),
        "captures": [{"color": c.color.value, "round": c.round,
                      "squares": [name(s) for s in c.squares], "closer": name(c.closer),
                      "anchor": name(c.anchor)} for c in result.captures],
        "dissolved": [name(s) for s in result.dissolved],
        "hatched": [{"square": name(h.square), "color": h.color.value, "wave": h.wave}
                    for h in result.hatched],
        "status": result.status.value,
        "counts": list(result.winning_counts),
    }


def board_view(game: GameBase) -> dict[str, Any]:
    """The position: 81 characters (``.`` empty, ``x`` black, ``o`` white, ``e`` egg,
    A1 first), the eggs oldest first, and the turtles in rows of five by colour."""
    chars = {Piece.EMPTY: ".", Piece.BLACK: "x", Piece.WHITE: "o",
             Piece.EGG: "e"}
    return {
        "board": "".join(chars[game.piece_at(sq)] for sq in SQUARES),
        "eggs": [square_name(s) for s in game.eggs],
        "winning": {c: [square_name(s) for s in text.turtles_in_rows(game, Color(c))]
                    for c in COLORS},
    }


def status_words(game: GameBase, ending: dict[str, str] | None) -> str:
    """The status in words: ``White wins with 6 winning turtles``."""
    if ending is not None:
        status = ending_status(ending)
        if status.winner is None:
            return f"{status.words.capitalize()}: both ran out of time"
        return f"{status.words.capitalize()} on time"
    status = game.status
    words = status.words.capitalize()
    winner = status.winner
    if winner is not None:
        return f"{words} with {game.winning_counts[winner.index]} winning turtles"
    if status is Status.DRAW:
        return f"{words}: " + text.decided_by(game)
    if status is Status.SUDDEN_DEATH:
        return f"{words}: both have {game.winning_counts[0]} winning turtles"
    return f"Turn {game.turn + 1}: both choose a square"


def ending_status(ending: dict[str, str]) -> Status:
    """The status a game ended off the board has: its ``result`` is the
    winner's colour, or ``draw``."""
    result = ending["result"]
    return Status.for_winner(None if result == "draw" else Color(result))


class Room:
    """One game: its stored row, its engine, its connections and its bot."""

    def __init__(self, row: GameRow, rooms: Rooms) -> None:
        self.row = row
        self.rooms = rooms
        self.game = Game()
        #: Every turn's events, first to last, for the move list's words.
        self.history: list[dict[str, Any]] = []
        for black, white in row.moves:
            for square in (black, white):
                if not isinstance(square, str) or not _SQUARE.fullmatch(square):
                    raise DamagedRow(f"a turn played holds {square!r}, which is not a "
                                     "square name")
            self.history.append(turn_events(self.game.play(black, white)))
        check_pending(row.pending, self.game)
        self.last: dict[str, Any] | None = self.history[-1] if self.history else None
        self.sockets: dict[Send, frozenset[str]] = {}
        self.thinking = False
        self.failure: str | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._players: dict[str, str | None] | None = None
        #: The invitation of the rematch a player offered (online games), if any.
        self.rematch: str | None = None
        if row.clock is not None:
            # Time while the server was down is not charged: the turn starts again now.
            row.clock["started"] = wall_clock()

    # --- Seats -----------------------------------------------------------------------

    def seats_of(self, tokens: list[str]) -> frozenset[str]:
        """The colours whose seats these tokens hold; RoomError for a token that holds none.
        A seat taken through another process, whose news has not arrived yet, is
        read from the store."""
        held = set()
        for token in tokens:
            digest = token_hash(token)
            color = self._seat_of(digest)
            if color is None and self.waiting_for_seat and self.refresh_seats():
                color = self._seat_of(digest)
            if color is None:
                raise RoomError("bad-token", "that token holds no seat in this game")
            held.add(color)
        return frozenset(held)

    def _seat_of(self, digest: str) -> str | None:
        for color in COLORS:
            stored = self.row.black_hash if color == "black" else self.row.white_hash
            if stored is not None and hmac.compare_digest(stored, digest):
                return color
        return None

    def refresh_seats(self) -> bool:
        """Read the seats from the store (one taken by an invitation, in any
        process); True when one was taken since. The clock starts now."""
        stored = self.rooms.store.load(self.row.id)
        if stored is None:
            return False
        changed = False
        for color in COLORS:
            if getattr(self.row, f"{color}_hash") is None and getattr(stored, f"{color}_hash"):
                for column in ("hash", "user"):
                    setattr(self.row, f"{color}_{column}", getattr(stored, f"{color}_{column}"))
                changed = True
        self.row.rated = self.row.rated and stored.rated
        if changed:
            self.seats_changed()
            if self.row.clock is not None:
                self.row.clock["started"] = wall_clock()
        return changed

    def save(self, result: str | None = None) -> None:
        """Store the row; a row changed elsewhere since it was read (two
        processes given one game, or a game expired) changes nothing: this
        copy is dropped, its connections are told, and the next request
        reads the stored one."""
        try:
            self.rooms.store.save(self.row, result=result)
        except StaleGame:
            self._drop("this game was changed elsewhere; load it again (reload the page)")
        except DatabaseError:  # not saved: this copy is ahead of the row, and goes
            self._drop("the move could not be saved; load the game again (reload the page)")

    def _drop(self, message: str) -> NoReturn:
        self.rooms.evict(self)
        refusal = {"type": "error", "code": "game-moved", "message": message}
        sockets = list(self.sockets)

        async def tell() -> None:
            for send in sockets:
                with contextlib.suppress(Exception):
                    await send(refusal)

        task = asyncio.get_running_loop().create_task(tell())
        _TELLING.add(task)  # held until done, so it is not collected mid-run
        task.add_done_callback(_TELLING.discard)
        raise RoomError("game-moved", message)

    def seat_state(self, color: str) -> str:
        return seat_state(self.row, color)

    @property
    def over(self) -> bool:
        return self.row.finished

    @property
    def waiting_for_seat(self) -> bool:
        """An online game whose second seat nobody has taken yet: its clock stands still."""
        return "free" in (self.seat_state("black"), self.seat_state("white"))

    def running(self) -> list[str]:
        """The seats whose clocks run: the humans asked to choose. At one screen only
        the seat being asked (black first, then white) is; none while a seat is free."""
        if self.row.clock is None or self.over or self.waiting_for_seat:
            return []
        asked = [c for c in COLORS if c not in self.row.pending and self.row.bot_color != c]
        return asked[:1] if self.row.mode == "hotseat" else asked

    def _charge(self) -> None:
        """Take the time since the clock was last read from the running seats."""
        clock = self.row.clock
        if clock is None:
            return
        now = wall_clock()
        for color in self.running():
            clock["left"][color] -= now - clock["started"]
        clock["started"] = now

    def _flag(self, flagged: list[str]) -> None:
        """End the game on time: the seats in ``flagged`` ran out."""
        assert self.row.clock is not None
        for color in flagged:
            self.row.clock["left"][color] = 0.0
        winner = ("draw" if len(flagged) == 2
                  else "white" if flagged == ["black"] else "black")
        self.row.ending = {"result": winner, "reason": "time"}
        self.row.finished = True
        self.row.pending = {}  # a move committed before the flag fell is never shown
        self.save(result=winner)

    def players(self) -> dict[str, str | None]:
        """Each seat's account name (None: a guest, the bot, or free; a deleted
        account: :data:`DELETED`), read once and again after a join."""
        if self._players is None:  # read again after seats_changed
            users = {c: getattr(self.row, f"{c}_user") for c in COLORS}
            names = self.rooms.store.user_names({u for u in users.values() if u is not None})
            self._players = {c: None if u is None else names.get(u, DELETED)
                             for c, u in users.items()}
        return self._players

    def seats_changed(self) -> None:
        """A seat was taken or its account deleted: the names are read again."""
        self._players = None

    # --- Views -----------------------------------------------------------------------

    def clock_view(self) -> dict[str, Any] | None:
        clock = self.row.clock
        if clock is None:
            return None
        now = wall_clock()
        running = self.running()
        left = {}
        for color in COLORS:
            remaining = clock["left"][color]
            if color in running:
                remaining -= now - clock["started"]
            left[color] = round(max(0.0, remaining), 1)
        return {"kind": clock["kind"], "seconds": clock["seconds"], "left": left,
                "running": bool(running)}

    def view(self, held: frozenset[str]) -> dict[str, Any]:
        """The state message for a connection holding the seats ``held``."""
        status = self.game.status.value
        if self.row.ending is not None:
            status = ending_status(self.row.ending).value
        state: dict[str, Any] = {
            "type": "state",
            "game": self.row.id,
            "mode": self.row.mode,
            "turn": self.game.turn,
            "status": status,
            "over": self.over,
            "words": status_words(self.game, self.row.ending),
            **board_view(self.game),
            "moves": [list(m) for m in self.row.moves],
            "last": self.last,
            "history": self.history,
            "committed": {c: c in self.row.pending for c in COLORS},
            "seats": {c: self.seat_state(c) for c in COLORS},
            "you": sorted(held),
            "thinking": self.thinking,
            "clock": self.clock_view(),
            "ending": self.row.ending,
            "failure": self.failure,
            "rated": self.row.rated,
            "players": self.players(),
        }
        if len(held) == 1:
            (color,) = held
            if color in self.row.pending:
                state["yours"] = self.row.pending[color]
        if self.rematch is not None and held:  # the players', never a spectator's
            state["rematch"] = self.rematch
        if self.row.mode == "online" and not self.over and held and "free" in (
                self.seat_state("black"), self.seat_state("white")):
            state["invite"] = self.row.invite
        return state

    async def broadcast(self) -> None:
        for send, held in list(self.sockets.items()):
            try:
                await send(self.view(held))
            except Exception:  # a closed socket: its handler removes it
                self.sockets.pop(send, None)

    # --- Play ------------------------------------------------------------------------

    def commit(self, color: str, square: str, turn: int, held: frozenset[str]) -> bool:
        """Take ``color``'s move for ``turn``; True when the turn was resolved by it."""
        if color not in held:
            raise RoomError("not-your-seat", f"this connection does not hold the {color} seat")
        return self._commit(color, square, turn)

    def _commit(self, color: str, square: str, turn: int) -> bool:
        if self.over:
            raise RoomError("game-over", "the game is over")
        if turn != self.game.turn:
            raise RoomError("wrong-turn", f"that move is for turn {turn}, but the game is at "
                            f"turn {self.game.turn}")
        if color in self.row.pending:
            raise RoomError("already-committed", f"{color} has already committed a move for "
                            f"turn {turn}")
        square = square.upper()
        if self.game.piece_at(square) is not Piece.EMPTY:
            raise RoomError("illegal-move", f"{square} is not empty")
        clock = self.row.clock
        self._charge()
        if clock is not None:
            # The watcher wakes a little after a flag falls: a move arriving in between
            # ends the game on time rather than being taken.
            flagged = [c for c in self.running() if clock["left"][c] <= 0]
            if flagged:
                self._flag(flagged)
                raise RoomError("flag-fell", f"{color}'s move came after "
                                f"{' and '.join(flagged)}'s time ran out")
        self.row.pending[color] = square
        if len(self.row.pending) < 2:
            self.save()
            return False
        result = self.game.play(self.row.pending["black"], self.row.pending["white"])
        self.row.moves.append((self.row.pending["black"], self.row.pending["white"]))
        self.row.pending = {}
        self.last = turn_events(result)
        self.history.append(self.last)
        self.row.finished = self.game.is_over()
        if clock is not None:
            if clock["kind"] == "move":
                clock["left"] = {c: float(clock["seconds"]) for c in COLORS}
            clock["started"] = wall_clock()
        winner = self.game.status.winner
        ended = None if not self.row.finished else "draw" if winner is None else winner.value
        self.save(result=ended)
        return True

    async def move(self, color: str, square: str, turn: int, held: frozenset[str]) -> None:
        try:
            self.commit(color, square, turn, held)
        except RoomError as exc:
            if exc.code == "flag-fell":
                self.after_change()
                await self.broadcast()
            raise
        self.after_change()
        await self.broadcast()

    def human_present(self) -> bool:
        """A bot game's player is here: a connection holds the seat, or it has moved."""
        human = "white" if self.row.bot_color == "black" else "black"
        return (human in self.row.pending
                or any(human in held for held in self.sockets.values()))

    def after_change(self) -> None:
        """Start what the new state asks for: the bot's search, the clock's watch."""
        if self.over:
            for task in (self._bot_task, self._clock_task):
                if task is not None and task is not asyncio.current_task():
                    task.cancel()
            return
        bot = self.row.bot_color
        if (bot is not None and bot not in self.row.pending and self.failure is None
                and self.human_present()
                and (self._bot_task is None or self._bot_task.done())):
            self._bot_task = asyncio.create_task(self._bot_move(bot, self.game.turn))
        if self.row.clock is not None:
            if self._clock_task is not None and self._clock_task is not asyncio.current_task():
                self._clock_task.cancel()
            self._clock_task = asyncio.create_task(self._watch_clock())

    async def _bot_move(self, color: str, turn: int) -> None:
        self.thinking = True
        await self.broadcast()
        try:
            square = await self.rooms.bot.choose(STARTING_FEN, self.row.moves, color,
                                                 self.row.bot_level or 1)
            self.thinking = False
            if self.game.turn == turn and not self.over:
                self._commit(color, square, turn)
        except asyncio.CancelledError:
            self.thinking = False
            raise
        except RoomError:  # the player's flag fell while the bot thought: the game is over
            self.thinking = False
        except Exception as exc:  # the bot's failure ends this game's bot, nothing else
            log.exception("bot failed in game %s", self.row.id)
            self.thinking = False
            self.failure = f"the bot failed: {type(exc).__name__}"
        self.after_change()
        await self.broadcast()

    async def _watch_clock(self) -> None:
        """End the game when a seat that has not committed runs out of time. It wakes
        at least once a second, so a clock that is set back or forward is noticed."""
        clock = self.row.clock
        assert clock is not None
        while not self.over:
            waiting = self.running()
            if not waiting:
                return
            now = wall_clock()
            flagged = [c for c in waiting if clock["started"] + clock["left"][c] <= now]
            if not flagged:
                soonest = min(clock["started"] + clock["left"][c] for c in waiting)
                await asyncio.sleep(min(1.0, soonest - now + 0.01))
                continue
            self._charge()
            try:
                self._flag(flagged)
            except RoomError:  # the game was changed elsewhere: this copy is gone
                return
            self.after_change()
            await self.broadcast()

    # --- Downloads -------------------------------------------------------------------

    def record_text(self) -> str:
        """The game's record: the turns played, never a move of the turn in progress."""
        mode = self.row.mode
        players = self.players()  # an account's name; a guest is "human"
        names = {c: ("wts bot level " + str(self.row.bot_level) if self.row.bot_color == c
                     else players[c] or "human") for c in COLORS}
        headers = {"Black": names["black"], "White": names["white"],
                   "Date": time.strftime("%Y.%m.%d", time.gmtime(self.row.created)),
                   "Mode": mode}
        if self.row.ending is not None:
            headers["Result"] = ending_status(self.row.ending).result
            headers["Termination"] = self.row.ending["reason"]
        return record.dumps(self.game, headers=headers)

    def svg_text(self) -> str:
        return svg.board(self.game)

    def close(self) -> None:
        for task in (self._bot_task, self._clock_task):
            if task is not None:
                task.cancel()


class Rooms:
    """The games this process plays, each loaded from the store when first
    asked for by its id. A new game is stored, not loaded: behind a proxy
    that sends each game's requests to one process (docs/serve.md), the
    process that made it may not be the one that plays it. What changes a
    game from elsewhere (a seat taken by invitation) changes the store and
    is announced on ``events``; the process playing the game reads it."""

    def __init__(self, store: Store, limits: Limits, bot: BotRunner, events: Events) -> None:
        self.store = store
        self.limits = limits
        self.bot = bot
        self.events = events
        self.rooms: dict[str, Room] = {}

    def busy(self) -> frozenset[str]:
        """The games with a connection or a search here."""
        return frozenset(gid for gid, r in self.rooms.items() if r.sockets or r.thinking)

    def evict(self, room: Room) -> None:
        if self.rooms.get(room.row.id) is room:
            del self.rooms[room.row.id]
        room.close()

    def expire(self) -> None:
        """Delete the games left unfinished (``Limits.idle_game_seconds``) and the online
        games nobody joined (``Limits.unjoined_game_seconds``); games with a connection
        or a bot search stay."""
        now = wall_clock()
        busy = self.busy()
        for game_id in self.store.expire(now - self.limits.idle_game_seconds,
                                         now - self.limits.unjoined_game_seconds, busy):
            room = self.rooms.pop(game_id, None)
            if room is not None:
                room.close()

    def create(self, mode: str, color: str, level: int, clock: tuple[str, int] | None,
               address: str = "unknown", user: int | None = None,
               rated: bool = False) -> tuple[GameRow, dict[str, str]]:
        """A new game made from the client ``address`` (logged in as ``user``);
        returns it and the tokens of the creator's seats. A ``rated`` game is
        an online game between two accounts."""
        self.expire()
        limits = self.limits
        if rated and (mode != "online" or user is None):
            raise RoomError("rated-needs-accounts", "a rated game is an online game between "
                            "two players who are logged in" + ("" if mode == "online" else
                                                               "; the bot and hotseat games "
                                                               "are unrated"))
        if rated and clock is None:
            raise RoomError("rated-needs-clock", "a rated game has a clock, so that an "
                            "abandoned game ends on time")
        self.check_bounds(address)
        if mode == "bot" and self.store.open_games_of(
                address, "bot", wall_clock() - limits.bot_active_seconds) \
                >= limits.max_bot_games_per_address:
            raise RoomError("bot-busy", f"this address already has "
                            f"{limits.max_bot_games_per_address} games against the bot in "
                            "progress; finish one first")
        tokens: dict[str, str] = {}
        row = GameRow(id=new_game_id(), mode=mode, created=wall_clock(), creator=address)
        seats = COLORS if mode == "hotseat" else (color,)
        for seat in seats:
            tokens[seat] = new_token()
            setattr(row, f"{seat}_hash", token_hash(tokens[seat]))
        other = "white" if color == "black" else "black"
        row.rated = rated
        if mode != "hotseat":
            setattr(row, f"{color}_user", user)
        if mode == "bot":
            row.bot_color, row.bot_level = other, level
        if mode == "online":
            row.invite = new_invite()
        row.clock = new_clock(clock)
        return self._open(row), tokens

    def match(self, users: dict[str, int], seeker: tuple[str, str],
              clock: tuple[str, int] | None, rated: bool, address: str) -> tuple[GameRow, str]:
        """An online game between two accounts, both seats taken (a seek
        accepted from ``address``, whose bound it counts against): the seat
        ``seeker`` names (a colour and its token's hash) is the seeker's, whose
        token was given with the seek; returns the game and the other seat's
        token, for the accepter only."""
        self.expire()
        self.check_bounds(address)
        row = GameRow(id=new_game_id(), mode="online", created=wall_clock(), creator=address,
                      rated=rated)
        color, digest = seeker
        other = "white" if color == "black" else "black"
        token = new_token()
        setattr(row, f"{color}_hash", digest)
        setattr(row, f"{other}_hash", token_hash(token))
        for seat in COLORS:
            setattr(row, f"{seat}_user", users[seat])
        row.clock = new_clock(clock)
        return self._open(row), token

    def _open(self, row: GameRow) -> GameRow:
        """A new game stored, for whichever process its id is sent to."""
        self.store.insert(row)
        return row

    def check_bounds(self, address: str) -> None:
        """The unfinished games' bounds, in all and made from ``address``."""
        limits = self.limits
        if self.store.open_games() >= limits.max_open_games:
            raise RoomError("too-many-games", "the server holds as many games as it can; "
                            "try again when some have finished")
        if self.store.open_games_of(address) >= limits.max_open_games_per_address:
            raise RoomError("too-many-games-here", f"this address already has "
                            f"{limits.max_open_games_per_address} unfinished games; finish "
                            "some, or wait until they expire")

    async def unrate_games_of(self, user: int) -> None:
        """A deleted account's unfinished games here are rated no more (the
        store has unrated them): no rating moves by a game one side of which
        is gone. Their sockets are told at once."""
        for room in list(self.rooms.values()):
            if user in (room.row.black_user, room.row.white_user):
                room.seats_changed()  # shown as a deleted player from now on
                if not room.over:
                    room.row.rated = False
                await room.broadcast()

    def _admit(self, row: GameRow) -> Room:
        if len(self.rooms) >= self.limits.max_rooms:
            idle = [gid for gid, r in self.rooms.items() if not r.sockets and not r.thinking]
            if not idle:
                raise RoomError("too-many-games", "the server is playing as many games as it "
                                "can; try again soon")
            self.rooms.pop(idle[0]).close()
        room = self.rooms[row.id] = Room(row, self)
        return room

    def get(self, game_id: str) -> Room | None:
        """The game ``game_id``, loaded from the store if needed; None when there is none."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        try:
            row = self.store.load(game_id)
            if row is None:
                return None
            room = self._admit(row)
        except DamagedRow as exc:
            log.warning("game %s cannot be loaded: %s", game_id, exc)
            raise RoomError("bad-game", f"game {game_id} cannot be loaded: {exc}") from None
        except (WtsError, ValueError, KeyError, TypeError):
            # A stored game the engine refuses: that game fails, not the server.
            log.exception("game %s cannot be loaded", game_id)
            raise RoomError("bad-game", f"game {game_id} cannot be loaded: its stored row "
                            "is damaged (its turns or clock cannot be read)") from None
        room.after_change()
        return room

    def join(self, invite: str, user: int | None = None) -> tuple[GameRow, str, str]:
        """Take the free seat of the online game with this invitation (as the
        account ``user``, if logged in); returns the game, the colour and its
        token. The seat is taken in the store, and the process playing the
        game told (its clock starts then)."""
        self.expire()
        game_id = self.store.game_of_invite(invite)
        try:
            row = None if game_id is None else self.store.load(game_id)
        except (ValueError, KeyError, TypeError):
            raise RoomError("bad-game", f"game {game_id} cannot be loaded: its stored row "
                            "is damaged") from None
        if row is None:
            raise RoomError("no-game", "no game has that code")
        if row.finished:
            raise RoomError("game-over", "that game is over")
        if row.rated:
            if user is None:
                raise RoomError("rated-needs-accounts", "that game is rated: log in to join it")
            if user in (row.black_user, row.white_user):
                raise RoomError("own-game", "a rated game is against someone else")
        for color in COLORS:
            if seat_state(row, color) == "free":
                token = new_token()
                if self.store.claim_seat(row.id, color, token_hash(token), user):
                    setattr(row, f"{color}_hash", token_hash(token))
                    setattr(row, f"{color}_user", user)
                    self.events.publish("seat", game=row.id)
                    return row, color, token
        raise RoomError("game-full", "both seats of that game are taken")

    async def seat_taken(self, game_id: str) -> None:
        """A seat of ``game_id`` was taken (in any process): its room here, if
        any, reads the seats and tells its connections."""
        room = self.rooms.get(game_id)
        if room is not None and room.refresh_seats():
            room.after_change()
            await room.broadcast()

    def drop_if_idle(self, room: Room) -> None:
        if not room.sockets and not room.thinking and room.over:
            self.rooms.pop(room.row.id, None)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
        with contextlib.suppress(Exception):
            self.bot.close()
