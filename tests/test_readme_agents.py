"""The README's examples for the agents, PettingZoo and OpenSpiel run as written.

Every ``python`` block of the section "Players, PettingZoo and OpenSpiel" is
executed; a block needing PettingZoo or OpenSpiel is skipped without it.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
SECTION = "## Players, PettingZoo and OpenSpiel"


def _blocks() -> list[str]:
    if not README.is_file():  # an installed wheel tested without its source tree
        return []
    text = README.read_text(encoding="utf-8")
    start = text.find(SECTION)
    if start < 0:
        return []
    end = text.find("\n## ", start + len(SECTION))
    section = text[start:end if end >= 0 else len(text)]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


BLOCKS = _blocks()


def test_the_section_has_examples() -> None:
    if not README.is_file():
        pytest.skip("no README.md beside the tests")
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    for needs, module in (("wts.env", "pettingzoo"), ("pyspiel", "pyspiel")):
        if needs in code and importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module}")
    exec(compile(code, str(README), "exec"), {"__name__": "readme_example"})
    capsys.readouterr()
