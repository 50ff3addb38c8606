"""The README's ``python`` code blocks, for the tests that run them."""

from __future__ import annotations

import pathlib
import re

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def python_blocks(section: str | None = None) -> list[tuple[int, str]]:
    """(line number of its first line, text) of every ``python`` block of the
    README, or of its ``section`` (a heading line) only. Empty without a
    README beside the tests, as when an installed wheel is tested."""
    if not README.is_file():
        return []
    text = README.read_text(encoding="utf-8")
    start, end = 0, len(text)
    if section is not None:
        start = text.find(section)
        if start < 0:
            return []
        following = text.find("\n## ", start + len(section))
        end = following if following >= 0 else end
    return [(text.count("\n", 0, match.start(1)), match.group(1))
            for match in re.finditer(r"```python\n(.*?)```", text[:end], flags=re.S)
            if match.start() >= start]
