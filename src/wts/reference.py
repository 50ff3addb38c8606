"""The reference engine: the rules of What the Shell, written out plainly.

The one documented path of what :mod:`wts.engine.reference` defines
(docs/development.md, "Public paths").
"""

from wts.engine.reference import *  # noqa: F403
from wts.engine.reference import __all__  # noqa: F401
