"""``python logged.py LOG COMMAND...``: appends its process id to the file
LOG, then becomes COMMAND (the same process), so a test counts the engine
processes a match started."""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    with open(sys.argv[1], "a", encoding="ascii") as log:
        log.write(f"{os.getpid()}\n")
    os.execvp(sys.argv[2], sys.argv[2:])
