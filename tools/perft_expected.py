"""Write ``tests/perft/expected.json``: the perft counts every change is held to.

Depth 1 is computed by the reference engine and depth 2 by the fast core
(the tests check each engine against both where it is fast enough).

    python tools/perft_expected.py
"""

from __future__ import annotations

import json
import pathlib

import wts
import wts.engine.reference

POSITIONS = {
    "empty": {"black": [], "white": [], "eggs": []},
    "egg_rich": {
        "black": ["C3", "G3", "C7", "G7", "E2"],
        "white": ["D4", "F4", "D6", "F6", "E8"],
        "eggs": ["E5", "D5", "F5", "E4", "E6", "C5", "G5", "B2", "H8"],
    },
    "capture_rich": {
        "black": ["A1", "D1", "A4", "D4", "G4", "G7", "B8", "I9"],
        "white": ["B1", "C1", "B4", "C4", "E4", "F4", "G5", "G6", "C8", "D8", "H6", "H5"],
        "eggs": ["E1", "I4"],
    },
    "near_line": {
        "black": ["B2", "C3", "D4", "E5", "A9", "B9", "C9", "D9"],
        "white": ["B8", "C7", "D6", "F4", "H1", "H2", "H3", "H4"],
        "eggs": ["G3", "E9", "I5"],
    },
    "cascade": {
        "black": ["A5", "D5", "D2", "D8", "I1", "F3"],
        "white": ["B5", "C5", "D3", "D4", "D6", "D7", "E4", "G6"],
        "eggs": ["H1", "G1", "D9", "E5"],
    },
    "near_full": {
        "black": ["A1", "B1", "C1", "D1", "C2", "C3", "H7", "G8"],
        "white": ["F2", "F3", "G3", "E9", "D9", "C9"],
        "eggs": [
            sq for sq in wts.SQUARE_NAMES
            if sq not in {"A1", "B1", "C1", "D1", "C2", "C3", "H7", "G8", "F2", "F3", "G3",
                          "E9", "D9", "C9", "E1", "C4", "F9", "I9", "F1"}
        ],
    },
}

# Small trees walked one turn deeper (by the fast core), where draws appear.
DEEPER = {"near_full": 3}

PATH = pathlib.Path(__file__).resolve().parent.parent / "tests" / "perft" / "expected.json"


def main() -> None:
    entries = []
    for name, setup in POSITIONS.items():
        reference = wts.reference.Game.from_setup(**setup)
        fast = wts.Game.from_setup(**setup)
        depths = {
            "1": wts.perft(reference, 1)._asdict(),
            "2": wts.perft(fast, 2)._asdict(),
        }
        if name in DEEPER:
            depths[str(DEEPER[name])] = wts.perft(fast, DEEPER[name])._asdict()
        entries.append({"name": name, "setup": setup, "depth": depths})
        print(name, entries[-1]["depth"])
    PATH.write_text(json.dumps(entries, indent=2) + "\n")


if __name__ == "__main__":
    main()
