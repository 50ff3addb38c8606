"""The README's ``python`` code blocks, for the tests that run them."""

from __future__ import annotations

import pathlib
import re

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def _blocks(language: str, section: str | None) -> list[tuple[int, str]]:
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
            for match in re.finditer(rf"```{language}\n(.*?)```", text[:end], flags=re.S)
            if match.start() >= start]


def python_blocks(section: str | None = None) -> list[tuple[int, str]]:
    """(line number of its first line, text) of every ``python`` block of the
    README, or of its ``section`` (a heading line) only. Empty without a
    README beside the tests, as when an installed wheel is tested."""
    return _blocks("python", section)


def shell_sessions() -> list[tuple[int, str, str]]:
    """(line number, command, output shown) of every ``text`` block of the
    README that shows a ``wts`` command run in a shell: its first line is
    ``$ wts ...``, the rest what the command printed."""
    sessions = []
    for lineno, text in _blocks("text", None):
        first, _, shown = text.partition("\n")
        if first.startswith("$ wts "):
            sessions.append((lineno, first[2:], shown))
    return sessions


#: Figures that depend on the machine rather than the code (its cores, its
#: speed): each match is replaced by one placeholder in the output shown and
#: in the real output alike, so everything else must agree exactly.
MACHINE_DEPENDENT = (
    re.compile(r"\d+(?= thread\(s\))"),
    re.compile(r"(?<=^  time)\s+[\d.]+(?= s$)", re.M),
    re.compile(r"(?<=^  speed)\s+[\d.]+(?= M turns/s$)", re.M),
    re.compile(r"(?<=^  playouts/s)\s+[\d,]+(?= for )", re.M),
    re.compile(r"[\d.]+(?= s a move\))"),
)


def _mask(text: str) -> str:
    for pattern in MACHINE_DEPENDENT:
        text = pattern.sub("<machine>", text)
    return text


def reproduces(shown: str, output: str) -> bool:
    """Whether a command's ``output`` is what the README ``shown``: line by
    line, where a line holding only ``...`` stands for any number of lines."""
    parts = [r"(?:.*\n)*?" if line.strip() == "..." else re.escape(line) + r"\n"
             for line in _mask(shown).splitlines()]
    return re.fullmatch("".join(parts), _mask(output)) is not None
