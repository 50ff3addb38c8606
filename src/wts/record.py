"""Game records: whole games as text, like chess's PGN.

The one documented path of what :mod:`wts.formats.record` defines
(docs/development.md, "Public paths").
"""

from wts.formats.record import *  # noqa: F403
from wts.formats.record import __all__  # noqa: F401
