"""Shared fixtures: every rule and API test runs on both engines; the run
folder tests share a finished run, and the web app tests a client (those two
import their optional extras only when a test asks for them); a test that
sends SIGINT to its own process makes it raise KeyboardInterrupt. And each
test's time bound: the slow ones get a larger one."""

from __future__ import annotations

import faulthandler
import os
import pathlib
import shutil
import signal
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import wts
import wts.engine.reference

#: The slow tests' bound, in multiples of the per-test one (pyproject.toml's
#: ``timeout``, ``PYTEST_TIMEOUT`` or ``--timeout``, whichever is set).
SLOW_FACTOR = 5
#: Seconds past a test's bound before its process is ended: SIGALRM fails a
#: test only once Python runs, and a hang inside C code never gets there.
BACKSTOP_SECONDS = 30

ENGINES = {"fast": wts.Game, "reference": wts.reference.Game}
_selected = [name for name in os.environ.get("WTS_ENGINES", "fast,reference").split(",") if name]


@pytest.fixture(params=_selected)
def Game(request: pytest.FixtureRequest) -> type:
    """The ``Game`` class of one engine; tests using it run once per engine."""
    return ENGINES[request.param]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A finished self-play run (``tests.support.runfolders.RUN``), played once per test module."""
    from tests.support.runfolders import GAMES, RUN
    from wts.scale.selfplay import selfplay

    out = tmp_path_factory.mktemp("finished") / "run"
    selfplay(out, GAMES, **RUN)
    return out


@pytest.fixture
def run(finished_run: pathlib.Path, tmp_path: pathlib.Path) -> pathlib.Path:
    """A copy of the ``finished_run`` that a test may damage."""
    out = tmp_path / "run"
    shutil.copytree(finished_run, out)
    return out


@pytest.fixture
def client(tmp_path: Any) -> Iterator[Any]:
    """A test client of the web app on a new database (``tests.support.serve_client.serving``)."""
    from tests.support.serve_client import serving

    with serving(tmp_path / "games.sqlite3") as test_client:
        yield test_client


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A PostgreSQL server of this test run's own, in a temporary folder
    (tests.support.services); skipped where PostgreSQL is missing, except in CI."""
    from tests.support.services import require_services, start_postgres

    require_services("postgres")  # the driver too
    with start_postgres(tmp_path_factory.mktemp("postgres")) as server:
        yield server


@pytest.fixture
def sigint_raises() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt during the test, even in a run started
    with SIGINT ignored (a background job of a non-interactive shell is)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if previous is not None:  # None: a handler set from C, which cannot be put back
            signal.signal(signal.SIGINT, previous)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("timeout"):
        return
    from pytest_timeout import get_env_settings

    bound = get_env_settings(config).timeout
    if not bound:  # 0 or unset: no bound at all
        return
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(bound * SLOW_FACTOR))


@pytest.hookimpl(optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> None:
    """Beside pytest-timeout's SIGALRM (which then fails the test, its
    fixtures torn down, its children killed), a C watchdog that dumps every
    thread's stack and ends the process: pytest-xdist replaces a worker so
    ended and reports its test as failed."""
    if settings.timeout and settings.method == "signal":
        faulthandler.dump_traceback_later(settings.timeout + BACKSTOP_SECONDS, exit=True,
                                          file=sys.__stderr__)


@pytest.hookimpl(optionalhook=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> None:
    faulthandler.cancel_dump_traceback_later()
