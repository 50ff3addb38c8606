"""The learner (wts.train.learner): its loss falls, a seed repeats it bit for
bit, and a checkpoint resumes it where it stopped."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from wts.errors import ParameterError
from wts.players.network import Network, NetworkShape

pytest.importorskip("jax")
pytest.importorskip("optax")
from wts.train.examples import Examples, load_examples
from wts.train.learner import CheckpointError, Learner

TINY = NetworkShape(blocks=1, channels=8)


@pytest.fixture(scope="module")
def examples(greedy_run: pathlib.Path) -> Examples:
    return load_examples(greedy_run)


def test_a_tiny_network_learns_a_few_hundred_positions(examples: Examples) -> None:
    assert 200 <= len(examples) <= 600
    learner = Learner(TINY, seed=0, learning_rate=3e-3)
    seen: list[int] = []
    history = learner.fit(examples, 200, 64, np.random.default_rng(0),
                          progress=lambda steps, losses: seen.append(steps))
    assert seen == list(range(1, 201)) and learner.steps == 200
    loss = [step["loss"] for step in history]
    assert np.mean(loss[-20:]) < 0.8 * np.mean(loss[:10])
    assert all(abs(s["loss"] - s["black"] - s["white"] - s["value"]) < 1e-4 for s in history)
    net = learner.network()
    assert isinstance(net, Network) and net.shape == TINY


def test_the_same_seed_gives_the_same_losses(examples: Examples) -> None:
    runs = [Learner(TINY, seed=4).fit(examples, 3, 32, np.random.default_rng(9))
            for _ in range(2)]
    assert runs[0] == runs[1]
    other = Learner(TINY, seed=5).fit(examples, 3, 32, np.random.default_rng(9))
    assert other != runs[0]


def test_a_checkpoint_resumes_the_run(examples: Examples, tmp_path: pathlib.Path) -> None:
    learner = Learner(TINY, seed=1, weight_decay=1e-2)
    learner.fit(examples, 2, 16, np.random.default_rng(0))
    learner.save(tmp_path / "run.npz")
    resumed = Learner.restore(tmp_path / "run.npz")
    assert resumed.steps == 2 and resumed.weight_decay == 1e-2
    after = [x.fit(examples, 2, 16, np.random.default_rng(3)) for x in (learner, resumed)]
    assert after[0] == after[1]
    for name, array in learner.network().weights.items():
        assert np.array_equal(resumed.network().weights[name], array)
    assert not list(tmp_path.glob("*.tmp"))


def test_a_damaged_checkpoint_is_refused(examples: Examples, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "run.npz"
    path.write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointError, match="cannot read"):
        Learner.restore(path)
    np.savez(path, header=np.frombuffer(b'{"format": "other"}', np.uint8))
    with pytest.raises(CheckpointError, match="not a wts learner checkpoint"):
        Learner.restore(path)
    Learner(TINY).save(path)
    with np.load(path) as npz:
        arrays = {name: npz[name] for name in npz.files}
    del arrays["opt/1"]
    np.savez(path, **arrays)
    with pytest.raises(CheckpointError, match="optimiser state"):
        Learner.restore(path)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ParameterError, match="learning_rate"):
        Learner(TINY, learning_rate=0)
    with pytest.raises(ParameterError, match="shape"):
        Learner("tiny")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="network must be"):
        Learner(TINY, network=Network.initial(NetworkShape(blocks=2, channels=8)))
