"""Position strings: a position as one line of text.

The public path of :mod:`wts.formats.notation`, where the code lives.
"""

from wts.formats.notation import *  # noqa: F403
from wts.formats.notation import __all__  # noqa: F401
