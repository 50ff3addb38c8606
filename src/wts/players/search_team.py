"""Several searches of one position on several threads, kept from turn to turn.

:class:`SearchTeam` drives the C searches (:class:`wts.players._search.Search`)
behind :class:`wts.agents.MCTSAgent`:

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

from wts._interrupts import join
from wts.engine._game import GameCore
from wts.errors import NoTurnError
from wts.params import usable_cores
from wts.players._search import MAX_ITERATIONS, Search
from wts.players.search_options import SearchOptions

if TYPE_CHECKING:
    from wts.engine.base import GameBase

#: Playouts between two looks at the clock in a timed search, at first (for
#: a thread's trees together, see :func:`first_chunk`).
FIRST_TIMED_CHUNK = 64
#: Playouts of each tree in a round when a thread searches several trees for
#: a budget (a few milliseconds): the trees advance together, so a search
#: stopped early has searched them all.
UNTIMED_CHUNK = 256
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

    ``options`` (checked once) go to every :class:`Search`; ``max_memory`` is
    shared out evenly.
    """

    def __init__(self, threads: int, options: SearchOptions, max_memory: int,
                 reuse: bool) -> None:
        self.threads = threads
        self.options = options
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
            self.trees = [Search(core, seed, self.options, max_memory=share)
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
        ``deadline`` (a ``time.perf_counter()`` time), whichever comes first.

        The trees are searched on as many threads as there are cores (the
        calling thread one of them), each thread taking its share of the trees
        in turn: threads beyond the cores would only queue for them, and on a
        loaded machine starting and joining hundreds of threads took longer than
        a short deadline. A tree's search depends only on its seed and its
        budget, so a budgeted search gives the same result on any number of
        threads."""
        halt = threading.Event()
        either = _Either(stop, halt)
        budgets = [None] * self.threads if playouts is None else [
            playouts // self.threads + (i < playouts % self.threads) for i in range(self.threads)]
        failures: list[BaseException] = []
        lanes = min(self.threads, usable_cores())
        first = first_chunk(self.threads, lanes)
        shares = [(self.trees[i::lanes], budgets[i::lanes]) for i in range(lanes)]

        def work(trees: list[Search], share: list[int | None]) -> None:
            try:
                _search_in_turn(trees, share, deadline, either, first)
            except BaseException as error:  # handed to the calling thread
                failures.append(error)
                halt.set()

        workers = [threading.Thread(target=work, args=share, daemon=True) for share in shares[1:]]
        try:
            for worker in workers:
                worker.start()
            # The calling thread searches the first share: Ctrl-C reaches it there.
            _search_in_turn(*shares[0], deadline, either, first)
            for worker in workers:
                join(worker)
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

    def root(self, color: int) -> tuple[list[int], list[float | None], list[float]]:
        """:meth:`visits`, :meth:`values` and :meth:`strategy` at once, the
        same numbers, each tree's root read once: reading hundreds of trees
        three times over took longer than a short time limit's margin."""
        visits, sums = [0] * 81, [0.0] * 81
        weights = []
        for tree in self.trees:
            counts, values = tree.visits(color), tree.values(color)
            for square, count in enumerate(counts):
                if count:
                    value = values[square]
                    assert value is not None
                    sums[square] += value * count
                    visits[square] += count
            weights.append(sum(counts))
        means = [sums[sq] / visits[sq] if visits[sq] else None for sq in range(81)]
        total = sum(weights)
        if total == 0:
            return visits, means, self.trees[0].strategy(color)
        mixed = [0.0] * 81
        for tree, weight in zip(self.trees, weights):
            if weight:
                for square, p in enumerate(tree.strategy(color)):
                    mixed[square] += p * weight / total
        return visits, means, mixed

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


def first_chunk(trees: int, threads: int) -> int:
    """The playouts each tree does before its first look at the clock when
    ``threads`` threads search ``trees`` trees in turn: FIRST_TIMED_CHUNK
    shared out among a thread's trees, so that a first round over them stays
    short (64 playouts for each of 128 trees would take a core about 0.15 s)."""
    return max(1, FIRST_TIMED_CHUNK // -(-trees // threads))


def _search_in_turn(trees: Sequence[Search], playouts: Sequence[int | None],
                    deadline: float | None, stop: _Either, first: int) -> None:
    """Search ``trees`` on one thread, a chunk of each in rounds, until each
    has its budget in ``playouts`` or the ``deadline`` comes. Untimed, a chunk
    is UNTIMED_CHUNK playouts; timed, it starts at ``first`` and then makes a
    round about a twentieth of the time left."""
    if len(trees) == 1:
        _search(trees[0], playouts[0], deadline, stop, first)
        return
    left = [MAX_PLAYOUTS - tree.iterations if budget is None
            else min(budget, MAX_PLAYOUTS - tree.iterations)
            for tree, budget in zip(trees, playouts)]
    if deadline is None:  # as _search: no budget and no deadline is no search
        left = [0 if budget is None else room for budget, room in zip(playouts, left)]
    active = [i for i in range(len(trees)) if left[i] > 0]
    chunk = first if deadline is not None else UNTIMED_CHUNK
    while active and not stop.is_set():
        began = time.perf_counter()
        done_in_round = 0
        for i in list(active):
            if stop.is_set() or (deadline is not None and time.perf_counter() >= deadline):
                return
            step = min(chunk, left[i])
            done = trees[i].run(step, stop)
            done_in_round += done
            left[i] -= done
            if done < step or left[i] == 0:  # stopped, full, or nothing to search
                active.remove(i)
        if deadline is not None:
            took = time.perf_counter() - began
            rate = done_in_round / took if took > 0 else done_in_round * 1e3
            share = rate * (deadline - time.perf_counter()) / 20 / max(1, len(active))
            chunk = max(1, min(int(share), 1 << 20))


def _search(tree: Search, playouts: int | None, deadline: float | None, stop: _Either,
            first: int = FIRST_TIMED_CHUNK) -> None:
    """Search one tree for ``playouts`` more, or until ``deadline``; never past
    MAX_PLAYOUTS in the tree (a reused tree already holds some). A timed search
    looks at the clock after ``first`` playouts, then about twenty times in
    the time left."""
    room = MAX_PLAYOUTS - tree.iterations
    left = room if playouts is None else min(playouts, room)
    if deadline is None:
        tree.run(0 if playouts is None else left, stop)
        return
    chunk = first
    least = min(16, first)
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
        chunk = max(least, min(int(rate * (deadline - time.perf_counter()) / 20), 1 << 20))
