"""SVG pictures of the board.

The one documented path of what :mod:`wts.engine.svg` defines
(docs/development.md, "Public paths").
"""

from wts.engine.svg import *  # noqa: F403
from wts.engine.svg import __all__  # noqa: F401
