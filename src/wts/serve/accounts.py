"""Accounts and sessions: names, Argon2id password hashes, and server-side
sessions named by an unguessable cookie.

A password is kept only as an Argon2id hash (argon2-cffi: a salt of its own
per hash, and parameters written into the hash, so they can be raised later:
a login whose hash has older parameters rehashes it). A session is a row
holding the SHA-256 of a random token; the browser holds the token in an
HttpOnly cookie. Sessions expire, and a user can end all of theirs at once.
Hashing is slow and memory-hungry on purpose, so it runs on worker threads,
a bounded number at a time, never on the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import threading
import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from wts.serve.refusals import Refusal
from wts.serve.store import Store

__all__ = ["Account", "Accounts", "AccountError", "SESSION_COOKIE"]

#: The cookie that names a session.
SESSION_COOKIE = "wts_session"


class AccountError(Refusal):
    """A refusal with a code for the client (``name-taken``, ``bad-login``...)."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    created: float


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


class Accounts:
    """The accounts and sessions kept in ``store``. ``hasher`` sets Argon2's
    cost (argon2-cffi's defaults: 64 MiB, 3 passes); ``hashing`` hashes may
    run at once (each holds its memory)."""

    def __init__(self, store: Store, *, hasher: PasswordHasher | None = None,
                 session_seconds: float = 30 * 24 * 3600, hashing: int = 2) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.session_seconds = session_seconds
        self._hashing = asyncio.Semaphore(hashing)
        self._decoy: str | None = None  # verified for unknown names, so they take as long
        self._decoy_lock = threading.Lock()

    # --- passwords, off the event loop ------------------------------------------------------

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

        async with self._hashing:
            return await asyncio.to_thread(verify)

    def _decoy_hash(self) -> str:
        with self._decoy_lock:
            if self._decoy is None:
                self._decoy = self.hasher.hash(secrets.token_urlsafe(16))
            return self._decoy

    # --- accounts ----------------------------------------------------------------------------

    async def sign_up(self, name: str, password: str) -> Account:
        if self.store.user_named(name) is not None:
            raise AccountError("name-taken", f"the name {name} is taken")
        hashed = await self._hash(password)
        now = time.time()
        user_id = self.store.add_user(name, hashed, now)
        if user_id is None:  # taken while the hash was made
            raise AccountError("name-taken", f"the name {name} is taken")
        return Account(user_id, name, now)

    async def check_password(self, name: str, password: str) -> Account:
        """The account of ``name`` if ``password`` is its own; one refusal,
        ``bad-login``, whether the name is unknown or the password wrong (and
        as slow: an unknown name's password is checked against a decoy)."""
        found = self.store.user_named(name)
        if found is None:
            await self._verify(await asyncio.to_thread(self._decoy_hash), password)
            raise AccountError("bad-login", "that name and password match no account")
        user_id, real_name, stored, created = found
        if not await self._verify(stored, password):
            raise AccountError("bad-login", "that name and password match no account")
        if self.hasher.check_needs_rehash(stored):  # the parameters were raised
            self.store.set_password(user_id, await self._hash(password))
        return Account(user_id, real_name, created)

    async def change_password(self, account: Account, current: str, new: str,
                              keep_session: str | None) -> None:
        """A new password; every other session of the account ends."""
        await self.check_password(account.name, current)
        self.store.set_password(account.id, await self._hash(new))
        self.store.end_sessions(account.id, keep=None if keep_session is None
                                else _digest(keep_session))

    async def delete(self, account: Account, password: str) -> None:
        """The account and its sessions go; finished games stay."""
        await self.check_password(account.name, password)
        self.store.delete_user(account.id)

    # --- sessions ----------------------------------------------------------------------------

    def open_session(self, account: Account) -> str:
        """A new session's token, for the cookie."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        self.store.end_expired_sessions(now)  # the table holds live sessions only
        self.store.add_session(_digest(token), account.id, now, now + self.session_seconds)
        return token

    def account_of(self, token: str | None) -> Account | None:
        """The account a session token names, while the session lasts."""
        if token is None or not 20 <= len(token) <= 64 or not token.isascii():
            return None
        found = self.store.session_user(_digest(token), time.time())
        return None if found is None else Account(*found)

    def end_session(self, token: str) -> None:
        if token.isascii():
            self.store.end_session(_digest(token))

    def end_all_sessions(self, account: Account) -> None:
        """Log out everywhere."""
        self.store.end_sessions(account.id)
