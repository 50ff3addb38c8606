"""The game for OpenSpiel (importing this registers it).

The public path of :mod:`wts.interfaces.openspiel`, where the code lives.
"""

from wts.interfaces.openspiel import *  # noqa: F403
from wts.interfaces.openspiel import __all__  # noqa: F401
