"""Every build of the core this machine can run (``wts.cpu_kernels()``), each
forced by WTS_CPU_KERNEL in its own process: it is the one in use, it agrees
with the reference engine, and it plays the same games as every other build."""

from __future__ import annotations

import functools
import json
import os
import platform
import subprocess

import pytest

import wts
from tests.support.processes import run_python

# Run in a child: which build is in use, a differential fuzz run against the
# reference, simulate's per-game results on one and two threads, and seeded
# searches' root strategies.
CHILD = """
import hashlib, json, warnings
warnings.simplefilter("error", RuntimeWarning)  # a forced build that is there: no warning
import wts, wts.engine._core, wts.agents
from wts.devtools.fuzz import run_fuzz
report = run_fuzz(wts.reference.Game, wts.Game, seed=16, games=60)
one = wts.simulate(3000, seed=16, per_game=True)
two = wts.simulate(3000, seed=16, threads=2, per_game=True)
# The search's playouts (wts_tactical_playout) from positions with eggs and fives to be had.
searches = []
for setup in (dict(), dict(black=["C3", "D4", "E5", "F6"], white=["C7", "D7", "E7", "G7"]),
              dict(black=["E5", "E8", "B2"], white=["D5", "C5", "H8"], eggs=["E6", "E7", "B5"])):
    for playout in ("tactical", "captures"):
        agent = wts.agents.MCTSAgent(playouts=1500, seed=16, playout=playout)
        agent.select(wts.Game.from_setup(**setup), "black")
        searches.append(agent.last_search.strategy)
print(json.dumps({
    "searches": hashlib.sha256(repr(searches).encode()).hexdigest(),
    "kernel": wts.cpu_kernel(),
    "file": wts.engine._core.__file__,
    "fuzz_failure": None if report.failure is None else str(report.failure),
    "fuzz_turns": report.turns,
    "threads_agree": one == two,
    "games": [one.turns, one.black_wins, one.white_wins, one.draws],
    "per_game": hashlib.sha256(one.lengths.tobytes() + one.statuses.tobytes()).hexdigest(),
}))
"""


# Run in a child: simulate's per-game results from many start positions, for
# runs shorter than the lanes a build plays at once and runs that span the
# threads' blocks, each on one and two threads.
STARTS_CHILD = """
import hashlib, json, random
import wts

def played(turns, seed, stop_at_empty=0):
    game, rng = wts.Game(), random.Random(seed)
    for _ in range(turns):
        legal = game.legal_moves()
        if game.is_over() or len(legal) <= stop_at_empty:
            break
        game.play(rng.choice(legal), rng.choice(legal))
    return game

starts = {
    "empty": None,
    "mid-game": played(12, 1),
    "later": played(30, 2),
    "nearly full": played(200, 3, stop_at_empty=5),
    "sudden death": wts.Game.from_setup(black=["A1", "B1", "C1", "D1", "E1"],
                                        white=["A9", "B9", "C9", "D9", "E9"]),
    "eggs": wts.Game.from_setup(black=["E5", "E8"], white=["D5", "C5"],
                                eggs=["E6", "E7", "B5", "A1"]),
    "last turn": wts.Game.from_setup(black=["E5"], white=["A1"], turn=2**32 - 2),
    "over": wts.Game.from_setup(white=["A1", "A2", "A3", "A4", "A5"]),
}
out = {}
for name, start in starts.items():
    for games in (0, 1, 3, 7, 100, 9000):
        if games == 9000 and name not in ("empty", "mid-game"):
            continue
        runs = [wts.simulate(games, seed=games + 5, start=start, threads=threads, per_game=True)
                for threads in (1, 2)]
        assert runs[0] == runs[1], (name, games)
        assert len(runs[0].lengths) == games
        out[f"{name}/{games}"] = hashlib.sha256(
            runs[0].lengths.tobytes() + runs[0].statuses.tobytes()).hexdigest()
# Seeds whose game 0 draws on its first turn a value Lemire's method rejects
# (black's half of the output for the first, white's for the second).
for seed in (70724845, 36354210):
    run = wts.simulate(1, seed=seed, per_game=True)
    out[f"rejected draw/{seed}"] = [int(run.lengths[0]), int(run.statuses[0])]
print(json.dumps(out))
"""

# Run in a child: BatchGame.step on batches of several sizes, from starts that
# collide, capture, hatch, make fives and sudden death, end games and reach the
# last turn number, with random legal moves (colliding often); a hash of every
# step's results and every game's state after it.
BATCH_CHILD = """
import hashlib, json
import numpy as np
import wts

starts = [
    None,
    wts.Game.from_setup(black=["A1", "B1", "C1", "D1", "E1"], white=["A9", "B9", "C9", "D9"]),
    wts.Game.from_setup(black=["E5", "E8"], white=["D5", "C5"], eggs=["E6", "E7", "B5", "A1"]),
    wts.Game.from_setup(black=["E5"], white=["A1"], turn=2**32 - 3),
    wts.Game.from_setup(white=["A1", "A2", "A3", "A4", "A5"]),
]
out = {}
for games in (1, 3, 7, 1024):
    rng = np.random.default_rng(games)
    batch = wts.BatchGame(games)
    for i in range(games):
        start = starts[i % len(starts)]
        if start is not None:
            batch[i] = start
    digest = hashlib.sha256()
    for step in range(120):
        legal = batch.legal_mask()
        live = legal.any(axis=1)
        black = (rng.random(legal.shape) * legal).argmax(axis=1)
        white = (rng.random(legal.shape) * legal).argmax(axis=1)
        collide = rng.random(games) < 0.1
        white[collide] = black[collide]
        black[~live] = white[~live] = wts.NO_MOVE
        result = batch.step(black, white)
        for array in (result.status, result.captures, result.hatches, batch.keys(),
                      batch.observation(), batch.winning_counts, batch.turns, batch.status):
            digest.update(np.ascontiguousarray(array).tobytes())
        if step % 40 == 39:
            batch.reset(rng.random(games) < 0.5)
    states = [batch[i] for i in range(games)]
    digest.update(repr([(g.key(), g.turn, g.status, g.winning_counts, g.fen())
                        for g in states]).encode())
    out[str(games)] = digest.hexdigest()
print(json.dumps(out))
"""


def run_child(code: str, kernel: str | None) -> subprocess.CompletedProcess[str]:
    """``code`` with ``kernel`` forced (None: the one the machine picks)."""
    return run_python("-c", code, env={"WTS_CPU_KERNEL": kernel}, timeout=600)


@functools.cache
def kernel_run(kernel: str) -> dict:
    done = run_child(CHILD, kernel)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("kernel", wts.cpu_kernels())
def test_each_kernel_is_used_and_agrees_with_the_reference(kernel: str) -> None:
    result = kernel_run(kernel)
    assert result["kernel"] == kernel
    assert result["fuzz_failure"] is None and result["fuzz_turns"] > 300
    assert result["threads_agree"]


def test_every_kernel_plays_the_same_games() -> None:
    results = {kernel: kernel_run(kernel) for kernel in wts.cpu_kernels()}
    files = {result["file"] for result in results.values()}
    assert len(files) == len(results)  # each really loaded its own build
    first = next(iter(results.values()))
    for kernel, result in results.items():
        assert (result["games"], result["per_game"], result["searches"]) == (
            first["games"], first["per_game"], first["searches"]), kernel


@functools.cache
def starts_run(kernel: str) -> dict:
    done = run_child(STARTS_CHILD, kernel)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_kernel_plays_the_same_games_from_every_start() -> None:
    """Per-game lengths and statuses agree across builds (the x86-64-v3 and
    later ones play several games at once in SIMD lanes) and thread counts,
    from positions that send lanes to the scalar turn: eggs, sudden death,
    a nearly full board, the last turn number, a game already over, and
    draws that Lemire's method rejects."""
    results = {kernel: starts_run(kernel) for kernel in wts.cpu_kernels()}
    first = next(iter(results.values()))
    assert len(first) == 8 * 5 + 2 + 2  # 9,000 games from two starts; two rejected draws
    for kernel, result in results.items():
        assert result == first, kernel


def test_the_default_is_the_best_kernel_and_the_baseline_is_always_there() -> None:
    kernels = wts.cpu_kernels()
    assert kernels and kernels[0] in ("x86-64", "aarch64", "baseline")
    if "WTS_CPU_KERNEL" not in os.environ:
        assert wts.cpu_kernel() == kernels[-1]
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        assert set(kernels) <= {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"}
    elif machine in ("aarch64", "arm64"):
        assert set(kernels) <= {"aarch64", "aarch64-neon"}


def test_baseline_names_the_lowest_kernel() -> None:
    done = run_child("import wts; print(wts.cpu_kernel())", "baseline")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == wts.cpu_kernels()[0]


def warned(kernel: str) -> tuple[str, str]:
    """The build in use with WTS_CPU_KERNEL=kernel, and the warnings' messages."""
    code = ("import warnings\nwith warnings.catch_warnings(record=True) as seen:\n"
            "    warnings.simplefilter('always')\n    import wts\n"
            "print(wts.cpu_kernel()); print([str(w.message) for w in seen])")
    done = run_child(code, kernel)
    assert done.returncode == 0, done.stderr
    chosen, messages = done.stdout.splitlines()
    return chosen, messages


def test_a_kernel_this_machine_cannot_run_warns_and_uses_the_best() -> None:
    from wts.engine.kernels import _BUILDS

    missing = [name for name, _, _ in _BUILDS if name not in wts.cpu_kernels()]
    if not missing:
        pytest.skip("this machine runs every build of its architecture")
    chosen, messages = warned(missing[-1])
    assert chosen == wts.cpu_kernels()[-1]
    assert f"WTS_CPU_KERNEL={missing[-1]}" in messages
    assert "this CPU cannot run that build" in messages or "not in this install" in messages


def test_another_architectures_kernel_warns_and_uses_the_best() -> None:
    """One environment may serve x86-64 and ARM machines alike: the other's
    build names are not errors."""
    arm = platform.machine().lower() in ("aarch64", "arm64")
    other = "x86-64-v3" if arm else "aarch64-neon"
    chosen, messages = warned(other)
    assert chosen == wts.cpu_kernels()[-1]
    assert f"WTS_CPU_KERNEL={other}: that build is for {'x86-64' if arm else '64-bit ARM'}" \
        in messages


def test_an_unknown_kernel_name_is_a_parameter_error() -> None:
    done = run_child("import wts", "avx9000")
    assert done.returncode != 0
    assert "wts.errors.ParameterError: WTS_CPU_KERNEL must be one of" in done.stderr
    assert "aarch64-neon, baseline, not 'avx9000'" in done.stderr


def test_bench_times_simulate_on_every_kernel() -> None:
    from wts.devtools.bench import kernel_simulate_rates

    rates = kernel_simulate_rates(200, rounds=1)
    assert list(rates) == list(wts.cpu_kernels())
    assert all(rate > 0 for rate in rates.values())


def test_the_cpu_level_agrees_with_the_flags_linux_reports() -> None:
    """CPUID read by wts_cpu.h against the flags Linux reports (which also
    leave out what the OS does not save, as XGETBV does)."""
    from wts.engine._cpu import cpu_level

    cpuinfo = "/proc/cpuinfo"
    machine = platform.machine().lower()
    if machine != "x86_64" or not os.path.exists(cpuinfo):
        if machine in ("aarch64", "arm64"):
            assert cpu_level() == 2  # NEON: every AArch64 CPU has it
            return
        assert cpu_level() == 1 or machine in ("x86_64", "amd64")
        pytest.skip("no /proc/cpuinfo on x86-64 here")
    with open(cpuinfo) as file:
        flags = set(next(line for line in file if line.startswith("flags")).split(":")[1].split())
    levels = {
        2: {"cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"},
        3: {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"},
        4: {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"},
    }
    expected = 1
    for level, needed in levels.items():
        if not needed <= flags:
            break
        expected = level
    assert cpu_level() == expected


def test_every_kernel_steps_batches_alike() -> None:
    """BatchGame.step (the x86-64-v3 and later builds prove simple turns in
    SIMD lanes) gives the same results and states on every build."""
    results = {}
    for kernel in wts.cpu_kernels():
        done = run_child(BATCH_CHILD, kernel)
        assert done.returncode == 0, done.stderr
        results[kernel] = json.loads(done.stdout)
    first = next(iter(results.values()))
    assert list(first) == ["1", "3", "7", "1024"]
    for kernel, result in results.items():
        assert result == first, kernel
