"""The reference engine's rules part with one rule broken on purpose, for the
differential fuzzer to catch: ``python mutant_rules.py MUTANT``.

Each mutant replaces one rule function of :mod:`wts.engine.reference` and then
serves the protocol with it, exactly as ``wts engine --rules wts.reference:Game``
does with the true rules.
"""

from __future__ import annotations

import sys

from wts.engine import reference
from wts.engine.pieces import Piece, Status
from wts.protocol.server import serve


def no_dissolve(board, eggs, black_captures, white_captures):  # type: ignore[no-untyped-def]
    """Both players capturing dissolves nothing."""
    return []


def newest_egg_first(board, eggs, captures, color, wave):  # type: ignore[no-untyped-def]
    """Captures hatch the newest eggs instead of the oldest."""
    eggs.reverse()
    try:
        return TRUE_HATCH(board, eggs, captures, color, wave)
    finally:
        eggs.reverse()


def full_board_draws(board, black_count, white_count, turn):  # type: ignore[no-untyped-def]
    """A full board is a draw even when a row of five won on it."""
    if all(piece is not Piece.EMPTY for piece in board):
        return Status.DRAW
    return TRUE_DECIDE(board, black_count, white_count, turn)


def no_turn_cap(board, black_count, white_count, turn):  # type: ignore[no-untyped-def]
    """The turn cap is ignored: a game at turn 4294967295 goes on."""
    return TRUE_DECIDE(board, black_count, white_count, 0)


TRUE_HATCH = reference.hatch_wave
TRUE_DECIDE = reference.decide_status
MUTANTS = {
    "no-dissolve": ("dissolve", no_dissolve),
    "newest-egg-first": ("hatch_wave", newest_egg_first),
    "full-board-draws": ("decide_status", full_board_draws),
    "no-turn-cap": ("decide_status", no_turn_cap),
}

if __name__ == "__main__":
    name, function = MUTANTS[sys.argv[1]]
    setattr(reference, name, function)
    sys.exit(serve("random", reference.Game))
