"""The stored suite of balanced openings (wts.players.openings): it loads, its
openings are ongoing and balanced as stated, and suite files are checked line
by line."""

from __future__ import annotations

from pathlib import Path

import pytest

import wts
from wts.errors import WtsError
from wts.players.openings import (
    BAND,
    evaluate,
    generate,
    is_balanced,
    parse_openings,
    read_openings,
    stored_openings,
    suite_digest,
)


def test_the_stored_suite_loads_and_every_opening_is_ongoing() -> None:
    suite = stored_openings()
    assert len(suite) == 100 == len(set(suite))
    assert all(not wts.Game.from_fen(fen).is_over() for fen in suite)
    assert all(wts.Game.from_fen(fen).fen() == fen for fen in suite)


def test_stored_openings_are_balanced_by_the_stated_criterion() -> None:
    suite = stored_openings()
    for fen in suite[::25]:  # four of them, cheaply
        assert abs(evaluate(fen) - 0.5) <= BAND
        assert is_balanced(fen)


def test_the_stored_suite_is_what_the_generator_makes() -> None:
    assert generate(3) == stored_openings()[:3]
    assert generate(3, seed=1) != generate(3)


def test_the_balance_filter_turns_openings_away() -> None:
    candidates = generate(30, band=0.5)  # every ongoing opening passes
    kept = [fen for fen in candidates if is_balanced(fen)]
    assert 0 < len(kept) < len(candidates)
    assert kept == stored_openings()[:len(kept)]


def test_the_stored_file_states_its_digest() -> None:
    path = Path(wts.__file__).parent / "players" / "openings.txt"
    assert suite_digest(stored_openings()) in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("text", "line"), [
    ("# a comment\n\nnot a position\n", "line 3"),
    ("9/9/9/9/9/9/9/9/9 - 1\n9/9/9/9/9/9/9/9/9 - 1\n", "line 2: the opening of line 1"),
    ("xxxxx4/9/9/9/9/9/9/9/9 - 3\n", "line 1: the game is over"),
    ("# only comments\n", "no openings"),
])
def test_a_bad_suite_is_refused_by_line(text: str, line: str) -> None:
    with pytest.raises(WtsError, match=line):
        parse_openings(text, "mine.txt")


def test_a_bad_suite_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WtsError, match="cannot read openings"):
        read_openings(tmp_path / "missing.txt")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\n")
    with pytest.raises(WtsError, match="not UTF-8"):
        read_openings(binary)
    good = tmp_path / "good.txt"
    good.write_text("# two\n" + "\n".join(stored_openings()[:2]) + "\n")
    assert read_openings(good) == stored_openings()[:2]


def test_the_modules_examples_run() -> None:
    import doctest

    import wts.players.openings

    assert doctest.testmod(wts.players.openings).failed == 0
