"""What the lower layers of ``wts`` ask of the higher ones, handed down on import.

Imports go down the stack only (``docs/development.md``, "The stack"). Some
things a lower layer uses come from above it, and ``import wts`` hands them
down here, so they are in place wherever ``wts`` is, worker processes too:

- the engine draws a game (``str(game)``, ``game._repr_svg_()``) with the
  text and SVG boards of :mod:`wts.formats`;
- the players make ``engine:CMD`` players with :mod:`wts.protocol.player`
  (and :mod:`wts.protocol.errors` registers its error itself: a match counts
  an engine's failure as a forfeit);
- the players make ``openspiel-mcts`` players with
  :mod:`wts.adapters.openspiel_agent`;
- a match runs its games on the backends of :mod:`wts.runtime.backends` and
  writes its file with :func:`wts.runtime.files.write_atomically`.

Each of the last three is imported on first use, never on ``import wts``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from wts.engine import base
from wts.formats import svg, text
from wts.players import registry


def _engine_command(spec: str) -> list[str]:
    from wts.protocol.player import engine_command

    return engine_command(spec)


def _engine_agent(command: str, *, seed: int | None, time_limit: float | None,
                  stop: threading.Event | None) -> Any:
    from wts.protocol.player import EngineAgent

    return EngineAgent(command, seed=seed, time_limit=time_limit, stop=stop)


def _openspiel_agent(simulations: int, *, seed: int | None, stop: threading.Event | None,
                     **options: Any) -> Any:
    from wts.adapters.openspiel_agent import OpenSpielMCTSAgent

    return OpenSpielMCTSAgent(simulations, seed=seed, stop=stop, **options)


def _run_chunks(*args: Any, **kwargs: Any) -> Any:
    from wts.runtime.backends import run_chunks

    return run_chunks(*args, **kwargs)


def _check_backend(backend: object, workers: object, address: object) -> tuple[str, int]:
    from wts.runtime.backends import check_backend

    return check_backend(backend, workers, address)


def _write_atomically(path: Path, data: bytes) -> None:
    from wts.runtime.files import write_atomically

    write_atomically(path, data)


def wire() -> None:
    """Hand the lower layers what they ask of the higher ones (idempotent)."""
    base.BOARD_DRAWINGS["svg"] = svg.board
    base.BOARD_DRAWINGS["text"] = text.board
    registry.register("engine_command", _engine_command)
    registry.register("engine", _engine_agent)
    registry.register("openspiel-mcts", _openspiel_agent)
    registry.register("run_chunks", _run_chunks)
    registry.register("check_backend", _check_backend)
    registry.register("write_atomically", _write_atomically)
