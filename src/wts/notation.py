"""Position strings: a position as one line of text.

The one documented path of what :mod:`wts.engine.notation` defines
(docs/development.md, "Public paths"). Its classes show and pickle as
``wts.notation.NAME``.
"""

from wts._public import publish
from wts.engine.notation import *  # noqa: F403
from wts.engine.notation import __all__

publish(__name__, __all__, globals())
