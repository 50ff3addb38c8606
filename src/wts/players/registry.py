"""What the players use from the layers above them, handed down by ``import wts``.

The players sit below the runs past one process (:mod:`wts.scale`), the
engine protocol (:mod:`wts.protocol`) and the adapters (:mod:`wts.adapters`),
and never import them. Four things of theirs a player or a match still uses
are registered here by :mod:`wts._wiring` (each imported on first use, never
on ``import wts``), so they are in place wherever ``wts`` is, worker
processes too:

- making an engine program a player, ``engine:CMD`` (:mod:`wts.protocol.player`);
- making OpenSpiel's MCTS a player, ``openspiel-mcts``
  (:mod:`wts.adapters.openspiel_agent`, beside the adapter it searches);
- running a match's games on a backend (:mod:`wts.runtime.backends`) and
  writing a match file atomically (:mod:`wts.runtime.files`).

A spec's text (``engine:`` and its command, ``openspiel-mcts:N`` and its
options) is the players' own, in :mod:`wts.players.agents`. The engine
protocol registers its error (:func:`register_forfeit_error`): a match
counts an engine's failure as a forfeit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from wts.errors import ParameterError, WtsError

__all__ = ["ENGINE_PREFIX", "is_engine_spec", "register", "provider", "run_chunks",
           "check_backend", "write_atomically", "register_forfeit_error", "forfeit_error"]

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")

#: How a spec names an engine program.
ENGINE_PREFIX = "engine:"

_PROVIDERS: dict[str, Callable[..., Any]] = {}
_FORFEIT_ERROR: list[type[WtsError]] = []


def is_engine_spec(spec: object) -> bool:
    """Whether ``spec`` names an engine program (``engine:CMD``)."""
    return isinstance(spec, str) and spec.strip()[:len(ENGINE_PREFIX)].lower() == ENGINE_PREFIX


def register(name: str, function: Callable[..., Any]) -> None:
    """Provide ``name`` (``"engine"``, ``"engine_command"``, ``"openspiel-mcts"``,
    ``"run_chunks"``, ``"check_backend"``, ``"write_atomically"``) with
    ``function``; registering a name again replaces it."""
    _PROVIDERS[name] = function


def provider(name: str) -> Callable[..., Any]:
    """The function registered for ``name``; ParameterError if there is none."""
    try:
        return _PROVIDERS[name]
    except KeyError:
        raise ParameterError(f"nothing provides {name!r}: import wts registers it") from None


def run_chunks(task: Callable[[Chunk], Result], chunks: Iterable[Chunk], *, backend: str,
               workers: int | None, address: str | None) -> Iterator[tuple[int, Result]]:
    """:func:`wts.runtime.backends.run_chunks`."""
    run: Iterator[tuple[int, Result]] = provider("run_chunks")(
        task, chunks, backend=backend, workers=workers, address=address)
    return run


def check_backend(backend: object, workers: object, address: object) -> tuple[str, int]:
    """:func:`wts.runtime.backends.check_backend`."""
    checked: tuple[str, int] = provider("check_backend")(backend, workers, address)
    return checked


def write_atomically(path: Path, data: bytes) -> None:
    """:func:`wts.runtime.files.write_atomically`."""
    provider("write_atomically")(path, data)


def register_forfeit_error(error: type[WtsError]) -> None:
    """The error by which a player that is a program of its own (an engine)
    fails: a match counts it as a forfeit rather than stopping."""
    _FORFEIT_ERROR[:] = [error]


def forfeit_error() -> type[WtsError] | None:
    """The error :func:`register_forfeit_error` registered, or None."""
    return _FORFEIT_ERROR[0] if _FORFEIT_ERROR else None
