"""Game records: whole games as text, like chess's PGN.

The public path of :mod:`wts.formats.record`, where the code lives.
"""

from wts.formats.record import *  # noqa: F403
from wts.formats.record import __all__  # noqa: F401
