"""SVG pictures of the board.

The public path of :mod:`wts.formats.svg`, where the code lives.
"""

from wts.formats.svg import *  # noqa: F403
from wts.formats.svg import __all__  # noqa: F401
