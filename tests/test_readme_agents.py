"""The examples for the agents, PettingZoo and OpenSpiel run as written and
print what they say they print.

Every ``python`` block of the page "Players, PettingZoo and OpenSpiel"
(docs/players.md) is executed; a block needing PettingZoo, Gymnasium or
OpenSpiel is skipped without it. A ``print(...)`` with a comment shows its
output there (:func:`tests.support.readme_blocks.shows`), or, where that is
long or varies, words for it, which :data:`IN_WORDS` turns into a check.
"""

from __future__ import annotations

import importlib.util
import io
import re
import sys
from collections.abc import Callable
from typing import Any

import pytest

import wts
from tests.support.readme_blocks import page, prints, python_blocks, shows

PAGE = page("players")
BLOCKS = [text for _, text in python_blocks(path=PAGE)]
SQUARE = r"[A-I][1-9]"


def _board_after_a_collision_on_e5() -> str:
    game = wts.Game()
    game.play("E5", "E5")
    return str(game)


#: The comments that say in words what a print shows, and the check of each.
IN_WORDS: dict[str, Callable[[str], bool]] = {
    "wts greedy, and its square": lambda out: re.fullmatch(f"wts greedy {SQUARE}", out) is not None,
    "the board, egg 1 on E5": lambda out: out == _board_after_a_collision_on_e5(),
}


def _run_printing(code: str) -> list[tuple[int, str]]:
    """Run ``code``; the line of each ``print`` call it makes, and what it printed."""
    printed: list[tuple[int, str]] = []

    def recording_print(*args: Any, **kwargs: Any) -> None:
        out = io.StringIO()
        print(*args, **{**kwargs, "file": out})
        printed.append((sys._getframe(1).f_lineno, out.getvalue().rstrip("\n")))

    exec(compile(code, str(PAGE), "exec"), {"__name__": "readme_example",
                                            "print": recording_print})
    return printed


def test_the_section_has_examples() -> None:
    if not PAGE.is_file():
        pytest.skip("no docs/players.md beside the tests")
    assert len(BLOCKS) >= 3
    assert sum(shown is not None for code in BLOCKS for *_, shown in prints(code)) >= 5


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_prints_what_it_shows(code: str) -> None:
    for needs, module in (("wts.env", "pettingzoo"), ("wts.vector_env", "gymnasium"),
                          ("pyspiel", "pyspiel")):
        if needs in code and importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module}")
    printed = _run_printing(code)
    for first, last, shown in prints(code):
        if shown is None:
            continue
        outputs = [out for line, out in printed if first <= line <= last]
        assert len(outputs) == 1, f"line {first} printed {len(outputs)} times, not once"
        check = IN_WORDS.get(shown)
        if check is None:
            assert shows(outputs[0], shown), \
                f"line {first}: printed {outputs[0]!r}, shows {shown!r}"
        else:
            assert check(outputs[0]), f"line {first}: printed {outputs[0]!r}, not {shown!r}"
