"""``wts bench --network``: the network player's speeds, side by side in one run.

The forward pass against the machine's own matrix-multiply peak (both on
one BLAS thread, as the search runs it; measured here, not assumed), evaluations a second by batch
size, the search's nodes a second with the network, and, where the
``train`` extra is installed, the learner's steps a second.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from wts.devtools.bench import BenchRow, record_games
from wts.engine.game import Game

__all__ = ["BATCH_SIZES", "sgemm_peak", "evaluations_per_second", "search_nodes_per_second",
           "train_steps_per_second", "run_network"]

BATCH_SIZES = (1, 4, 16, 64, 256)


def sgemm_peak(size: int = 1024, seconds: float = 1.0) -> float:
    """float32 FLOP a second of a ``size``² matrix product, the best of
    repeats for about ``seconds``."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32)
    out = np.empty_like(a)
    np.matmul(a, b, out=out)
    best, until = float("inf"), time.perf_counter() + seconds
    while time.perf_counter() < until:
        began = time.perf_counter()
        np.matmul(a, b, out=out)
        best = min(best, time.perf_counter() - began)
    return 2.0 * size ** 3 / best


def _positions(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Planes and legal masks of ``count`` positions from random games."""
    from wts.engine.batch import BatchGame

    games = []
    for moves in record_games(count, seed):
        game = Game()
        for black, white in moves[:len(moves) // 2]:
            game.play(black, white)
        games.append(game)
    batch = BatchGame.from_games(games)
    planes = batch.network_planes()
    return planes, batch.legal_mask()


def evaluations_per_second(net: Any, batch: int, seconds: float = 0.5) -> float:
    """Positions a second of ``net.evaluate`` on batches of ``batch``."""
    planes, legal = _positions(batch, seed=3)
    net.evaluate(planes, legal)
    done, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        net.evaluate(planes, legal)
        done += batch
    return done / (time.perf_counter() - began)


def search_nodes_per_second(playouts: int = 2_000, batch: int = 16,
                            expand_at: int | None = None) -> tuple[float, float]:
    """Descents and network evaluations a second of one ``AZAgent`` move,
    from the position after six recorded turns (``expand_at`` the agent's
    default for None)."""
    from wts.players.az import EXPAND_AT, AZAgent

    game = Game()
    for black, white in record_games(1, 17)[0][:6]:
        game.play(black, white)
    agent = AZAgent(playouts=playouts, batch=batch, seed=17,
                    expand_at=EXPAND_AT if expand_at is None else expand_at)
    agent.select(game, "black")
    info = agent.last_search
    assert info is not None
    return info.playouts / info.seconds, info.evaluations / info.seconds


def train_steps_per_second(batch_size: int = 256, steps: int = 20) -> float | None:
    """Learner steps a second at ``batch_size`` (None without the train extra)."""
    try:
        from wts.train.examples import Examples
        from wts.train.learner import Learner
    except ImportError:
        return None
    from wts.players.network import NetworkShape

    rng = np.random.default_rng(0)
    n = 2 * batch_size
    planes, legal = _positions(n, seed=5)
    black = legal / legal.sum(axis=1, keepdims=True)
    wdl = rng.integers(0, 3, n).astype(np.int32)
    data = Examples(planes, black.astype(np.float32), black.astype(np.float32), wdl, legal)
    learner = Learner(NetworkShape(), seed=0)
    learner.fit(data, 2, batch_size, rng)  # compiles
    began = time.perf_counter()
    learner.fit(data, steps, batch_size, rng)
    return steps / (time.perf_counter() - began)


def run_network(quick: bool = False) -> list[BenchRow]:
    """Measure everything ``wts bench --network`` reports."""
    from wts.players.network import Network, blas_on_one_thread

    net = Network.load()
    flops = net.shape.flops()
    seconds = 0.2 if quick else 0.6
    with blas_on_one_thread():
        peak = sgemm_peak(seconds=seconds)
        rates = {b: evaluations_per_second(net, b, seconds) for b in BATCH_SIZES}
    from wts.players.az import EXPAND_AT

    nodes, evaluations = search_nodes_per_second(500 if quick else 3_000, expand_at=0)
    mixed, mixed_evaluations = search_nodes_per_second(5_000 if quick else 50_000)
    best = max(rates.values())
    rows = [
        BenchRow("network", repr(net), "", None),
        BenchRow("FLOP a position (forward)", f"{flops / 1e6:.1f} MFLOP", "", None),
        BenchRow("sgemm peak (1024²), 1 BLAS thread", f"{peak / 1e9:.0f} GFLOP/s", "", None),
        *(BenchRow(f"evaluate, batch {b}, 1 BLAS thread",
                   f"{rate:,.0f} positions/s ({rate * flops / 1e9:.1f} GFLOP/s)", "", None)
          for b, rate in rates.items()),
        BenchRow("peak / best forward", f"{peak / (best * flops):.2f}x", "<= 2x",
                 peak / (best * flops) <= 2),
        BenchRow(f"AZAgent search (expand_at={EXPAND_AT}, the default)",
                 f"{mixed:,.0f} descents/s, {mixed_evaluations:,.0f} evaluations/s", "", None),
        BenchRow("AZAgent search, every leaf to the network (expand_at=0), batch 16",
                 f"{nodes:,.0f} descents/s, {evaluations:,.0f} evaluations/s", "", None),
    ]
    steps = train_steps_per_second(steps=5 if quick else 20)
    rows.append(BenchRow("Learner step, batch 256 (train extra)",
                         "not installed" if steps is None else f"{steps:.2f} steps/s",
                         "", None))
    return rows
