"""Games, seats, records, accounts, ratings and the lobby's seeks, in one
database: an SQLite file (write-ahead log) for one process, or PostgreSQL
shared by several (:mod:`wts.serve.database`).

The database is the server's only lasting state: a game's row holds its
mode, the hashes of its seats' tokens, the turns played, the moves committed
for the turn in progress, its clock and its result, so a server killed
mid-game and started again resumes every game where it stood. A row also
holds a version, raised by every save: a save from a process whose copy of
the game is older than the row changes nothing and says so (:class:`StaleGame`),
so two processes never overwrite each other's turns. Writes are committed
at once; a game's end and its ratings commit in one transaction.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wts.errors import WtsError
from wts.serve import glicko2
from wts.serve.database import Database, Duplicate, Result

__all__ = ["GameRow", "SeekRow", "Store", "StaleGame", "SCHEMA_VERSION"]

#: A game's row. Its times are doubles: SQLite's REAL is one, PostgreSQL's
#: REAL is not (DOUBLE PRECISION is).
_GAMES = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    invite TEXT UNIQUE,
    mode TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    black_hash TEXT,
    white_hash TEXT,
    bot_color TEXT,
    bot_level INTEGER,
    moves TEXT NOT NULL,
    pending TEXT NOT NULL,
    clock TEXT,
    ending TEXT,
    finished INTEGER NOT NULL DEFAULT 0,
    creator TEXT,
    black_user BIGINT,
    white_user BIGINT,
    rated INTEGER NOT NULL DEFAULT 0,
    rating_applied INTEGER NOT NULL DEFAULT 0,
    version BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_open ON games (finished);
"""
_SQLITE_USERS = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: games keep a deleted player's id
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password TEXT NOT NULL,
    created REAL NOT NULL
);
"""
#: The other tables, alike on both engines.
_SHARED_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
CREATE TABLE IF NOT EXISTS ratings (
    user_id BIGINT PRIMARY KEY,
    value DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rating_history (
    user_id BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS rating_history_user ON rating_history (user_id, at);
CREATE TABLE IF NOT EXISTS seeks (
    id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL UNIQUE,  -- one open seek per player
    color TEXT NOT NULL,
    clock_kind TEXT,
    clock_seconds INTEGER,
    rated INTEGER NOT NULL,
    low INTEGER,
    high INTEGER,
    to_id BIGINT,
    created DOUBLE PRECISION NOT NULL,
    token_hash TEXT NOT NULL,  -- the seeker's seat, whose token the seeker alone holds
    game TEXT,  -- once accepted ('' while its game is made): kept until its seeker leaves
    game_color TEXT
);
CREATE TABLE IF NOT EXISTS lobby_presence (
    host TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    sockets INTEGER NOT NULL,
    seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (host, user_id)
);
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
"""
_POSTGRESQL_USERS = """
CREATE TABLE IF NOT EXISTS users (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- never reused
    name TEXT NOT NULL,
    password TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS users_name ON users (lower(name));
"""
#: The schema's version, kept in the database: 1 games only, 2 with accounts,
#: 3 with the lobby's seeks and presence and the games' versions.
SCHEMA_VERSION = 3
#: Columns added to the games since the first schema, added to an older
#: SQLite file when it is opened.
_ADDED = {"creator": "TEXT", "black_user": "INTEGER", "white_user": "INTEGER",
          "rated": "INTEGER NOT NULL DEFAULT 0", "rating_applied": "INTEGER NOT NULL DEFAULT 0",
          "version": "INTEGER NOT NULL DEFAULT 0"}
#: Held while a PostgreSQL schema is made or upgraded: processes starting at once wait.
_SCHEMA_LOCK = 0x777473


class StaleGame(WtsError):
    """A save of a game that was changed elsewhere since it was read: nothing was written."""


@dataclass
class GameRow:
    """One game as stored. ``moves`` are the turns played as (black, white)
    square names; ``pending`` the squares committed for the turn in progress,
    by colour; ``clock`` the clock's kind, seconds and time left by colour;
    ``ending`` how a game that the board did not decide ended (on time);
    ``creator`` the client address that made it (for the per-address bounds);
    ``black_user`` and ``white_user`` the accounts holding the seats (None:
    a guest), and ``rated`` whether the game changes their ratings;
    ``version`` the row's version when it was read."""

    id: str
    mode: str
    created: float
    invite: str | None = None
    black_hash: str | None = None
    white_hash: str | None = None
    bot_color: str | None = None
    bot_level: int | None = None
    moves: list[tuple[str, str]] = field(default_factory=list)
    pending: dict[str, str] = field(default_factory=dict)
    clock: dict[str, Any] | None = None
    ending: dict[str, str] | None = None
    finished: bool = False
    creator: str | None = None
    black_user: int | None = None
    white_user: int | None = None
    rated: bool = False
    version: int = 0


@dataclass(frozen=True)
class SeekRow:
    """An open seek as stored (:mod:`wts.serve.lobby` shows it)."""

    id: str
    user_id: int
    color: str
    clock: tuple[str, int] | None
    rated: bool
    low: int | None
    high: int | None
    to_id: int | None
    created: float
    token_hash: str  # of the seat token the seeker was given when posting


_GAME_COLUMNS = ("id, invite, mode, created, black_hash, white_hash, bot_color, bot_level, "
                 "moves, pending, clock, ending, finished, creator, black_user, white_user, "
                 "rated, version")
_SEEK_COLUMNS = ("id, user_id, color, clock_kind, clock_seconds, rated, low, high, to_id, "
                 "created, token_hash")


class Store:
    """The database at ``url``: an SQLite file's path (created when missing;
    ``":memory:"`` for tests) or a ``postgresql://`` URL."""

    def __init__(self, url: str | Path) -> None:
        self.db = Database(str(url))
        self.path = self.db.name
        try:
            self._migrate()
        except BaseException:
            self.db.close()
            raise

    def _migrate(self) -> None:
        db = self.db
        # SQLite's executescript commits what is open, so its tables (IF NOT
        # EXISTS: harmless twice) are made first, outside the transaction;
        # PostgreSQL's inside it, under a lock that processes starting together
        # queue on. The columns' check and their adding are one transaction.
        if not db.postgresql:
            db.script(_GAMES + _SQLITE_USERS + _SHARED_SCHEMA)
        with db.transaction():
            if db.postgresql:
                db.run("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))
                db.script(_GAMES + _POSTGRESQL_USERS + _SHARED_SCHEMA)
            present = db.columns("games")
            for column, kind in _ADDED.items():
                if column not in present:
                    db.run(f"ALTER TABLE games ADD COLUMN {column} {kind}")
            db.run("CREATE INDEX IF NOT EXISTS games_creator ON games (creator, finished)")
            found = db.run("SELECT version FROM schema_version").one()
            if found is None:
                db.run("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
            elif found[0] > SCHEMA_VERSION:
                raise WtsError(f"{self.path} was written by a newer wts (schema version "
                               f"{found[0]}, this one reads up to {SCHEMA_VERSION})")
            elif found[0] < SCHEMA_VERSION:
                db.run("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    @property
    def shared(self) -> bool:
        """Whether other processes may share this database (PostgreSQL)."""
        return self.db.postgresql

    def close(self) -> None:
        self.db.close()

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> Result:
        return self.db.run(sql, args)

    # --- games ------------------------------------------------------------------------------

    def insert(self, row: GameRow) -> None:
        now = time.time()
        self._run(
            "INSERT INTO games (id, invite, mode, created, updated, black_hash, white_hash, "
            "bot_color, bot_level, moves, pending, clock, ending, finished, creator, "
            "black_user, white_user, rated, version) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.invite, row.mode, row.created, now, row.black_hash, row.white_hash,
             row.bot_color, row.bot_level, json.dumps(row.moves), json.dumps(row.pending),
             json.dumps(row.clock) if row.clock else None,
             json.dumps(row.ending) if row.ending else None, int(row.finished), row.creator,
             row.black_user, row.white_user, int(row.rated), row.version))

    def save(self, row: GameRow, result: str | None = None) -> None:
        """Write what play changes: the turns, the committed moves, the clock, the
        end. A rated game's ``result`` (``black``, ``white`` or ``draw``, given
        when it ends) moves both ratings in the same transaction, once.
        :class:`StaleGame` when the row changed since ``row`` was read."""
        rating = result is not None and row.rated and row.finished
        # One statement is atomic alone; a game's end that moves ratings is a
        # transaction (each is a round trip to PostgreSQL).
        with self.db.transaction() if rating else contextlib.nullcontext():
            saved = self.db.run(
                "UPDATE games SET updated = ?, moves = ?, pending = ?, clock = ?, "
                "ending = ?, finished = ?, version = version + 1 WHERE id = ? AND version = ?",
                (time.time(), json.dumps(row.moves), json.dumps(row.pending),
                 json.dumps(row.clock) if row.clock else None,
                 json.dumps(row.ending) if row.ending else None, int(row.finished), row.id,
                 row.version))
            if saved.rowcount != 1:
                raise StaleGame(f"game {row.id} was changed or deleted elsewhere")
            row.version += 1
            if rating:
                assert result is not None
                self._rate(row, result)

    def _rate(self, row: GameRow, result: str) -> None:
        """Both players' Glicko-2 ratings after the game (inside save's transaction)."""
        db = self.db
        applied = db.run("UPDATE games SET rating_applied = 1 WHERE id = ? AND "
                         "rating_applied = 0 AND rated = 1", (row.id,))
        if applied.rowcount != 1 or row.black_user is None or row.white_user is None:
            return
        # Each rating row exists and is locked, in id order (no deadlock between
        # two games ending at once in two processes), before it is read.
        for user in sorted({row.black_user, row.white_user}):
            d = glicko2.DEFAULT
            db.run("INSERT INTO ratings (user_id, value, deviation, volatility, games) "
                   "VALUES (?, ?, ?, ?, 0) ON CONFLICT (user_id) DO NOTHING",
                   (user, d.value, d.deviation, d.volatility))
            db.run("SELECT user_id FROM ratings WHERE user_id = ?" + db.for_update, (user,))
        black, white = self.rating(row.black_user)[0], self.rating(row.white_user)[0]
        score = {"black": 1.0, "white": 0.0, "draw": 0.5}[result]
        now = time.time()
        for user, before, opponent, points in ((row.black_user, black, white, score),
                                               (row.white_user, white, black, 1.0 - score)):
            after = glicko2.update(before, [(opponent, points)])
            db.run("UPDATE ratings SET value = ?, deviation = ?, volatility = ?, "
                   "games = games + 1 WHERE user_id = ?",
                   (after.value, after.deviation, after.volatility, user))
            db.run("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?)",
                   (user, row.id, now, after.value, after.deviation))

    def rating(self, user_id: int) -> tuple[glicko2.Rating, int]:
        """A user's rating and rated games (the default rating before any)."""
        found = self._run("SELECT value, deviation, volatility, games FROM ratings "
                          "WHERE user_id = ?", (user_id,)).one()
        if found is None:
            return glicko2.DEFAULT, 0
        return glicko2.Rating(*found[:3]), int(found[3])

    def rating_history(self, user_id: int, limit: int = 500) -> list[tuple[str, float, float,
                                                                          float]]:
        """(game, when, value, deviation) after each of a user's last rated games, oldest first."""
        found = self._run("SELECT game_id, at, value, deviation FROM rating_history WHERE "
                          "user_id = ? ORDER BY at DESC LIMIT ?", (user_id, limit)).rows
        return [(str(g), float(a), float(v), float(d)) for g, a, v, d in reversed(found)]

    def leaderboard(self, limit: int = 50) -> list[tuple[str, glicko2.Rating, int]]:
        """(name, rating, games) of the highest rated, highest first."""
        found = self._run("SELECT users.name, value, deviation, volatility, games FROM ratings "
                          "JOIN users ON users.id = ratings.user_id WHERE games > 0 "
                          "ORDER BY value DESC LIMIT ?", (limit,)).rows
        return [(n, glicko2.Rating(v, d, s), int(g)) for n, v, d, s, g in found]

    def games_of(self, user_id: int, limit: int = 100) -> list[GameRow]:
        """A user's finished games, newest first."""
        found = self._run(f"SELECT {_GAME_COLUMNS} FROM games WHERE finished = 1 AND "
                          "(black_user = ? OR white_user = ?) ORDER BY updated DESC LIMIT ?",
                          (user_id, user_id, limit)).rows
        return [_game_row(found_row) for found_row in found]

    def live_games(self, limit: int = 50) -> list[GameRow]:
        """Online games in progress with both seats taken (in any process), newest first."""
        found = self._run(f"SELECT {_GAME_COLUMNS} FROM games WHERE finished = 0 AND "
                          "mode = 'online' AND black_hash IS NOT NULL AND white_hash IS NOT "
                          "NULL ORDER BY updated DESC LIMIT ?", (limit,)).rows
        return [_game_row(found_row) for found_row in found]

    def user_names(self, ids: set[int]) -> dict[int, str]:
        """The names of the users among ``ids`` that still exist."""
        if not ids:
            return {}
        found = self._run(f"SELECT id, name FROM users WHERE id IN ({_marks(ids)})", tuple(ids))
        return {int(i): str(n) for i, n in found.rows}

    def claim_seat(self, game_id: str, color: str, token_hash: str,
                   user: int | None = None) -> bool:
        """Give the free seat ``color`` of a game to a token (and the account
        ``user``); False when it is taken."""
        column = "black_hash" if color == "black" else "white_hash"
        found = self._run(
            f"UPDATE games SET {column} = ?, {color}_user = ?, updated = ? "
            f"WHERE id = ? AND {column} IS NULL AND finished = 0",
            (token_hash, user, time.time(), game_id))
        return found.rowcount == 1

    def load(self, game_id: str) -> GameRow | None:
        found = self._run(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).one()
        return None if found is None else _game_row(found)

    def game_of_invite(self, invite: str) -> str | None:
        found = self._run("SELECT id FROM games WHERE invite = ?", (invite,)).one()
        return None if found is None else str(found[0])

    def open_games(self) -> int:
        return int(self._scalar("SELECT COUNT(*) FROM games WHERE finished = 0"))

    def _scalar(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        found = self._run(sql, args).one()
        assert found is not None
        return found[0]

    def open_games_of(self, creator: str, mode: str | None = None,
                      since: float | None = None) -> int:
        """Unfinished games made from ``creator``: of ``mode`` when given, moved in
        since ``since`` when given."""
        sql = "SELECT COUNT(*) FROM games WHERE finished = 0 AND creator = ?"
        args: list[Any] = [creator]
        if mode is not None:
            sql, args = sql + " AND mode = ?", [*args, mode]
        if since is not None:
            sql, args = sql + " AND updated >= ?", [*args, since]
        return int(self._scalar(sql, tuple(args)))

    def touch(self, game_ids: frozenset[str]) -> None:
        """Games in play here (a connection, a search) count as changed now,
        so that no process expires them."""
        if game_ids:
            self._run(f"UPDATE games SET updated = ? WHERE finished = 0 AND id IN "
                      f"({_marks(game_ids)})",
                      (time.time(), *sorted(game_ids)))

    def expire(self, idle_before: float, unjoined_before: float,
               keep: frozenset[str] = frozenset()) -> list[str]:
        """Delete the unfinished games last changed before ``idle_before``, and the online
        games with a free seat last changed before ``unjoined_before``, except those in
        ``keep``; returns the ids deleted."""
        found = self._run(
            "SELECT id FROM games WHERE finished = 0 AND (updated < ? OR (mode = 'online' AND "
            "(black_hash IS NULL OR white_hash IS NULL) AND updated < ?))",
            (idle_before, unjoined_before)).rows
        gone = [str(r[0]) for r in found if r[0] not in keep]
        return [game_id for game_id in gone if self._run(
            "DELETE FROM games WHERE id = ? AND finished = 0 AND updated < ?",
            (game_id, max(idle_before, unjoined_before))).rowcount == 1]

    def delete(self, game_id: str) -> bool:
        return self._run("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 1

    # --- accounts and sessions (wts.serve.accounts) -----------------------------------------

    def user_named(self, name: str) -> tuple[int, str, str, float] | None:
        """(id, name as signed up, password hash, created) of ``name``, any case."""
        found = self._run("SELECT id, name, password, created FROM users WHERE "
                          "lower(name) = lower(?)", (name,)).one()
        return None if found is None else (int(found[0]), found[1], found[2], found[3])

    def add_user(self, name: str, password_hash: str, created: float) -> int | None:
        """The new user's id; None when the name is taken."""
        try:
            return self.db.insert_id("INSERT INTO users (name, password, created) "
                                     "VALUES (?, ?, ?)", (name, password_hash, created))
        except Duplicate:
            return None

    def set_password(self, user_id: int, password_hash: str) -> None:
        self._run("UPDATE users SET password = ? WHERE id = ?", (password_hash, user_id))

    def delete_user(self, user_id: int) -> None:
        """The account, its sessions, ratings and seeks; its unfinished games
        are rated no more (no rating moves by a game one side of which is gone)."""
        with self.db.transaction():
            # The games first, then the ratings: the order a game's end locks
            # them in, so the two never wait on each other.
            self.db.run("UPDATE games SET rated = 0 WHERE finished = 0 AND (black_user = ? "
                        "OR white_user = ?)", (user_id, user_id))
            for table in ("ratings", "rating_history", "sessions", "seeks", "lobby_presence"):
                self.db.run(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            self.db.run("DELETE FROM users WHERE id = ?", (user_id,))

    def add_session(self, digest: str, user_id: int, created: float, expires: float) -> None:
        self._run("INSERT INTO sessions (hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
                  (digest, user_id, created, expires))

    def session_user(self, digest: str, now: float) -> tuple[int, str, float] | None:
        """(id, name, created) of the user whose unexpired session has ``digest``;
        an expired session is deleted."""
        found = self._run(
            "SELECT users.id, users.name, users.created, sessions.expires FROM sessions "
            "JOIN users ON users.id = sessions.user_id WHERE sessions.hash = ?",
            (digest,)).one()
        if found is None:
            return None
        if found[3] <= now:
            self.end_session(digest)
            return None
        return int(found[0]), found[1], found[2]

    def end_expired_sessions(self, now: float) -> None:
        self._run("DELETE FROM sessions WHERE expires <= ?", (now,))

    def end_session(self, digest: str) -> None:
        self._run("DELETE FROM sessions WHERE hash = ?", (digest,))

    def end_sessions(self, user_id: int, keep: str | None = None) -> None:
        """End every session of a user, but ``keep`` (a digest) if given."""
        self._run("DELETE FROM sessions WHERE user_id = ? AND hash != ?", (user_id, keep or ""))

    # --- the lobby (wts.serve.lobby) --------------------------------------------------------

    def add_seek(self, seek: SeekRow, max_seeks: int) -> str | None:
        """Store a seek; the refusal's code when it cannot be: ``one-seek``
        (its player has one open) or ``lobby-full``."""
        with self.db.transaction():
            # A played seek is kept for its seeker to find; a new one replaces it.
            self.db.run("DELETE FROM seeks WHERE user_id = ? AND game IS NOT NULL",
                        (seek.user_id,))
            if self._scalar("SELECT COUNT(*) FROM seeks WHERE game IS NULL") >= max_seeks:
                return "lobby-full"
            try:
                self.db.run(f"INSERT INTO seeks ({_SEEK_COLUMNS}) VALUES "
                            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (seek.id, seek.user_id, seek.color,
                             None if seek.clock is None else seek.clock[0],
                             None if seek.clock is None else seek.clock[1], int(seek.rated),
                             seek.low, seek.high, seek.to_id, seek.created, seek.token_hash))
            except Duplicate:
                return "one-seek"
        return None

    def ratings_of(self, ids: set[int]) -> dict[int, float]:
        """The rating values of those of ``ids`` that have one."""
        if not ids:
            return {}
        return {int(u): float(v) for u, v in self._run(
            f"SELECT user_id, value FROM ratings WHERE user_id IN ({_marks(ids)})",
            tuple(ids)).rows}

    def seeks(self) -> list[SeekRow]:
        """The open seeks, oldest first."""
        found = self._run(f"SELECT {_SEEK_COLUMNS} FROM seeks WHERE game IS NULL "
                          "ORDER BY created").rows
        return [_seek_row(r) for r in found]

    def seek(self, seek_id: str) -> SeekRow | None:
        """An open seek."""
        found = self._run(f"SELECT {_SEEK_COLUMNS} FROM seeks WHERE id = ? AND game IS NULL",
                          (seek_id,)).one()
        return None if found is None else _seek_row(found)

    def take_seek(self, seek_id: str, user_id: int | None = None) -> bool:
        """Take an open seek: to play it (``user_id`` None), or its seeker's
        cancel; True for the one caller that took it, whichever process it is in."""
        if user_id is None:
            return self._run("UPDATE seeks SET game = '' WHERE id = ? AND game IS NULL",
                             (seek_id,)).rowcount == 1
        return self._run("DELETE FROM seeks WHERE id = ? AND user_id = ? AND game IS NULL",
                         (seek_id, user_id)).rowcount == 1

    def played(self, seek_id: str, game: str | None, color: str | None) -> None:
        """A taken seek's game (None: none could be made, and the seek goes)."""
        if game is None:
            self._run("DELETE FROM seeks WHERE id = ?", (seek_id,))
        else:
            self._run("UPDATE seeks SET game = ?, game_color = ? WHERE id = ?",
                      (game, color, seek_id))

    def played_seeks(self) -> dict[int, list[tuple[str, str, str]]]:
        """(seek, game, seeker's colour) of the seeks played, by seeker, kept until
        the seeker leaves the lobby: news of a match that was missed is found here."""
        found: dict[int, list[tuple[str, str, str]]] = {}
        for user, seek_id, game, color in self._run(
                "SELECT user_id, id, game, game_color FROM seeks WHERE game IS NOT NULL AND "
                "game != ''").rows:
            found.setdefault(int(user), []).append((str(seek_id), str(game), str(color)))
        return found

    def drop_seeks_of(self, user_id: int) -> bool:
        return self._run("DELETE FROM seeks WHERE user_id = ?", (user_id,)).rowcount > 0

    def arrive(self, host: str, user_id: int, now: float) -> None:
        """A lobby socket of ``user_id`` opened in the process ``host``."""
        self._run("INSERT INTO lobby_presence (host, user_id, sockets, seen) VALUES "
                  "(?, ?, 1, ?) ON CONFLICT (host, user_id) DO UPDATE SET sockets = "
                  "lobby_presence.sockets + 1, seen = excluded.seen", (host, user_id, now))

    def depart(self, host: str, user_id: int) -> bool:
        """A lobby socket of ``user_id`` closed in ``host``; True when the user
        has no lobby socket left in any process (their seeks end)."""
        with self.db.transaction():
            self.db.run("UPDATE lobby_presence SET sockets = sockets - 1 WHERE host = ? AND "
                        "user_id = ?", (host, user_id))
            self.db.run("DELETE FROM lobby_presence WHERE sockets <= 0")
            return not self.present(user_id)

    def present(self, user_id: int) -> bool:
        return self._run("SELECT 1 FROM lobby_presence WHERE user_id = ?",
                         (user_id,)).one() is not None

    def beat(self, host: str, sockets: dict[int, int], now: float,
             stale_before: float) -> list[int]:
        """The process ``host`` is alive with ``sockets`` (lobby sockets by
        user): its presence is written again (rows another process took for
        stale come back); the presence of processes silent since
        ``stale_before`` (killed) goes, with the seeks of players left with
        none, whose ids are returned."""
        with self.db.transaction():
            self.db.run("DELETE FROM lobby_presence WHERE host = ?", (host,))
            for user, count in sorted(sockets.items()):
                self.db.run("INSERT INTO lobby_presence (host, user_id, sockets, seen) "
                            "VALUES (?, ?, ?, ?)", (host, user, count, now))
            self.db.run("DELETE FROM lobby_presence WHERE seen < ?", (stale_before,))
            orphans = [int(r[0]) for r in self.db.run(
                "SELECT user_id FROM seeks WHERE user_id NOT IN "
                "(SELECT user_id FROM lobby_presence)").rows]
            for user in orphans:
                self.db.run("DELETE FROM seeks WHERE user_id = ?", (user,))
        return orphans

    def leave_host(self, host: str) -> list[int]:
        """A process stops: its presence goes; the ids of players left with
        none, whose seeks went too."""
        with self.db.transaction():
            users = [int(r[0]) for r in self.db.run(
                "SELECT user_id FROM lobby_presence WHERE host = ?", (host,)).rows]
            self.db.run("DELETE FROM lobby_presence WHERE host = ?", (host,))
            gone = [u for u in users if not self.present(u)]
            for user in gone:
                self.db.run("DELETE FROM seeks WHERE user_id = ?", (user,))
        return gone


def _marks(values: Collection[Any]) -> str:
    """The marks of an ``IN (...)`` list of ``values``."""
    return ", ".join("?" * len(values))


def _game_row(found: tuple[Any, ...]) -> GameRow:
    (gid, invite, mode, created, black_hash, white_hash, bot_color, bot_level, moves,
     pending, clock, ending, finished, creator, black_user, white_user, rated,
     version) = found
    return GameRow(
        id=gid, invite=invite, mode=mode, created=created, black_hash=black_hash,
        white_hash=white_hash, bot_color=bot_color, bot_level=bot_level,
        moves=[(b, w) for b, w in json.loads(moves)], pending=json.loads(pending),
        clock=json.loads(clock) if clock else None,
        ending=json.loads(ending) if ending else None, finished=bool(finished),
        creator=creator, black_user=None if black_user is None else int(black_user),
        white_user=None if white_user is None else int(white_user), rated=bool(rated),
        version=int(version))


def _seek_row(found: tuple[Any, ...]) -> SeekRow:
    sid, user, color, kind, seconds, rated, low, high, to_id, created, token_hash = found
    return SeekRow(str(sid), int(user), str(color),
                   None if kind is None else (str(kind), int(seconds)), bool(rated),
                   low, high, None if to_id is None else int(to_id), float(created),
                   str(token_hash))
