"""Matches between agents: ``wts tournament``.

The public path of :mod:`wts.players.tournament`, where the code lives.
"""

from wts.cli.tournament import add_arguments, run
from wts.players.tournament import *  # noqa: F403
from wts.players.tournament import __all__ as _match_names

__all__ = [*_match_names, "add_arguments", "run"]
