"""The reference engine: the rules of What the Shell, written out plainly.

The public path of :mod:`wts.engine.reference`, where the code lives.
"""

from wts.engine.reference import *  # noqa: F403
from wts.engine.reference import __all__  # noqa: F401
