"""Perft: count every joint move to a fixed depth, as chess engines do.

The counts are a fixed point: ``tests/perft/`` holds the expected numbers for
several positions, and any change to the rules machinery that moves one of
them is a change of behaviour.
"""

from __future__ import annotations

from typing import NamedTuple

from wts.engine.base import GameBase
from wts.engine.pieces import Status
from wts.errors import ParameterTypeError
from wts.params import check_int

__all__ = ["PerftCounts", "perft", "MAX_DEPTH"]

#: The deepest walk :func:`perft` takes: one C stack frame (or Python call) a
#: level. Only a tree cut short by decided games can be walked that deep.
MAX_DEPTH = 1000


class PerftCounts(NamedTuple):
    """What :func:`perft` counts.

    ``leaves`` is the number of joint-move sequences of exactly ``depth``
    turns (each turn every ordered pair of legal squares, collisions
    included; a game decided earlier is not expanded). The other fields
    count, over those leaves, what the last turn did (collisions, captures,
    dissolved eggs, hatched eggs) and the status it left.
    """

    leaves: int = 0
    collisions: int = 0
    captures: int = 0
    dissolves: int = 0
    hatches: int = 0
    black_wins: int = 0
    white_wins: int = 0
    draws: int = 0
    sudden_deaths: int = 0


_STATUS_FIELD = {
    Status.BLACK_WINS: "black_wins",
    Status.WHITE_WINS: "white_wins",
    Status.DRAW: "draws",
    Status.SUDDEN_DEATH: "sudden_deaths",
}


def perft(game: GameBase, depth: int) -> PerftCounts:
    """Walk every joint move from ``game`` to ``depth`` turns and count.

    >>> import wts
    >>> perft(wts.Game(), 1).leaves, perft(wts.reference.Game(), 1).collisions
    (6561, 81)

    The fast engine (:class:`wts.Game`) walks in C without the GIL; any other
    engine, such as :class:`wts.reference.Game`, through its own ``copy`` and
    ``play``. ``game`` is left unchanged. Ctrl-C raises KeyboardInterrupt
    within milliseconds on both. ``depth`` runs from 0 to :data:`MAX_DEPTH`
    (:class:`wts.ParameterError` beyond).
    """
    depth = check_int(depth, "depth", 0, MAX_DEPTH)
    if not isinstance(game, GameBase):
        raise ParameterTypeError(f"game must be a wts game, not {type(game).__name__}")
    from wts.engine.game import Game

    if isinstance(game, Game):
        from wts.engine._perft import perft_counts

        return PerftCounts(*perft_counts(game, depth))
    totals = dict.fromkeys(PerftCounts._fields, 0)
    if depth == 0:
        totals["leaves"] = 1
    else:
        _walk(game, depth, totals)
    return PerftCounts(**totals)


def _walk(game: GameBase, depth: int, totals: dict[str, int]) -> None:
    moves = game.legal_moves()
    for black in moves:
        for white in moves:
            child = game.copy()
            result = child.play(black, white)
            if depth > 1:
                _walk(child, depth - 1, totals)
                continue
            totals["leaves"] += 1
            totals["collisions"] += result.collision is not None
            totals["captures"] += len(result.captures)
            totals["dissolves"] += len(result.dissolved)
            totals["hatches"] += len(result.hatched)
            field = _STATUS_FIELD.get(result.status)
            if field:
                totals[field] += 1
