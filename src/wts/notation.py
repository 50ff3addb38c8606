"""Position strings: a position as one line of text.

The public path of :mod:`wts.engine.notation`, where the code lives.
"""

from wts.engine.notation import *  # noqa: F403
from wts.engine.notation import __all__  # noqa: F401
