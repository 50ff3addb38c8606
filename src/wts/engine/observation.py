"""One position as the planes a learning agent sees, from one player's side.

The PettingZoo environment (:mod:`wts.env`) and the OpenSpiel game
(:mod:`wts.openspiel`) share it; :meth:`wts.BatchGame.observation` gives the
same planes from black's side for many games at once.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from wts.engine.base import GameBase
from wts.engine.pieces import Color
from wts.errors import ParameterError

__all__ = ["observation_planes", "PLANES"]

#: The planes, in order.
PLANES = ("own turtles", "opponent turtles", "eggs", "egg age")


_COLORS = {color.value: color for color in Color}


def observation_planes(game: GameBase, color: Color | str) -> npt.NDArray[np.uint8]:
    """The (4, 9, 9) uint8 planes of ``game`` from ``color``'s point of view:
    its turtles, the opponent's turtles, the eggs (each 0/1) and the eggs' age
    (1 the oldest, the next to hatch; 0 where there is no egg), indexed
    ``[plane, rank - 1, file]``."""
    own_color = color if isinstance(color, Color) else (
        _COLORS.get(color) if isinstance(color, str) else None)
    if own_color is None:
        raise ParameterError(f"color must be a wts.Color, 'black' or 'white', not {color!r}")
    planes = np.zeros((4, 81), dtype=np.uint8)
    if own_color is Color.BLACK:
        own, foe = game.black, game.white
    else:
        own, foe = game.white, game.black
    planes[0, list(own)] = 1
    planes[1, list(foe)] = 1
    eggs = list(game.eggs)
    planes[2, eggs] = 1
    planes[3, eggs] = np.arange(1, len(eggs) + 1)
    return planes.reshape(4, 9, 9)
