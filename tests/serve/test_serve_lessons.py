"""The tutorial's lessons (src/wts/serve/lessons.json): each one, played on both
engines, does what it teaches, in the rulebook's order; the app answers a
wrong square with a hint and the right one with the turn and its explanation."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pydantic")

import wts
from wts.serve import lessons

LESSONS = lessons.load()
RULEBOOK_ORDER = [
    "Placement", "Collision and eggs", "Capture by exactly two", "Walking into a trap is safe",
    "Mutual and anticipatory captures", "Hatching and cascades", "Dissolve",
    "Captures are never carried over", "Five in a row",
    "Sudden death: counting winning turtles", "The full-board draw",
]


def test_one_lesson_a_rule_in_the_rulebook_order() -> None:
    assert [lesson.title for lesson in LESSONS] == RULEBOOK_ORDER
    assert [lesson.number for lesson in LESSONS] == list(range(1, len(RULEBOOK_ORDER) + 1))


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.title for lesson in LESSONS])
def test_each_lesson_does_what_it_teaches(Game: Any, lesson: lessons.Lesson) -> None:
    start = Game.from_fen(lesson.position)
    assert start.status is wts.Status.ONGOING
    for square in lesson.goal:
        game = start.copy()
        result = game.play(*lesson.moves(square))
        expect = lesson.expect
        collision = None if result.collision is None else wts.square_name(result.collision)
        assert collision == expect["collision"]
        assert len(result.captures) == expect["captures"]
        assert len(result.hatched) == expect["hatched"]
        assert len(result.dissolved) == expect.get("dissolved", 0)
        assert result.status.value == expect["status"]
        if "counts" in expect:
            assert list(result.winning_counts) == expect["counts"]


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.title for lesson in LESSONS])
def test_the_lessons_answers(lesson: lessons.Lesson) -> None:
    empty = [wts.square_name(s) for s in wts.Game.from_fen(lesson.position).legal_moves()]
    wrong = next(square for square in empty if square not in lesson.goal)
    assert lesson.attempt(wrong) == {"correct": False, "hint": lesson.hint}
    answer = lesson.attempt(lesson.goal[0].lower())
    assert answer["correct"] and answer["explain"] == lesson.explain
    assert answer["last"]["status"] == lesson.expect["status"]
    shown = lesson.public()
    assert "goal" not in shown and len(shown["board"]) == 81
