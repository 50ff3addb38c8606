"""Self-play data and the backends: the same seeds give the same bytes on every
backend and number of workers; a killed run resumes; a dead worker costs only
its chunk; a failing game is reported with its seed."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import pathlib
import signal
import sys
import time
from typing import Any

import numpy as np
import pytest

import wts
from tests.support.processes import CLI, run_python, start_python
from tests.support.tasks import always_crash, blas_threads, crash_once
from wts._seeds import derive
from wts.engine.observation import observation_planes
from wts.errors import ParameterError
from wts.players.tournament import format_result, play_match
from wts.runtime.backends import WorkerLostError, run_chunks
from wts.scale import selfplay as selfplay_module
from wts.scale.selfplay import GameFailedError, load, selfplay

pytest.importorskip("pyarrow")

AGENT = "mcts:1"


def digest(folder: pathlib.Path) -> dict[str, str]:
    """Every file of a run, by path, as a hash of its bytes."""
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("local")
    selfplay(out, 6, agent=AGENT, seed=3, shard_size=2)
    return out


@pytest.fixture(scope="module")
def ray_session() -> Any:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_selfplay_examples_follow_the_records(local_run: pathlib.Path) -> None:
    data = load(local_run)
    assert data.agent == AGENT and len(data.records) == 6
    assert len(data) == 2 * int(data.game_turns.sum())
    assert data.observation.shape == (len(data), 4, 9, 9)
    assert np.allclose(data.policy.sum(axis=1), 1.0, atol=1e-5)
    for index, text in enumerate(data.records):
        record = wts.record.loads(text)
        rows = data.game == index
        game = record.game
        # Two examples a turn, black's then white's, each with the move played.
        moves = np.array([m for pair in record.moves for m in pair])
        assert (data.move[rows] == moves).all()
        assert (data.color[rows] == np.tile([0, 1], len(record.moves))).all()
        expected = {None: (0, 0), wts.Color.BLACK: (1, -1), wts.Color.WHITE: (-1, 1)}[game.winner]
        assert (data.outcome[rows] == np.tile(expected, len(record.moves))).all()
        # The first observation is the empty board; the policy puts weight on the move.
        assert data.observation[rows][0].sum() == 0
        assert (data.policy[rows][np.arange(rows.sum()), data.move[rows]] > 0).all()
        seeds = data.seed[rows][:2].tolist()
        assert seeds == [derive(3, index, side) for side in (0, 1)]


def test_selfplay_observations_are_each_players_view(local_run: pathlib.Path) -> None:
    data = load(local_run)
    record = wts.record.loads(data.records[0])
    game = wts.Game()
    rows = np.flatnonzero(data.game == 0)
    for turn, (black, white) in enumerate(record.moves):
        for side, color in enumerate(("black", "white")):
            planes = observation_planes(game, color)
            assert (data.observation[rows[2 * turn + side]] == planes).all()
        game.play(black, white)


def test_load_with_symmetries_gives_eight_consistent_images(local_run: pathlib.Path) -> None:
    plain = load(local_run)
    augmented = load(local_run, symmetries=True)
    n = len(plain)
    assert len(augmented) == 8 * n
    for symmetry in wts.Symmetry:
        part = slice(symmetry * n, (symmetry + 1) * n)
        assert (augmented.symmetry[part] == symmetry).all()
        assert (augmented.observation[part] == symmetry.planes(plain.observation)).all()
        assert (augmented.policy[part] == symmetry.mask(plain.policy)).all()
        assert augmented.move[part].tolist() == [symmetry.square(int(m)) for m in plain.move]
        # The played move keeps its weight in the transformed policy.
        assert (augmented.policy[part][np.arange(n), augmented.move[part]]
                == plain.policy[np.arange(n), plain.move]).all()


def test_parquet_files_are_plain_tables(local_run: pathlib.Path) -> None:
    import pyarrow.parquet as pq

    table = pq.read_table(local_run / "examples" / "shard-00000.parquet")
    assert table.column_names == ["game", "turn", "color", "seed", "agent", "observation",
                                  "policy", "move", "outcome"]
    assert table["agent"].to_pylist()[0] == AGENT
    manifest = json.loads((local_run / "manifest.json").read_text())
    assert manifest["complete"] and sorted(manifest["shards"]) == ["0", "1", "2"]


def test_process_backend_writes_the_same_bytes(local_run: pathlib.Path,
                                               tmp_path: pathlib.Path) -> None:
    for workers in (1, 2):
        out = tmp_path / f"process-{workers}"
        selfplay(out, 6, agent=AGENT, seed=3, shard_size=2, backend="process", workers=workers)
        assert digest(out) == digest(local_run)


@pytest.mark.xdist_group("ray")
def test_ray_backend_writes_the_same_bytes(local_run: pathlib.Path, tmp_path: pathlib.Path,
                                           ray_session: Any) -> None:
    for workers in (1, 2):
        out = tmp_path / f"ray-{workers}"
        selfplay(out, 6, agent=AGENT, seed=3, shard_size=2, backend="ray", workers=workers)
        assert digest(out) == digest(local_run)


def test_a_killed_run_resumes_without_loss_or_double(tmp_path: pathlib.Path) -> None:
    whole = tmp_path / "whole"
    selfplay(whole, 10, agent=AGENT, seed=8, shard_size=1)
    killed = tmp_path / "killed"
    # Each shard written a little slowly, so that the kill finds the run part
    # way however late this process looks.
    child = start_python(
        "-c",
        "import sys, time; from wts.cli.main import main; "
        "from wts.scale.runfolder import RunFolder; write = RunFolder.write_shard; "
        "RunFolder.write_shard = lambda *a: (time.sleep(0.2), write(*a))[1]; "
        "sys.exit(main(sys.argv[1:]))",
        "selfplay", "--agent", AGENT, "--games", "10", "--seed", "8", "--shard-size", "1",
        "--out", str(killed))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            manifest = killed / "manifest.json"
            if manifest.exists() and 2 <= len(json.loads(manifest.read_text())["shards"]) < 10:
                break
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    shards = json.loads((killed / "manifest.json").read_text())["shards"]
    assert 2 <= len(shards) < 10, "the run was not killed part way"
    report = selfplay(killed, 10, agent=AGENT, seed=8, shard_size=1)
    assert report.played == 10 - len(shards)
    assert digest(killed) == digest(whole)
    assert not list(killed.rglob(".*.tmp"))


def test_another_runs_directory_is_refused_and_left_alone(local_run: pathlib.Path) -> None:
    before = digest(local_run)
    with pytest.raises(ParameterError, match="other settings"):
        selfplay(local_run, 6, agent=AGENT, seed=4, shard_size=2)
    assert digest(local_run) == before


@pytest.mark.parametrize("kwargs, message", [
    ({"backend": "cluster"}, "backend"),
    ({"workers": 0}, "workers"),
    ({"address": "auto"}, "address"),
    ({"on_error": "retry"}, "on_error"),
    ({"shard_size": 0}, "shard_size"),
    ({"agent": "alphazero"}, "unknown agent"),
])
def test_bad_parameters_raise_and_write_nothing(tmp_path: pathlib.Path, kwargs: dict[str, Any],
                                                message: str) -> None:
    out = tmp_path / "run"
    arguments = {"agent": AGENT, **kwargs}
    with pytest.raises(ParameterError, match=message):
        selfplay(out, 2, **arguments)
    assert not out.exists()


def _failing_game(spec: str, index: int, seeds: tuple[int, int], max_turns: int) -> Any:
    if index == 3:
        raise RuntimeError("a bug in an agent")
    return _real_play_game(spec, index, seeds, max_turns)


_real_play_game = selfplay_module._play_game


def test_a_failing_game_stops_the_run_with_its_index_and_seeds(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay_module, "_play_game", _failing_game)
    seeds = [derive(5, 3, side) for side in (0, 1)]
    with pytest.raises(GameFailedError, match=f"game 3 \\(seeds {seeds[0]} and {seeds[1]}\\)"
                       ".*a bug in an agent"):
        selfplay(tmp_path / "stop", 6, agent="random", seed=5, shard_size=2)
    # The shard before it is written and kept: the run can be resumed.
    assert list(json.loads((tmp_path / "stop" / "manifest.json").read_text())["shards"]) == ["0"]


def test_a_failing_game_is_skipped_when_asked(tmp_path: pathlib.Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay_module, "_play_game", _failing_game)
    report = selfplay(tmp_path / "skip", 6, agent="random", seed=5, shard_size=2,
                      on_error="skip")
    assert report.games == 5 and [f.game for f in report.failures] == [3]
    assert 3 not in set(load(tmp_path / "skip").game.tolist())


# --- A worker that dies -----------------------------------------------------------


def test_a_dead_process_worker_costs_only_its_chunk(tmp_path: pathlib.Path) -> None:
    flag = tmp_path / "flag"
    chunks = [(i, str(flag)) for i in range(6)]
    results = dict(run_chunks(crash_once, chunks, backend="process", workers=2))
    assert flag.exists()  # a worker did die
    assert results == {i: i * i for i in range(6)}


@pytest.mark.xdist_group("ray")
def test_a_dead_ray_worker_costs_only_its_chunk(tmp_path: pathlib.Path,
                                                ray_session: Any) -> None:
    flag = tmp_path / "flag"
    chunks = [(i, str(flag)) for i in range(6)]
    results = dict(run_chunks(crash_once, chunks, backend="ray", workers=2))
    assert flag.exists()
    assert results == {i: i * i for i in range(6)}


def test_process_workers_run_one_blas_thread_each(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert dict(run_chunks(blas_threads, [0, 1], backend="process", workers=2)) == {
        0: "1", 1: "1"}
    assert "OPENBLAS_NUM_THREADS" not in os.environ  # the driver's own is left as it was
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")  # a user's choice is kept
    assert dict(run_chunks(blas_threads, [0], backend="process", workers=1)) == {0: "2"}


def test_a_chunk_that_always_kills_its_worker_stops_the_run() -> None:
    with pytest.raises(WorkerLostError, match="chunk 0: its worker died 2 times"):
        list(run_chunks(always_crash, [0], backend="process", workers=1, retries=1))
    assert not multiprocessing.active_children()


def test_selfplay_survives_a_killed_worker(local_run: pathlib.Path,
                                           tmp_path: pathlib.Path) -> None:
    """A worker process killed from outside mid-run: the run finishes with the same bytes."""
    out = tmp_path / "killed-worker"
    killed = []

    def kill_one(progress: Any) -> None:
        if not killed:
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGKILL)
                killed.append(child.pid)
                break

    selfplay(out, 6, agent=AGENT, seed=3, shard_size=2, backend="process", workers=2,
             progress=kill_one)
    assert killed
    assert digest(out) == digest(local_run)


# --- Tournaments ------------------------------------------------------------------


def _table(result: Any) -> list[str]:
    """The report without its speed lines (playouts/s and time)."""
    return [line for line in format_result(result).splitlines()
            if "playouts/s" not in line and not line.strip().startswith("time")]


def test_tournament_results_do_not_depend_on_the_backend() -> None:
    local = play_match(AGENT, "greedy", 10, seed=5)
    threads = play_match(AGENT, "greedy", 10, seed=5, jobs=2)
    processes = play_match(AGENT, "greedy", 10, seed=5, backend="process", workers=2)
    for other in (threads, processes):
        assert other.records == local.records
        assert other.playouts == local.playouts
        assert _table(other) == _table(local)


@pytest.mark.xdist_group("ray")
def test_tournament_on_ray_matches_local(ray_session: Any) -> None:
    local = play_match(AGENT, "greedy", 6, seed=2)
    on_ray = play_match(AGENT, "greedy", 6, seed=2, backend="ray", workers=2)
    assert on_ray.records == local.records and _table(on_ray) == _table(local)


def test_importing_wts_imports_neither_ray_nor_pyarrow() -> None:
    code = ("import sys, wts, wts.scale.selfplay; "
            "print('ray' in sys.modules, 'pyarrow' in sys.modules)")
    done = run_python("-c", code)
    assert done.stdout.split() == ["False", "False"], done.stderr


def test_importing_wts_imports_no_network_stack() -> None:
    """Neither the optional extras' nor the standard library's heavy parts."""
    heavy = ("urllib.request", "http.client", "email", "importlib.resources", "asyncio",
             "uvicorn", "starlette", "gymnasium", "pettingzoo", "pyspiel")
    code = f"import sys, wts; print(*sorted(set({heavy!r}) & set(sys.modules)))"
    done = run_python("-c", code, check=True)
    assert done.stdout.split() == [], done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_end_with_a_driver_killed_outright(tmp_path: pathlib.Path) -> None:
    driver = start_python(
        "-c", CLI, "selfplay", "--agent", "mcts:5", "--games", "8", "--out",
        str(tmp_path / "run"), "--shard-size", "1", "--backend", "process", "--workers", "2")
    try:
        workers: list[int] = []
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = [int(pid) for pid in os.listdir("/proc") if pid.isdigit()
                       and _parent(int(pid)) == driver.pid and "spawn_main" in _command(pid)]
            time.sleep(0.05)
        assert len(workers) == 2
    finally:
        driver.kill()
        driver.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)]


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _command(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().decode(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# --- Damaged, shared and odd run directories --------------------------------------


@pytest.mark.parametrize("text, message", [
    ("[]", "not a wts selfplay manifest"),
    ("{not json", "not a wts selfplay manifest"),
    ('{"format": "wts-selfplay/2", "wts": "0.1.0", "complete": false, "settings": {}, '
     '"shards": {}}', "settings"),
    ('{"format": "wts-selfplay/2", "wts": "0.1.0", "complete": false, "settings": '
     '{"agent": "random", "games": 4, "seed": 0, "shard_size": 2, "max_turns": 1000}, '
     '"shards": {"9": {"games": 2, "examples": 8, "failed": []}}}', "shard '9'"),
    ('{"format": "wts-selfplay/1", "settings": {}, "shards": {}}', "written by an older wts"),
])
def test_a_damaged_manifest_is_a_wts_error_for_selfplay_and_load(
        tmp_path: pathlib.Path, text: str, message: str) -> None:
    (tmp_path / "manifest.json").write_text(text)
    with pytest.raises(wts.WtsError, match=message):
        selfplay(tmp_path, 4, agent="random", shard_size=2)
    with pytest.raises(wts.WtsError, match=message):
        load(tmp_path)


def test_a_deleted_shard_is_played_again_on_resume(local_run: pathlib.Path,
                                                   tmp_path: pathlib.Path) -> None:
    import shutil

    out = tmp_path / "copy"
    shutil.copytree(local_run, out)
    (out / "examples" / "shard-00001.parquet").unlink()
    with pytest.raises(wts.WtsError, match="shard 1 is listed but cannot be read"):
        load(out)
    report = selfplay(out, 6, agent=AGENT, seed=3, shard_size=2)
    assert report.played == 2
    assert digest(out) == digest(local_run)


def test_a_second_run_on_the_same_directory_is_refused(tmp_path: pathlib.Path) -> None:
    import fcntl

    tmp_path.joinpath(".lock").touch()
    with open(tmp_path / ".lock") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(wts.WtsError, match="in use by another wts selfplay run"):
            selfplay(tmp_path, 2, agent="random")
    assert selfplay(tmp_path, 2, agent="random").games == 2


def test_a_run_stopped_by_a_failing_game_resumes_with_skip(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay_module, "_play_game", _failing_game)
    with pytest.raises(GameFailedError):
        selfplay(tmp_path, 6, agent="random", seed=5, shard_size=2)
    report = selfplay(tmp_path, 6, agent="random", seed=5, shard_size=2, on_error="skip")
    assert report.games == 5 and [f.game for f in report.failures] == [3]


def test_the_agent_is_stored_as_the_command_line_writes_it(tmp_path: pathlib.Path) -> None:
    selfplay(tmp_path, 1, agent=" Random ")
    assert load(tmp_path).agent == "random"
    assert selfplay(tmp_path, 1, agent="random").played == 0  # the same run


@pytest.mark.parametrize("kwargs, error", [
    ({"agent": None}, wts.ParameterTypeError),
    ({"progress": 5}, wts.ParameterTypeError),
    ({"out": ""}, ParameterError),
])
def test_odd_arguments_are_wts_errors(tmp_path: pathlib.Path, kwargs: dict[str, Any],
                                      error: type) -> None:
    arguments = {"out": tmp_path / "run", "games": 1, "agent": "random", **kwargs}
    with pytest.raises(error):
        selfplay(**arguments)


def test_an_out_that_is_a_file_is_a_wts_error(tmp_path: pathlib.Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(wts.WtsError, match="cannot make the run's directory"):
        selfplay(tmp_path / "file", 1, agent="random")


def test_tournament_backend_options_are_checked_before_any_worker_starts() -> None:
    with pytest.raises(ParameterError, match="jobs= plays games on threads"):
        play_match("random", "random", 2, backend="process", jobs=2)
    with pytest.raises(ParameterError, match="workers= is for the process and ray"):
        play_match("random", "random", 2, workers=2)
    with pytest.raises(ParameterError, match="time_limit"):
        play_match("mcts", "random", 2, backend="process", time_limit=-1.0)
    assert not multiprocessing.active_children()
