"""``wts train``'s loop end to end on a tiny budget: the run folder, the gate,
repeatability, resuming after an interruption, refusals."""

from __future__ import annotations

import json
import os
import pathlib
from dataclasses import replace

import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from wts.cli import main as cli
from wts.errors import ParameterError
from wts.players.network import Network
from wts.train.loop import RUN_FORMAT, TrainProgress, TrainSettings, train


def tiny(greedy_run: pathlib.Path, **changes: object) -> TrainSettings:
    settings = TrainSettings(generations=1, games=2, playouts=4, steps=3, batch_size=16,
                             blocks=1, channels=4, gate_pairs=2, seed=5,
                             bootstrap=(str(greedy_run),))
    return replace(settings, **changes)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def finished(greedy_run: pathlib.Path, tmp_path_factory: pytest.TempPathFactory
             ) -> tuple[pathlib.Path, dict[str, object]]:
    out = tmp_path_factory.mktemp("loop") / "run"
    return out, train(out, tiny(greedy_run))


def test_a_run_folder_holds_every_generation(
        finished: tuple[pathlib.Path, dict[str, object]]) -> None:
    out, document = finished
    assert document["format"] == RUN_FORMAT
    assert json.loads((out / "train.json").read_text()) == document
    generations = document["generations"]
    assert isinstance(generations, list) and [g["generation"] for g in generations] == [0, 1]
    for g in (0, 1):
        Network.load(out / f"gen-{g:03d}" / "network.wtsnet")
        assert (out / f"gen-{g:03d}" / "learner.npz").is_file()
    assert generations[0]["gate"] is None and generations[0]["promoted"]
    assert generations[1]["games"] == 2
    assert (out / "gen-001" / "selfplay" / "manifest.json").is_file()
    gate = generations[1]["gate"]
    assert 1 <= gate["pairs"] <= 2 and (out / "gen-001" / "gate.json").is_file()
    assert document["best"] == (1 if generations[1]["promoted"] else 0)
    assert generations[1]["steps"] == 6  # generation 1 trains on from generation 0
    svg = (out / "progress.svg").read_text()
    assert svg.startswith("<svg") and "Elo" in svg


def test_the_same_seed_makes_the_same_first_generation(
        finished: tuple[pathlib.Path, dict[str, object]], greedy_run: pathlib.Path,
        tmp_path: pathlib.Path) -> None:
    out, _ = finished
    train(tmp_path / "again", tiny(greedy_run, generations=0))
    assert (tmp_path / "again" / "gen-000" / "network.wtsnet").read_bytes() == (
        out / "gen-000" / "network.wtsnet").read_bytes()


def test_an_interrupted_run_resumes_and_keeps_its_finished_generations(
        finished: tuple[pathlib.Path, dict[str, object]], greedy_run: pathlib.Path,
        tmp_path: pathlib.Path) -> None:
    out = tmp_path / "run"

    def interrupt(progress: TrainProgress) -> None:
        if progress.generation == 1 and progress.stage == "train":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(out, tiny(greedy_run), progress=interrupt)
    state = json.loads((out / "train.json").read_text())
    assert [g["generation"] for g in state["generations"]] == [0]
    first = (out / "gen-000" / "network.wtsnet").read_bytes()
    document = train(out, tiny(greedy_run))
    assert [g["generation"] for g in document["generations"]] == [0, 1]
    assert (out / "gen-000" / "network.wtsnet").read_bytes() == first
    # The resumed run is the run that was never stopped.
    done, _ = finished
    assert (out / "gen-001" / "network.wtsnet").read_bytes() == (
        done / "gen-001" / "network.wtsnet").read_bytes()


def test_more_generations_extend_a_finished_run(greedy_run: pathlib.Path,
                                                tmp_path: pathlib.Path) -> None:
    out = tmp_path / "run"
    train(out, tiny(greedy_run, generations=0))
    document = train(out, tiny(greedy_run, generations=1))
    assert [g["generation"] for g in document["generations"]] == [0, 1]


def test_a_run_with_other_settings_is_refused_and_left_alone(
        greedy_run: pathlib.Path, tmp_path: pathlib.Path) -> None:
    out = tmp_path / "run"
    train(out, tiny(greedy_run, generations=0))
    before = (out / "train.json").read_bytes()
    with pytest.raises(ParameterError, match=r"other settings \(steps 3 there, 4 here"):
        train(out, tiny(greedy_run, generations=0, steps=4))
    assert (out / "train.json").read_bytes() == before


def test_generation_zero_without_bootstrap_data_is_refused(tmp_path: pathlib.Path,
                                                           greedy_run: pathlib.Path) -> None:
    with pytest.raises(ParameterError, match="needs bootstrap data"):
        train(tmp_path / "run", tiny(greedy_run, generations=0, bootstrap=()))
    assert not (tmp_path / "run").exists()


def test_a_missing_bootstrap_folder_is_named_and_no_run_folder_is_made(
        tmp_path: pathlib.Path, greedy_run: pathlib.Path) -> None:
    missing = tmp_path / "no-such-run"
    with pytest.raises(ParameterError, match=f"bootstrap run {missing}: no such folder"):
        train(tmp_path / "run", tiny(greedy_run, generations=0, bootstrap=(str(missing),)))
    assert not (tmp_path / "run").exists()


def test_a_relative_bootstrap_path_resumes_from_another_folder(
        tmp_path: pathlib.Path, greedy_run: pathlib.Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    monkeypatch.chdir(greedy_run.parent)
    train(out, tiny(greedy_run, generations=0, bootstrap=(greedy_run.name,)))
    monkeypatch.chdir(tmp_path)
    relative = os.path.relpath(greedy_run, tmp_path)
    assert len(train(out, tiny(greedy_run, generations=0,
                               bootstrap=(relative,)))["generations"]) == 1


@pytest.mark.parametrize("changes", [{"games": 0}, {"steps": 0}, {"learning_rate": 0.0},
                                     {"channels": 0}, {"elo1": -1.0}])
def test_bad_settings_are_refused(changes: dict[str, object], greedy_run: pathlib.Path) -> None:
    with pytest.raises(ParameterError):
        tiny(greedy_run, **changes)


def test_the_command_prints_each_generation(greedy_run: pathlib.Path, tmp_path: pathlib.Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert cli.main(["train", str(out), "--generations", "0", "--steps", "2", "--batch-size",
                     "8", "--blocks", "1", "--channels", "4", "--bootstrap", str(greedy_run),
                     "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "generation 0: loss" in printed and "promoted" in printed
    assert f"best network: {out}/gen-000/network.wtsnet" in printed
    assert "nothing to train" not in printed
    assert cli.main(["train", str(out), "--generations", "0", "--steps", "2", "--batch-size",
                     "8", "--blocks", "1", "--channels", "4", "--bootstrap", str(greedy_run),
                     "--no-progress"]) == 0
    assert (f"{out} already holds generations 0 to 0: nothing to train (--generations 0)"
            in capsys.readouterr().out)
