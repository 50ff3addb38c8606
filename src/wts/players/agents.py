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
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from wts.engine._game import GameCore
from wts.engine.game import Game, as_fast_game
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
    is_masked_array,
    masked_array_refused,
)
from wts.players._greedy import greedy_move
from wts.players._search import Search
from wts.players.prior import LEARNED
from wts.players.registry import ENGINE_PREFIX, is_engine_spec, provider
from wts.players.search_team import MAX_PLAYOUTS, SearchTeam

if TYPE_CHECKING:
    from wts.adapters.openspiel_agent import OpenSpielMCTSAgent
    from wts.engine.base import GameBase
    from wts.protocol.player import EngineAgent

__all__ = [
    "Agent",
    "RandomAgent",
    "GreedyAgent",
    "MCTSAgent",
    "SearchInfo",
    "LEVELS",
    "ucb_exploration",
    "canonical_agent_spec",
    "default_prior_weight",
    "AGENT_NAMES",
    "OPENSPIEL_SIMULATIONS",
    "make_agent",
    "parse_agent_spec",
    "agent_options",
    "AGENT_OPTIONS",
]

#: Playouts per move of each ``MCTSAgent`` level. The measured time per move
#: on one core of a 2-core x86-64 machine is in docs/players.md.
LEVELS: dict[int, int] = {1: 1_000, 2: 8_000, 3: 32_000, 4: 100_000, 5: 640_000}


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


#: The names ``MCTSAgent``'s ``prior`` takes.
PRIORS = ("none", "learned")


def _prior_weights(prior: str | Sequence[float] | None) -> tuple[float, ...] | None:
    """The search's prior weights for the ``prior`` option: None for no prior."""
    if prior is None or isinstance(prior, str):
        name = check_choice("none" if prior is None else prior, "prior", PRIORS)
        return LEARNED if name == "learned" else None
    if is_masked_array(prior):
        raise ParameterTypeError(masked_array_refused("prior"))
    if not hasattr(prior, "__len__"):  # an endless iterable is refused, not read
        raise ParameterTypeError(f"prior must be 'none', 'learned' or a sequence of weights, "
                                 f"not {type(prior).__name__}")
    return tuple(prior)  # the search checks the values


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
        self.transpositions = check_bool(transpositions, "transpositions")
        self.final = check_choice(final, "final", FINALS)
        self.purify = check_float(purify, "purify", 0.0, 1.0)
        self.policy = policy
        if exploration is None and isinstance(policy, str) and policy == "ucb":
            exploration = ucb_exploration(self.playouts)
        self.exploration = exploration
        self.playout = playout
        self.max_memory = check_int(max_memory, "max_memory", 0, 2**62)
        if stop is not None and not callable(getattr(stop, "is_set", None)):
            raise ParameterTypeError(f"stop must be a threading.Event, not {type(stop).__name__}")
        self.stop = stop
        self.prior = _prior_weights(prior)
        if prior_weight is None:
            prior_weight = default_prior_weight(self.playouts)
        elif self.prior is None:
            raise ParameterError("prior_weight needs a prior: give prior='learned' or weights")
        self.prior_weight = check_float(prior_weight, "prior_weight", 0.0, 1e6)
        options: dict[str, Any] = {"policy": policy, "exploration": self.exploration,
                                   "playout": playout, "transpositions": self.transpositions,
                                   "prior": self.prior, "prior_weight": self.prior_weight}
        # Check the search options now rather than at the first move.
        Search(Game(), max_memory=0, **options)
        self._team = SearchTeam(self.threads, options, self.max_memory, self.reuse)
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


#: The agent names :func:`make_agent` knows.
AGENT_NAMES = ("random", "greedy", "mcts", "openspiel-mcts")

#: Simulations a move of ``openspiel-mcts`` when the spec names none, and the most.
OPENSPIEL_SIMULATIONS = 1_000
_MAX_OPENSPIEL_SIMULATIONS = 1_000_000


#: The options a spec may give each agent after its name, and their types.
AGENT_OPTIONS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {},
    "mcts": {"playouts": int, "time_limit": float, "clock": float, "threads": int,
             "reuse": bool, "transpositions": bool, "policy": str, "exploration": float,
             "playout": str, "final": str, "purify": float, "prior": str,
             "prior_weight": float},
    "openspiel-mcts": {"uct_c": float},
}
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
_INTEGER = re.compile(r"[0-9]+")


def _shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, cut short if long."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r} (and {len(text) - limit} more characters)"


def _is_engine(spec: str) -> bool:
    return is_engine_spec(spec)


def parse_agent_spec(spec: str) -> tuple[str, int | None]:
    """A spec as (name, number): ``"random"``, ``"greedy"``, ``"mcts"``,
    ``"mcts:LEVEL"``, ``"openspiel-mcts"`` or ``"openspiel-mcts:SIMULATIONS"``,
    each optionally followed by options (:func:`agent_options`); or
    ``"engine:CMD"``, an engine program (:mod:`wts.protocol.player`), which
    gives ``("engine", None)``.

    >>> parse_agent_spec("mcts:2"), parse_agent_spec("openspiel-mcts:1000")
    (('mcts', 2), ('openspiel-mcts', 1000))
    """
    if not isinstance(spec, str):
        raise ParameterTypeError(f"an agent spec is a string, not {type(spec).__name__}")
    if _is_engine(spec):
        provider("engine_command")(spec)  # the program exists
        return "engine", None
    head = spec.strip().lower().partition(",")[0]
    name, sep, number = head.partition(":")
    name = name.strip()
    if name not in AGENT_NAMES:
        raise ParameterError(f"unknown agent {spec!r}: expected one of {', '.join(AGENT_NAMES)}"
                             " (mcts takes a level, as mcts:2; openspiel-mcts a number of "
                             "simulations, as openspiel-mcts:1000), or engine:CMD")
    agent_options(spec)
    if not sep:
        return name, None
    if name == "mcts":
        level = {str(k): k for k in LEVELS}.get(number.strip(), 0)
        if level not in LEVELS:
            raise ParameterError(f"bad level in {spec!r}: expected mcts:1 to mcts:{max(LEVELS)}")
        return name, level
    if name == "openspiel-mcts":
        text = number.strip()
        simulations = int(text) if text.isascii() and text.isdigit() else 0
        if not 1 <= simulations <= _MAX_OPENSPIEL_SIMULATIONS:
            raise ParameterError(f"bad number of simulations in {spec!r}: expected "
                                 f"openspiel-mcts:1 to openspiel-mcts:{_MAX_OPENSPIEL_SIMULATIONS}")
        return name, simulations
    raise ParameterError(f"agent {name!r} takes no level: {spec!r}")


def agent_options(spec: str) -> dict[str, int | float | bool | str]:
    """The options after a spec's name, as keyword arguments of its agent:
    ``"mcts:1,threads=2,reuse=false"`` gives ``{"threads": 2, "reuse": False}``.
    :data:`AGENT_OPTIONS` lists each agent's; their values are checked by the
    agent's constructor.

    >>> agent_options("mcts:1,policy=rm,exploration=0.3")
    {'policy': 'rm', 'exploration': 0.3}
    """
    if not isinstance(spec, str):
        raise ParameterTypeError(f"an agent spec is a string, not {type(spec).__name__}")
    if _is_engine(spec):  # the command is the program's: commas and all
        return {}
    head, *items = spec.strip().lower().split(",")
    known = AGENT_OPTIONS.get(head.partition(":")[0].strip(), {})
    options: dict[str, int | float | bool | str] = {}
    for item in items:
        key, sep, text = (part.strip() for part in item.partition("="))
        if key not in known or not sep or not text:
            names = ", ".join(known) or "none"
            raise ParameterError(f"bad option {_shown(item.strip())} in {_shown(spec)}: expected "
                                 f"KEY=VALUE with KEY one of: {names}")
        if key in options:
            raise ParameterError(f"option {key!r} given twice in {_shown(spec)}")
        kind = known[key]
        try:
            if kind is bool:
                if text not in _TRUE + _FALSE:
                    raise ValueError(text)
                options[key] = text in _TRUE
            elif kind is int:
                if not _INTEGER.fullmatch(text):
                    raise ValueError(text)
                options[key] = int(text)
            else:
                if not text.isascii():
                    raise ValueError(text)
                options[key] = kind(text)
        except ValueError:
            wanted = {bool: "true or false", int: "digits"}.get(kind, kind.__name__)
            raise ParameterError(f"bad value for {key} in {_shown(spec)}: expected {wanted}, "
                                 f"not {_shown(text)}") from None
    return options


def canonical_agent_spec(spec: str) -> str:
    """The spec as game records and run folders store it: lower case, with no
    white space around its parts (an ``engine:CMD`` keeps its command as
    written); a spec that does not parse, or holds white space or a control
    character inside a part, raises ParameterError.

    >>> canonical_agent_spec(" MCTS : 2 , threads = 02, reuse=no")
    'mcts:2,threads=2,reuse=false'
    """
    name, number = parse_agent_spec(spec)
    if name == "engine":  # a program's command keeps its case and its spaces
        command = spec.strip()[len(ENGINE_PREFIX):].strip()
        if not command.isprintable():
            raise ParameterError(f"bad agent spec {_shown(spec)}: a control character in "
                                 "the engine's command")
        return f"{ENGINE_PREFIX}{command}"
    parts = [name if number is None else f"{name}:{number}"]
    # Each option in the order given, its value as its type writes it:
    # "threads=02" and "threads=2", "reuse=yes" and "reuse=true" are one spec.
    for key, value in agent_options(spec).items():
        text = ("true" if value else "false") if isinstance(value, bool) else (
            repr(value) if isinstance(value, float) else str(value))
        parts.append(f"{key}={text}")
    canonical = ",".join(parts)
    if not all(c.isprintable() and not c.isspace() for c in canonical):
        raise ParameterError(f"bad agent spec {_shown(spec)}: white space or a control "
                             "character inside a part")
    return canonical


def make_agent(
    spec: str,
    *,
    seed: int | None = None,
    level: int | None = None,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> RandomAgent | GreedyAgent | MCTSAgent | OpenSpielMCTSAgent | EngineAgent:
    """An agent from a spec: ``"random"``, ``"greedy"``, ``"mcts"``, ``"mcts:2"``,
    ``"openspiel-mcts:1000"`` (:class:`wts.adapters.openspiel_agent.OpenSpielMCTSAgent`,
    which needs OpenSpiel; 1,000 simulations when the spec names none), and
    any options after commas, as ``"mcts:1,threads=2"`` (:func:`agent_options`);
    or ``"engine:CMD"``, the engine program CMD
    (:class:`wts.protocol.player.EngineAgent`, started at its first move).

    ``level`` is the MCTS level when the spec names none (default 3);
    ``time_limit`` applies to MCTS only (a ``time_limit`` option in the spec
    wins), ``stop`` to both searches.

    >>> make_agent("mcts:2", seed=1)
    MCTSAgent(level=2, seed=1)
    """
    name, number = parse_agent_spec(spec)
    options = agent_options(spec)
    if name == "engine":
        engine: EngineAgent = provider("engine")(spec.strip()[len(ENGINE_PREFIX):], seed=seed,
                                                 time_limit=time_limit, stop=stop)
        return engine
    if name == "random":
        return RandomAgent(seed=seed)
    if name == "greedy":
        return GreedyAgent(seed=seed)
    if name == "openspiel-mcts":
        simulations = number if number is not None else OPENSPIEL_SIMULATIONS
        openspiel: OpenSpielMCTSAgent = provider("openspiel-mcts")(simulations, seed=seed,
                                                                     stop=stop, **options)
        return openspiel
    chosen = number if number is not None else (level if level is not None else 3)
    options.setdefault("time_limit", time_limit)  # type: ignore[arg-type]
    return MCTSAgent(level=chosen, seed=seed, stop=stop, **options)  # type: ignore[arg-type]
