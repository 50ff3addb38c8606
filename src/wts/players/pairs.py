"""Matches that decide something: openings played twice, colours swapped, until
an SPRT (:mod:`wts.players.sprt`) accepts one of its hypotheses.

``wts tournament A B --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05`` plays pair
after pair: pair ``i`` starts both its games from opening ``i`` of the suite
(:mod:`wts.players.openings`: the stored suite of balanced openings, its first
``suite`` of them, or a suite file; used in turn), A black in the
first game and white in the second; each side's seed comes from the match
seed, the pair and the game, so a pair's games depend on nothing else (the
backend included). After each pair, in order, the test is updated; the match
stops at its verdict, or after ``max_pairs`` pairs. With ``out`` the pairs
are saved as they finish, at most once a second (every save writes the whole
match) and when the match ends or is interrupted, in one JSON document
(written to a temporary name and renamed), which also holds the test's
status: the same command resumes a stopped match from it (the suite's
SHA-256 is recorded: a resume with another suite is refused).

>>> result = play_sprt("greedy", "random", parse_sprt("elo0=0,elo1=100"), seed=1)
>>> result.status.verdict, result.status.pairs <= 10
('H1', True)
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from wts._seeds import derive
from wts.engine.game import Game
from wts.engine.pieces import Color, Status
from wts.engine.squares import SQUARE_NAMES
from wts.errors import ParameterTypeError, PlayerError, WtsError
from wts.params import check_choice, check_int, check_seed
from wts.players.agents import check_agent
from wts.players.openings import read_openings, stored_openings, suite_digest
from wts.players.specs import AgentSpec
from wts.players.sprt import SPRT, SPRTStatus, parse_sprt
from wts.players.tournament import RESTARTS, Seats, engine_names, play_seated
from wts.runtime.backends import check_backend, run_chunks
from wts.runtime.files import write_atomically

__all__ = ["FORMAT", "suite_openings", "PairGame", "Pair", "SPRTResult", "play_sprt", "format_sprt",
           "parse_sprt"]

FORMAT = "wts-sprt/1"
#: Seconds between two saves of a match in progress: each writes every pair so
#: far, so saving after every pair would make a long match's saving quadratic.
SAVE_EVERY = 1.0


def suite_openings(suite: int | str | os.PathLike[str] | None = None) -> list[str]:
    """The openings of a match: the stored suite (None), its first ``suite``
    (an int), or the suite file at ``suite`` (a path)."""
    if suite is None or isinstance(suite, int):
        stored = stored_openings()
        if suite is None:
            return stored
        return stored[:check_int(suite, "openings", 1, len(stored))]
    if not isinstance(suite, (str, os.PathLike)):
        raise ParameterTypeError(f"openings must be a count or a path, not {suite!r}")
    return read_openings(suite)


@dataclass(frozen=True)
class PairGame:
    """One game of a pair: A's colour, the winner (None: a draw), the turns, the
    moves as text, and why it ended off the board (a forfeit), if it did."""

    a_color: str
    winner: str | None
    turns: int
    moves: str
    forfeit: str | None = None

    @property
    def a_points(self) -> float:
        winner = None if self.winner is None else Color(self.winner)
        return Status.for_winner(winner).points(Color(self.a_color))


@dataclass(frozen=True)
class Pair:
    """Pair ``index``: its opening and its two games (A black, then A white)."""

    index: int
    opening: str
    games: tuple[PairGame, PairGame]
    #: The name each engine program declared (``id name``), None for the
    #: others; not saved: a resumed match learns them again from its games.
    names: tuple[str | None, str | None] = field(default=(None, None), compare=False)

    @property
    def a_points(self) -> float:
        return sum(game.a_points for game in self.games)


@dataclass
class SPRTResult:
    """A match so far: its settings, its pairs in order, and the test's status."""

    a: str
    b: str
    seed: int
    test: SPRT
    suite: int
    pairs: list[Pair] = field(default_factory=list)
    openings: tuple[str, ...] = ()

    @property
    def suite_sha256(self) -> str:
        """The SHA-256 of the openings played (:func:`wts.players.openings.suite_digest`)."""
        return suite_digest(self.openings)

    @property
    def pentanomial(self) -> tuple[int, int, int, int, int]:
        counts = [0] * 5
        for pair in self.pairs:
            counts[round(pair.a_points * 2)] += 1
        return (counts[0], counts[1], counts[2], counts[3], counts[4])

    @property
    def status(self) -> SPRTStatus:
        return self.test.status(self.pentanomial)

    def document(self) -> dict[str, Any]:
        """The JSON document of the match: settings, pairs and status."""
        return {"format": FORMAT, "a": self.a, "b": self.b, "seed": self.seed,
                "sprt": asdict(self.test), "openings": self.suite,
                "openings_sha256": self.suite_sha256,
                "pairs": [{"index": p.index, "opening": p.opening,
                           "games": [asdict(g) for g in p.games]} for p in self.pairs],
                "status": asdict(self.status)}


@dataclass(frozen=True)
class _PairTask:
    a: AgentSpec
    b: AgentSpec
    seed: int
    index: int
    opening: str
    time_limit: float | None
    level: int | None = None
    restart: str = "failure"


def play_pair(task: _PairTask) -> Pair:
    """Both games of one pair (a backend task: runs in any worker)."""
    games = []
    names: list[str | None] = [None, None]
    with Seats(task.restart) as seats:  # an engine plays both games of its pair
        for number, a_color in enumerate((Color.BLACK, Color.WHITE)):
            game, forfeit, agents, _, _ = play_seated(
                seats, (task.a, task.b), [derive(task.seed, task.index, number, side)
                                          for side in (0, 1)],
                a_color, task.level, task.time_limit, threading.Event(),
                start=Game.from_fen(task.opening))
            names = [old or new for old, new in zip(names, engine_names(agents))]
            games.append(_pair_game(game, forfeit, a_color))
    return Pair(task.index, task.opening, (games[0], games[1]), (names[0], names[1]))


def _pair_game(game: Game, forfeit: tuple[Color | None, PlayerError] | None,
               a_color: Color) -> PairGame:
    """One game of a pair, as the match's document keeps it."""
    winner = game.winner if forfeit is None else forfeit[0]
    moves = " ".join(f"{SQUARE_NAMES[t.black_move]} {SQUARE_NAMES[t.white_move]}"
                     for t in game.history)
    return PairGame(a_color.value, None if winner is None else winner.value, game.turn, moves,
                    None if forfeit is None else str(forfeit[1]))


def _load(path: Path, result: SPRTResult) -> None:
    """The pairs of a match saved at ``path``, checked to be this match's."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise WtsError(f"cannot resume from {path}: {exc}") from None
    wanted = {"format": FORMAT, "a": result.a, "b": result.b, "seed": result.seed,
              "sprt": asdict(result.test), "openings": result.suite,
              "openings_sha256": result.suite_sha256}
    if not isinstance(document, dict) or any(document.get(k) != v for k, v in wanted.items()):
        raise WtsError(f"{path} holds another match (players, seed, test or openings differ); "
                       "give another --out to start afresh")
    suite = result.openings
    try:
        for number, item in enumerate(document["pairs"]):
            games = tuple(PairGame(**game) for game in item["games"])
            if item["index"] != number or item["opening"] != suite[number % len(suite)] \
                    or len(games) != 2:
                raise ValueError(f"pair {number} is not the one this match plays")
            for game, color in zip(games, ("black", "white")):
                if game.a_color != color or game.winner not in (None, "black", "white"):
                    raise ValueError(f"pair {number} has a game that is not well formed")
            result.pairs.append(Pair(number, item["opening"], (games[0], games[1])))
    except (KeyError, TypeError, ValueError) as exc:
        raise WtsError(f"cannot resume from {path}: {exc}") from None


def _save(path: Path, result: SPRTResult) -> None:
    """Write the match to ``path`` whole: a temporary file beside it, flushed, renamed."""
    text = json.dumps(result.document(), indent=1) + "\n"
    write_atomically(path, text.encode("utf-8"))


def _decided(result: SPRTResult) -> bool:
    return result.status.verdict is not None


def play_sprt(a: str | AgentSpec, b: str | AgentSpec, test: SPRT, *, seed: int = 0,
              suite: int | str | os.PathLike[str] | None = None,
              max_pairs: int = 1000, level: int | None = None,
              time_limit: float | None = None, backend: str = "local",
              workers: int | None = None, address: str | None = None,
              out: str | os.PathLike[str] | None = None,
              progress: Callable[[SPRTResult], None] | None = None,
              restart: str = "failure") -> SPRTResult:
    """Play pairs of A against B until ``test`` decides or ``max_pairs`` are played.

    The pairs depend only on the players, ``seed`` and ``suite`` (None: the
    stored suite of balanced openings; an int: its first ``suite``; a path: a
    suite file, :func:`wts.players.openings.read_openings`), not on the
    backend: ``"local"`` plays them one after the other, ``"process"`` and
    ``"ray"`` ``workers`` at a time (the test is updated in pair order, and
    pairs played past the verdict are dropped). An engine program plays both
    games of its pair in one process (``restart``: :data:`wts.tournament.RESTARTS`).
    ``out`` saves the match as pairs finish (at most every :data:`SAVE_EVERY`
    seconds, and when it ends or is interrupted) and resumes one saved there.
    """
    specs = (check_agent(a, level=level, time_limit=time_limit),
             check_agent(b, level=level, time_limit=time_limit))
    seed = check_seed(seed)
    max_pairs = check_int(max_pairs, "max_pairs", 1, 1_000_000)
    restart = check_choice(restart, "restart", RESTARTS)
    backend, count = check_backend(backend, workers, address)
    fens = suite_openings(suite)
    result = SPRTResult(str(specs[0]), str(specs[1]), seed, test, len(fens),
                        openings=tuple(fens))
    path = None if out is None else Path(out)
    if path is not None and path.exists():
        _load(path, result)
    try:
        _play_pairs(result, max_pairs, count, time_limit, level, backend, workers, address,
                    path, progress, restart)
    finally:  # the pairs played so far are kept, also on Ctrl-C or a failure
        if path is not None:
            _save(path, result)
    return result


def _play_pairs(result: SPRTResult, max_pairs: int, count: int, time_limit: float | None,
                level: int | None, backend: str, workers: int | None, address: str | None,
                path: Path | None, progress: Callable[[SPRTResult], None] | None,
                restart: str) -> None:
    a, b = AgentSpec.parse(result.a), AgentSpec.parse(result.b)
    seed, suite_fens = result.seed, result.openings
    saved = time.monotonic()
    while not _decided(result) and len(result.pairs) < max_pairs:
        first = len(result.pairs)
        batch = min(count, max_pairs - first)
        tasks = [_PairTask(a, b, seed, index, suite_fens[index % len(suite_fens)], time_limit,
                           level, restart)
                 for index in range(first, first + batch)]
        done: dict[int, Pair] = {}
        for number, pair in run_chunks(play_pair, tasks, backend=backend, workers=workers,
                                       address=address):
            done[number] = pair
        for number in range(batch):
            result.pairs.append(done[number])
            if path is not None and time.monotonic() - saved >= SAVE_EVERY:
                _save(path, result)
                saved = time.monotonic()
            if progress is not None:
                progress(result)
            if _decided(result):
                break  # the pairs played past the verdict are not counted


def format_sprt(result: SPRTResult) -> str:
    """The table ``wts tournament --sprt`` prints."""
    status = result.status
    test = result.test
    games = 2 * status.pairs
    a_points = sum(pair.a_points for pair in result.pairs)
    forfeits = sum(game.forfeit is not None for pair in result.pairs for game in pair.games)
    # An engine is named by the name it declares, the others by their spec.
    a, b = (next((pair.names[side] for pair in result.pairs if pair.names[side]), spec)
            for side, spec in enumerate((result.a, result.b)))
    verdict = {"H1": f"H1 accepted: {a} is at least {test.elo1:g} Elo stronger",
               "H0": f"H0 accepted: {a} is not {test.elo1:g} Elo stronger (the "
                     f"pairs favour elo0 = {test.elo0:g})",
               None: "no verdict yet"}[status.verdict]

    def signed(value: float) -> str:
        if math.isinf(value):
            return "+inf" if value > 0 else "-inf"
        return f"{value:+.1f}" if round(value, 1) else "0.0"  # never "-0.0"

    lines = [
        f"wts tournament: {a} vs {b}, SPRT elo0={test.elo0:g} elo1={test.elo1:g} "
        f"alpha={test.alpha:g} beta={test.beta:g}, {result.suite} openings "
        f"(SHA-256 {result.suite_sha256[:12]}), seed {result.seed}",
        f"  pairs          {status.pairs} ({games} games, each opening with colours swapped)",
        f"  pentanomial    {' '.join(str(n) for n in status.pentanomial)}  "
        "(pairs scoring 0, 1/2, 1, 3/2, 2 for A)",
        f"  score          {a_points:g} / {games} for {a}",
        f"  LLR            {status.llr:.3f}  (bounds {status.lower:.3f}, {status.upper:.3f})",
        f"  Elo            {signed(status.elo)}  (95% interval {signed(status.elo_low)} to "
        f"{signed(status.elo_high)})",
        f"  LOS            {100 * status.los:.1f}%",
    ]
    if forfeits:
        lines.append(f"  forfeits       {forfeits}")
    lines.append(f"  verdict        {verdict}")
    return "\n".join(lines)

