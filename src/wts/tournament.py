"""Matches between agents: what ``wts tournament`` plays.

The one documented path of what :mod:`wts.players.tournament` defines
(docs/development.md, "Public paths").
"""

from wts.players.tournament import *  # noqa: F403
from wts.players.tournament import __all__  # noqa: F401
