"""Benchmark fixtures, and a summary of the ratios measured side by side.

Each group times its variants in the same run; the summary divides their
per-unit medians (units are turns or game-turns, from ``extra_info``), so a
noisy shared machine moves both sides of a ratio together.
"""

from __future__ import annotations

import pytest

from wts.devtools.bench import record_games

# (group, slower variant, faster variant, what the ratio means, target)
RATIOS = [
    ("play", "reference", "fast", "Game.play fast vs reference", ">= 100x"),
    ("undo", "copy-play", "push-pop", "push + pop vs copy() + play", "(measured)"),
    ("random-play", "reference", "simulate", "simulate vs reference random play", ">= 1000x"),
    ("random-play", "scalar-loop", "simulate", "simulate vs the plain scalar C loop",
     ">= 1.6x AVX2, 2.0x AVX-512"),
    ("threads", "1", "2", "simulate 2 threads vs 1", ">= 1.8x"),
    ("step-vs-simulate", "batch-step-all-in-play", "simulate",
     "batch step / simulate, all in play (restarts timed)", "<= 1.3x"),
    ("step-vs-simulate", "batch-step-over-left", "simulate",
     "batch step / simulate, games over left", "<= 1.3x"),
    ("vector-env", "single", "1024", "vector env (1024 games) vs parallel_env", ">= 50x"),
]


@pytest.fixture(scope="session")
def recorded_games():
    """Twenty uniformly random games, recorded once per session."""
    return record_games(20, seed=7)


def _per_unit(bench) -> float:
    return bench.stats.median / bench.extra_info.get("units", 1)


def pytest_terminal_summary(terminalreporter, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    by_key = {}
    for bench in session.benchmarks:
        variant = bench.extra_info.get("variant")
        if variant is not None:
            by_key[(bench.group, str(variant))] = bench
    terminalreporter.section("wts ratios (same run)")
    for group, slow, fast, meaning, target in RATIOS:
        if (group, slow) in by_key and (group, fast) in by_key:
            ratio = _per_unit(by_key[(group, slow)]) / _per_unit(by_key[(group, fast)])
            terminalreporter.write_line(f"{meaning:52s} {ratio:10.2f}x   target {target}")
