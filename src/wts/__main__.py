"""``python -m wts``: the ``wts`` command line."""

from __future__ import annotations

import sys

from wts.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
