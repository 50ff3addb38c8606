"""What can go wrong with an engine: every error is a :class:`wts.WtsError`
(a ValueError), with the reason a forfeited game records."""

from __future__ import annotations

from wts.errors import PlayerError

__all__ = ["EngineError", "EngineProtocolError", "EngineTerminatedError", "EngineTimeoutError",
           "EngineIllegalMoveError"]


class EngineError(PlayerError):
    """An engine failed: it could not start, crashed, hung, broke the protocol,
    or named a square it may not play. A match counts it as a forfeit
    (:class:`wts.errors.PlayerError`); the message is the reason the forfeited
    game records."""


class EngineProtocolError(EngineError):
    """A line that the protocol does not allow, or an answer that is not the one
    the command asks for."""


class EngineTerminatedError(EngineError):
    """The engine's process ended (or could not start) while an answer was awaited,
    or the engine closed its end of a pipe and went on running (it is then killed)."""


class EngineTimeoutError(EngineError):
    """The engine did not answer in time (the limit and the client's margin)."""


class EngineIllegalMoveError(EngineError):
    """The engine named a square its colour may not play this turn."""
