"""An engine that breaks the protocol in chosen ways, for the client's tests:
``python misbehaving.py MODE[+MODE...] [PIDS]``. It completes the handshake
(but in the modes that break it) and answers isready; then, at the first
``go``:

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
  during that search with the handshake again, not ``error``;
- ``options``: declares a million options in the handshake;
- ``features``: declares a million features in the handshake, each its own;
- ``longline``: answers ``move E5`` followed by 3 million U+3000 (9 MB, one line);
- ``dotless``: answers ``move`` and a dotless i and 5 (``str.upper`` makes it I5);
- ``closeout``: closes its standard output, and goes on running;
- ``closein``: closes its standard input, answers ``move E5``, and goes on running.

Modes combine: ``forker+crash`` exits while its child holds the pipes. With
PIDS, a file's path, the engine writes its pid and its child's there at ``go``
(written whole, then renamed), so a test knows the search has begun.
"""

from __future__ import annotations

import os
import sys
import time


def main(mode: str, pids: str | None = None) -> None:
    modes = set(mode.split("+"))
    sys.stdout.reconfigure(encoding="utf-8")  # whatever the locale says

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    child = ""
    searching = False
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "quit" and "quitwords" in modes:
            return
        if word == "stop" and searching:
            searching = False
            say("move E5")
        elif word == "go" and "searchy" in modes and "infinite" in line.split():
            searching = True
        elif word == "wtsp":
            if "silent" in modes:
                continue
            if modes & {"forker", "setsid"}:
                pid = os.fork()
                if pid == 0:
                    if "setsid" in modes:
                        os.setsid()
                    os.execvp("sleep", ["sleep", "600"])
                child = f" {pid}"
            say("id name misbehaving " + mode + child)
            say("id author the wts tests")
            say("protocol " + ("2" if "version" in modes else "1"))
            if "rulesexit" in modes:
                say("feature rules")
            if "options" in modes:
                for i in range(1_000_000):
                    say(f"option name o{i} type spin default 0 min 0 max {i}")
            if "features" in modes:
                for i in range(1_000_000):
                    say(f"feature f{i}")
            say("ready")
            if "early" in modes:
                say("move A1")
        elif word == "position" and "errposition" in modes:
            say("error I refuse this position")
        elif word == "rules" and "rulesexit" in modes:
            sys.exit(4)
        elif word == "isready":
            say("readyok")
        elif word == "go":
            if pids is not None:
                with open(pids + ".part", "w") as out:
                    out.write(f"{os.getpid()}{child}\n")
                os.replace(pids + ".part", pids)
            if "crash" in modes:
                sys.stderr.write("misbehaving: crashing as asked\n")
                sys.stderr.flush()
                sys.exit(3)
            if "hang" in modes:
                time.sleep(3600)
            if "closeout" in modes:
                sys.stdout.flush()
                os.close(1)
                time.sleep(3600)
            if "closein" in modes:
                os.close(0)
                say("move E5")
                time.sleep(3600)
            if "flood" in modes:
                sys.stderr.write("x" * 300_000 + "\nthe last line\n")
                sys.stderr.flush()
            if "longline" in modes:
                say("move E5" + "\u3000" * 3_000_000)
            answers = {"garbage": "bestmove e2e4", "badsquare": "move J1",
                       "refuse": "error I will not", "dotless": "move \u01315"}
            say(next((answers[m] for m in modes if m in answers), "move E5"))
        elif word == "quit":
            return


if __name__ == "__main__":
    main(*sys.argv[1:3])
