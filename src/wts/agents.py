"""Players of What the Shell: random, greedy, Monte Carlo tree search, the network
player, and the specs that name them.

The one documented path of what :mod:`wts.players.agents`, :mod:`wts.players.az`
and :mod:`wts.players.specs` define (docs/development.md, "Public paths").
"""

from wts.players.agents import *  # noqa: F403
from wts.players.agents import __all__ as _names_0
from wts.players.az import *  # noqa: F403
from wts.players.az import __all__ as _names_2
from wts.players.specs import *  # noqa: F403
from wts.players.specs import __all__ as _names_1

__all__ = [*_names_0, *_names_1, *_names_2]
