"""The README's interactive examples (``>>>`` in its ``python`` blocks) give the
output it shows: every such block runs as a doctest, in order, sharing names."""

from __future__ import annotations

import doctest

import pytest
from readme_blocks import README, python_blocks

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_readme_sessions_show_real_output() -> None:
    sessions = [(lineno, text) for lineno, text in python_blocks() if ">>>" in text]
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
