"""What every long call does on Ctrl-C: stop its workers, wait for them, then
let the KeyboardInterrupt through; and how the command line reports it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells use.
EXIT_INTERRUPTED = 130


def wait_through_interrupts(wait: Callable[[], object]) -> None:
    """Run ``wait`` (joining threads, shutting a pool down) to the end even if
    Ctrl-C comes meanwhile, so that no worker outlives the call; a
    KeyboardInterrupt caught on the way is raised once ``wait`` has finished."""
    interrupted: KeyboardInterrupt | None = None
    while True:
        try:
            wait()
        except KeyboardInterrupt as exc:  # a second Ctrl-C: the workers are stopping anyway
            interrupted = interrupted or exc
            continue
        break
    if interrupted is not None:
        raise interrupted


def report_interrupt(command: str, err: TextIO | None = None) -> int:
    """Say on one line that ``command`` was interrupted; returns :data:`EXIT_INTERRUPTED`."""
    print(f"{command}: interrupted", file=sys.stderr if err is None else err, flush=True)
    return EXIT_INTERRUPTED
