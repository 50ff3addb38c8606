"""wts: the engine for What the Shell.

``wts.Game`` is the fast engine (a Cython core on bitboards);
``wts.reference.Game`` is the literal one it is tested against. Both share
the API below.
"""

from __future__ import annotations

import os

from wts import _wiring, agents, notation, record, reference, svg
from wts._public import publish
from wts._version import __version__
from wts.engine.batch import NO_MOVE, STATUSES, BatchGame, StepResult
from wts.engine.events import Capture, Hatch, TurnResult
from wts.engine.game import Game
from wts.engine.kernels import cpu_kernel, cpu_kernels
from wts.engine.perft import PerftCounts, perft
from wts.engine.pieces import MAX_TURN, Color, Piece, Status
from wts.engine.simulate import SimulationResult, simulate
from wts.engine.squares import *  # noqa: F403
from wts.engine.squares import (
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
from wts.engine.symmetry import Symmetry, transform_masks, transform_planes
from wts.errors import (
    BatchError,
    BusyError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    NoTurnError,
    ParameterError,
    ParameterTypeError,
    SetupError,
    SquareError,
    WtsError,
)


def get_include() -> str:
    """The directory holding the C header ``wts_bits.h`` that the C API's
    ``.pxd`` files name, for a dependent Cython build:
    ``Extension(..., include_dirs=[wts.get_include()])``."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine")


# The players' makers of the players whose code sits above them (engine
# programs, OpenSpiel's MCTS), handed down once, here.
_wiring.wire()


__all__ = [
    "__version__",
    "Game",
    "reference",
    "notation",
    "record",
    "svg",
    "agents",
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
    "NoTurnError",
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
    "Symmetry",
    "transform_planes",
    "transform_masks",
    "perft",
    "PerftCounts",
    "get_include",
    "cpu_kernel",
    "cpu_kernels",
]

# wts.Game, wts.Color, ... are shown and pickled as such, wherever their home is.
publish(__name__, __all__, globals())
