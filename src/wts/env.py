"""The game as a PettingZoo parallel environment.

The one documented path of what :mod:`wts.adapters.env` defines
(docs/development.md, "Public paths").
"""

from wts.adapters.env import *  # noqa: F403
from wts.adapters.env import __all__  # noqa: F401
