"""The game as a Gymnasium vector environment: many games stepped at once.

The public path of :mod:`wts.interfaces.vector_env`, where the code lives.
"""

from wts.interfaces.vector_env import *  # noqa: F403
from wts.interfaces.vector_env import __all__  # noqa: F401
