"""Games, seats and records in one SQLite file (write-ahead log).

The database is the server's only state: a game's row holds its mode, the
hashes of its seats' tokens, the turns played, the moves committed for the
turn in progress, its clock and its result, so a server killed mid-game and
started again resumes every game where it stood. Writes are single
statements committed at once; WAL with ``synchronous=NORMAL`` keeps every
committed write through a crash of the process.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wts.errors import WtsError
from wts.serve import glicko2

__all__ = ["GameRow", "Store", "SCHEMA_VERSION"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    invite TEXT UNIQUE,
    mode TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    black_hash TEXT,
    white_hash TEXT,
    bot_color TEXT,
    bot_level INTEGER,
    moves TEXT NOT NULL,
    pending TEXT NOT NULL,
    clock TEXT,
    ending TEXT,
    finished INTEGER NOT NULL DEFAULT 0,
    creator TEXT
);
CREATE INDEX IF NOT EXISTS games_open ON games (finished);
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: games keep a deleted player's id
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
CREATE TABLE IF NOT EXISTS ratings (
    user_id INTEGER PRIMARY KEY,
    value REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rating_history (
    user_id INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    at REAL NOT NULL,
    value REAL NOT NULL,
    deviation REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rating_history_user ON rating_history (user_id, at);
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
"""
#: The schema's version, kept in the file: 1 games only, 2 with accounts.
SCHEMA_VERSION = 2
#: Columns added since the first schema, added to an older file when it is opened.
_ADDED = {"creator": "TEXT", "black_user": "INTEGER", "white_user": "INTEGER",
          "rated": "INTEGER NOT NULL DEFAULT 0", "rating_applied": "INTEGER NOT NULL DEFAULT 0"}


@dataclass
class GameRow:
    """One game as stored. ``moves`` are the turns played as (black, white)
    square names; ``pending`` the squares committed for the turn in progress,
    by colour; ``clock`` the clock's kind, seconds and time left by colour;
    ``ending`` how a game that the board did not decide ended (on time);
    ``creator`` the client address that made it (for the per-address bounds);
    ``black_user`` and ``white_user`` the accounts holding the seats (None:
    a guest), and ``rated`` whether the game changes their ratings."""

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


class Store:
    """The SQLite database at ``path`` (created when missing); ``":memory:"`` for tests."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        present = {r[1] for r in self._db.execute("PRAGMA table_info(games)")}
        for column, kind in _ADDED.items():
            if column not in present:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
        self._db.execute("CREATE INDEX IF NOT EXISTS games_creator ON games (creator, finished)")
        found = self._db.execute("SELECT version FROM schema_version").fetchone()
        if found is None:
            self._db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
        elif found[0] > SCHEMA_VERSION:
            self._db.close()
            raise WtsError(f"{self.path} was written by a newer wts (schema version "
                           f"{found[0]}, this one reads up to {SCHEMA_VERSION})")
        elif found[0] < SCHEMA_VERSION:
            self._db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        with self._lock:
            return self._db.execute(sql, args)

    def insert(self, row: GameRow) -> None:
        now = time.time()
        self._run(
            "INSERT INTO games (id, invite, mode, created, updated, black_hash, white_hash, "
            "bot_color, bot_level, moves, pending, clock, ending, finished, creator, "
            "black_user, white_user, rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.invite, row.mode, row.created, now, row.black_hash, row.white_hash,
             row.bot_color, row.bot_level, json.dumps(row.moves), json.dumps(row.pending),
             json.dumps(row.clock) if row.clock else None,
             json.dumps(row.ending) if row.ending else None, int(row.finished), row.creator,
             row.black_user, row.white_user, int(row.rated)))

    def save(self, row: GameRow, result: str | None = None) -> None:
        """Write what play changes: the turns, the committed moves, the clock, the
        end. A rated game's ``result`` (``black``, ``white`` or ``draw``, given
        when it ends) moves both ratings in the same transaction, once."""
        with self._transaction():
            self._db.execute(
                "UPDATE games SET updated = ?, moves = ?, pending = ?, clock = ?, "
                "ending = ?, finished = ? WHERE id = ?",
                (time.time(), json.dumps(row.moves), json.dumps(row.pending),
                 json.dumps(row.clock) if row.clock else None,
                 json.dumps(row.ending) if row.ending else None, int(row.finished), row.id))
            if result is not None and row.rated and row.finished:
                self._rate(row, result)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """Statements that commit together or not at all, under the lock."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _rate(self, row: GameRow, result: str) -> None:
        """Both players' Glicko-2 ratings after the game (inside save's transaction)."""
        applied = self._db.execute(
            "UPDATE games SET rating_applied = 1 WHERE id = ? AND rating_applied = 0",
            (row.id,))
        if applied.rowcount != 1 or row.black_user is None or row.white_user is None:
            return
        black, white = self._rating(row.black_user), self._rating(row.white_user)
        score = {"black": 1.0, "white": 0.0, "draw": 0.5}[result]
        now = time.time()
        for user, before, opponent, points in ((row.black_user, black, white, score),
                                               (row.white_user, white, black, 1.0 - score)):
            after = glicko2.update(before, [(opponent, points)])
            self._db.execute(
                "INSERT INTO ratings (user_id, value, deviation, volatility, games) "
                "VALUES (?, ?, ?, ?, 1) ON CONFLICT (user_id) DO UPDATE SET value = "
                "excluded.value, deviation = excluded.deviation, volatility = "
                "excluded.volatility, games = games + 1",
                (user, after.value, after.deviation, after.volatility))
            self._db.execute("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?)",
                             (user, row.id, now, after.value, after.deviation))

    def _rating(self, user_id: int) -> glicko2.Rating:
        found = self._db.execute("SELECT value, deviation, volatility FROM ratings "
                                 "WHERE user_id = ?", (user_id,)).fetchone()
        return glicko2.DEFAULT if found is None else glicko2.Rating(*found)

    def rating(self, user_id: int) -> tuple[glicko2.Rating, int]:
        """A user's rating and rated games (the default rating before any)."""
        with self._lock:
            found = self._db.execute("SELECT value, deviation, volatility, games FROM ratings "
                                     "WHERE user_id = ?", (user_id,)).fetchone()
        if found is None:
            return glicko2.DEFAULT, 0
        return glicko2.Rating(*found[:3]), int(found[3])

    def rating_history(self, user_id: int, limit: int = 500) -> list[tuple[str, float, float,
                                                                          float]]:
        """(game, when, value, deviation) after each of a user's last rated games, oldest first."""
        found = self._run("SELECT game_id, at, value, deviation FROM rating_history WHERE "
                          "user_id = ? ORDER BY at DESC LIMIT ?", (user_id, limit)).fetchall()
        return [(str(g), float(a), float(v), float(d)) for g, a, v, d in reversed(found)]

    def leaderboard(self, limit: int = 50) -> list[tuple[str, glicko2.Rating, int]]:
        """(name, rating, games) of the highest rated, highest first."""
        found = self._run("SELECT users.name, value, deviation, volatility, games FROM ratings "
                          "JOIN users ON users.id = ratings.user_id ORDER BY value DESC "
                          "LIMIT ?", (limit,)).fetchall()
        return [(n, glicko2.Rating(v, d, s), int(g)) for n, v, d, s, g in found]

    def games_of(self, user_id: int, limit: int = 100) -> list[GameRow]:
        """A user's finished games, newest first."""
        found = self._run("SELECT id FROM games WHERE finished = 1 AND (black_user = ? OR "
                          "white_user = ?) ORDER BY updated DESC LIMIT ?",
                          (user_id, user_id, limit)).fetchall()
        return [row for (gid,) in found if (row := self.load(str(gid))) is not None]

    def user_names(self, ids: set[int]) -> dict[int, str]:
        """The names of the users among ``ids`` that still exist."""
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        found = self._run(f"SELECT id, name FROM users WHERE id IN ({marks})", tuple(ids))
        return {int(i): str(n) for i, n in found.fetchall()}

    def claim_seat(self, game_id: str, color: str, token_hash: str,
                   user: int | None = None) -> bool:
        """Give the free seat ``color`` of a game to a token (and the account
        ``user``); False when it is taken."""
        column = "black_hash" if color == "black" else "white_hash"
        cursor = self._run(
            f"UPDATE games SET {column} = ?, {color}_user = ?, updated = ? "
            f"WHERE id = ? AND {column} IS NULL",
            (token_hash, user, time.time(), game_id))
        return cursor.rowcount == 1

    def load(self, game_id: str) -> GameRow | None:
        cursor = self._run(
            "SELECT id, invite, mode, created, black_hash, white_hash, bot_color, bot_level, "
            "moves, pending, clock, ending, finished, creator, black_user, white_user, rated "
            "FROM games WHERE id = ?",
            (game_id,))
        found = cursor.fetchone()
        if found is None:
            return None
        (gid, invite, mode, created, black_hash, white_hash, bot_color, bot_level, moves,
         pending, clock, ending, finished, creator, black_user, white_user, rated) = found
        return GameRow(
            id=gid, invite=invite, mode=mode, created=created, black_hash=black_hash,
            white_hash=white_hash, bot_color=bot_color, bot_level=bot_level,
            moves=[(b, w) for b, w in json.loads(moves)], pending=json.loads(pending),
            clock=json.loads(clock) if clock else None,
            ending=json.loads(ending) if ending else None, finished=bool(finished),
            creator=creator, black_user=black_user, white_user=white_user, rated=bool(rated))

    def game_of_invite(self, invite: str) -> str | None:
        found = self._run("SELECT id FROM games WHERE invite = ?", (invite,)).fetchone()
        return None if found is None else str(found[0])

    def open_games(self) -> int:
        return int(self._run("SELECT COUNT(*) FROM games WHERE finished = 0").fetchone()[0])

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
        return int(self._run(sql, tuple(args)).fetchone()[0])

    def expire(self, idle_before: float, unjoined_before: float,
               keep: frozenset[str] = frozenset()) -> list[str]:
        """Delete the unfinished games last changed before ``idle_before``, and the online
        games with a free seat last changed before ``unjoined_before``, except those in
        ``keep``; returns the ids deleted."""
        found = self._run(
            "SELECT id FROM games WHERE finished = 0 AND (updated < ? OR (mode = 'online' AND "
            "(black_hash IS NULL OR white_hash IS NULL) AND updated < ?))",
            (idle_before, unjoined_before)).fetchall()
        gone = [str(r[0]) for r in found if r[0] not in keep]
        for game_id in gone:
            self.delete(game_id)
        return gone

    def delete(self, game_id: str) -> bool:
        return self._run("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 1

    # --- accounts and sessions (wts.serve.accounts) -----------------------------------------

    def user_named(self, name: str) -> tuple[int, str, str, float] | None:
        """(id, name as signed up, password hash, created) of ``name``, any case."""
        found = self._run("SELECT id, name, password, created FROM users WHERE name = ?",
                          (name,)).fetchone()
        return None if found is None else (int(found[0]), found[1], found[2], found[3])

    def add_user(self, name: str, password_hash: str, created: float) -> int | None:
        """The new user's id; None when the name is taken."""
        try:
            cursor = self._run("INSERT INTO users (name, password, created) VALUES (?, ?, ?)",
                               (name, password_hash, created))
        except sqlite3.IntegrityError:
            return None
        return int(cursor.lastrowid or 0)

    def set_password(self, user_id: int, password_hash: str) -> None:
        self._run("UPDATE users SET password = ? WHERE id = ?", (password_hash, user_id))

    def delete_user(self, user_id: int) -> None:
        with self._transaction():
            for table in ("sessions", "ratings", "rating_history"):
                self._db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            self._db.execute("DELETE FROM users WHERE id = ?", (user_id,))

    def unrate_games_of(self, user_id: int) -> None:
        self._run("UPDATE games SET rated = 0 WHERE finished = 0 AND (black_user = ? OR "
                  "white_user = ?)", (user_id, user_id))

    def add_session(self, digest: str, user_id: int, created: float, expires: float) -> None:
        self._run("INSERT INTO sessions (hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
                  (digest, user_id, created, expires))

    def session_user(self, digest: str, now: float) -> tuple[int, str, float] | None:
        """(id, name, created) of the user whose unexpired session has ``digest``;
        an expired session is deleted."""
        found = self._run(
            "SELECT users.id, users.name, users.created, sessions.expires FROM sessions "
            "JOIN users ON users.id = sessions.user_id WHERE sessions.hash = ?",
            (digest,)).fetchone()
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
