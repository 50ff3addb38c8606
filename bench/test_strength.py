"""Strength of the agents: the matches behind the README's strength table.

    python -m pytest bench/test_strength.py -s

plays ``MCTSAgent(level=3)`` against ``RandomAgent`` and ``GreedyAgent``,
200 games each, both colours equally, as ``wts tournament mcts:3 random
--games 200 --seed 0`` and ``wts tournament mcts:3 greedy --games 200 --seed
0`` do, and prints each report (the README shows the second: it must be
the same, but for the machine's speed); then the time and playouts of a move at each
level. The targets (at least 95% and 70% of the games won) are checked; the
speed is printed, never asserted. ``WTS_STRENGTH_GAMES`` changes the number
of games, ``WTS_STRENGTH_JOBS`` the games played at once (default: one per
core; the search runs without the GIL).

``test_learned_prior_meets_its_target`` plays level 1 with the learned prior
against level 1 without it (at least 60% of the points, over 200 games).

``test_ladder_meets_its_targets`` runs ``wts ladder`` and checks the ladder's
targets: every level at least +100 Elo over the level below, level 5 at least
+500 over level 1. ``WTS_LADDER_LEVELS`` (default ``1-5``),
``WTS_LADDER_ANCHORS`` (default ``random,greedy,openspiel-mcts:100``; an
OpenSpiel anchor needs OpenSpiel) and ``WTS_LADDER_GAMES`` (games a pairing,
default 4) set its size; a run with the sizes of the README's ladder must print
the README's table.
"""

from __future__ import annotations

import itertools
import os
import sys
import time

import pytest

import wts
from wts.players.agents import LEVELS, GreedyAgent, MCTSAgent, RandomAgent
from wts.players.ladder import _anchors, _levels, format_ladder, run_ladder
from wts.players.tournament import format_result, play_match

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "tests"))
from readme_blocks import reproduces, shell_sessions  # tests/ is on the path, not a package

GAMES = int(os.environ.get("WTS_STRENGTH_GAMES", "200"))
JOBS = int(os.environ.get("WTS_STRENGTH_JOBS", str(os.cpu_count() or 1)))

LADDER_LEVELS = os.environ.get("WTS_LADDER_LEVELS", "1-5")
LADDER_ANCHORS = os.environ.get("WTS_LADDER_ANCHORS", "random,greedy,openspiel-mcts:100")
LADDER_GAMES = int(os.environ.get("WTS_LADDER_GAMES", "4"))
#: Elo over the level below, and of the top level over level 1 (the issue's targets).
STEP_TARGET, SPAN_TARGET = 100.0, 500.0

# (A, B, the share of the games A must win)
TARGETS = [("mcts:3", "random", 0.95), ("mcts:3", "greedy", 0.70)]
#: The learned prior's score at level 1 against the same search without it.
PRIOR_TARGET = 0.60


@pytest.mark.parametrize(("a", "b", "target"), TARGETS, ids=[f"{a}-{b}" for a, b, _ in TARGETS])
def test_mcts_level_3_meets_its_target(a: str, b: str, target: float,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    result = play_match(a, b, GAMES, seed=0, jobs=JOBS)
    report = format_result(result)
    with capsys.disabled():
        print(f"\n{report}\n  target: {a} wins at least {target:.0%} of the games")
    assert result.a_wins >= target * result.games
    # The README shows this match's report: it must be this one (its jobs do not matter).
    shown = {command.replace(" --jobs 2", ""): output for _, command, output in shell_sessions()}
    command = f"wts tournament {a} {b} --games {GAMES} --seed 0"
    if command in shown:
        assert reproduces(shown[command], report + "\n"), report


def test_learned_prior_meets_its_target(capsys: pytest.CaptureFixture[str]) -> None:
    """``mcts:1,prior=learned`` against ``mcts:1,prior=none``: 200 games at equal playouts."""
    a, b = "mcts:1,prior=learned", "mcts:1,prior=none"
    result = play_match(a, b, GAMES, seed=0, jobs=JOBS)
    with capsys.disabled():
        print(f"\n{format_result(result)}\n  target: {a} scores at least {PRIOR_TARGET:.0%}")
    assert result.score >= PRIOR_TARGET


def _positions() -> list[wts.Game]:
    """The start and two middle-game positions of a greedy-vs-random game."""
    game, black, white = wts.Game(), GreedyAgent(seed=1), RandomAgent(seed=2)
    positions = [game.copy()]
    while len(positions) < 3:
        game.play(black.select(game, "black"), white.select(game, "white"))
        if game.turn in (2, 4):
            positions.append(game.copy())
    return positions


def test_level_table(capsys: pytest.CaptureFixture[str]) -> None:
    """One move from each of three positions at every level, on one thread."""
    rows = []
    for level, playouts in LEVELS.items():
        agent = MCTSAgent(level=level, seed=level)
        started = time.perf_counter()
        for position in _positions():
            agent.select(position, "black")
        seconds = (time.perf_counter() - started) / 3
        rows.append(f"  {level:>5} {playouts:>10,} {seconds:>10.3f} "
                    f"{agent.playouts_per_second:>14,.0f}")
    with capsys.disabled():
        print("\n  level   playouts   s a move   playouts per s")
        print("\n".join(rows))


def test_ladder_meets_its_targets(capsys: pytest.CaptureFixture[str]) -> None:
    levels, anchors = _levels(LADDER_LEVELS), _anchors(LADDER_ANCHORS)
    if any(anchor.startswith("openspiel") for anchor in anchors):
        pytest.importorskip("pyspiel")
    result = run_ladder(levels, anchors, LADDER_GAMES, seed=0, jobs=JOBS)
    report = format_ladder(result)
    elo = {rating.player: rating.elo for rating in result.ratings}
    steps = [(low, high, elo[f"mcts:{high}"] - elo[f"mcts:{low}"])
             for low, high in itertools.pairwise(levels)]
    lines = [f"  mcts:{high} over mcts:{low}: {gap:+.0f} (target >= +{STEP_TARGET:.0f})"
             for low, high, gap in steps]
    span = elo["mcts:5"] - elo["mcts:1"] if {1, 5} <= set(levels) else None
    if span is not None:
        lines.append(f"  mcts:5 over mcts:1: {span:+.0f} (target >= +{SPAN_TARGET:.0f})")
    with capsys.disabled():
        print(f"\n{report}\n" + "\n".join(lines))
    # The README shows a ladder's report: with its sizes, it must be this one.
    shown = {command: output for _, command, output in shell_sessions()}
    command = (f"wts ladder --levels {LADDER_LEVELS} --anchors {LADDER_ANCHORS} "
               f"--games {LADDER_GAMES} --seed 0")
    if command in shown:
        assert reproduces(shown[command], report + "\n"), report
    missed = [f"mcts:{high} only {gap:+.0f} over mcts:{low}" for low, high, gap in steps
              if gap < STEP_TARGET]
    if span is not None and span < SPAN_TARGET:
        missed.append(f"mcts:5 only {span:+.0f} over mcts:1")
    assert not missed, "; ".join(missed)
