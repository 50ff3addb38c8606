"""The script examples (``python`` blocks without ``>>>``) of the README and of
the documentation's pages run as written, and print what their comments say.

A page's script blocks run in order as one script, in a fresh Python and a
fresh folder holding the clone's ``docs/example-game.wts`` (as from the
clone's top folder, where a page says to run them). A ``print(...)`` line
with a comment shows its output there: the line printed is the comment, or
the comment's start up to a colon (``# True: the TurnResults``). The
``>>>`` sessions are doctests (tests/test_readme.py and the docs build);
docs/players.md's scripts, which need the optional adapters, run in
tests/test_readme_agents.py.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
import shutil

import pytest

from tests.support.processes import run_python
from tests.support.readme_blocks import DOCS, pages, prints, python_blocks, shows, where

#: Pages whose scripts another test runs.
RUN_ELSEWHERE = {"players.md": "tests/test_readme_agents.py"}

#: What a page's scripts do at a smaller size here: (page, the text, the text
#: run instead). A run of 10,000 self-play games makes the same files as one of 4.
SMALLER = [("scaling.md", "10_000", "4")]

def scripts(path: pathlib.Path) -> list[tuple[int, str]]:
    return [(lineno, text) for lineno, text in python_blocks(path=path) if ">>>" not in text]


PAGES = [path for path in pages() if scripts(path) and path.name not in RUN_ELSEWHERE]


def test_the_pages_have_scripts() -> None:
    if not PAGES:
        pytest.skip("no docs/ beside the tests")
    assert {path.name for path in PAGES} >= {"notation.md", "positions.md", "scaling.md"}


@pytest.mark.parametrize("path", PAGES, ids=[path.name for path in PAGES])
def test_a_page_s_scripts_run_and_print_what_they_say(path: pathlib.Path,
                                                       tmp_path: pathlib.Path) -> None:
    blocks = scripts(path)
    for needs in ("torch", "pettingzoo", "gymnasium", "pyspiel", "ray", "pyarrow"):
        used = [lineno for lineno, text in blocks if re.search(rf"^\s*(import|from) {needs}\b",
                                                                text, re.M)]
        if used and importlib.util.find_spec(needs) is None:
            # The blocks before the first that needs it still run.
            blocks = [(lineno, text) for lineno, text in blocks if lineno < used[0]]
    if not blocks:
        pytest.skip("every script of the page needs a package not installed here")
    script = "\n".join(text for _, text in blocks)
    for page, text, smaller in SMALLER:
        if page == path.name:
            assert text in script, f"{path.name} no longer holds {text!r}"
            script = script.replace(text, smaller)
    (tmp_path / "docs").mkdir()
    shutil.copy(DOCS / "example-game.wts", tmp_path / "docs")
    (tmp_path / "page.py").write_text(script, encoding="utf-8")
    proc = run_python("page.py", cwd=tmp_path, timeout=600)
    place = where(path, blocks[0][0])
    assert proc.returncode == 0, f"{place}: the scripts failed:\n{proc.stderr}"
    printed = proc.stdout.splitlines()
    shown = [says for *_, says in prints(script)]
    assert len(printed) == len(shown), f"{place}: {len(shown)} prints, {len(printed)} lines"
    for line, says in zip(printed, shown):
        assert says is None or shows(line, says), \
            f"{place}: printed {line!r}, the page says {says!r}"


def test_a_comment_gives_what_a_print_shows() -> None:
    assert [says for *_, says in prints(
        'print(1)  # 1\nx = 2\nprint(x)\nprint("a")  # a: the letter')] == [
        "1", None, "a: the letter"]
    assert shows("True", "True: the TurnResults") and shows("3", "3")
    assert not shows("False", "True: the TurnResults") and not shows("Tru", "True")
