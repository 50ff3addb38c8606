"""Differential fuzzer: the fast engine against the reference, turn by turn.

Both engines are driven side by side with the same moves and compared after
every step (:mod:`.compare`). Games come from seeded start positions
(:mod:`.setups`) and move policies (:mod:`.policies`) that provoke the rare
branches of the rules; every game is reproducible from ``(seed, game index)``
(:mod:`.games`). The branches each turn reached are read off its TurnResult
and counted (:mod:`.branches`); a run that leaves one unreached fails, since
the engines were never compared there. The first mismatch is shrunk to a
short reproducer, printed as runnable Python (:mod:`.shrink`). Many games run
over worker processes (:mod:`.runner`); :mod:`.report` is what ``wts fuzz``
prints.

The fuzzer knows no rule of its own: board geometry, rows of five and
captures are asked of the engines (:mod:`.board`).

Run it as ``wts fuzz --seconds 60``.
"""

from __future__ import annotations

from .branches import BRANCHES, classify_turn, describe_unreached, format_coverage, unreached
from .compare import (
    POSITION_FIELDS,
    Difference,
    EnginePair,
    Move,
    Script,
    Setup,
    compare_engines,
    replay,
    snapshot,
)
from .games import FuzzGame, game_rng, play_fuzz_game
from .policies import Plan, choose_moves, draw_plan
from .report import EXIT_MISMATCH, EXIT_UNREACHED, describe_end, describe_progress, describe_start
from .runner import Failure, FuzzReport, run_fuzz
from .setups import SETUPS
from .shrink import reproducer, shrink

__all__ = [
    "BRANCHES",
    "classify_turn",
    "unreached",
    "format_coverage",
    "describe_unreached",
    "POSITION_FIELDS",
    "snapshot",
    "Move",
    "Setup",
    "Script",
    "Difference",
    "EnginePair",
    "replay",
    "compare_engines",
    "SETUPS",
    "Plan",
    "draw_plan",
    "choose_moves",
    "game_rng",
    "FuzzGame",
    "play_fuzz_game",
    "shrink",
    "reproducer",
    "Failure",
    "FuzzReport",
    "run_fuzz",
    "EXIT_MISMATCH",
    "EXIT_UNREACHED",
    "describe_start",
    "describe_progress",
    "describe_end",
]
