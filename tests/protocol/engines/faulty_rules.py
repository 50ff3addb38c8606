"""The reference engine's rules part, failing as a program in one chosen way,
for the fuzzer to report: ``python faulty_rules.py MODE [N]``.

- ``crash N``: exits (status 3, a line on stderr) at its N-th rules request;
- ``hang N``: never answers its N-th rules request;
- ``garbage N``: answers its N-th rules request with a line of no protocol;
- ``crash-collision``: exits at every ``rules play`` whose two squares are one
  (a collision), which a replay of the same turn meets again.

Counted per process: the client starts the program again after each failure,
so it fails every N requests.
"""

from __future__ import annotations

import sys
import time

from wts.engine import reference
from wts.protocol import lines
from wts.protocol.server import EngineServer


class FaultyServer(EngineServer):
    def __init__(self, mode: str, every: int) -> None:
        super().__init__("random", reference.Game, sys.stdin.buffer, sys.stdout.buffer)
        self.mode, self.every, self.requests = mode, every, 0

    def rules_request(self, command: lines.ClientLine) -> None:
        self.requests += 1
        due = self.requests == self.every
        if self.mode == "crash-collision":
            due = isinstance(command, lines.RulesPlayCommand) and command.black == command.white
        if due and self.mode.startswith("crash"):
            sys.stderr.write("faulty_rules: crashing as asked\n")
            sys.stderr.flush()
            sys.exit(3)
        if due and self.mode == "hang":
            time.sleep(3600)
        if due and self.mode == "garbage":
            self.say("rules resu1t whatever")
            return
        super().rules_request(command)


if __name__ == "__main__":
    mode = sys.argv[1]
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    sys.exit(FaultyServer(mode, every).run())
