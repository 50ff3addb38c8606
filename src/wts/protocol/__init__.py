"""Engines: ``wts`` players and other programs, speaking one text protocol.

The protocol (``docs/protocol.md``) lets a bot written in any language play
``wts``'s players, and lets another implementation of the rules be fuzzed
against this one:

- :mod:`.protocol` — the lines of the protocol, parsed and written (its grammar);
- :mod:`.client` — :class:`Engine` (``Engine.popen(cmd)``) and :class:`AsyncEngine`;
- :mod:`.player` — an engine as a player (``engine:CMD`` wherever a player is named);
- :mod:`.server` — ``wts engine --agent SPEC``: any ``wts`` player as an engine;
- :mod:`.rules` — an engine's rules part as a ``Game`` class, for ``wts fuzz --against``;
- :mod:`.check` — ``wts engine-check CMD``: a conformance run for engine authors.
"""

from __future__ import annotations

from wts.protocol.client import AsyncEngine, Engine, PlayResult
from wts.protocol.errors import (
    EngineError,
    EngineIllegalMoveError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from wts.protocol.lines import Info, Limit, Option

__all__ = [
    "Engine",
    "AsyncEngine",
    "PlayResult",
    "Limit",
    "Info",
    "Option",
    "EngineError",
    "EngineProtocolError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "EngineIllegalMoveError",
]
