"""The network: its planes, its forward pass and its weights file."""

from __future__ import annotations

import json
import pickle
import struct
from pathlib import Path

import numpy as np
import pytest

import wts
from wts.engine.batch import NETWORK_PLANES, observation_network_planes
from wts.errors import NetworkFileError, ParameterError
from wts.network import DEFAULT_NETWORK, Network, NetworkShape


def random_batch(games: int, turns: int, seed: int) -> wts.BatchGame:
    rng = np.random.default_rng(seed)
    batch = wts.BatchGame(games)
    for _ in range(turns):
        legal = batch.legal_mask()
        moves = np.full((2, games), -1)
        for i in range(games):
            squares = np.flatnonzero(legal[i])
            if len(squares):
                moves[:, i] = rng.choice(squares, 2)
        batch.step(moves[0], moves[1])
    return batch


def test_network_planes_of_a_batch_equal_those_read_back_from_its_observations() -> None:
    batch = random_batch(64, 25, seed=1)
    planes = batch.network_planes()
    assert planes.shape == (64, 81, len(NETWORK_PLANES))
    np.testing.assert_array_equal(planes, observation_network_planes(batch.observation()))


def test_network_planes_show_fives_captures_and_egg_ages() -> None:
    game = wts.Game.from_setup(black=["a1", "b1", "c1", "d1"], white=["a3"], eggs=["e5", "f5"])
    batch = wts.BatchGame.from_games([game])
    planes = batch.network_planes()[0]
    e1 = wts.parse_square("e1")
    assert planes[e1, 4] == 1 and planes[:, 4].sum() == 1  # black completes a five on e1
    assert planes[wts.parse_square("e5"), 3] == 1.0 and planes[wts.parse_square("f5"), 3] == 0.5
    assert planes[:, 10].sum() == 81


def test_planes_that_are_no_position_are_refused() -> None:
    observation = wts.BatchGame(1).observation()
    observation[0, 0, 0, 0] = observation[0, 1, 0, 0] = 1
    with pytest.raises(ParameterError, match="observation 0 is no position"):
        observation_network_planes(observation)
    observation = wts.BatchGame(1).observation()
    observation[0, 2, 0, 0] = 1  # an egg without an age
    with pytest.raises(ParameterError, match="egg ages"):
        observation_network_planes(observation)


def test_the_policies_cover_the_legal_squares_only_and_sum_to_one() -> None:
    batch = random_batch(32, 10, seed=2)
    net = Network.initial(NetworkShape(blocks=2, channels=8), seed=1)
    legal = batch.legal_mask()
    out = net.evaluate(batch.network_planes(), legal)
    for policy in (out.black, out.white):
        assert (policy[~legal] == 0).all()
        np.testing.assert_allclose(policy.sum(axis=1), 1.0, rtol=1e-5)
    assert ((out.value >= 0) & (out.value <= 1)).all()


def test_a_uniform_network_gives_uniform_priors_and_a_drawn_value() -> None:
    batch = random_batch(4, 5, seed=3)
    legal = batch.legal_mask()
    out = Network.uniform(NetworkShape(blocks=1, channels=4)).evaluate(batch.network_planes(),
                                                                      legal)
    np.testing.assert_allclose(out.black[legal], np.repeat(1 / legal.sum(axis=1),
                                                           legal.sum(axis=1)), rtol=1e-6)
    np.testing.assert_allclose(out.value, 0.5)


def test_a_network_file_round_trips(tmp_path: Path) -> None:
    net = Network.initial(NetworkShape(blocks=1, channels=8), seed=4)
    net.save(tmp_path / "n.wtsnet", {"generation": "3"})
    back = Network.load(tmp_path / "n.wtsnet")
    assert back.shape == net.shape
    for name, array in net.weights.items():
        np.testing.assert_array_equal(back.weights[name], array)


def test_the_shipped_network_loads_and_fits_the_wheel() -> None:
    assert DEFAULT_NETWORK.stat().st_size <= 2_000_000
    assert Network.load().shape.planes == len(NETWORK_PLANES)


def _damaged(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


def test_damaged_or_foreign_network_files_are_refused(tmp_path: Path) -> None:
    data = Network.initial(NetworkShape(blocks=1, channels=8), seed=5).to_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    cases = {
        "short": b"abc",
        "data": _damaged(data, len(data) - 3),
        "pickle": pickle.dumps({"stem.weight": np.zeros(3)}),
        "random": bytes(range(256)) * 4,
        "truncated": data[:-4],
    }
    for key, value in (("format", "safetensors-other"), ("version", "2"), ("channels", "9")):
        meta = dict(header, __metadata__=dict(header["__metadata__"], **{key: value}))
        text = json.dumps(meta).encode()
        text += b" " * (-len(text) % 8)
        cases[key] = struct.pack("<Q", len(text)) + text + data[8 + length:]
    for name, content in cases.items():
        path = tmp_path / f"{name}.wtsnet"
        path.write_bytes(content)
        with pytest.raises(NetworkFileError, match=str(path.name)):
            Network.load(path)
    with pytest.raises(NetworkFileError, match="cannot read"):
        Network.load(tmp_path / "missing.wtsnet")


def test_weights_of_the_wrong_shape_or_not_finite_are_refused() -> None:
    shape = NetworkShape(blocks=1, channels=4)
    weights = dict(Network.initial(shape).weights)
    weights["stem.bias"] = np.zeros(5, np.float32)
    with pytest.raises(ParameterError, match=r"stem\.bias"):
        Network(shape, weights)
    weights["stem.bias"] = np.full(4, np.nan, np.float32)
    with pytest.raises(ParameterError, match="not finite"):
        Network(shape, weights)
    with pytest.raises(ParameterError, match="planes"):
        Network.initial(shape).logits(np.zeros((2, 81, 3), np.float32))


def test_the_blas_runs_one_thread_while_any_search_runs_then_as_it_was() -> None:
    from threadpoolctl import threadpool_info

    from wts.players.network import blas_on_one_thread

    def threads() -> set[int]:
        return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}

    before = threads()
    first, second = blas_on_one_thread(), blas_on_one_thread()
    first.__enter__()
    second.__enter__()  # a second search, in another thread, overlapping the first
    assert threads() <= {1}
    first.__exit__(None, None, None)
    assert threads() <= {1}  # the second still runs
    second.__exit__(None, None, None)
    assert threads() == before
