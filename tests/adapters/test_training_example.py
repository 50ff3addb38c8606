"""examples/train_linear.py, the training example of docs/training.md, on a
small budget (skipped without Gymnasium 1.1, or without the example beside
the tests, as when an installed wheel is tested)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.support.processes import ROOT

pytest.importorskip("gymnasium", minversion="1.1")

EXAMPLE = ROOT / "examples" / "train_linear.py"


def test_the_linear_policy_learns_to_beat_the_random_bot(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    if not EXAMPLE.is_file():
        pytest.skip("examples/ is not beside the tests")
    spec = importlib.util.spec_from_file_location("train_linear", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_linear", module)  # its dataclass looks it up
    spec.loader.exec_module(module)
    result = module.main(["--iterations", "20", "--envs", "128", "--evaluation-games", "400"])
    out = capsys.readouterr().out
    assert "win rate against the random bot" in out and f"{result.after:.1%}" in out
    assert 0.4 < result.before < 0.6  # zero weights: the uniform random policy
    assert result.after > result.before + 0.1
