"""The interactive examples (``>>>`` in ``python`` blocks) of the README and of
the documentation's pages (docs/*.md) give the output they show: every such
block runs as a doctest, in order, sharing names with the blocks before it on
its page (as ``bash tools/docs.sh`` runs them, through Sphinx)."""

from __future__ import annotations

import doctest

import pytest

from tests.support.readme_blocks import pages, python_blocks, where

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_readme_sessions_show_real_output() -> None:
    sessions = [(path, lineno, text) for path in pages()
                for lineno, text in python_blocks(path=path) if ">>>" in text]
    if not sessions:
        pytest.skip("no README.md or docs/ beside the tests")
    assert len(sessions) >= 5
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs: dict[str, object] = {}
    page = None
    for path, lineno, text in sessions:
        if path != page:  # each page starts afresh, as a reader does
            page, globs = path, {}
        test = parser.get_doctest(text, globs, where(path, lineno), str(path), lineno)
        runner.run(test, clear_globs=False)
        globs = test.globs  # get_doctest copies; the next block sees this one's names
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) differ; see the report above"
