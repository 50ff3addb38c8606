"""The game as a PettingZoo parallel environment.

The public path of :mod:`wts.adapters.env`, where the code lives.
"""

from wts.adapters.env import *  # noqa: F403
from wts.adapters.env import __all__  # noqa: F401
