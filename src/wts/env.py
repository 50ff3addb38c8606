"""The game as a PettingZoo parallel environment.

The public path of :mod:`wts.interfaces.env`, where the code lives.
"""

from wts.interfaces.env import *  # noqa: F403
from wts.interfaces.env import __all__  # noqa: F401
