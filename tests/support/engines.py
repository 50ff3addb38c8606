"""The test engines (tests/protocol/engines/) as the protocol tests start them."""

from __future__ import annotations

import sys

from tests.support.processes import TESTS
from wts.protocol import Engine

#: The folder of the test engines: misbehaving, mutant, faulty and option-declaring ones.
ENGINES = TESTS / "protocol" / "engines"
#: The engine that misbehaves as its mode says (its docstring lists them).
MISBEHAVING = ENGINES / "misbehaving.py"


def misbehaving(mode: str) -> list[str]:
    """The command of the misbehaving engine in ``mode`` (``forker+crash``, ...)."""
    return [sys.executable, str(MISBEHAVING), mode]


def child_pid(engine: Engine) -> int:
    """The pid of the child a ``forker`` or ``setsid`` engine names in its ``id name``."""
    return int(engine.name.split()[-1])
