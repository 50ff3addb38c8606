"""``wts fit-prior``: the search's prior over the squares fitted to a self-play run."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from wts.cli import arguments
from wts.errors import WtsError

__all__ = ["add_parser", "add_arguments", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``fit-prior`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "fit-prior", help="fit the search's prior over the squares to self-play data",
        description="Fit the weights of the linear prior over the squares (wts.players.prior) "
        "to a wts selfplay run by Newton's method, matching the search's final strategy at "
        "each turn, and print them with the cross-entropy on held-out games.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``wts fit-prior``."""
    parser.add_argument("directory", metavar="DIR", help="a wts selfplay run's directory")
    parser.add_argument("--holdout", type=arguments.holdout, default=0.2,
                        help="share of the games, the last ones, kept out of the fit to "
                        "measure it (default 0.2)")
    parser.add_argument("--ridge", type=arguments.ridge, default=1e-3,
                        help="penalty on the squared weights (default 0.001)")
    parser.add_argument("--out", metavar="FILE", default=None,
                        help="also write the weights and the figures as JSON")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Fit the prior's weights to a self-play run and print them."""
    import dataclasses
    import json
    from pathlib import Path

    from wts.players.prior import FEATURES
    from wts.runtime.files import write_atomically
    from wts.scale.prior_fit import fit
    from wts.scale.selfplay import load

    out = sys.stdout if out is None else out
    target = None if args.out is None else Path(args.out)
    if target is not None:  # refused before the fit, not after it
        folder = target.parent
        if target.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
            raise WtsError(f"cannot write {args.out}: not a file in a folder this user can "
                           "write to")
    data = load(args.directory)
    result = fit(data, holdout=args.holdout, ridge=args.ridge)
    print(f"wts fit-prior: {len(data):,} examples of {data.agent} in {args.directory}", file=out)
    print(result.table(), file=out)
    print(f"weights: {', '.join(f'{w:.3f}' for w in result.weights)}", file=out)
    if target is not None:
        document = {"features": list(FEATURES), **dataclasses.asdict(result)}
        write_atomically(target, (json.dumps(document, indent=1) + "\n").encode("utf-8"))
    return 0
