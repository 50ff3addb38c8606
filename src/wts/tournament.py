"""Matches between agents: ``wts tournament``.

The public path of :mod:`wts.players.tournament`, where the code lives.
"""

from wts.players.tournament import *  # noqa: F403
from wts.players.tournament import __all__  # noqa: F401
