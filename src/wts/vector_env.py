"""The game as a Gymnasium vector environment: many games stepped at once.

The one documented path of what :mod:`wts.adapters.vector_env` defines
(docs/development.md, "Public paths").
"""

from wts.adapters.vector_env import *  # noqa: F403
from wts.adapters.vector_env import __all__  # noqa: F401
