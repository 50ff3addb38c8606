"""wts: the engine for What the Shell.

``wts.Game`` is the fast engine (a Cython core on bitboards);
``wts.reference.Game`` is the literal one it is tested against. Both share
the API below.
"""

from __future__ import annotations

import os

from wts import notation, record, reference, svg
from wts._version import __version__
from wts.batch import NO_MOVE, STATUSES, BatchGame, StepResult
from wts.errors import (
    BatchError,
    BusyError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    ParameterError,
    ParameterTypeError,
    SetupError,
    SquareError,
    WtsError,
)
from wts.events import Capture, Hatch, TurnResult
from wts.game import Game
from wts.perft import PerftCounts, perft
from wts.pieces import MAX_TURN, Color, Piece, Status
from wts.simulate import SimulationResult, simulate
from wts.squares import *  # noqa: F403
from wts.squares import (
    SQUARE_NAMES,
    SQUARES,
    Square,
    SquareLike,
    parse_square,
    square,
    square_file,
    square_name,
    square_rank,
)


def get_include() -> str:
    """The directory holding wts's ``.pxd`` files and C headers, for a dependent
    Cython build: ``Extension(..., include_dirs=[wts.get_include()])``."""
    return os.path.dirname(os.path.abspath(__file__))


__all__ = [
    "__version__",
    "Game",
    "reference",
    "notation",
    "record",
    "svg",
    "Color",
    "Piece",
    "Status",
    "MAX_TURN",
    "Capture",
    "Hatch",
    "TurnResult",
    "WtsError",
    "SquareError",
    "IllegalMoveError",
    "GameOverError",
    "SetupError",
    "NotationError",
    "ParameterError",
    "ParameterTypeError",
    "BatchError",
    "BusyError",
    "BatchGame",
    "StepResult",
    "STATUSES",
    "NO_MOVE",
    "simulate",
    "SimulationResult",
    "Square",
    "SquareLike",
    "SQUARES",
    "SQUARE_NAMES",
    "parse_square",
    "square",
    "square_file",
    "square_name",
    "square_rank",
    "perft",
    "PerftCounts",
    "get_include",
]
