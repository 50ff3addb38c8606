"""The examples for the agents, PettingZoo and OpenSpiel run as written.

Every ``python`` block of the page "Players, PettingZoo and OpenSpiel"
(docs/players.md) is executed; a block needing PettingZoo, Gymnasium or
OpenSpiel is skipped without it.
"""

from __future__ import annotations

import importlib.util

import pytest

from tests.support.readme_blocks import page, python_blocks

PAGE = page("players")
BLOCKS = [text for _, text in python_blocks(path=PAGE)]


def test_the_section_has_examples() -> None:
    if not PAGE.is_file():
        pytest.skip("no docs/players.md beside the tests")
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    for needs, module in (("wts.env", "pettingzoo"), ("wts.vector_env", "gymnasium"),
                          ("pyspiel", "pyspiel")):
        if needs in code and importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module}")
    exec(compile(code, str(PAGE), "exec"), {"__name__": "readme_example"})
    capsys.readouterr()
