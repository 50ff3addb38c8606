"""The exceptions wts raises. Every one is a :class:`ValueError`."""

from __future__ import annotations


class WtsError(ValueError):
    """Base class of every error wts raises on bad input."""


class SquareError(WtsError):
    """Something that was meant to be a square is not one."""


class IllegalMoveError(WtsError):
    """A move that the rules do not allow; the game is left unchanged."""


class GameOverError(IllegalMoveError):
    """A move was played after the game was decided."""


class NoTurnError(WtsError, IndexError):
    """``pop()`` or ``peek()`` on a game with no turn played since its start.

    Also an :class:`IndexError`, as popping an empty list raises.
    """


class SetupError(WtsError):
    """A position that cannot be set up: a square listed twice, or not a square."""


class BatchError(WtsError):
    """An array given to a batch call has the wrong shape, dtype or values."""


class NotationError(WtsError):
    """A position string (FEN) or a game record that cannot be read.

    The message says where: ``"position 17: expected ..."`` for a position
    string (``position`` is the 0-based index of the offending character),
    ``"line 12: ..."`` for a game record (``line`` counts from 1). Both
    attributes are None where they do not apply.
    """

    def __init__(self, message: str, *, line: int | None = None,
                 position: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.position = position

    def __reduce__(self) -> tuple[object, ...]:
        return (_notation_error, (str(self), self.line, self.position))


def _notation_error(message: str, line: int | None, position: int | None) -> NotationError:
    """Rebuild a pickled :class:`NotationError`, keeping where it happened."""
    return NotationError(message, line=line, position=position)


class ParameterError(WtsError):
    """A count, depth, seed, size or option that the call does not accept.

    The message names the parameter and the value: ``"depth must be from 0
    to 1000, not 5000"``.
    """


class ParameterTypeError(ParameterError, TypeError):
    """A parameter of the wrong type (a float where an int is needed, say).

    Both a :class:`ParameterError` and a :class:`TypeError`, so code written
    for either catches it.
    """


class PlayerError(WtsError):
    """A player that is a program of its own (an engine,
    :class:`wts.protocol.EngineError`) failed to give a move: a match counts
    the game as a forfeit rather than stopping. The message is the reason
    the forfeited game records."""


class NetworkFileError(WtsError):
    """A network weights file (:class:`wts.network.Network`) that is not a wts
    network, is of another format version, or is damaged: the message says
    which, and where."""


class BusyError(RuntimeError):
    """An object that runs one call at a time (a search, an MCTS agent) was
    called from a second thread while the first call was still running.

    Not a :class:`WtsError`: nothing was wrong with the input, only the timing.
    """
