"""The code blocks of the README and of the documentation's pages (docs/*.md),
for the tests that run them."""

from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def page(name: str) -> pathlib.Path:
    """A page of the documentation: ``page("players")`` is docs/players.md."""
    return DOCS / f"{name}.md"


def pages() -> list[pathlib.Path]:
    """The README and every page of the documentation, those present (none
    when an installed wheel is tested without the source tree)."""
    return [path for path in (README, *sorted(DOCS.glob("*.md"))) if path.is_file()]


def where(path: pathlib.Path, lineno: int) -> str:
    """``docs/players.md:120``: a block's place, for messages (line 1-based)."""
    return f"{path.relative_to(ROOT).as_posix()}:{lineno + 1}"


def _blocks(language: str, section: str | None, path: pathlib.Path) -> list[tuple[int, str]]:
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    start, end = 0, len(text)
    if section is not None:
        start = text.find(section)
        if start < 0:
            return []
        level = section.split(" ", 1)[0]
        following = text.find(f"\n{level} ", start + len(section))
        end = following if following >= 0 else end
    return [(text.count("\n", 0, match.start(1)), match.group(1))
            for match in re.finditer(rf"```{language}\n(.*?)```", text[:end], flags=re.S)
            if match.start() >= start]


def python_blocks(section: str | None = None,
                  path: pathlib.Path = README) -> list[tuple[int, str]]:
    """(line number of its first line, 0-based, text) of every ``python``
    block of ``path`` (the README by default), or of its ``section`` (a
    heading line, up to the next heading of its level) only. Empty without
    the file, as when an installed wheel is tested."""
    return _blocks("python", section, path)


def shell_sessions() -> list[tuple[str, str, str]]:
    """(place, command, output shown) of every ``text`` block of the README
    and the documentation's pages that shows a ``wts`` command run in a
    shell: its first line is ``$ wts ...``, the rest what the command printed."""
    sessions = []
    for path in pages():
        for lineno, text in _blocks("text", None, path):
            first, _, shown = text.partition("\n")
            if first.startswith("$ wts "):
                sessions.append((where(path, lineno), first[2:], shown))
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
    """Whether a command's ``output`` is what a page showed (``shown``): line by
    line, where a line holding only ``...`` stands for any number of lines."""
    parts = [r"(?:.*\n)*?" if line.strip() == "..." else re.escape(line) + r"\n"
             for line in _mask(shown).splitlines()]
    return re.fullmatch("".join(parts), _mask(output)) is not None


def prints(code: str) -> list[tuple[int, int, str | None]]:
    """Every ``print(...)`` call of ``code``, in the order of its lines: its
    first and last line, and the comment on its first line (``print(x)  #
    shown``) that says what it shows, or None."""
    lines = code.splitlines()
    found = []
    for node in ast.walk(ast.parse(code)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "print"):
            _, hash_, comment = lines[node.lineno - 1][node.col_offset:].partition("  # ")
            found.append((node.lineno, node.end_lineno or node.lineno,
                          comment.strip() if hash_ else None))
    return sorted(found)


def shows(printed: str, shown: str) -> bool:
    """Whether a print's comment ``shown`` shows what it ``printed``: the line
    itself, or the line and a colon before words about it (``# True: the
    TurnResults``)."""
    return printed == shown or shown.startswith(printed + ":")
