"""Players of What the Shell: random, greedy, and Monte Carlo tree search.

Every agent follows one small protocol, :class:`Agent`:

- ``agent.select(game, color) -> square``: the square ``color`` names this
  turn in ``game`` (a :class:`wts.Game` or :class:`wts.reference.Game`, left
  unchanged); ``color`` is a :class:`wts.Color` or ``"black"``/``"white"``;
- ``agent.reset()``: back to the state the constructor left, so the same
  calls give the same moves again.

Every agent takes ``seed=`` in its constructor: with the same seed and the
same positions it plays the same moves (``MCTSAgent`` with ``time_limit`` is
the exception: how far it searches depends on the machine's speed). With
``seed=None`` it draws a fresh seed.

>>> import wts
>>> from wts.players.agents import MCTSAgent, RandomAgent
>>> game = wts.Game()
>>> bot, opponent = MCTSAgent(level=1, seed=1), RandomAgent(seed=2)
>>> while not game.is_over():
...     result = game.play(bot.select(game, "black"), opponent.select(game, "white"))
>>> game.is_over(), bot.last_search.playouts
(True, 1000)
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from wts._public import publish
from wts.engine._game import GameCore
from wts.engine.game import as_fast_game
from wts.engine.pieces import Color, check_color
from wts.engine.squares import Square
from wts.errors import BusyError, GameOverError, ParameterError, ParameterTypeError
from wts.limits import MAX_SEARCH_THREADS
from wts.params import (
    check_bool,
    check_choice,
    check_float,
    check_int,
    check_seed,
)
from wts.players._greedy import greedy_move
from wts.players.az import AZAgent
from wts.players.prior import LEARNED
from wts.players.search_options import SearchOptions
from wts.players.search_team import MAX_PLAYOUTS, SearchTeam
from wts.players.specs import LEVELS, OPENSPIEL_SIMULATIONS, AgentSpec

if TYPE_CHECKING:
    from wts.engine.base import GameBase

__all__ = [
    "Agent",
    "RandomAgent",
    "GreedyAgent",
    "MCTSAgent",
    "SearchInfo",
    "ucb_exploration",
    "default_prior_weight",
    "make_agent",
    "check_agent",
]

def ucb_exploration(playouts: int) -> float:
    """The UCB1 constant ``MCTSAgent`` uses by default for ``playouts`` a move:
    0.2 up to 1,000 playouts, then 0.04 more for each doubling (0.4 at 32,000),
    as a larger search gains from looking wider (docs/mcts.md has the matches).

    >>> [round(ucb_exploration(n), 2) for n in LEVELS.values()]
    [0.2, 0.32, 0.4, 0.47, 0.57]
    """
    playouts = check_int(playouts, "playouts", 1, MAX_PLAYOUTS)
    return 0.2 + 0.04 * max(0.0, math.log2(playouts / 1000))

def default_prior_weight(playouts: int) -> float:
    """The weight ``MCTSAgent`` gives the learned prior by default for ``playouts``
    a move: 1 up to 1,000 playouts, then sqrt(1,000 / playouts), so that the prior's
    pull on the root at the end of a search, which grows with the square root of
    its visits, stays that of level 1 (docs/mcts.md has the matches).

    >>> [round(default_prior_weight(n), 3) for n in LEVELS.values()]
    [1.0, 0.354, 0.177, 0.1, 0.04]
    """
    playouts = check_int(playouts, "playouts", 1, MAX_PLAYOUTS)
    return min(1.0, math.sqrt(1000 / playouts))


#: With a whole-game clock, each move may use 1/CLOCK_SHARE of the time left.
CLOCK_SHARE = 10
#: The longest time_limit taken, in seconds: a day.
MAX_TIME_LIMIT = 86_400.0


@runtime_checkable
class Agent(Protocol):
    """A player: names a square for one colour, and can start afresh."""

    def select(self, game: GameBase, color: Color | str) -> Square:
        """The square ``color`` plays this turn; ``game`` is left unchanged."""
        ...

    def reset(self) -> None:
        """Forget everything since construction (the random state included)."""
        ...


def _color_index(color: Color | str) -> int:
    """0 for black, 1 for white."""
    return check_color(color).index


def _check_not_over(game: GameBase) -> None:
    if game.is_over():
        raise GameOverError(
            f"the game is over ({game.status.words}): there is no move to select"
        )


def _core(game: GameBase) -> GameCore:
    """The position as a fast-core game (a reference game is converted)."""
    return game if isinstance(game, GameCore) else as_fast_game(game)


def _fresh_seed() -> int:
    return random.SystemRandom().getrandbits(64)


def _check_seed(seed: int | None) -> int | None:
    return None if seed is None else check_seed(seed)


class _SeededAgent:
    """What the random and greedy agents share: a seed, and a generator that
    ``reset`` starts again from it."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = _check_seed(seed)
        self.reset()

    def reset(self) -> None:
        self._rng = random.Random(self.seed if self.seed is not None else _fresh_seed())

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomAgent(_SeededAgent):
    """Names a uniformly random empty square."""

    def select(self, game: GameBase, color: Color | str) -> Square:
        _color_index(color)
        _check_not_over(game)
        return self._rng.choice(game.legal_moves())


class GreedyAgent(_SeededAgent):
    """Looks one turn ahead, with the opponent's likely replies in mind.

    Every empty square is scored by the position after the turn, averaged
    over the opponent's likely replies, since both move at once: a square
    that gives them five (weight 4), one that blocks a five of ours (3), one
    where they capture (2), one that blocks a capture of ours (1), their two
    best line-building squares and a random square (1 each). A position is
    worth: the result if the game is over; else 40 a turtle of material,
    the threats of five next turn (one can be blocked, two cannot), and the
    line potential of every window of five cells free of the other side's
    pieces and eggs (1, 4, 16, 64 for 1-4 turtles), ours minus theirs. Ties
    break at random.
    """

    def select(self, game: GameBase, color: Color | str) -> Square:
        index = _color_index(color)
        _check_not_over(game)
        return int(greedy_move(_core(game), index, self._rng.getrandbits(64)))


@dataclass(frozen=True)
class SearchInfo:
    """What one ``MCTSAgent.select`` did."""

    square: Square
    playouts: int
    seconds: float
    nodes: int
    value: float | None  # the agent's mean reward after ``square`` (1 win, 0.5 draw, 0 loss)
    strategy: tuple[float, ...]  # the root's average strategy for the agent, 81 squares


#: How ``MCTSAgent`` turns the root's statistics into a move.
FINALS = ("value", "max", "sample")


class MCTSAgent:
    """Simultaneous-move Monte Carlo tree search (:class:`wts.players._search.Search`).

    ``MCTSAgent(level=3, seed=None, time_limit=None)``: ``level`` 1-5 sets the
    playouts per move from :data:`LEVELS`; ``time_limit`` (seconds per move)
    searches for that long instead. At every joint-move node of the tree each
    player chooses by decoupled UCB1 over its legal squares, and playouts
    finish the game in C without the GIL. docs/mcts.md says how each default
    below was chosen, with the matches that measured it.

    Keyword-only options:

    - ``playouts``: an exact budget a move, overriding the level;
    - ``clock``: seconds for the whole game; each move may use a tenth of
      what is left (and no more than ``time_limit``, if given). The clock
      starts again with each new game, which the agent recognises by a turn
      earlier than the last it was asked about (so one agent should not
      alternate between two games);
    - ``threads``: trees searched at once, their root statistics added up
      (root parallelism; default 1), on as many threads but no more than the
      cores (each thread then takes several trees in turn). The playouts are
      shared out among the trees; a timed search runs each for the whole time;
    - ``reuse``: keep the tree from one move to the next, moved on by the
      turn played (default True);
    - ``transpositions``: share one node among the paths that reach one
      position (default False);
    - ``policy``: ``"ucb"`` decoupled UCB1 (the default), ``"rm"`` regret
      matching or ``"exp3"``; ``exploration``: the UCB1 constant (default
      :func:`ucb_exploration` of ``playouts``, the level's unless given: 0.2
      at level 1, 0.4 at level 3, also for a timed search and whatever the
      threads), or gamma of rm and exp3 (default 0.2);
    - ``playout``: ``"tactical"`` (the default: random moves that complete a
      five or block the opponent's), ``"captures"`` (the same, and captures
      when it can) or ``"random"``;
    - ``final``: how the move is chosen at the root: ``"max"`` (the default)
      the square of the largest final strategy (for ``"ucb"`` the most
      visited), ``"value"`` the best mean reward among the squares chosen at
      least ``0.2`` times as often as the most chosen one (smoothed by one
      drawn game), ``"sample"`` a draw from the final strategy without the
      squares under ``purify`` (default 0.5) times the most likely one;
    - ``prior``: ``"none"`` (the default) or ``"learned"``: the linear prior
      over the squares of :mod:`wts.players.prior`, fitted to self-play, which
      orders the squares each node tries first and adds ``prior_weight``
      times prior x sqrt(node visits) / (1 + square visits) to their UCB1
      values; or a sequence of weights, one a feature. It needs
      ``policy="ucb"``. ``prior_weight`` defaults to
      :func:`default_prior_weight` of ``playouts`` (the level's unless given,
      as for ``exploration``: also for a timed search and whatever the
      threads): 1 at level 1, 0.18 at level 3;
    - ``max_memory``: the bytes the trees may hold together (256 MiB; beyond,
      the search goes on without growing them);
    - ``stop``: a :class:`threading.Event` that, once set from any thread,
      makes a running search stop within milliseconds and ``select`` answer
      from what it has searched (a "move now" button).
    """

    def __init__(
        self,
        level: int = 3,
        seed: int | None = None,
        time_limit: float | None = None,
        *,
        playouts: int | None = None,
        clock: float | None = None,
        threads: int = 1,
        reuse: bool = True,
        transpositions: bool = False,
        policy: str = "ucb",
        exploration: float | None = None,
        playout: str = "tactical",
        final: str = "max",
        purify: float = 0.5,
        max_memory: int = 256 << 20,
        prior: str | Sequence[float] | None = None,
        prior_weight: float | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.level = check_int(level, "level", min(LEVELS), max(LEVELS))
        self.seed = _check_seed(seed)
        self.time_limit = None if time_limit is None else check_float(
            time_limit, "time_limit (seconds)", 0.0, MAX_TIME_LIMIT, exclude_minimum=True)
        self.clock = None if clock is None else check_float(
            clock, "clock (seconds)", 0.0, MAX_TIME_LIMIT, exclude_minimum=True)
        self.playouts = LEVELS[self.level] if playouts is None else check_int(
            playouts, "playouts", 1, MAX_PLAYOUTS)
        self.threads = check_int(threads, "threads", 1, MAX_SEARCH_THREADS)
        self.reuse = check_bool(reuse, "reuse")
        self.final = check_choice(final, "final", FINALS)
        self.purify = check_float(purify, "purify", 0.0, 1.0)
        self.max_memory = check_int(max_memory, "max_memory", 0, 2**62)
        if stop is not None and not callable(getattr(stop, "is_set", None)):
            raise ParameterTypeError(f"stop must be a threading.Event, not {type(stop).__name__}")
        self.stop = stop
        # The defaults that depend on the playouts are the agent's; every
        # check is the options' own, made once, here.
        if exploration is None and isinstance(policy, str) and policy == "ucb":
            exploration = ucb_exploration(self.playouts)
        if prior_weight is None and not (prior is None or (isinstance(prior, str)
                                         and prior == "none")):
            prior_weight = default_prior_weight(self.playouts)
        self.options = SearchOptions(policy=policy, exploration=exploration, playout=playout,
                                     transpositions=transpositions, prior=prior,
                                     prior_weight=prior_weight)
        self._team = SearchTeam(self.threads, self.options, self.max_memory, self.reuse)
        self._busy = threading.Lock()
        self._reset()

    def reset(self) -> None:
        """Start afresh: the seed's random state, no trees, no totals. Like
        ``select``, it runs one call at a time: while another thread selects,
        it raises :class:`wts.BusyError` and changes nothing."""
        if not self._busy.acquire(blocking=False):
            raise BusyError("this MCTSAgent is selecting a move in another thread")
        try:
            self._reset()
        finally:
            self._busy.release()

    def _reset(self) -> None:
        self._rng = random.Random(self.seed if self.seed is not None else _fresh_seed())
        self._team.clear()
        self.last_search: SearchInfo | None = None
        self.total_playouts = 0
        self.total_seconds = 0.0
        self._clock_used = 0.0
        self._clock_turn = -1
        self._reading = 0.0  # seconds the last move's roots took to read

    def search(self, game: GameBase) -> SearchTeam:
        """The searches of ``game``'s position, done with this agent's settings
        (the trees of the last move reused when ``game`` follows on from it).

        Stops early, with the playouts done so far, once ``stop`` is set."""
        _check_not_over(game)
        started = time.perf_counter()
        seeds = [self._rng.getrandbits(64) for _ in range(self.threads)]
        self._team.start(game, _core(game), seeds)
        limit = self._move_time(game)
        if limit is None:
            self._team.run(self.playouts, None, self.stop)
        else:
            # The roots are read after the search: the time that took last
            # move (at most half the limit) comes off this one's search.
            self._team.run(None, started + limit - min(self._reading, limit / 2), self.stop)
        return self._team

    def _move_time(self, game: GameBase) -> float | None:
        """Seconds this move may take, or None for the playout budget."""
        if self.clock is None:
            return self.time_limit
        if game.turn < self._clock_turn:  # an earlier turn: a new game
            self._clock_used = 0.0
        self._clock_turn = game.turn
        share = max(self.clock - self._clock_used, 0.0) / CLOCK_SHARE
        return share if self.time_limit is None else min(share, self.time_limit)

    def select(self, game: GameBase, color: Color | str) -> Square:
        """The square ``color`` plays; ``game`` is left unchanged. One call at a
        time: a call from a second thread while one runs raises
        :class:`wts.BusyError`. Interrupted (Ctrl-C), the agent is left as it
        was, but for the trees it keeps between moves, which start afresh."""
        index = _color_index(color)
        if not self._busy.acquire(blocking=False):
            raise BusyError("this MCTSAgent is selecting a move in another thread")
        saved = self._rng.getstate(), self._clock_used, self._clock_turn
        try:
            return self._select(game, index)
        except BaseException:
            self._rng.setstate(saved[0])
            self._clock_used, self._clock_turn = saved[1], saved[2]
            self._team.clear()
            raise
        finally:
            self._busy.release()

    def _select(self, game: GameBase, index: int) -> Square:
        started = time.perf_counter()
        team = self.search(game)
        reading = time.perf_counter()
        visits, values, strategy = team.root(index)
        self._reading = time.perf_counter() - reading
        playouts = team.iterations - team.reused
        if team.iterations == 0:  # stopped before the first playout
            square = self._rng.choice(game.legal_moves())
        elif self.final == "value":
            floor = 0.2 * max(visits)

            def smoothed(sq: int) -> float:
                value = values[sq]
                assert value is not None
                return (value * visits[sq] + 0.5) / (visits[sq] + 1)

            square = max((sq for sq in range(81) if visits[sq] and visits[sq] >= floor),
                         key=smoothed)
        else:
            square = self._from_strategy(strategy)
        seconds = time.perf_counter() - started
        self.total_playouts += playouts
        self.total_seconds += seconds
        self._clock_used += seconds
        self.last_search = SearchInfo(square, playouts, seconds, team.nodes,
                                      values[square], tuple(strategy))
        return square

    def _from_strategy(self, strategy: list[float]) -> Square:
        top = max(strategy)
        if self.final == "max":
            best = [sq for sq, p in enumerate(strategy) if p == top]
            return best[0] if len(best) == 1 else self._rng.choice(best)
        kept = [(sq, p) for sq, p in enumerate(strategy) if p > 0 and p >= self.purify * top]
        x = self._rng.random() * sum(p for _, p in kept)
        for sq, p in kept:
            x -= p
            if x < 0:
                return sq
        return kept[-1][0]

    # The search's options, as the agent was given them (with its defaults).
    @property
    def policy(self) -> str:
        return self.options.policy

    @property
    def exploration(self) -> float:
        assert self.options.exploration is not None  # SearchOptions sets it
        return self.options.exploration

    @property
    def playout(self) -> str:
        return self.options.playout

    @property
    def transpositions(self) -> bool:
        return self.options.transpositions

    @property
    def prior(self) -> tuple[float, ...] | None:
        prior = self.options.prior
        assert prior is None or isinstance(prior, tuple)  # SearchOptions makes it a tuple
        return prior

    @property
    def prior_weight(self) -> float:
        assert self.options.prior_weight is not None
        return self.options.prior_weight

    @property
    def playouts_per_second(self) -> float:
        """Playouts per second over every search since construction or ``reset``."""
        return self.total_playouts / self.total_seconds if self.total_seconds else 0.0

    def __repr__(self) -> str:
        limit = f", time_limit={self.time_limit!r}" if self.time_limit is not None else ""
        prior = ""
        if self.prior is not None:
            prior = ", prior='learned'" if self.prior == LEARNED else ", prior=(...)"
        return f"MCTSAgent(level={self.level}, seed={self.seed!r}{limit}{prior})"


class EngineMaker(Protocol):
    """Makes the player of an engine program's command, not started yet
    (:class:`wts.protocol.player.EngineAgent`)."""

    def __call__(self, command: str, *, seed: int | None, time_limit: float | None,
                 stop: threading.Event | None) -> Agent: ...


class OpenSpielMaker(Protocol):
    """Makes OpenSpiel's MCTS as a player, ``simulations`` a move
    (:class:`wts.adapters.openspiel_agent.OpenSpielMCTSAgent`)."""

    def __call__(self, simulations: int, *, seed: int | None, stop: threading.Event | None,
                 **options: Any) -> Agent: ...


# The engine protocol and the adapters sit above the players, which never
# import them: ``import wts`` registers their players' makers here.
@dataclass
class _Makers:
    engine: EngineMaker | None = None
    openspiel: OpenSpielMaker | None = None


_makers = _Makers()


def register_makers(*, engine: EngineMaker, openspiel: OpenSpielMaker) -> None:
    """Set the makers of ``engine:CMD`` and ``openspiel-mcts`` players
    (``import wts`` does); registering again replaces them."""
    _makers.engine, _makers.openspiel = engine, openspiel


def make_agent(
    spec: str | AgentSpec,
    *,
    seed: int | None = None,
    level: int | None = None,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> Agent:
    """An agent from a spec (:class:`wts.agents.AgentSpec`, or its text):
    ``"random"``, ``"greedy"``, ``"mcts"``, ``"mcts:2"``,
    ``"az:3"`` (the network player, :class:`wts.agents.AZAgent`),
    ``"openspiel-mcts:1000"`` (:class:`wts.adapters.openspiel_agent.OpenSpielMCTSAgent`,
    which needs OpenSpiel; 1,000 simulations when the spec names none), and
    any options after commas, as ``"mcts:1,threads=2"``; or ``"engine:CMD"``,
    the engine program CMD (:class:`wts.protocol.player.EngineAgent`, started
    at its first move). The options' values are checked here, by the agent.

    ``level`` is the MCTS or network level when the spec names none (default 3);
    ``time_limit`` applies to those two only (a ``time_limit`` option in the spec
    wins), ``stop`` to both searches.

    >>> make_agent("mcts:2", seed=1)
    MCTSAgent(level=2, seed=1)
    """
    spec = AgentSpec.parse(spec)
    options = spec.keywords()
    if spec.command is not None:
        if _makers.engine is None:
            raise ParameterError("no maker of engine players: import wts registers it")
        return _makers.engine(spec.command, seed=seed, time_limit=time_limit, stop=stop)
    if spec.name == "random":
        return RandomAgent(seed=seed)
    if spec.name == "greedy":
        return GreedyAgent(seed=seed)
    if spec.name == "openspiel-mcts":
        simulations = spec.number if spec.number is not None else OPENSPIEL_SIMULATIONS
        if _makers.openspiel is None:
            raise ParameterError("no maker of openspiel-mcts players: import wts registers it")
        return _makers.openspiel(simulations, seed=seed, stop=stop, **options)
    chosen = spec.number if spec.number is not None else (level if level is not None else 3)
    options.setdefault("time_limit", time_limit)  # type: ignore[arg-type]
    if spec.name == "az":
        return AZAgent(level=chosen, seed=seed, stop=stop, **options)  # type: ignore[arg-type]
    return MCTSAgent(level=chosen, seed=seed, stop=stop, **options)  # type: ignore[arg-type]


def check_agent(spec: str | AgentSpec, *, level: int | None = None,
                time_limit: float | None = None) -> AgentSpec:
    """The spec, parsed, with its options' values checked by the agent it
    makes (made once and closed, never started: an engine's program is only
    looked for), so that a bad value is said before a match, not in its first
    game. The matches, the ladder, self-play and the command line call it."""
    spec = AgentSpec.parse(spec)
    agent = make_agent(spec, seed=0, level=level, time_limit=time_limit)
    close = getattr(agent, "close", None)
    if close is not None:
        close()
    return spec


# Shown and pickled under the documented path, whatever module holds the code.
publish("wts.agents", __all__, globals())
