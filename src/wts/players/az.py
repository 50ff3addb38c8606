"""The network player: :class:`AZAgent`, a simultaneous-move MCTS guided by a
policy and value network (:mod:`wts.players.network`), its leaves evaluated
in batches (:class:`wts.players._az.AZSearch`).

>>> import wts
>>> from wts.players.az import AZAgent
>>> bot = AZAgent(playouts=64, seed=1)
>>> game = wts.Game()
>>> square = bot.select(game, "black")
>>> bot.last_search.playouts, 0 <= square < 81
(64, True)
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from wts._public import publish
from wts.engine._game import GameCore
from wts.engine.game import as_fast_game
from wts.engine.pieces import Color, check_color
from wts.engine.squares import Square
from wts.errors import BusyError, GameOverError, ParameterTypeError
from wts.params import check_float, check_int, check_seed
from wts.players._az import MAX_BATCH, AZSearch
from wts.players.network import Network, blas_on_one_thread

if TYPE_CHECKING:
    from wts.engine.base import GameBase

__all__ = ["AZAgent", "AZSearchInfo", "AZ_LEVEL_SECONDS", "EXPAND_AT", "MAX_AZ_PLAYOUTS"]

#: Seconds a move of each ``az`` level: the time ``mcts`` takes at the same
#: level on one core of the 2-core development machine (docs/players.md),
#: so that ``az:N`` and ``mcts:N`` think equally long there.
AZ_LEVEL_SECONDS: dict[int, float] = {1: 0.003, 2: 0.019, 3: 0.076, 4: 0.26, 5: 1.8}
#: The visits that send a node to the network, by default (``expand_at``).
EXPAND_AT = 32
#: The largest ``playouts`` budget (descents) a move.
MAX_AZ_PLAYOUTS = 10_000_000
_MAX_SECONDS = 86_400.0
# Descents one collect runs with expand_at, between looks at the clock and at
# ``stop``: about a millisecond.
_DESCENTS_A_CALL = 128
_NETWORKS: dict[tuple[str, int, int], Network] = {}
_NETWORKS_LOCK = threading.Lock()


def load_network(path: str | Path | None) -> Network:
    """The network of ``path`` (the shipped one for None), read once a
    process and kept while its file is unchanged."""
    from wts.players.network import DEFAULT_NETWORK

    where = Path(DEFAULT_NETWORK if path is None else path)
    try:
        stat = where.stat()
        key = (str(where.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        return Network.load(where)  # raises the file's error
    with _NETWORKS_LOCK:
        net = _NETWORKS.get(key)
    if net is None:
        net = Network.load(where)
        with _NETWORKS_LOCK:
            if len(_NETWORKS) >= 8:
                _NETWORKS.clear()
            _NETWORKS[key] = net
    return net


@dataclass(frozen=True)
class AZSearchInfo:
    """What one ``AZAgent`` search did: the square chosen, the descents
    (``playouts``, each reaching a leaf or a finished game), the positions
    the network evaluated, seconds, tree nodes, the agent's mean reward
    after its square, and both players' visit distributions at the root
    (81 squares each, summing to 1)."""

    square: Square
    playouts: int
    evaluations: int
    seconds: float
    nodes: int
    value: float | None
    strategy: tuple[float, ...]
    strategies: tuple[tuple[float, ...], tuple[float, ...]]


class AZAgent:
    """A simultaneous-move MCTS whose priors and leaf values come from a network.

    ``AZAgent(level=3, seed=None, time_limit=None)``: ``level`` 1-5 thinks as
    long a move as ``MCTSAgent`` of that level (:data:`AZ_LEVEL_SECONDS`);
    ``time_limit`` (seconds a move) instead; ``playouts`` an exact budget of
    descents instead of time, for a search that repeats exactly for a seed.

    Keyword-only options:

    - ``net``: the weights file (:class:`wts.network.Network`; the network
      shipped in the wheel by default) or a :class:`Network`;
    - ``batch``: leaves evaluated together (default 16);
    - ``c_puct``: the priors' weight in PUCT (default 1.0); ``fpu``: how far
      below its node's mean an unvisited square starts (default 0);
    - ``expand_at``: the visits that send a node to the network (default
      :data:`EXPAND_AT`; a node has statistics from its second visit, so 1
      acts as 2); below them a node has uniform priors, and every
      leaf is played out at once by the tactical playout of ``MCTSAgent``,
      so the search runs at about the playouts' speed with the network's
      priors where the search spends its visits. 0: every leaf waits for
      the network, whose value head gives its value (the AlphaZero search);
    - ``mix``: with ``expand_at=0``, the share of a tactical playout's result
      in a leaf's value (default 0: the value head alone);
    - ``noise``: the share of Dirichlet noise (alpha 10 / legal squares) in
      the root's priors, and ``temperature``: the move drawn with
      probability ∝ visits^(1/temperature) (default 0: the most visited),
      both for self-play;
    - ``max_memory``: the bytes a tree may hold (256 MiB); ``stop``: a
      :class:`threading.Event` that ends a search within one batch.

    Each move searches a fresh tree. ``select_both`` searches once for both
    players, as self-play does.
    """

    def __init__(
        self,
        level: int = 3,
        seed: int | None = None,
        time_limit: float | None = None,
        *,
        playouts: int | None = None,
        net: str | Path | Network | None = None,
        batch: int = 16,
        c_puct: float = 1.0,
        fpu: float = 0.0,
        mix: float = 0.0,
        expand_at: int = EXPAND_AT,
        noise: float = 0.0,
        temperature: float = 0.0,
        max_memory: int = 256 << 20,
        stop: threading.Event | None = None,
    ) -> None:
        self.level = check_int(level, "level", min(AZ_LEVEL_SECONDS), max(AZ_LEVEL_SECONDS))
        self.seed = None if seed is None else check_seed(seed)
        self.playouts = None if playouts is None else check_int(
            playouts, "playouts", 1, MAX_AZ_PLAYOUTS)
        if time_limit is not None:
            self.time_limit: float | None = check_float(
                time_limit, "time_limit (seconds)", 0.0, _MAX_SECONDS, exclude_minimum=True)
        else:
            self.time_limit = None if self.playouts is not None else AZ_LEVEL_SECONDS[self.level]
        self.batch = check_int(batch, "batch", 1, MAX_BATCH)
        self.c_puct = check_float(c_puct, "c_puct", 0.0, 1e6)
        self.fpu = check_float(fpu, "fpu", -1.0, 1.0)
        self.mix = check_float(mix, "mix", 0.0, 1.0)
        self.expand_at = check_int(expand_at, "expand_at", 0, 2**31)
        self.noise = check_float(noise, "noise", 0.0, 1.0)
        self.temperature = check_float(temperature, "temperature", 0.0, 100.0)
        self.max_memory = check_int(max_memory, "max_memory", 0, 2**62)
        if stop is not None and not callable(getattr(stop, "is_set", None)):
            raise ParameterTypeError(f"stop must be a threading.Event, not {type(stop).__name__}")
        self.stop = stop
        if isinstance(net, Network):
            self.network = net
        elif net is None or isinstance(net, (str, Path)):
            self.network = load_network(net)
        else:
            raise ParameterTypeError(f"net must be a path or a Network, not {type(net).__name__}")
        self.net = net if not isinstance(net, Network) else None
        self._planes = np.empty((self.batch, 81, self.network.shape.planes), np.float32)
        self._legal = np.empty((self.batch, 81), np.uint8)
        # One forward pass now: the BLAS starts its threads and touches its
        # buffers on the first call (half a second), which a move's time must not pay.
        with blas_on_one_thread():
            self.network.logits(np.zeros_like(self._planes))
        self._busy = threading.Lock()
        self._reset()

    def _reset(self) -> None:
        self._rng = random.Random(self.seed if self.seed is not None
                                  else random.SystemRandom().getrandbits(64))
        self.last_search: AZSearchInfo | None = None
        self._infos: tuple[AZSearchInfo, ...] = ()
        self.total_playouts = 0
        self.total_seconds = 0.0

    def reset(self) -> None:
        """Start afresh: the seed's random state, no totals."""
        if not self._busy.acquire(blocking=False):
            raise BusyError("this AZAgent is selecting a move in another thread")
        try:
            self._reset()
        finally:
            self._busy.release()

    def select(self, game: GameBase, color: Color | str) -> Square:
        """The square ``color`` plays; ``game`` is left unchanged."""
        index = check_color(color).index
        square = self._search(game)[index]
        self.last_search = self._infos[index]
        return square

    def select_both(self, game: GameBase) -> tuple[Square, Square]:
        """Black's and white's squares from one search (self-play's joint move)."""
        black, white = self._search(game)
        return black, white

    def _search(self, game: GameBase) -> tuple[Square, Square]:
        if game.is_over():
            raise GameOverError(f"the game is over ({game.status.words}): there is no move "
                                "to select")
        if not self._busy.acquire(blocking=False):
            raise BusyError("this AZAgent is selecting a move in another thread")
        saved = self._rng.getstate()
        try:
            with blas_on_one_thread():
                return self._run(game)
        except BaseException:
            self._rng.setstate(saved)
            raise
        finally:
            self._busy.release()

    def _run(self, game: GameBase) -> tuple[Square, Square]:
        started = time.perf_counter()
        deadline = None if self.time_limit is None else started + self.time_limit
        core = game if isinstance(game, GameCore) else as_fast_game(game)
        search = AZSearch(core, self._rng.getrandbits(64), c_puct=self.c_puct, fpu=self.fpu,
                          mix=self.mix, expand_at=self.expand_at, max_memory=self.max_memory)
        net, planes, legal = self.network, self._planes, self._legal
        while True:
            size, descents = self.batch, 0
            if self.expand_at:  # most descents need no network: a chunk of them a call
                descents = _DESCENTS_A_CALL
                if self.playouts is not None:
                    descents = min(descents, self.playouts - search.iterations)
            elif self.playouts is not None:
                size = min(size, self.playouts - search.iterations)
            if size <= 0 or descents < 0 or (self.expand_at and descents == 0) or (
                    self.stop is not None and self.stop.is_set()):
                break
            before = search.iterations
            count = search.collect(planes[:size], legal[:size], descents)
            if count == 0 and (not self.expand_at or search.iterations == before):
                break  # the tree is solved or full
            if count:
                out = net.evaluate(planes[:count], legal[:count].view(np.bool_))
                if not search.apply(out.black, out.white, out.value):
                    break  # the tree is full
                if self.noise > 0 and search.evaluations == count:  # the root just evaluated
                    self._add_noise(search, game)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        moves, strategies, values = [], [], []
        for player in (0, 1):
            visits, means, priors = search.root(player)
            total = sum(visits)
            strategy = tuple(v / total for v in visits) if total else tuple(priors)
            moves.append(self._choose(strategy, game))
            strategies.append(strategy)
            values.append(means)
        seconds = time.perf_counter() - started
        self.total_playouts += search.iterations
        self.total_seconds += seconds
        both = (strategies[0], strategies[1])
        self._infos = tuple(AZSearchInfo(moves[p], search.iterations, search.evaluations,
                                         seconds, search.nodes, values[p][moves[p]],
                                         strategies[p], both) for p in (0, 1))
        self.last_search = self._infos[0]  # select(white) gives white's
        return moves[0], moves[1]

    def _add_noise(self, search: AZSearch, game: GameBase) -> None:
        legal = game.legal_moves()
        rng = np.random.default_rng(self._rng.getrandbits(64))
        noise = np.zeros((2, 81))
        noise[:, legal] = rng.dirichlet([10.0 / len(legal)] * len(legal), size=2)
        search.add_root_noise(noise[0], noise[1], self.noise)

    def _choose(self, strategy: tuple[float, ...], game: GameBase) -> Square:
        if not any(strategy):
            return self._rng.choice(game.legal_moves())
        if self.temperature > 0:
            weights = np.asarray(strategy, dtype=np.float64) ** (1.0 / self.temperature)
            x = self._rng.random() * float(weights.sum())
            for square, weight in enumerate(weights):
                x -= weight
                if x < 0 and weight > 0:
                    return square
        top = max(strategy)
        best = [sq for sq, p in enumerate(strategy) if p == top]
        return best[0] if len(best) == 1 else self._rng.choice(best)

    def strategy_of(self, color: Color | str) -> tuple[float, ...] | None:
        """The last search's visit distribution for ``color`` (None before any)."""
        if self.last_search is None:
            return None
        return self.last_search.strategies[check_color(color).index]

    @property
    def playouts_per_second(self) -> float:
        return self.total_playouts / self.total_seconds if self.total_seconds else 0.0

    def __repr__(self) -> str:
        budget = (f"playouts={self.playouts}" if self.playouts is not None
                  else f"time_limit={self.time_limit!r}")
        return f"AZAgent(level={self.level}, seed={self.seed!r}, {budget})"


publish("wts.agents", __all__, globals())
