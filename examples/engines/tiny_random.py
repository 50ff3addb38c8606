#!/usr/bin/env python3
"""A tiny What the Shell engine: it names a random empty square.

It uses only Python's standard library and shows the whole protocol an engine
needs to play (docs/protocol.md): the handshake, an option, ``position``,
``go``, ``stop``, ``isready``, ``quit``, and an ``error`` for anything else.
Run it against ``wts``'s players:

    wts tournament "engine:python examples/engines/tiny_random.py" greedy --games 10
"""

import random
import sys

FILES = "ABCDEFGHI"


def empty_squares(board):
    """The empty squares of a position string's board field, as names like E5,
    or None if it is not a board. Ranks run from 9 down to 1; a digit is that
    many empty squares."""
    ranks = board.split("/")
    if len(ranks) != 9:
        return None
    empty = []
    for row, rank_text in enumerate(ranks):
        rank = 9 - row
        file = 0
        for char in rank_text:
            if char.isdigit():
                for _ in range(int(char)):
                    empty.append(f"{FILES[file]}{rank}")
                    file += 1
            elif char in "xoe":  # a turtle or an egg
                file += 1
            else:
                return None
        if file != 9:
            return None
    return empty


SQUARES = {f + r for f in FILES for r in "123456789"}
SEED_MAX = 4294967295
LIMITS = {"movetime", "btime", "wtime", "binc", "winc", "playouts"}


def position_ok(words):
    """position BOARD EGGS TURN [moves B W ...], in shape (the board is read later)."""
    if len(words) < 4 or not words[3].isdigit():
        return False
    moves = words[4:]
    return not moves or (moves[0] == "moves" and len(moves) % 2 == 1
                         and all(m in SQUARES for m in moves[1:]))


def go_ok(words):
    """go COLOR [LIMIT N ...] [infinite]."""
    if len(words) < 2 or words[1] not in ("black", "white"):
        return False
    rest = [w for w in words[2:] if w != "infinite"]
    return (len(rest) % 2 == 0 and all(w in LIMITS for w in rest[::2])
            and all(w.isdigit() for w in rest[1::2]))


def main():
    rng = random.Random(0)
    empty = None

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "wtsp":
            say("id name tiny random (Python)")
            say("id author the wts examples")
            say("protocol 1")
            say(f"option name seed type spin default 0 min 0 max {SEED_MAX}")
            say("ready")
        elif command == "isready" and len(words) == 1:
            say("readyok")
        elif command == "setoption" and words[1:3] == ["name", "seed"]:
            # a value the option does not take is refused, and the seed kept
            value = words[4] if len(words) == 5 and words[3] == "value" else ""
            if value.isdigit() and value.isascii() and int(value) <= SEED_MAX:
                rng = random.Random(int(value))
            else:
                say(f"error option seed takes a whole number from 0 to {SEED_MAX}")
        elif command == "newgame":
            empty = None
        elif command == "position" and position_ok(words) and empty_squares(words[1]) is not None:
            empty = empty_squares(words[1])
        elif command == "go":
            if not go_ok(words):
                say("error malformed go: go black|white [limits]")
            elif not empty:
                say("error no position, or no empty square: send position first")
            else:
                say("info string a random empty square")
                say("move " + rng.choice(empty))
        elif command == "stop" and len(words) == 1:
            pass  # the answer to go is immediate: there is never a search to stop
        elif command == "quit" and len(words) == 1:
            break
        else:
            say("error unknown command: " + line.strip()[:80])


if __name__ == "__main__":
    main()
