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

import random
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from wts.engine._game import GameCore
from wts.engine.game import Game, as_fast_game
from wts.engine.pieces import Color
from wts.engine.squares import Square
from wts.errors import BusyError, GameOverError, ParameterError, ParameterTypeError
from wts.params import check_choice, check_float, check_int, check_seed
from wts.players._greedy import greedy_move
from wts.players._search import Search

if TYPE_CHECKING:
    from wts.engine.base import GameBase
    from wts.players.openspiel_agent import OpenSpielMCTSAgent

__all__ = [
    "Agent",
    "RandomAgent",
    "GreedyAgent",
    "MCTSAgent",
    "SearchInfo",
    "LEVELS",
    "AGENT_NAMES",
    "OPENSPIEL_SIMULATIONS",
    "make_agent",
    "parse_agent_spec",
]

#: Playouts per move of each ``MCTSAgent`` level. The measured time per move
#: on one core of a 2-core x86-64 machine is in the README.
LEVELS: dict[int, int] = {1: 1_000, 2: 8_000, 3: 32_000, 4: 100_000, 5: 250_000}

#: The most playouts one search may do (its visit counts are 32-bit).
MAX_PLAYOUTS = 2**31 - 2
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
    if isinstance(color, Color):
        return 0 if color is Color.BLACK else 1
    if isinstance(color, str):
        name = color.strip().lower()
        if name in ("black", "white"):
            return 0 if name == "black" else 1
    raise ParameterError(f"expected a colour (wts.Color, 'black' or 'white'), got {color!r}")


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
    player chooses by regret matching over its legal squares (decoupled), and
    playouts finish the game in C without the GIL.

    Keyword-only options, for experiments: ``playouts`` (an exact budget,
    overriding the level); ``policy`` (``"rm"`` regret matching, the default,
    ``"exp3"``, or ``"ucb"`` for decoupled UCB1); ``exploration`` (gamma of
    rm and exp3, default 0.2; the constant of ucb, default 0.7); ``playout``
    (``"tactical"``, the default: random moves that complete a five or block
    the opponent's; or ``"random"``); ``final``: how the move is chosen at the
    root: ``"value"`` (the default) the best mean reward among the squares
    chosen at least ``0.2`` times as often as the most chosen one (smoothed
    by one drawn game, so a square tried twice does not beat one tried a
    thousand times), ``"max"`` the square of the largest average strategy,
    ``"sample"`` a draw from the average strategy without the squares under
    ``purify`` (default 0.5) times the most likely one; ``max_memory`` the
    bytes the tree may hold (256 MiB; beyond, the search goes on without
    growing the tree); ``stop``, a :class:`threading.Event` that, once set
    from any thread, makes a running search stop within milliseconds and
    ``select`` answer from what it has searched (a "move now" button).
    """

    def __init__(
        self,
        level: int = 3,
        seed: int | None = None,
        time_limit: float | None = None,
        *,
        playouts: int | None = None,
        policy: str = "rm",
        exploration: float | None = None,
        playout: str = "tactical",
        final: str = "value",
        purify: float = 0.5,
        max_memory: int = 256 << 20,
        stop: threading.Event | None = None,
    ) -> None:
        self.level = check_int(level, "level", min(LEVELS), max(LEVELS))
        self.seed = _check_seed(seed)
        self.time_limit = None if time_limit is None else check_float(
            time_limit, "time_limit (seconds)", 0.0, MAX_TIME_LIMIT, exclude_minimum=True)
        self.playouts = LEVELS[self.level] if playouts is None else check_int(
            playouts, "playouts", 1, MAX_PLAYOUTS)
        self.final = check_choice(final, "final", FINALS)
        self.purify = check_float(purify, "purify", 0.0, 1.0)
        self.policy = policy
        self.exploration = exploration
        self.playout = playout
        self.max_memory = max_memory
        if stop is not None and not callable(getattr(stop, "is_set", None)):
            raise ParameterTypeError(f"stop must be a threading.Event, not {type(stop).__name__}")
        self.stop = stop
        # Check the search options now rather than at the first move.
        Search(Game(), policy=policy, exploration=exploration, playout=playout,
               max_memory=max_memory)
        self._busy = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self._rng = random.Random(self.seed if self.seed is not None else _fresh_seed())
        self.last_search: SearchInfo | None = None
        self.total_playouts = 0
        self.total_seconds = 0.0

    def search(self, game: GameBase) -> Search:
        """A finished search from ``game``'s position, with this agent's settings.

        Stops early, with the playouts done so far, once ``stop`` is set."""
        _check_not_over(game)
        started = time.perf_counter()
        search = Search(
            _core(game), seed=self._rng.getrandbits(64), policy=self.policy,
            exploration=self.exploration, playout=self.playout, max_memory=self.max_memory,
        )
        if self.time_limit is None:
            search.run(self.playouts, self.stop)
            return search
        # Search in chunks of about a twentieth of the limit, never past the deadline.
        deadline = started + self.time_limit
        chunk = 64
        while not (self.stop is not None and self.stop.is_set()):
            now = time.perf_counter()
            if now >= deadline:
                break
            search.run(min(chunk, MAX_PLAYOUTS - search.iterations), self.stop)
            took = time.perf_counter() - now
            rate = chunk / took if took > 0 else chunk * 1e3
            remaining = deadline - time.perf_counter()
            chunk = max(16, min(int(rate * min(self.time_limit / 20, remaining)), 1 << 20))
        return search

    def select(self, game: GameBase, color: Color | str) -> Square:
        """The square ``color`` plays; ``game`` is left unchanged. One call at a
        time: a call from a second thread while one runs raises
        :class:`wts.BusyError`. Interrupted (Ctrl-C), the agent is left as it was."""
        index = _color_index(color)
        if not self._busy.acquire(blocking=False):
            raise BusyError("this MCTSAgent is selecting a move in another thread")
        saved = self._rng.getstate()
        try:
            return self._select(game, index)
        except BaseException:
            self._rng.setstate(saved)
            raise
        finally:
            self._busy.release()

    def _select(self, game: GameBase, index: int) -> Square:
        started = time.perf_counter()
        search = self.search(game)
        strategy = search.strategy(index)
        visits = search.visits(index)
        values = search.values(index)
        if search.iterations == 0:  # stopped before the first playout
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
        self.total_playouts += search.iterations
        self.total_seconds += seconds
        self.last_search = SearchInfo(square, search.iterations, seconds, search.nodes,
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
        return f"MCTSAgent(level={self.level}, seed={self.seed!r}{limit})"


#: The agent names :func:`make_agent` knows.
AGENT_NAMES = ("random", "greedy", "mcts", "openspiel-mcts")

#: Simulations a move of ``openspiel-mcts`` when the spec names none, and the most.
OPENSPIEL_SIMULATIONS = 1_000
_MAX_OPENSPIEL_SIMULATIONS = 1_000_000


def parse_agent_spec(spec: str) -> tuple[str, int | None]:
    """A spec as (name, number): ``"random"``, ``"greedy"``, ``"mcts"``,
    ``"mcts:LEVEL"``, ``"openspiel-mcts"`` or ``"openspiel-mcts:SIMULATIONS"``.

    >>> parse_agent_spec("mcts:2"), parse_agent_spec("openspiel-mcts:1000")
    (('mcts', 2), ('openspiel-mcts', 1000))
    """
    if not isinstance(spec, str):
        raise ParameterTypeError(f"an agent spec is a string, not {type(spec).__name__}")
    name, sep, number = spec.strip().lower().partition(":")
    if name not in AGENT_NAMES:
        raise ParameterError(f"unknown agent {spec!r}: expected one of {', '.join(AGENT_NAMES)}"
                             " (mcts takes a level, as mcts:2; openspiel-mcts a number of "
                             "simulations, as openspiel-mcts:1000)")
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


def make_agent(
    spec: str,
    *,
    seed: int | None = None,
    level: int | None = None,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> RandomAgent | GreedyAgent | MCTSAgent | OpenSpielMCTSAgent:
    """An agent from a spec: ``"random"``, ``"greedy"``, ``"mcts"``, ``"mcts:2"``,
    ``"openspiel-mcts:1000"`` (:class:`wts.players.openspiel_agent.OpenSpielMCTSAgent`,
    which needs OpenSpiel; 1,000 simulations when the spec names none).

    ``level`` is the MCTS level when the spec names none (default 3);
    ``time_limit`` applies to MCTS only, ``stop`` to both searches.

    >>> make_agent("mcts:2", seed=1)
    MCTSAgent(level=2, seed=1)
    """
    name, number = parse_agent_spec(spec)
    if name == "random":
        return RandomAgent(seed=seed)
    if name == "greedy":
        return GreedyAgent(seed=seed)
    if name == "openspiel-mcts":
        from wts.players.openspiel_agent import OpenSpielMCTSAgent

        simulations = number if number is not None else OPENSPIEL_SIMULATIONS
        return OpenSpielMCTSAgent(simulations, seed=seed, stop=stop)
    chosen = number if number is not None else (level if level is not None else 3)
    return MCTSAgent(level=chosen, seed=seed, time_limit=time_limit, stop=stop)
