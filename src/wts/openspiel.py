"""The game for OpenSpiel (importing this registers it).

The public path of :mod:`wts.adapters.openspiel`, where the code lives.
"""

from wts.adapters.openspiel import *  # noqa: F403
from wts.adapters.openspiel import __all__  # noqa: F401
