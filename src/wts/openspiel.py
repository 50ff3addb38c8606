"""The game for OpenSpiel (importing this registers it).

The one documented path of what :mod:`wts.adapters.openspiel` defines
(docs/development.md, "Public paths").
"""

from wts.adapters.openspiel import *  # noqa: F403
from wts.adapters.openspiel import __all__  # noqa: F401
