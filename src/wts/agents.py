"""Players of What the Shell: random, greedy, and Monte Carlo tree search.

The public path of :mod:`wts.players.agents`, where the code lives.
"""

from wts.players.agents import *  # noqa: F403
from wts.players.agents import __all__  # noqa: F401
