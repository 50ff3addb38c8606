"""Game records: whole games as text, like chess's PGN.

The one documented path of what :mod:`wts.formats.record` defines
(docs/development.md, "Public paths"). Its classes show and pickle as
``wts.record.NAME``.
"""

from wts._public import publish
from wts.formats.record import *  # noqa: F403
from wts.formats.record import __all__

publish(__name__, __all__, globals())
