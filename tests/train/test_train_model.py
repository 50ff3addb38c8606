"""The JAX forward pass (wts.train.model) against the numpy one it must equal,
and that wts.train stays off ``import wts``."""

from __future__ import annotations

import numpy as np
import pytest

import wts
from tests.support.games import random_positions
from tests.support.processes import run_python
from wts.errors import ParameterError
from wts.players.network import Network, NetworkShape

pytest.importorskip("jax")
pytest.importorskip("optax")
from wts.train import model


def perturbed(shape: NetworkShape, seed: int) -> Network:
    """An initial network with every tensor, biases too, moved off its start,
    so no head is trivial."""
    net = Network.initial(shape, seed=seed)
    rng = np.random.default_rng(seed)
    return Network(shape, {name: array + 0.1 * rng.standard_normal(array.shape)
                           for name, array in net.weights.items()})


def test_the_jax_forward_equals_the_numpy_one() -> None:
    shape = NetworkShape(blocks=2, channels=16)
    net = perturbed(shape, seed=3)
    planes = wts.BatchGame.from_games(random_positions(wts.Game, 1000, seed=5)).network_planes()
    policy, wdl = net.logits(planes)
    jax_policy, jax_wdl = model.logits(model.params_of(net), planes, shape)
    assert np.abs(policy).max() > 1 and np.abs(wdl).max() > 1  # the heads say something
    assert np.abs(np.asarray(jax_policy) - policy).max() < 1e-5
    assert np.abs(np.asarray(jax_wdl) - wdl).max() < 1e-5


def test_params_and_network_convert_both_ways() -> None:
    shape = NetworkShape(blocks=1, channels=8, hidden=16)
    net = perturbed(shape, seed=1)
    params = model.params_of(net)
    assert set(params) == set(shape.tensor_shapes())
    back = model.network_of(params, shape)
    for name, array in net.weights.items():
        assert np.array_equal(back.weights[name], array)


def test_bad_params_and_planes_are_refused() -> None:
    shape = NetworkShape(blocks=1, channels=8)
    params = model.params_of(Network.initial(shape))
    with pytest.raises(ParameterError, match="planes must have shape"):
        model.logits(params, np.zeros((2, 81, 4), np.float32), shape)
    with pytest.raises(ParameterError, match="do not fit"):
        model.check_params({k: v for k, v in params.items() if k != "stem.bias"}, shape)
    with pytest.raises(ParameterError, match="network must be"):
        model.params_of("net")  # type: ignore[arg-type]


def test_import_wts_never_imports_jax() -> None:
    code = ("import sys, wts, wts.network, wts.scale.data, wts.cli.main; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jax', 'optax') "
            "or m.startswith('wts.train')))")
    assert run_python("-c", code, check=True).stdout.strip() == "[]"
