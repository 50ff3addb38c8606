"""Every bound of wts that more than one place needs, named once, with why it is what it is.

Three kinds: the rules' own limit on the turn counter (:data:`MAX_TURN`),
the caps a caller's request is held to (threads, games, and the turns after
which a game is stopped before the rules end it), and what an engine program
may make the client keep (a line, its options, its handshake). ``tests/test_vocabulary.py``
holds the C side's copies (``WTS_MAX_TURN``, the search's
``MAX_PLAYOUT_TURNS``) to these numbers.
"""

from __future__ import annotations

__all__ = [
    "MAX_TURN",
    "SEED_MAX",
    "MAX_THREADS",
    "MAX_SEARCH_THREADS",
    "MAX_GAMES",
    "MATCH_TURNS",
    "MAX_PLAYOUT_TURNS",
    "DEFAULT_MAX_CYCLES",
    "OPENSPIEL_TURNS",
    "MAX_OPENSPIEL_TURNS",
    "MAX_SELFPLAY_TURNS",
    "MAX_MESSAGE_TURN",
    "MAX_LINE_BYTES",
    "MAX_OPTIONS",
    "MAX_HANDSHAKE_BYTES",
]

# --- The rules -------------------------------------------------------------------------

#: The last turn number: the core keeps the turn in 32 bits, and a game that
#: reaches it is drawn unless a side has won (docs/rules.md, "wts rulings"), so
#: the counter never wraps on either engine. ``WTS_MAX_TURN`` in wts_status.h.
MAX_TURN = 2**32 - 1

# --- What one call may ask for -----------------------------------------------------------

#: Seeds are 64-bit, as the generators' state is: 0 to 2**64 - 1.
SEED_MAX = 2**64 - 1
#: The most threads one call starts (``simulate``'s threads, a match's jobs):
#: each computes without the GIL, so more than the cores only queue; the cap
#: keeps a mistyped count from starting thousands of threads.
MAX_THREADS = 1024
#: The most threads one MCTSAgent searches on: each thread is a tree of its
#: own, and 256 of them still get 1 MiB each of the default 256 MiB.
MAX_SEARCH_THREADS = 256
#: The most games one run plays (``simulate``, a self-play run): game indices
#: are signed 64-bit numbers in numpy and Arrow.
MAX_GAMES = 2**63 - 1

# --- Turn caps: a game stopped before the rules end it ------------------------------------
# Games are short (random games last 29 turns on average, and the longest of a
# million lasted 78), so each cap only stops a game that would otherwise go on
# and on; its caller says how a stopped game counts.

#: A match game (tournament, ladder, SPRT pairs) or a self-play game still
#: going after this many turns is stopped and counted a draw.
MATCH_TURNS = 1000
#: An MCTS playout still going after this many turns is scored a draw (the
#: search's C enum of the same name; the sum stays far from MAX_TURN).
MAX_PLAYOUT_TURNS = 1000
#: The environments' ``max_cycles`` default (PettingZoo and Gymnasium): an
#: episode is truncated after this many turns.
DEFAULT_MAX_CYCLES = 500
#: The OpenSpiel game's ``max_turns`` default, and how far the ``openspiel-mcts``
#: agent's searches look ahead (a rollout still going then is a draw).
OPENSPIEL_TURNS = 200
#: The largest ``max_turns`` of the OpenSpiel game: OpenSpiel keeps game lengths in a C int.
MAX_OPENSPIEL_TURNS = 2**31 - 1
#: The largest ``max_turns`` a self-play run may ask for: a run folder's
#: manifest refuses more, so a corrupt one cannot ask for an endless game.
MAX_SELFPLAY_TURNS = 1 << 20
#: The largest turn number a web app's move message may carry: a game there
#: starts from the empty board and none goes anywhere near it.
MAX_MESSAGE_TURN = 10_000

# --- The engine protocol (docs/protocol.md): what a program may make the client keep ------

#: The longest line of the protocol, in bytes of UTF-8 without the newline:
#: the longest a side must accept, and the most the client keeps of a line
#: before it refuses it (the rest is read and dropped).
MAX_LINE_BYTES = 65_536
#: The most options an engine may declare in its handshake: engines declare a
#: few dozen (UCI's largest, about a hundred), and the client keeps each one,
#: so a program cannot make it hold millions.
MAX_OPTIONS = 256
#: The most bytes of lines a handshake may take, newlines left out: 256
#: options of 4 KB each, and the ids and features; the client keeps what they
#: declare, so a handshake of many long lines (a combo's values, a feature a
#: line) is bounded as a whole, not only line by line.
MAX_HANDSHAKE_BYTES = 1 << 20
