"""A self-play run's games and options: a failed game is a game not yet
played, an error of the machine stops the run, chunks are made and read as
they are needed, agent specs and options are checked before any game, and a
chunk that kills its worker is blamed alone. The other cases are in
tests/scale/test_runfolder_*.py."""

from __future__ import annotations

import errno
import pathlib
from typing import Any

import pytest

import wts
from tests.support.processes import traced_in_a_fresh_process
from tests.support.runfolders import GAMES, RUN, digest, manifest_of, resumes_to_the_reference
from wts.runtime.backends import run_chunks
from wts.scale import selfplay as selfplay_module
from wts.scale.data import iter_shards
from wts.scale.selfplay import GameFailedError, RunEnvironmentError, load, selfplay

# --- 6. Failed games are games not yet played ----------------------------------------

_real_play_game = selfplay_module._play_game


def _fail_game_3_once(flag: pathlib.Path) -> Any:
    def play(spec: str, index: int, seeds: tuple[int, int], max_turns: int) -> Any:
        if index == 3 and not flag.exists():
            flag.write_text("failed")
            raise RuntimeError("a passing fault")
        return _real_play_game(spec, index, seeds, max_turns)
    return play


def test_a_skipped_game_is_played_when_the_run_resumes(
        tmp_path: pathlib.Path, finished_run: pathlib.Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay_module, "_play_game", _fail_game_3_once(tmp_path / "flag"))
    out = tmp_path / "run"
    report = selfplay(out, GAMES, on_error="skip", **RUN)
    assert [f.game for f in report.failures] == [3] and report.games == 4
    assert manifest_of(out)["complete"] is False
    report = selfplay(out, GAMES, on_error="stop", **RUN)  # stop: nothing fails now
    assert report.played == 2 and not report.failures
    assert manifest_of(out)["complete"] is True
    assert digest(out) == digest(finished_run)


def test_a_game_that_fails_again_on_resume_stops_a_stop_run(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def always(spec: str, index: int, seeds: tuple[int, int], max_turns: int) -> Any:
        if index == 3:
            raise RuntimeError("a lasting fault")
        return _real_play_game(spec, index, seeds, max_turns)

    monkeypatch.setattr(selfplay_module, "_play_game", always)
    out = tmp_path / "run"
    selfplay(out, GAMES, on_error="skip", **RUN)
    with pytest.raises(GameFailedError, match="game 3"):
        selfplay(out, GAMES, on_error="stop", **RUN)


@pytest.mark.parametrize("error", [ImportError("no module named 'pyspiel'"), MemoryError(),
                                   OSError(errno.ENOSPC, "No space left on device")])
@pytest.mark.parametrize("on_error", ["stop", "skip"])
def test_an_error_of_the_machine_stops_the_run_and_fails_no_game(
        tmp_path: pathlib.Path, finished_run: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
        error: BaseException, on_error: str) -> None:
    def play(spec: str, index: int, seeds: tuple[int, int], max_turns: int) -> Any:
        if index == 3:
            raise error
        return _real_play_game(spec, index, seeds, max_turns)

    monkeypatch.setattr(selfplay_module, "_play_game", play)
    out = tmp_path / "run"
    with pytest.raises(RunEnvironmentError, match=f"game 3 .*{type(error).__name__}"):
        selfplay(out, GAMES, on_error=on_error, **RUN)
    assert sorted(manifest_of(out)["shards"]) == ["0"]
    monkeypatch.setattr(selfplay_module, "_play_game", _real_play_game)
    resumes_to_the_reference(out, finished_run)


# --- 10, 11. Memory bounded by what is asked -----------------------------------------


def test_a_huge_run_makes_its_chunks_as_it_goes(tmp_path: pathlib.Path) -> None:
    seen, peak = traced_in_a_fresh_process(f"""if True:
        import json, tracemalloc
        from wts.scale.selfplay import selfplay

        class Enough(Exception):
            pass

        seen = []

        def stop_after_two(progress):
            seen.append(progress.games)
            if len(seen) == 2:
                raise Enough

        tracemalloc.start()
        try:
            selfplay({str(tmp_path / "run")!r}, 1 << 20, agent="random", shard_size=1,
                     progress=stop_after_two)
        except Enough:
            pass
        print(json.dumps([seen, tracemalloc.get_traced_memory()[1]]))
    """)
    assert seen == [1, 2]
    assert peak < 20 << 20, f"{peak:,} bytes to start a run of 2**20 shards"


def test_the_process_backend_reads_chunks_as_workers_free_up() -> None:
    import itertools

    pulled = []

    def endless() -> Any:
        for value in itertools.count(1):
            pulled.append(value)
            yield value

    results = run_chunks(abs, endless(), backend="process", workers=2)
    first = [next(results) for _ in range(6)]
    results.close()  # type: ignore[attr-defined]
    assert len({value for _, value in first}) == 6
    assert len(pulled) <= 6 + 2 * 2  # those yielded, and two a worker in flight


# --- 14. Agent specs with odd white space --------------------------------------------


def test_an_agent_spec_with_a_tab_or_newline_is_normalised_before_any_play(
        tmp_path: pathlib.Path) -> None:
    selfplay(tmp_path / "a", 1, agent="mcts:1,\tplayouts=8\n")
    assert load(tmp_path / "a").agent == "mcts:1,playouts=8"
    with pytest.raises(wts.ParameterError, match="white space or a control character"):
        selfplay(tmp_path / "b", 1, agent="mcts:1,policy=r\tm")
    assert not (tmp_path / "b").exists()


# --- Hostile shards, manifests and addresses, found in review ------------------------


def test_a_bad_option_value_is_refused_before_any_game(tmp_path: pathlib.Path) -> None:
    with pytest.raises(wts.ParameterError, match="policy"):
        selfplay(tmp_path / "run", 3, agent="mcts:1,policy=bogus", on_error="skip")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("out", ["run\0x", b"run", 5])
def test_a_bad_run_path_is_a_parameter_error(tmp_path: pathlib.Path, out: object) -> None:
    for call in (lambda: selfplay(out, 1, agent="random"),  # type: ignore[arg-type]
                 lambda: load(out), lambda: list(iter_shards(out))):  # type: ignore[arg-type]
        with pytest.raises(wts.ParameterError, match="a run's folder is a path"):
            call()


def test_one_agent_spelled_two_ways_is_one_run(tmp_path: pathlib.Path) -> None:
    selfplay(tmp_path, 1, agent="mcts:1, playouts=08, reuse=no")
    again = selfplay(tmp_path, 1, agent="MCTS:1,playouts=8,reuse=false")
    assert again.played == 0 and load(tmp_path).agent == "mcts:1,playouts=8,reuse=false"


def test_a_chunk_that_kills_its_worker_is_blamed_alone() -> None:
    from tests.support.tasks import kill_on_poison
    from wts.runtime.backends import WorkerLostError

    chunks = ["ok0", "poison", "ok2", "ok3", "ok4"]
    finished = []
    with pytest.raises(WorkerLostError, match="chunk 1"):
        for index, value in run_chunks(kill_on_poison, chunks, backend="process", workers=2,
                                       retries=1):
            finished.append((index, value))
    # The chunks that shared a pool with it are played again, alone, first.
    assert {(2, "ok2"), (3, "ok3")} <= set(finished) and (1, "poison") not in finished
