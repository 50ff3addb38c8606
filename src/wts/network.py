"""The network player's policy and value network and its weights file.

The one documented path of what :mod:`wts.players.network` defines
(docs/development.md, "Public paths").
"""

from wts.players.network import *  # noqa: F403
from wts.players.network import __all__ as _names_0

__all__ = [*_names_0]
