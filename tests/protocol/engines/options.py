"""An engine declaring one option of each type, for engine-check's tests:
``python options.py MODE``. It plays as ``wts engine --agent random`` does.

- ``strict``: refuses with ``error`` every value an option does not take;
- ``lax``: takes every value silently, in range or not;
- ``nodefault``: as ``strict``, but its spin option declares no default.

Each value set, and each button pressed, is written to stderr.
"""

from __future__ import annotations

import sys

from wts.engine.game import Game
from wts.protocol import lines
from wts.protocol.errors import EngineProtocolError
from wts.protocol.server import EngineServer

OPTIONS = [
    lines.Option("seed", "spin", "0", 0, 1000),
    lines.Option("Hash", "spin", "16", 1, 64),
    lines.Option("Ponder", "check", "false"),
    lines.Option("Style", "combo", "solid", choices=("solid", "wild", "calm")),
    lines.Option("Book", "string", "<empty>"),
    lines.Option("Clear", "button"),
]


class OptionsServer(EngineServer):
    def __init__(self, mode: str) -> None:
        super().__init__("random", Game, sys.stdin.buffer, sys.stdout.buffer)
        self.mode = mode
        self.values: dict[str, str] = {}

    def _options(self) -> list[lines.Option]:
        if self.mode == "nodefault":
            return [lines.Option("Hash", "spin", None, 1, 64), *OPTIONS[2:]]
        return OPTIONS

    def set_option(self, name: str, value: str | None) -> None:
        options = {option.name: option for option in self._options()}
        if name not in options:
            self.error(f"no option {name!r}")
            return
        try:
            text = options[name].check(value)
        except EngineProtocolError as exc:
            if self.mode != "lax":
                self.error(str(exc))
                return
            text = str(value)
        self.values[name] = text
        sys.stderr.write(f"set {name} {text}\n" if text else f"pressed {name}\n")
        sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(OptionsServer(sys.argv[1]).run())
