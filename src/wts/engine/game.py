"""``wts.Game``: the fast engine, the core's struct behind the shared API."""

from __future__ import annotations

from wts.engine._game import GameCore
from wts.engine.base import GameBase

__all__ = ["Game", "as_fast_game"]


class Game(GameCore, GameBase):
    """A game of What the Shell on the fast bitboard core.

    Same API, same results and same errors as :class:`wts.reference.Game`.

    >>> import wts
    >>> game = wts.Game()
    >>> game.play("E5", "E5").collision
    40
    >>> game.eggs
    (40,)
    """

    __slots__ = ()


def as_fast_game(game: GameBase) -> Game:
    """``game`` itself if it is a fast game, else a fast game at its position:
    the turtles, the eggs in their order and the turn, read in one copy."""
    if isinstance(game, Game):
        return game
    position = game.copy()
    return Game.from_setup(black=position.black, white=position.white, eggs=position.eggs,
                           turn=position.turn)

