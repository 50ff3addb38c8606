"""The README's interactive examples (``>>>`` in its ``python`` blocks) give the
output it shows: every such block runs as a doctest, in order, sharing names."""

from __future__ import annotations

import doctest
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _sessions() -> list[tuple[int, str]]:
    """(line number, text) of every python block with a ``>>>`` prompt."""
    if not README.is_file():  # an installed wheel tested without its source tree
        return []
    text = README.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"```python\n(.*?)```", text, flags=re.S):
        if ">>>" in match.group(1):
            found.append((text.count("\n", 0, match.start(1)), match.group(1)))
    return found


def test_readme_sessions_show_real_output() -> None:
    sessions = _sessions()
    if not sessions:
        pytest.skip("no README.md beside the tests")
    assert len(sessions) >= 5
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for lineno, text in sessions:
        test = parser.get_doctest(text, globs, f"README.md:{lineno + 1}", str(README), lineno)
        runner.run(test, clear_globs=False)
        globs = test.globs  # get_doctest copies; the next block sees this one's names
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} README example(s) differ; see the report above"
