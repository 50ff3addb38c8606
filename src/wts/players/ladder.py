"""A measured ladder: ``wts ladder``, Elo ratings of the MCTS levels and fixed anchors.

Every level plays its neighbours in the list of levels and every anchor
(``random``, ``greedy`` and OpenSpiel's ``MCTSBot`` at 1,000 simulations by
default); the anchors do not play each other, since the levels connect them
and a sweep between anchors (greedy against random) tells nothing the
levels' games do not. Each pairing is a :func:`wts.tournament.play_match`
of ``games`` games, each side black in half of them, with a seed made from
the ladder's seed and the two specs, so a pairing's games do not depend on
the other pairings or on the backend.

The ratings (:func:`fit_elo`) maximise the Bradley-Terry likelihood of the
scores (a draw is half a win) with one virtual draw added to every pairing,
as BayesElo does: without it a clean sweep, certain against ``random``,
would put the loser at minus infinity. The first anchor is fixed at 0. The
95% intervals are normal ones from the curvature of the log-likelihood at
the maximum (the Fisher information), with the anchor held fixed.

>>> from wts.players.ladder import fit_elo
>>> ratings = fit_elo([("a", "random", 15, 20), ("b", "a", 12, 20)])
>>> [(r.player, round(r.elo)) for r in ratings]
[('b', 247), ('a', 180), ('random', 0)]
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from wts._seeds import derive
from wts.errors import ParameterError
from wts.limits import MAX_THREADS
from wts.params import check_int, check_seed
from wts.players.agents import check_agent
from wts.players.az import AZ_LEVEL_SECONDS
from wts.players.specs import LEVELS, OPENSPIEL_SIMULATIONS, AgentSpec
from wts.players.tournament import MatchResult, _label, play_match
from wts.runtime.backends import check_backend

__all__ = [
    "DEFAULT_ANCHORS",
    "Rating",
    "LadderResult",
    "ladder_pairings",
    "pairing_seed",
    "fit_elo",
    "run_ladder",
    "format_ladder",
]

#: The anchors of ``wts ladder``; the first is rated 0.
DEFAULT_ANCHORS = ("random", "greedy", f"openspiel-mcts:{OPENSPIEL_SIMULATIONS}")
#: Elo points per natural unit of the logistic model.
ELO_SCALE = 400.0 / math.log(10.0)
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rating:
    """One player's line of the table: Elo with its 95% interval, games, score."""

    player: str
    elo: float
    low: float
    high: float
    games: int
    points: float

    @property
    def score(self) -> float:
        """Points (a draw a half) per game."""
        return self.points / self.games if self.games else 0.5


@dataclass
class LadderResult:
    """The matches of a ladder and the ratings fitted to them."""

    players: list[str]
    anchor: str  # the player rated 0
    games: int
    seed: int
    matches: list[MatchResult] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)


def ladder_pairings(levels: Sequence[int], anchors: Sequence[str]) -> list[tuple[str, str]]:
    """The pairings of a ladder: each level against the next one, then every
    level against every anchor.

    >>> ladder_pairings([1, 2], ["random"])
    [('mcts:1', 'mcts:2'), ('mcts:1', 'random'), ('mcts:2', 'random')]
    """
    names = [f"mcts:{level}" for level in levels]
    pairs = list(itertools.pairwise(names))
    pairs += [(name, anchor) for name in names for anchor in anchors]
    return pairs


def pairing_seed(seed: int, a: str, b: str) -> int:
    """The match seed of the pairing ``a`` against ``b`` in a ladder of ``seed``."""
    digest = int.from_bytes(hashlib.blake2b(f"{a} vs {b}".encode(), digest_size=8).digest(),
                            "little")
    return derive(seed, digest)


def fit_elo(
    scores: Iterable[tuple[str, str, float, int]],
    anchor: str = "random",
    prior_draws: float = 1.0,
) -> list[Rating]:
    """Elo ratings from ``(a, b, a's points, games)`` results, ``anchor`` at 0,
    best first.

    Newton's method on the Bradley-Terry log-likelihood, with ``prior_draws``
    virtual draws added to every pairing that was played (0: plain maximum
    likelihood, which diverges on a clean sweep). Every player must be linked
    to the anchor by games.
    """
    rows = [(str(a), str(b), float(points), int(games)) for a, b, points, games in scores]
    if prior_draws < 0 or not math.isfinite(prior_draws):
        raise ParameterError(f"prior_draws must be a finite number from 0 up, not {prior_draws}")
    players = list(dict.fromkeys(name for a, b, _, _ in rows for name in (a, b)))
    if anchor not in players:
        raise ParameterError(f"the anchor {anchor!r} played no game")
    index = {name: i for i, name in enumerate(players)}
    n = len(players)
    games = np.zeros((n, n))
    points = np.zeros((n, n))  # points[i, j]: i's points against j
    for a, b, won, played in rows:
        if a == b:
            raise ParameterError(f"{a!r} cannot play itself in a ladder")
        if played < 0 or not 0 <= won <= played:
            raise ParameterError(f"{a} vs {b}: {won:g} points in {played} games")
        i, j = index[a], index[b]
        games[i, j] += played
        games[j, i] += played
        points[i, j] += won
        points[j, i] += played - won
    linked = games > 0
    games += prior_draws * linked
    points += prior_draws / 2 * linked
    _check_linked(players, linked, index[anchor])
    free = [i for i in range(n) if i != index[anchor]]
    r = np.zeros(n)  # natural units
    diverged = ParameterError("the ratings do not converge: with prior_draws=0 a clean sweep "
                              "puts a player at infinity")
    try:
        for _ in range(200):
            gradient, hessian = _derivatives(r, games, points)
            step = np.linalg.solve(-hessian[np.ix_(free, free)], gradient[free])
            step = np.clip(step, -2.0, 2.0)  # keeps the first steps of a lopsided fit sane
            r[free] += step
            if np.max(np.abs(step), initial=0.0) < 1e-9:
                break
        else:
            raise diverged
        _, hessian = _derivatives(r, games, points)
        covariance = np.linalg.inv(-hessian[np.ix_(free, free)])
    except np.linalg.LinAlgError:
        raise diverged from None
    spread = np.zeros(n)
    spread[free] = _Z95 * np.sqrt(np.diag(covariance))
    totals = points.sum(axis=1) - prior_draws / 2 * linked.sum(axis=1)
    played = games.sum(axis=1) - prior_draws * linked.sum(axis=1)
    ratings = [
        Rating(name, ELO_SCALE * r[i], ELO_SCALE * (r[i] - spread[i]),
               ELO_SCALE * (r[i] + spread[i]), round(played[i]), float(totals[i]))
        for i, name in enumerate(players)
    ]
    return sorted(ratings, key=lambda rating: -rating.elo)


def _derivatives(r: np.ndarray, games: np.ndarray,
                 points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The gradient and Hessian of the log-likelihood in natural units."""
    with np.errstate(over="ignore"):  # far apart, exp overflows to inf: expected is 0
        expected = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))
    gradient = (points - games * expected).sum(axis=1)
    weight = games * expected * (1.0 - expected)
    hessian = weight - np.diag(weight.sum(axis=1))
    return gradient, hessian


def _check_linked(players: list[str], linked: np.ndarray, anchor: int) -> None:
    reached = {anchor}
    frontier = [anchor]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(linked[i]):
            if int(j) not in reached:
                reached.add(int(j))
                frontier.append(int(j))
    missing = [name for i, name in enumerate(players) if i not in reached]
    if missing:
        raise ParameterError(f"no games link {', '.join(missing)} to the anchor "
                             f"{players[anchor]!r}: their ratings cannot be fitted")


def run_ladder(
    levels: Sequence[int] = tuple(LEVELS),
    anchors: Sequence[str | AgentSpec] = DEFAULT_ANCHORS,
    games: int = 20,
    seed: int = 0,
    *,
    jobs: int = 1,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> LadderResult:
    """Play every pairing of :func:`ladder_pairings` and fit the ratings.

    ``games`` per pairing, even (each side black in half); ``jobs``,
    ``backend``, ``workers`` and ``address`` as for :func:`play_match`, which
    they do not change the results of. ``progress(pairing, games done,
    games in all)`` is called after every game.

    >>> result = run_ladder([1], ["random"], games=2, seed=1)
    >>> [(r.player, r.games) for r in result.ratings]
    [('mcts:1', 2), ('random', 2)]
    """
    levels = [check_int(level, "level", min(LEVELS), max(LEVELS)) for level in levels]
    anchors = [str(AgentSpec.parse(anchor)) for anchor in anchors]
    games = check_int(games, "games", 2)
    if games % 2:
        raise ParameterError(f"games must be even, each side black in half of them, not {games}")
    seed = check_seed(seed)
    check_int(jobs, "jobs", 1, MAX_THREADS)
    check_backend(backend, workers, address)
    if not anchors:
        raise ParameterError("a ladder needs at least one anchor, rated 0")
    players = [_label(f"mcts:{level}", None) for level in levels]
    players += [_label(anchor, None) for anchor in anchors]
    if len(set(players)) != len(players):
        raise ParameterError(f"a player is named twice in the ladder: {', '.join(players)}")
    for spec in anchors:  # a missing OpenSpiel says so now, not after an hour of games
        check_agent(spec)
    pairs = ladder_pairings(levels, players[len(levels):])
    result = LadderResult(players, players[len(levels)], games, seed)
    total = games * len(pairs)
    for number, (a, b) in enumerate(pairs):
        def tick(done: int, label: str = f"{a} vs {b}", before: int = number * games) -> None:
            if progress is not None:
                progress(label, before + done, total)

        result.matches.append(play_match(a, b, games, pairing_seed(seed, a, b), jobs=jobs,
                                         backend=backend, workers=workers, address=address,
                                         progress=tick))
    result.ratings = fit_elo(
        [(m.a, m.b, m.a_wins + 0.5 * m.draws, m.games) for m in result.matches],
        anchor=result.anchor)
    return result


def _elo(value: float) -> str:
    return f"{value:+.0f}" if round(value) else "0"


def format_ladder(result: LadderResult) -> str:
    """The report ``wts ladder`` prints: every pairing's score, then the table."""
    anchor = result.anchor
    width = max(12, *(len(p) for p in result.players))
    lines = [f"wts ladder: {len(result.matches)} pairings of {result.games} games, "
             f"seed {result.seed}"]
    for match in result.matches:
        points = match.a_wins + 0.5 * match.draws
        pairing = f"{match.a} vs {match.b}"
        lines.append(f"  {pairing:<{2 * width + 4}} {points:>5g} - {match.games - points:g}")
    lines.append("")
    lines.append(f"  {'player':<{width}} {'Elo':>6}  {'95% interval':<15} {'games':>6} "
                 f"{'score':>6}")
    for rating in result.ratings:
        interval = ("anchor" if rating.player == anchor
                    else f"{_elo(rating.low)} to {_elo(rating.high)}")
        lines.append(f"  {rating.player:<{width}} {_elo(rating.elo):>6}  {interval:<15} "
                     f"{rating.games:>6} {100 * rating.score:>5.1f}%")
    lines.append(f"  Elo by maximum likelihood with one virtual draw a pairing, {anchor} = 0")
    return "\n".join(lines)


#: What one simulation of OpenSpiel's MCTS costs, in this package's playouts:
#: 6.2 s a move at 1,000 simulations on a machine playing 221,600 playouts/s.
OPENSPIEL_SIMULATION_PLAYOUTS = 1_374
#: The development machine's speeds the estimate converts time with: MCTS
#: playouts a second on one core, and the network player's evaluations.
MCTS_PLAYOUTS_PER_SECOND = 290_000
AZ_EVALUATIONS_PER_SECOND = 3_000
#: Turns of a ladder game, for the estimate (games between searching players
#: on the README's machine took 25 to 60).
ESTIMATED_TURNS = 40


def move_cost(spec: str | AgentSpec) -> float:
    """What one move of ``spec`` costs, in MCTS playouts (0 for random and greedy)."""
    spec = AgentSpec.parse(spec)
    if spec.name == "mcts":
        playouts = spec.keywords().get("playouts")
        return float(playouts if isinstance(playouts, int) else LEVELS[spec.number or 3])
    if spec.name == "az":
        # A timed search costs its time; a budget of descents, the network's evaluations.
        seconds = spec.keywords().get("time_limit")
        playouts = spec.keywords().get("playouts")
        if isinstance(playouts, int) and not isinstance(seconds, float):
            seconds = playouts / AZ_EVALUATIONS_PER_SECOND
        if not isinstance(seconds, float):
            seconds = AZ_LEVEL_SECONDS[spec.number or 3]
        return seconds * MCTS_PLAYOUTS_PER_SECOND
    if spec.name == "openspiel-mcts":
        return float((spec.number or OPENSPIEL_SIMULATIONS) * OPENSPIEL_SIMULATION_PLAYOUTS)
    return 0.0


def playouts_per_second() -> float:
    """This machine's MCTS speed on one thread, measured on a short search."""
    from wts.engine.game import Game
    from wts.players.agents import MCTSAgent

    MCTSAgent(playouts=1_000, seed=0).select(Game(), "black")  # warm the caches
    agent = MCTSAgent(playouts=16_000, seed=0)
    agent.select(Game(), "black")
    return agent.total_playouts / max(agent.total_seconds, 1e-6)
