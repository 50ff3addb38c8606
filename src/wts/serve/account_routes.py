"""The HTTP side of accounts: sign up, log in and out (here or everywhere),
change the password, delete the account, and who is logged in.

Every handler is small: it validates the body with the schema, asks
:class:`wts.serve.accounts.Accounts`, and answers JSON. Logins are rate
limited per address and per account name, and the answer to a wrong
password and to an unknown name is the same.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from wts.serve.accounts import SESSION_COOKIE, Account, AccountError, Accounts
from wts.serve.bounds import AddressBuckets, Limits
from wts.serve.messages import (
    NAME,
    ChangePassword,
    DeleteAccount,
    LogIn,
    SignUp,
    parse_body,
)
from wts.serve.refusals import answers

__all__ = ["account_routes"]

def _me(account: Account) -> dict[str, Any]:
    return {"name": account.name, "created": account.created}


def account_routes(accounts: Callable[[], Accounts], limits: Limits,
                   creates: AddressBuckets, client: Callable[[Request], str],
                   read_body: Callable[[Request], Awaitable[bytes]],
                   sessions_ended: Callable[[Account], None],
                   deleted: Callable[[Account], None]) -> list[Route]:
    """The routes, given how to reach the app's :class:`Accounts`, the bounds,
    the sign-up bucket (shared with the other creations), the client's
    address, the body reader (bounded), and what to tell the rest of the
    server when sessions end and when an account is deleted."""
    by_address = AddressBuckets(limits.logins_burst, limits.logins_per_second)
    by_name = AddressBuckets(limits.account_logins_burst, limits.account_logins_per_second)

    def logged_in(request: Request) -> Account | None:
        return accounts().account_of(request.cookies.get(SESSION_COOKIE))

    def with_session(response: Response, request: Request, account: Account) -> Response:
        """A new session for ``account``; the one this browser had ends."""
        previous = request.cookies.get(SESSION_COOKIE)
        if previous is not None:
            accounts().end_session(previous)
        response.set_cookie(SESSION_COOKIE, accounts().open_session(account),
                            max_age=int(accounts().session_seconds), path="/", httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")
        return response

    def without_session(response: Response) -> Response:
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response

    @answers
    async def sign_up(request: Request) -> Response:
        if not creates.take(client(request)):
            raise AccountError("rate-limited", "too many requests from this address; wait")
        asked = parse_body(SignUp, await read_body(request))
        account = await accounts().sign_up(asked.name, asked.password)
        return with_session(JSONResponse(_me(account), status_code=201), request, account)

    @answers
    async def log_in(request: Request) -> Response:
        asked = parse_body(LogIn, await read_body(request))
        # Both buckets are spent, whatever the answer: guessing one account's
        # password from many addresses, or many accounts' from one, is slowed.
        # The address first: a refused request spends nothing of any account's
        # bucket, and only a name that could exist has a bucket at all.
        if not by_address.take(client(request)) or (
                re.fullmatch(NAME, asked.name) and not by_name.take(asked.name.lower())):
            raise AccountError("rate-limited", "too many logins; wait a minute")
        account = await accounts().check_password(asked.name, asked.password)
        return with_session(JSONResponse(_me(account)), request, account)

    @answers
    async def log_out(request: Request) -> Response:
        token = request.cookies.get(SESSION_COOKIE)
        account = accounts().account_of(token)
        if token is not None and account is not None:
            accounts().end_session(token)
            sessions_ended(account)
        return without_session(Response(status_code=204))

    @answers
    async def log_out_everywhere(request: Request) -> Response:
        account = _needed(logged_in(request))
        accounts().end_all_sessions(account)
        sessions_ended(account)
        return without_session(Response(status_code=204))

    @answers
    async def who(request: Request) -> Response:
        return JSONResponse(_me(_needed(logged_in(request))))

    async def holder(request: Request) -> Account:
        """The logged-in account, about to have its password checked: a stolen
        session guessing it is slowed as logins are."""
        account = _needed(logged_in(request))
        if not by_name.take(account.name.lower()):
            raise AccountError("rate-limited", "too many attempts; wait a minute")
        return account

    async def session(request: Request) -> Response:
        """Who this browser is, for pages: never an error, a guest is ``null``."""
        account = logged_in(request)
        return JSONResponse({"account": None if account is None else _me(account)})

    @answers
    async def change_password(request: Request) -> Response:
        asked = parse_body(ChangePassword, await read_body(request))
        account = await holder(request)
        await accounts().change_password(account, asked.current, asked.new,
                                         keep_session=request.cookies.get(SESSION_COOKIE))
        sessions_ended(account)
        return Response(status_code=204)

    @answers
    async def delete_account(request: Request) -> Response:
        asked = parse_body(DeleteAccount, await read_body(request))
        account = await holder(request)
        await accounts().delete(account, asked.password)
        deleted(account)
        return without_session(Response(status_code=204))

    return [
        Route("/api/account", who),
        Route("/api/account", sign_up, methods=["POST"]),
        Route("/api/account", delete_account, methods=["DELETE"]),
        Route("/api/account/password", change_password, methods=["POST"]),
        Route("/api/session", session),
        Route("/api/session", log_in, methods=["POST"]),
        Route("/api/session", log_out, methods=["DELETE"]),
        Route("/api/sessions", log_out_everywhere, methods=["DELETE"]),
    ]


def _needed(account: Account | None) -> Account:
    if account is None:
        raise AccountError("not-logged-in", "log in first")
    return account
