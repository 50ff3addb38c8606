"""SVG pictures of the board.

The one documented path of what :mod:`wts.engine.svg` defines
(docs/development.md, "Public paths"). Its classes show and pickle as
``wts.svg.NAME``.
"""

from wts._public import publish
from wts.engine.svg import *  # noqa: F403
from wts.engine.svg import __all__

publish(__name__, __all__, globals())
