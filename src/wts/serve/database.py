"""One connection to the server's database: an SQLite file or PostgreSQL.

The store writes its SQL once, with ``?`` marks; this module runs it on
either engine. SQLite (the standard library's ``sqlite3``, write-ahead log)
is the embedded default for one process; PostgreSQL (psycopg 3, the
``postgresql`` extra) is the shared database of several processes.
Statements run one at a time under a lock, each committed at once unless
inside :meth:`Database.transaction`; their rows are read before the lock is
let go, so no cursor is shared between threads.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from wts.errors import WtsError

__all__ = ["Database", "Result", "DatabaseError", "Duplicate", "is_postgresql", "CONNECTION"]


class DatabaseError(WtsError):
    """The database cannot be opened or refused a statement."""


class Duplicate(DatabaseError):
    """A row with that key exists already (a taken name, a second seek)."""


@dataclass(frozen=True)
class Result:
    rows: list[tuple[Any, ...]]
    rowcount: int
    lastrowid: int | None = None

    def one(self) -> tuple[Any, ...] | None:
        return self.rows[0] if self.rows else None


#: How each connection to PostgreSQL is made: statements commit at once; a
#: server that does not answer is given up on after 5 s, and a connection
#: that died without closing is noticed by TCP keepalives within a minute.
CONNECTION: dict[str, Any] = {"autocommit": True, "connect_timeout": 5, "keepalives": 1,
                              "keepalives_idle": 30, "keepalives_interval": 10,
                              "keepalives_count": 3}


def is_postgresql(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


class Database:
    """``url``: ``postgresql://...`` for PostgreSQL, else an SQLite file's path
    (``":memory:"`` for tests)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgresql = is_postgresql(url)
        self._lock = threading.RLock()
        self._depth = 0  # transactions open (on this connection, under the lock)
        if self.postgresql:
            try:
                import psycopg
            except ImportError:
                raise DatabaseError("a postgresql:// database needs psycopg: pip install "
                                    '"wts[serve,postgresql]"') from None
            self._psycopg = psycopg
            try:
                self._pg = psycopg.connect(url, **CONNECTION)
            except psycopg.Error as exc:
                said = " ".join(str(exc).split())  # libpq's lines, as one
                if "no password supplied" in said:
                    said += ("; give it in the URL (postgresql://USER:PASSWORD@HOST/NAME), "
                             "in PGPASSWORD or in ~/.pgpass")
                raise DatabaseError(f"cannot connect to the database: {said}") from None
        else:
            self._db = sqlite3.connect(url, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")

    @property
    def name(self) -> str:
        """The database as a person reads it: never with a password."""
        if not self.postgresql:
            return self.url
        info = self._pg.info
        return f"postgresql://{info.user}@{info.host}:{info.port}/{info.dbname}"

    def close(self) -> None:
        with self._lock:
            (self._pg if self.postgresql else self._db).close()

    def run(self, sql: str, args: Sequence[Any] = ()) -> Result:
        """One statement; its rows, the rows it changed and (SQLite) the new row's id."""
        with self._lock:
            if self.postgresql:
                psycopg = self._psycopg
                try:
                    # The store's SQL has no ? or % in its literals: ? is a mark.
                    cursor = self._pg.execute(sql.replace("%", "%%").replace("?", "%s"),
                                              tuple(args))
                except psycopg.errors.UniqueViolation as exc:
                    raise Duplicate(str(exc)) from None
                except psycopg.Error as exc:
                    self._reconnect_if_lost()
                    raise DatabaseError(f"the database refused a statement: {exc}") from None
                rows = cursor.fetchall() if cursor.description is not None else []
                return Result(rows, cursor.rowcount)
            try:
                found = self._db.execute(sql, tuple(args))
            except sqlite3.IntegrityError as exc:
                raise Duplicate(str(exc)) from None
            return Result(found.fetchall(), found.rowcount, found.lastrowid)

    def _reconnect_if_lost(self) -> None:
        """After a failure that lost the connection (the database restarted),
        a new one for the next statement; the failed one is not retried, as
        it may have committed before the connection went."""
        if self._pg.broken or self._pg.closed:
            with contextlib.suppress(self._psycopg.Error):
                self._pg = self._psycopg.connect(self.url, **CONNECTION)

    def script(self, sql: str) -> None:
        """Several statements (a schema), at once."""
        with self._lock:
            if self.postgresql:
                self._pg.execute(sql)  # a statement list without parameters
            else:
                self._db.executescript(sql)

    def insert_id(self, sql: str, args: Sequence[Any]) -> int:
        """An INSERT's new ``id``."""
        if self.postgresql:
            found = self.run(sql + " RETURNING id", args).one()
            assert found is not None
            return int(found[0])
        return int(self.run(sql, args).lastrowid or 0)

    @property
    def for_update(self) -> str:
        """What locks the rows a SELECT reads until the transaction ends
        (SQLite's transactions hold the whole file already)."""
        return " FOR UPDATE" if self.postgresql else ""

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Statements that commit together or not at all. SQLite's take the
        write lock at once, so two processes never interleave."""
        with self._lock:
            if self._depth:  # inside another: one transaction
                yield
                return
            self._depth += 1
            try:
                if self.postgresql:
                    try:
                        with self._pg.transaction():
                            yield
                    except self._psycopg.Error as exc:
                        self._reconnect_if_lost()
                        raise DatabaseError(f"the database failed a transaction: {exc}") \
                            from None
                    return
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            finally:
                self._depth -= 1

    def columns(self, table: str) -> set[str]:
        if self.postgresql:
            return {str(r[0]) for r in self.run(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                "AND table_schema = current_schema()",
                (table,)).rows}
        return {str(r[1]) for r in self.run(f"PRAGMA table_info({table})").rows}
