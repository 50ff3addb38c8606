"""Accounts over HTTP: sign up (16 or over), log in and out, here or
everywhere, change the password, delete the account; Argon2id hashes whose
cost can be raised (rehashed at login), server-side sessions in an HttpOnly
cookie, the same answer for an unknown name and a wrong password, and logins
rate-limited per address and per account."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_client import CHEAP_HASHER, PASSWORD, TestClient, serving
from wts.serve.accounts import SESSION_COOKIE, AccountError, Accounts
from wts.serve.bounds import Limits
from wts.serve.store import Store


def sign_up(client: TestClient, name: str = "ann", password: str = PASSWORD,
            **more: Any) -> Any:
    return client.post("/api/account", json={"name": name, "password": password,
                                             "age_16_or_over": True, **more})


def log_in(client: TestClient, name: str = "ann", password: str = PASSWORD) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def test_sign_up_logs_in_with_an_httponly_session_cookie(client: TestClient,
                                                         tmp_path: Path) -> None:
    made = sign_up(client, "Ann")
    assert made.status_code == 201 and made.json()["name"] == "Ann"
    cookie = made.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    for part in ("HttpOnly", "SameSite=lax", "Path=/", "Max-Age=2592000"):
        assert part in cookie, cookie
    assert "Secure" not in cookie  # plain HTTP: a Secure cookie would never come back
    assert client.get("/api/account").json()["name"] == "Ann"


def test_over_https_the_cookie_is_secure(tmp_path: Path) -> None:
    with serving(tmp_path / "g.sqlite3", base_url="https://testserver") as client:
        assert "Secure" in sign_up(client).headers["set-cookie"]


def test_only_a_hash_is_kept_and_it_is_argon2id(tmp_path: Path) -> None:
    """argon2-cffi's default cost (64 MiB, 3 passes, 4 lanes) when none is set."""
    from argon2 import PasswordHasher

    with serving(tmp_path / "g.sqlite3", password_hasher=PasswordHasher()) as client:
        assert sign_up(client).status_code == 201
    stored = sqlite3.connect(tmp_path / "g.sqlite3").execute(
        "SELECT password FROM users").fetchone()[0]
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$") and PASSWORD not in stored


@pytest.mark.parametrize(("body", "field"), [
    ({"age_16_or_over": False}, "age_16_or_over"),
    ({"age_16_or_over": None}, "age_16_or_over"),
    ({"age_16_or_over": 1}, "age_16_or_over"),
    ({"age_16_or_over": "true"}, "age_16_or_over"),
    ({"name": "a b"}, "name"), ({"name": "ab"}, "name"), ({"name": "x" * 21}, "name"),
    ({"password": "short"}, "password"), ({"password": "x" * 257}, "password"),
    ({"extra": 1}, "extra"),
])
def test_a_bad_sign_up_is_refused_and_names_the_field(client: TestClient,
                                                      body: dict[str, Any], field: str) -> None:
    asked = {"name": "ann", "password": PASSWORD, "age_16_or_over": True} | body
    response = client.post("/api/account", json=asked)
    assert response.status_code == 400 and response.json()["message"].startswith(field)
    assert client.get("/api/account").status_code == 401


def test_a_name_is_taken_whatever_its_case(client: TestClient) -> None:
    assert sign_up(client, "Ann").status_code == 201
    taken = sign_up(client, "aNN")
    assert taken.status_code == 409 and taken.json()["code"] == "name-taken"


def test_log_out_then_log_in(client: TestClient) -> None:
    assert client.get("/api/session").json() == {"account": None}  # a guest
    sign_up(client)
    assert client.get("/api/session").json()["account"]["name"] == "ann"
    assert client.delete("/api/session").status_code == 204
    assert client.get("/api/account").json()["code"] == "not-logged-in"
    assert log_in(client, "ANN").json()["name"] == "ann"  # the name as signed up
    assert client.get("/api/account").status_code == 200


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    sign_up(client)
    client.delete("/api/session")
    wrong, unknown = log_in(client, password="not the password"), log_in(client, "bob")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {
        "type": "error", "code": "bad-login",
        "message": "that name and password match no account"}
    assert "set-cookie" not in wrong.headers


def test_a_session_token_that_names_nothing_is_not_logged_in(client: TestClient) -> None:
    for token in ("x" * 43, "\u00e9" * 43, "", "a"):
        cookie = {"cookie": f"{SESSION_COOKIE}={token}".encode("latin-1")}
        assert client.get("/api/account", headers=cookie).status_code == 401, token
        assert client.delete("/api/sessions", headers=cookie).status_code == 401


def test_log_out_everywhere_ends_every_session(tmp_path: Path) -> None:
    with serving(tmp_path / "g.sqlite3") as laptop, serving(tmp_path / "g.sqlite3") as phone:
        sign_up(laptop)
        log_in(phone)
        assert phone.get("/api/account").status_code == 200
        assert laptop.delete("/api/sessions").status_code == 204
        assert laptop.get("/api/account").status_code == 401
        assert phone.get("/api/account").status_code == 401


def test_a_new_password_ends_the_other_sessions(tmp_path: Path) -> None:
    with serving(tmp_path / "g.sqlite3") as laptop, serving(tmp_path / "g.sqlite3") as phone:
        sign_up(laptop)
        log_in(phone)
        refused = laptop.post("/api/account/password",
                              json={"current": "not the password", "new": "a new password"})
        assert refused.status_code == 401
        assert laptop.post("/api/account/password",
                           json={"current": PASSWORD, "new": "a new password"}).status_code == 204
        assert laptop.get("/api/account").status_code == 200  # this session stays
        assert phone.get("/api/account").status_code == 401
        assert log_in(phone).status_code == 401
        assert log_in(phone, password="a new password").status_code == 200


def test_deleting_the_account_needs_its_password_and_frees_the_name(client: TestClient,
                                                                    tmp_path: Path) -> None:
    sign_up(client)
    wrong = client.request("DELETE", "/api/account", json={"password": "not it at all"})
    assert wrong.status_code == 401 and client.get("/api/account").status_code == 200
    assert client.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code \
        == 204
    assert client.get("/api/account").status_code == 401
    assert log_in(client).status_code == 401
    assert sign_up(client).status_code == 201  # the name is free again


def test_logins_are_rate_limited_per_account_and_per_address(tmp_path: Path) -> None:
    per_account = Limits(account_logins_burst=3, account_logins_per_second=0.001)
    with serving(tmp_path / "a.sqlite3", per_account) as client:
        sign_up(client)
        codes = [log_in(client, password=f"guess number {i}").status_code for i in range(5)]
        assert codes == [401, 401, 401, 429, 429]
        assert log_in(client).status_code == 429  # the right password waits too
        assert log_in(client, "bob").status_code == 401  # another account is not held up
    per_address = Limits(logins_burst=3, logins_per_second=0.001)
    with serving(tmp_path / "b.sqlite3", per_address) as client:
        codes = [log_in(client, f"name{i}").status_code for i in range(5)]
        assert codes == [401, 401, 401, 429, 429]
        assert log_in(client).json()["code"] == "rate-limited"


def test_a_foreign_page_cannot_log_in_or_out(client: TestClient) -> None:
    sign_up(client)
    for method, path in (("POST", "/api/session"), ("DELETE", "/api/session"),
                         ("DELETE", "/api/sessions"), ("DELETE", "/api/account")):
        response = client.request(method, path, headers={"origin": "http://evil.example"},
                                  json={"name": "ann", "password": PASSWORD})
        assert response.status_code == 403, path
    assert client.get("/api/account").status_code == 200


def test_a_raised_cost_is_applied_at_the_next_login(tmp_path: Path) -> None:
    from argon2 import PasswordHasher

    async def run() -> tuple[str, str]:
        store = Store(tmp_path / "g.sqlite3")
        await Accounts(store, hasher=CHEAP_HASHER).sign_up("ann", PASSWORD)
        before = store.user_named("ann")[2]  # type: ignore[index]
        raised = Accounts(store, hasher=PasswordHasher(time_cost=2, memory_cost=16,
                                                       parallelism=1))
        await raised.check_password("ann", PASSWORD)
        after = store.user_named("ann")[2]  # type: ignore[index]
        await raised.check_password("ann", PASSWORD)  # the new hash still verifies
        store.close()
        return before, after

    before, after = asyncio.run(run())
    assert "m=8,t=1,p=1" in before and "m=16,t=2,p=1" in after


def test_a_session_expires(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store(tmp_path / "g.sqlite3")
        accounts = Accounts(store, hasher=CHEAP_HASHER, session_seconds=-1.0)
        account = await accounts.sign_up("ann", PASSWORD)
        token = accounts.open_session(account)
        assert accounts.account_of(token) is None
        with pytest.raises(AccountError, match="match no account"):
            await accounts.check_password("ann", "wrong password here")
        store.close()

    asyncio.run(run())


def test_the_schema_version_is_kept_and_a_newer_file_refused(tmp_path: Path) -> None:
    from wts.errors import WtsError
    from wts.serve.store import SCHEMA_VERSION

    path = tmp_path / "g.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    db.close()
    with pytest.raises(WtsError, match="newer wts"):
        Store(path)


def test_logging_in_again_ends_the_session_the_browser_had(client: TestClient) -> None:
    sign_up(client)
    old = client.cookies[SESSION_COOKIE]
    log_in(client)
    assert client.cookies[SESSION_COOKIE] != old
    assert client.get("/api/account", headers={"cookie": f"{SESSION_COOKIE}={old}"}
                      ).status_code == 401


def test_a_flood_of_made_up_names_never_shuts_the_login_table() -> None:
    """A full table of buckets forgets its oldest rather than refusing every new key."""
    from wts.serve.bounds import AddressBuckets

    buckets = AddressBuckets(1, 0.0001, max_addresses=3)
    assert [buckets.take(name) for name in ("a", "b", "c", "d")] == [True] * 4
    assert not buckets.take("d") and len(buckets.buckets) == 3


def test_refused_logins_spend_no_account_bucket(tmp_path: Path) -> None:
    limits = Limits(logins_burst=2, logins_per_second=0.0001, account_logins_burst=2,
                    account_logins_per_second=0.0001)
    with serving(tmp_path / "g.sqlite3", limits) as client:
        sign_up(client)
        client.delete("/api/session")
        assert [log_in(client, "nobody").status_code for _ in range(4)] == [401, 401, 429, 429]
    with serving(tmp_path / "h.sqlite3", Limits(account_logins_burst=2,
                                                account_logins_per_second=0.0001)) as client:
        sign_up(client)
        client.delete("/api/session")
        for _ in range(5):  # names that cannot exist have no bucket to fill
            assert log_in(client, "not a name!").status_code == 401
        assert log_in(client).status_code == 200
