"""Shared fixtures: every rule and API test runs on both engines; the run
folder tests share a finished run, and the web app tests a client. Those two
import their optional extras only when a test asks for them."""

from __future__ import annotations

import os
import pathlib
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

import wts
import wts.engine.reference

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

