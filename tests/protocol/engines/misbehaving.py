"""An engine that breaks the protocol in one chosen way, for the client's tests:
``python misbehaving.py MODE``. It completes the handshake (but in the modes
that break it) and answers isready; then, at the first ``go``:

- ``crash``: exits with status 3, after a line on stderr;
- ``hang``: never answers;
- ``garbage``: answers a line that is not the protocol's;
- ``badsquare``: answers ``move J1``;
- ``occupied``: answers ``move E5`` every time (illegal once E5 is taken);
- ``flood``: writes 300 KB to stderr, then answers;
- ``refuse``: answers ``error`` to go;
- ``version``: speaks protocol version 2 in the handshake;
- ``silent``: never completes the handshake;
- ``forker``: starts a child (``sleep``) at the handshake, which keeps the
  engine's pipes open, and names its pid in ``id name``;
- ``setsid``: the same, but the child leaves the engine's session (``setsid``);
- ``early``: says ``move A1`` unasked, right after ``ready``;
- ``errposition``: answers ``position`` with ``error``;
- ``rulesexit``: declares ``feature rules``, and exits at the first rules request;
- ``quitwords``: exits at any line whose first word is ``quit`` (``quit now``);
- ``searchy``: answers ``go ... infinite`` only at ``stop``, and a ``wtsp``
  during that search with the handshake again, not ``error``.
"""

from __future__ import annotations

import os
import sys
import time


def main(mode: str) -> None:
    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    searching = False
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "quit" and mode == "quitwords":
            return
        if word == "stop" and searching:
            searching = False
            say("move E5")
        elif word == "go" and mode == "searchy" and "infinite" in line.split():
            searching = True
        elif word == "wtsp":
            if mode == "silent":
                continue
            child = ""
            if mode in ("forker", "setsid"):
                pid = os.fork()
                if pid == 0:
                    if mode == "setsid":
                        os.setsid()
                    os.execvp("sleep", ["sleep", "600"])
                child = f" {pid}"
            say("id name misbehaving " + mode + child)
            say("id author the wts tests")
            say("protocol " + ("2" if mode == "version" else "1"))
            if mode == "rulesexit":
                say("feature rules")
            say("ready")
            if mode == "early":
                say("move A1")
        elif word == "position" and mode == "errposition":
            say("error I refuse this position")
        elif word == "rules" and mode == "rulesexit":
            sys.exit(4)
        elif word == "isready":
            say("readyok")
        elif word == "go":
            if mode == "crash":
                sys.stderr.write("misbehaving: crashing as asked\n")
                sys.stderr.flush()
                sys.exit(3)
            if mode == "hang":
                time.sleep(3600)
            if mode == "flood":
                sys.stderr.write("x" * 300_000 + "\nthe last line\n")
                sys.stderr.flush()
            say({"garbage": "bestmove e2e4", "badsquare": "move J1",
                 "refuse": "error I will not"}.get(mode, "move E5"))
        elif word == "quit":
            return


if __name__ == "__main__":
    main(sys.argv[1])
