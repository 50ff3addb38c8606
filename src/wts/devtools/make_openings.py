"""Make a suite of balanced openings (:mod:`wts.players.openings`), as the one
stored in the package was made::

    python -m wts.devtools.make_openings --count 100 --seed 0 > src/wts/players/openings.txt
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from wts.players.openings import BAND, PLAYOUTS, TURNS, generate, suite_digest

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Print a suite file of balanced openings (the stored one by default)."""
    parser = argparse.ArgumentParser(prog="python -m wts.devtools.make_openings",
                                     description="print a suite of balanced openings")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--turns", type=int, default=TURNS)
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    parser.add_argument("--band", type=float, default=BAND)
    args = parser.parse_args(argv)
    suite = generate(args.count, args.seed, args.turns, args.playouts, args.band)
    print("# Balanced openings for `wts tournament --sprt` (one position string a line).")
    print(f"# Made by: python -m wts.devtools.make_openings --count {args.count} "
          f"--seed {args.seed} --turns {args.turns} --playouts {args.playouts} "
          f"--band {args.band:g}")
    print(f"# {args.turns} turns of random squares from the empty board, kept if the game goes "
          f"on and a {args.playouts}-playout MCTS")
    print(f"# gives black a value within {args.band:g} of 0.5. SHA-256 of the suite: "
          f"{suite_digest(suite)}")
    for fen in suite:
        print(fen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
