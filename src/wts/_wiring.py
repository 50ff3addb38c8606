"""What the players make from the layers above them, handed down on import.

Imports go down the stack only (``docs/development.md``, "The stack"). A spec
may name a player whose code sits above the players: an engine program
(``engine:CMD``, :mod:`wts.protocol.player`) or OpenSpiel's MCTS
(``openspiel-mcts``, :mod:`wts.adapters.openspiel_agent`). ``import wts``
registers their makers here, so they are in place wherever ``wts`` is, worker
processes too; each module is imported on its first player, never on
``import wts``.
"""

from __future__ import annotations

import threading
from typing import Any

from wts.players import agents


def _engine_agent(command: str, *, seed: int | None, time_limit: float | None,
                  stop: threading.Event | None) -> agents.Agent:
    from wts.protocol.player import EngineAgent

    return EngineAgent(command, seed=seed, time_limit=time_limit, stop=stop)


def _openspiel_agent(simulations: int, *, seed: int | None, stop: threading.Event | None,
                     **options: Any) -> agents.Agent:
    from wts.adapters.openspiel_agent import OpenSpielMCTSAgent

    return OpenSpielMCTSAgent(simulations, seed=seed, stop=stop, **options)


def wire() -> None:
    """Register the makers (idempotent)."""
    agents.register_makers(engine=_engine_agent, openspiel=_openspiel_agent)
