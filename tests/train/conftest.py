"""What the training tests share: a small self-play run of the greedy agent
(its policies one-hot, so learnable)."""

from __future__ import annotations

import pathlib

import pytest


@pytest.fixture(scope="session")
def greedy_run(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A finished self-play run: 10 games of the greedy agent, about 300 turns."""
    pytest.importorskip("pyarrow")
    from wts.scale.selfplay import selfplay

    out = tmp_path_factory.mktemp("train") / "run"
    selfplay(out, 10, agent="greedy", seed=2)
    return out
