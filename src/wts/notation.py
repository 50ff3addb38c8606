"""Position strings: a position as one line of text.

The one documented path of what :mod:`wts.engine.notation` defines
(docs/development.md, "Public paths").
"""

from wts.engine.notation import *  # noqa: F403
from wts.engine.notation import __all__  # noqa: F401
