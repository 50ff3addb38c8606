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


class SetupError(WtsError):
    """A position that cannot be set up: a square listed twice, or not a square."""


class BatchError(WtsError):
    """An array given to a batch call has the wrong shape, dtype or values."""
