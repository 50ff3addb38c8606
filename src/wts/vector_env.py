"""The game as a Gymnasium vector environment: many games stepped at once.

The public path of :mod:`wts.adapters.vector_env`, where the code lives.
"""

from wts.adapters.vector_env import *  # noqa: F403
from wts.adapters.vector_env import __all__  # noqa: F401
