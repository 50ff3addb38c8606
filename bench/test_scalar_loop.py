"""The plain scalar C loop simulate is timed against plays the same game:
its games, replayed on the engine, end on the same turn the same way,
and set-ups played through both end in the same position."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import scalar_loop
from scalar_loop import ScalarLoop, ScalarLoopError, load

import wts
import wts.engine.reference


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory) -> ScalarLoop:
    try:
        return load(tmp_path_factory.mktemp("scalar-loop"))
    except ScalarLoopError as error:
        pytest.skip(str(error))


def replay(engine: type, moves: list[tuple[int, int]]) -> tuple[object, list[object]]:
    game = engine()
    results = []
    for turn, (black, white) in enumerate(moves):
        assert not game.is_over(), f"the engine's game ended before turn {turn}"
        results.append(game.play(black, white))
    return game, results


def test_scalar_loop_games_replay_on_the_fast_engine(loop: ScalarLoop) -> None:
    statuses: dict[str, int] = {}
    cascades = collisions = dissolved = 0
    for index in range(3000):
        played = loop.game(seed=5, index=index)
        game, results = replay(wts.Game, played.moves)
        assert game.is_over(), f"game {index}: the loop ended it, the engine did not"
        assert game.status.name.lower() == played.status, index
        statuses[played.status] = statuses.get(played.status, 0) + 1
        for result in results:
            cascades += any(hatch.wave >= 2 for hatch in result.hatched)
            collisions += result.collision is not None
            dissolved += len(result.dissolved)
    # The games reached the rare rules: a loop that skipped one would have
    # disagreed somewhere above.
    assert set(statuses) == {"black_wins", "white_wins"}, statuses
    assert cascades and collisions and dissolved


def test_scalar_loop_draws_replay_as_draws(loop: ScalarLoop) -> None:
    # About one random game in 50,000 fills the board with nobody ahead.
    draws = [index for index in range(60_000) if loop.game(seed=5, index=index).status == "draw"]
    assert draws
    for index in draws:
        game, _ = replay(wts.Game, loop.game(seed=5, index=index).moves)
        assert game.status == wts.Status.DRAW, index


def test_scalar_loop_games_replay_on_the_reference(loop: ScalarLoop) -> None:
    for index in range(40):
        played = loop.game(seed=9, index=index)
        game, _ = replay(wts.engine.reference.Game, played.moves)
        assert game.is_over() and game.status.name.lower() == played.status, index


def test_scalar_loop_run_plays_the_games_it_returns(loop: ScalarLoop) -> None:
    lengths = [len(loop.game(seed=2, index=i).moves) for i in range(200)]
    assert loop.run(200, seed=2) == sum(lengths)
    assert loop.run(0, seed=2) == 0


def test_scalar_loop_plays_uniform_random_games_like_simulate(loop: ScalarLoop) -> None:
    # Other random streams, the same players: the mean lengths agree within
    # a few standard errors (a game's length varies by about 7.4 turns, so
    # the difference of two means over 10,000 games by about 0.1).
    games = 10_000
    ours = loop.run(games, seed=1) / games
    theirs = wts.simulate(games, seed=1).mean_length
    assert abs(ours - theirs) < 0.5, (ours, theirs)


def test_scalar_loop_refuses_bad_arguments(loop: ScalarLoop) -> None:
    for bad in (-1, 2**63, 1.5, True, None):
        with pytest.raises(wts.ParameterError, match="games"):
            loop.run(bad, seed=0)  # type: ignore[arg-type]
    for bad in (-1, 2**64, 1.5, None):
        with pytest.raises(wts.ParameterError, match="seed"):
            loop.run(1, seed=bad)  # type: ignore[arg-type]
        with pytest.raises(wts.ParameterError, match="seed"):
            loop.game(bad, 0)  # type: ignore[arg-type]
    with pytest.raises(wts.ParameterError, match="index"):
        loop.game(1, -1)
    assert loop.run(np.int64(3), seed=np.uint64(2)) == loop.run(3, seed=2)
    with pytest.raises(wts.SetupError, match="twice"):
        loop.play([], black=["E5"], eggs=["E5"])
    with pytest.raises(wts.SquareError):
        loop.play([("J1", "E5")])
    with pytest.raises(wts.IllegalMoveError, match="turn 1"):
        loop.play([("E5", "E6"), ("E5", "A1")])
    for bad in ("E5", ("E5",), ("E5", "E6", "E7"), 40):
        with pytest.raises(wts.ParameterError, match="turn 0 must be a pair"):
            loop.play([bad])  # type: ignore[list-item]
    assert loop.play([], eggs=iter(["E5", "A1"])).eggs == (40, 0)


def egg_filled(black: str, white: str, empty: str) -> dict[str, list[str]]:
    """A set-up whose every other square holds an egg."""
    taken = set(black.split()) | set(white.split()) | set(empty.split())
    return dict(black=black.split(), white=white.split(),
                eggs=[wts.SQUARE_NAMES[s] for s in range(81) if wts.SQUARE_NAMES[s] not in taken])


# Rulings the random games reach too rarely to rely on: each as a set-up and
# its moves, played through the loop and the engine.
SCENARIOS = {
    "point 6: a bracket closed from both ends in one wave counts once": (
        dict(black=["E8", "H5"], white=["G8", "F8", "H7", "H6", "B1", "C1"],
             eggs=["D1", "A1", "A9", "I1"]), [("H8", "A5")]),
    "point 11: a win stands when the same turn fills the board": (
        egg_filled("A1 B1 C1 D1", "", "E1 I9"), [("E1", "I9")]),
    "point 12: a full board with equal non-zero counts is a draw": (
        egg_filled("A1 B1 C1 D1", "A9 B9 C9 D9", "E1 E9"), [("E1", "E9")]),
    "point 12: a board emptied by a capture in the last turn is no draw": (
        egg_filled("D1", "B1 C1", "A1 I1"), [("A1", "I1")]),
    "point 11: sudden death, then its lines broken": (
        dict(black=["A2", "B2", "C2", "D2", "E2", "C3", "C9"],
             white=["A8", "B8", "C8", "D8", "E8", "C7", "C1"]), [("I5", "I6"), ("C6", "C4")]),
}


def assert_same_end(loop: ScalarLoop, setup: dict, moves: list) -> str:
    game = wts.Game.from_setup(**setup)
    played = 0
    for black, white in moves:
        if game.is_over():
            break
        game.play(black, white)
        played += 1
    reached = loop.play(moves, **setup)
    assert reached.turns == played
    assert reached.black == frozenset(game.black) and reached.white == frozenset(game.white)
    assert reached.eggs == tuple(game.eggs)
    assert reached.status == game.status.name.lower()
    return reached.status


@pytest.mark.parametrize("name", SCENARIOS)
def test_scalar_loop_plays_the_rare_rulings_as_the_engine(loop: ScalarLoop, name: str) -> None:
    setup, moves = SCENARIOS[name]
    assert_same_end(loop, setup, moves)


def test_scalar_loop_plays_random_setups_as_the_engine(loop: ScalarLoop) -> None:
    # Crowded set-ups, so that lines, sudden deaths, egg captures and full
    # boards come often; random legal moves chosen on the engine.
    rng = np.random.default_rng(12)
    endings: dict[str, int] = {}
    for _ in range(400):
        kinds = rng.choice(4, size=81, p=rng.dirichlet([2, 1, 1, 1]))
        squares = rng.permutation(81)
        setup = dict(black=[int(s) for s in squares if kinds[s] == 1],
                     white=[int(s) for s in squares if kinds[s] == 2],
                     eggs=[int(s) for s in squares if kinds[s] == 3])
        game = wts.Game.from_setup(**setup)
        moves = []
        while not game.is_over() and len(moves) < 30:
            legal = game.legal_moves()
            move = (int(rng.choice(legal)), int(rng.choice(legal)))
            game.play(*move)
            moves.append(move)
        status = assert_same_end(loop, setup, moves)
        endings[status] = endings.get(status, 0) + 1
    assert {"black_wins", "white_wins", "draw"} <= set(endings), endings


def test_load_ignores_a_folder_others_can_write(tmp_path: Path) -> None:
    # A library planted where another user could write is never loaded.
    shared = tmp_path / "wts-scalar-loop"
    shared.mkdir()
    (shared / "scalar_loop_planted.so").write_bytes(b"not a library")
    shared.chmod(0o777)
    loop = load(tmp_path)
    assert loop.run(10, seed=1) > 0
    assert sorted(p.name for p in shared.iterdir()) == ["scalar_loop_planted.so"]


def test_load_rebuilds_a_damaged_library(tmp_path: Path) -> None:
    # In fresh processes: one that has loaded a library keeps it by its path.
    command = [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[2]); "
               "from scalar_loop import load; print(load(sys.argv[1]).run(10, seed=1))",
               str(tmp_path), str(Path(scalar_loop.__file__).parent)]
    first = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    (library,) = (tmp_path / "wts-scalar-loop").glob("scalar_loop_*")
    library.unlink()
    library.write_bytes(b"damaged")
    assert subprocess.run(command, capture_output=True, text=True, check=True).stdout == first
    assert library.read_bytes() != b"damaged"


def test_load_from_two_threads_at_once(tmp_path: Path) -> None:
    results: list[object] = []

    def build() -> None:
        try:
            results.append(load(tmp_path).run(5, seed=3))
        except Exception as error:
            results.append(error)

    threads = [threading.Thread(target=build) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1 and isinstance(results[0], int), results
    assert len(list((tmp_path / "wts-scalar-loop").iterdir())) == 1


def test_load_without_a_compiler_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CC", "no-such-compiler")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(scalar_loop.sysconfig, "get_config_var", lambda name: None)
    with pytest.raises(ScalarLoopError, match="no C compiler"):
        load(tmp_path)
    assert os.environ["CC"] == "no-such-compiler"


def test_the_comparison_prints_both_speeds_and_the_ratio(
        loop: ScalarLoop, capsys: pytest.CaptureFixture[str]) -> None:
    assert scalar_loop.main(["--games", "200", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"simulate ({wts.cpu_kernel()}), 1 thread")
    assert lines[1].startswith("plain scalar C loop, 1 thread")
    assert "simulate / loop" in lines[2] and "target >=" in lines[2]
