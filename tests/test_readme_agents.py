"""The README's examples for the agents, PettingZoo and OpenSpiel run as written.

Every ``python`` block of the section "Players, PettingZoo and OpenSpiel" is
executed; a block needing PettingZoo, Gymnasium or OpenSpiel is skipped without it.
"""

from __future__ import annotations

import importlib.util

import pytest
from readme_blocks import README, python_blocks

SECTION = "## Players, PettingZoo and OpenSpiel"
BLOCKS = [text for _, text in python_blocks(SECTION)]


def test_the_section_has_examples() -> None:
    if not README.is_file():
        pytest.skip("no README.md beside the tests")
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    for needs, module in (("wts.env", "pettingzoo"), ("wts.vector_env", "gymnasium"),
                          ("pyspiel", "pyspiel")):
        if needs in code and importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module}")
    exec(compile(code, str(README), "exec"), {"__name__": "readme_example"})
    capsys.readouterr()
