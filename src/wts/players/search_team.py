"""Several searches of one position on several threads, kept from turn to turn.

:class:`SearchTeam` drives the C searches (:class:`wts.players._search.Search`)
behind :class:`wts.players.agents.MCTSAgent`:

- *root parallelism*: ``threads`` independent trees of the same position,
  each with its own seed, searched at once (the C loop runs without the
  GIL), their root statistics added up. Nothing is shared between the trees,
  so the result for given seeds does not depend on how the threads interleave;
- *tree reuse*: after a turn, each tree moves its root to the joint move that
  was played (:meth:`Search.advance`) and keeps what it had searched below it;
- a budget of playouts, a deadline, or both, and a stop event: a running
  search stops within milliseconds once it is set, or on Ctrl-C.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from wts.engine._game import GameCore
from wts.errors import NoTurnError
from wts.players._search import MAX_ITERATIONS, Search

if TYPE_CHECKING:
    from wts.engine.base import GameBase

#: Playouts between two looks at the clock in a timed search, at first.
FIRST_TIMED_CHUNK = 64
#: The most playouts one tree may hold (the search's limit on its
#: iterations, each one playout): a search stops there, however long its
#: deadline or large its budget.
MAX_PLAYOUTS = MAX_ITERATIONS


class _Either:
    """Set once either event is set: the caller's stop or the team's own halt."""

    def __init__(self, stop: Any, halt: threading.Event) -> None:
        self.stop, self.halt = stop, halt

    def is_set(self) -> bool:
        return self.halt.is_set() or (self.stop is not None and self.stop.is_set())


class SearchTeam:
    """``threads`` searches of one position (see the module's docs).

    ``options`` go to every :class:`Search` (``policy``, ``exploration``,
    ``playout``, ``transpositions``); ``max_memory`` is shared out evenly.
    """

    def __init__(self, threads: int, options: dict[str, Any], max_memory: int,
                 reuse: bool) -> None:
        self.threads = threads
        self.options = dict(options)
        self.max_memory = max_memory
        self.reuse = reuse
        self.trees: list[Search] = []
        self.reused = 0  # playouts the trees held before this move's search

    def clear(self) -> None:
        self.trees = []

    def start(self, game: GameBase, core: GameCore, seeds: Sequence[int]) -> None:
        """Trees rooted at ``game`` (``core`` is its fast form): the last move's
        trees moved on by the turn just played when they can be, else new ones
        seeded from ``seeds`` (one per thread)."""
        if not (self.reuse and self.trees and (all(tree.holds(core) for tree in self.trees)
                                               or self._advance(game, core))):
            share = self.max_memory // self.threads
            self.trees = [Search(core, seed=seed, max_memory=share, **self.options)
                          for seed in seeds]
        self.reused = sum(tree.iterations for tree in self.trees)

    def _advance(self, game: GameBase, core: GameCore) -> bool:
        """Move every tree on by the game's last turn; False unless all of them
        then hold the game's position."""
        try:
            last = game.peek()
        except NoTurnError:
            return False
        return all(tree.advance(last.black_move, last.white_move) and tree.holds(core)
                   for tree in self.trees)

    def run(self, playouts: int | None, deadline: float | None, stop: Any) -> None:
        """Search ``playouts`` more in all (shared out among the trees), or until
        ``deadline`` (a ``time.perf_counter()`` time), whichever comes first."""
        halt = threading.Event()
        either = _Either(stop, halt)
        budgets = [None] * self.threads if playouts is None else [
            playouts // self.threads + (i < playouts % self.threads) for i in range(self.threads)]
        failures: list[BaseException] = []

        def work(tree: Search, budget: int | None) -> None:
            try:
                _search(tree, budget, deadline, either)
            except BaseException as error:  # handed to the calling thread
                failures.append(error)
                halt.set()

        workers = [threading.Thread(target=work, args=(tree, budget), daemon=True)
                   for tree, budget in zip(self.trees[1:], budgets[1:])]
        try:
            for worker in workers:
                worker.start()
            # The calling thread searches the first tree: Ctrl-C reaches it there.
            _search(self.trees[0], budgets[0], deadline, either)
            for worker in workers:
                worker.join()
        finally:
            halt.set()  # on an error or Ctrl-C, the other trees stop too
            for worker in workers:
                if worker.ident is not None:
                    worker.join()
        if failures:
            raise failures[0]

    @property
    def iterations(self) -> int:
        return sum(tree.iterations for tree in self.trees)

    @property
    def nodes(self) -> int:
        return sum(tree.nodes for tree in self.trees)

    def visits(self, color: int) -> list[int]:
        totals = [0] * 81
        for tree in self.trees:
            for square, count in enumerate(tree.visits(color)):
                totals[square] += count
        return totals

    def values(self, color: int) -> list[float | None]:
        """The mean reward after each square over every tree's visits."""
        sums, counts = [0.0] * 81, [0] * 81
        for tree in self.trees:
            for square, (value, count) in enumerate(zip(tree.values(color), tree.visits(color))):
                if value is not None:
                    sums[square] += value * count
                    counts[square] += count
        return [sums[sq] / counts[sq] if counts[sq] else None for sq in range(81)]

    def strategy(self, color: int) -> list[float]:
        """The trees' final strategies, each weighted by the choices made at its
        root (a tree that made none, as one given no playouts, counts for nothing
        unless none made any)."""
        weights = [sum(tree.visits(color)) for tree in self.trees]
        total = sum(weights)
        if total == 0:
            return self.trees[0].strategy(color)
        mixed = [0.0] * 81
        for tree, weight in zip(self.trees, weights):
            if weight:
                for square, p in enumerate(tree.strategy(color)):
                    mixed[square] += p * weight / total
        return mixed


def _search(tree: Search, playouts: int | None, deadline: float | None, stop: _Either) -> None:
    """Search one tree for ``playouts`` more, or until ``deadline``; never past
    MAX_PLAYOUTS in the tree (a reused tree already holds some)."""
    room = MAX_PLAYOUTS - tree.iterations
    left = room if playouts is None else min(playouts, room)
    if deadline is None:
        tree.run(0 if playouts is None else left, stop)
        return
    chunk = FIRST_TIMED_CHUNK
    while not stop.is_set() and left > 0:
        now = time.perf_counter()
        if now >= deadline:
            return
        step = min(chunk, left)
        done = tree.run(step, stop)
        if done < step:  # stopped, or nothing to search
            return
        left -= done
        took = time.perf_counter() - now
        rate = done / took if took > 0 else done * 1e3
        # About a twentieth of what is left between two looks at the clock.
        chunk = max(16, min(int(rate * (deadline - time.perf_counter()) / 20), 1 << 20))
