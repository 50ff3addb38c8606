"""Shared fixtures: every rule and API test runs on both engines."""

from __future__ import annotations

import os

import pytest

import wts
import wts.engine.reference

ENGINES = {"fast": wts.Game, "reference": wts.reference.Game}
_selected = [name for name in os.environ.get("WTS_ENGINES", "fast,reference").split(",") if name]


@pytest.fixture(params=_selected)
def Game(request: pytest.FixtureRequest) -> type:
    """The ``Game`` class of one engine; tests using it run once per engine."""
    return ENGINES[request.param]
