"""Balanced openings for matches that decide something (``wts tournament --sprt``).

An opening is a position string (:meth:`wts.Game.fen`). The suite stored in
the package (``openings.txt`` beside this module) was made by :func:`generate`:
``TURNS`` turns of uniformly random squares from the empty board, kept only if
the game goes on, the position is new, and a short search from it
(:func:`evaluate`: ``PLAYOUTS`` playouts of the default MCTS, seeded) gives
black a value within ``BAND`` of 0.5. Regenerate it with::

    python -m wts.devtools.make_openings --count 100 --seed 0 > src/wts/players/openings.txt

A suite file holds one position string a line; blank lines and lines starting
with ``#`` are skipped. :func:`read_openings` checks every line (a position
string of an ongoing game, none twice) and names the first bad one.

>>> suite = stored_openings()
>>> len(suite), Game.from_fen(suite[0]).is_over()
(100, False)
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Sequence
from importlib import resources

from wts.engine.game import Game
from wts.errors import WtsError
from wts.params import check_int, check_seed

__all__ = ["MAX_FILE_BYTES", "TURNS", "PLAYOUTS", "BAND", "evaluate", "is_balanced", "generate",
           "parse_openings", "read_openings", "stored_openings", "suite_digest"]

#: The largest suite file read: far above any suite (a position string is
#: under 200 bytes), so that a wrong path cannot fill the memory.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Turns of random squares an opening holds.
TURNS = 2
#: Playouts of the search that judges an opening.
PLAYOUTS = 4000
#: How far from 0.5 black's value may be for an opening to count as balanced.
BAND = 0.05
_STORED = "openings.txt"
_MAX_OPENINGS = 100_000


def evaluate(fen: str, playouts: int = PLAYOUTS, seed: int = 0) -> float:
    """Black's value (1 win, 0.5 draw, 0 loss) after a ``playouts`` search from
    ``fen``: the root's mean reward over black's squares, weighted by visits.
    The same arguments give the same value."""
    from wts.players._search import Search
    from wts.players.agents import _core

    game = Game.from_fen(fen)
    if game.is_over():
        raise WtsError(f"the game is over in {fen!r}: there is nothing to evaluate")
    search = Search(_core(game), seed=check_seed(seed))
    search.run(check_int(playouts, "playouts", 1, 10_000_000))
    visits = search.visits(0)
    total = sum(n for n, value in zip(visits, search.values(0)) if value is not None)
    return sum(n * value for n, value in zip(visits, search.values(0))
               if value is not None) / max(total, 1)


def is_balanced(fen: str, playouts: int = PLAYOUTS, band: float = BAND) -> bool:
    """Whether :func:`evaluate` gives black a value within ``band`` of 0.5."""
    return abs(evaluate(fen, playouts) - 0.5) <= band


def generate(count: int, seed: int = 0, turns: int = TURNS, playouts: int = PLAYOUTS,
             band: float = BAND) -> list[str]:
    """``count`` balanced openings (see the module), the same for the same arguments."""
    count = check_int(count, "count", 1, _MAX_OPENINGS)
    turns = check_int(turns, "turns", 1, 40)
    if not 0 <= band <= 0.5:  # NaN fails too
        raise WtsError(f"band must be between 0 and 0.5, not {band!r}")
    rng = random.Random(f"wts-openings:{check_seed(seed)}:{turns}")
    found: list[str] = []
    seen: set[str] = set()
    for _ in range(1000 * count):
        if len(found) == count:
            return found
        game = Game()
        for _ in range(turns):
            if game.is_over():
                break
            legal = game.legal_moves()
            game.play(rng.choice(legal), rng.choice(legal))
        fen = game.fen()
        if not game.is_over() and fen not in seen:
            seen.add(fen)
            if is_balanced(fen, playouts, band):
                found.append(fen)
    if len(found) == count:
        return found
    raise WtsError(f"found {len(found)} balanced openings of {count} in {1000 * count} tries")


def parse_openings(text: str, source: str = "openings") -> list[str]:
    """The openings of a suite file's ``text``, each checked; a WtsError names
    ``source`` and the line of the first that is not an ongoing game's
    position string, or is there twice."""
    found: list[str] = []
    where: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            game = Game.from_fen(line)
        except ValueError as exc:
            raise WtsError(f"{source}, line {number}: not a position string ({exc})") from None
        if game.is_over():
            raise WtsError(f"{source}, line {number}: the game is over ({game.status.words})")
        fen = game.fen()
        if fen in where:
            raise WtsError(f"{source}, line {number}: the opening of line {where[fen]} again")
        where[fen] = number
        found.append(fen)
        if len(found) > _MAX_OPENINGS:
            raise WtsError(f"{source}: more than {_MAX_OPENINGS} openings")
    if not found:
        raise WtsError(f"{source}: no openings (one position string a line)")
    return found


def read_openings(path: str | os.PathLike[str]) -> list[str]:
    """The openings of the suite file at ``path`` (:func:`parse_openings`)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise WtsError(f"cannot read openings from {os.fspath(path)}: "
                       f"{exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise WtsError(f"{os.fspath(path)}: an openings file is at most "
                       f"{MAX_FILE_BYTES >> 20} MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WtsError(f"{os.fspath(path)}: not UTF-8 text ({exc.reason})") from None
    return parse_openings(text, os.fspath(path))


def stored_openings() -> list[str]:
    """The suite stored in the package (100 balanced openings)."""
    text = resources.files("wts.players").joinpath(_STORED).read_text(encoding="utf-8")
    return parse_openings(text, f"wts/players/{_STORED}")


def suite_digest(openings: Sequence[str]) -> str:
    """The SHA-256 of a suite (its position strings, one a line), in hex."""
    return hashlib.sha256("".join(f"{fen}\n" for fen in openings).encode()).hexdigest()
