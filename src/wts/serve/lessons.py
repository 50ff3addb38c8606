"""The tutorial: one lesson per rule, in the rulebook's order, read from
``lessons.json``. A lesson sets up a position (a position string), asks the
learner for the move that shows its rule, plays the other side's scripted
reply and explains what happened; ``expect`` says what the turn must do,
and tests/serve/test_serve_lessons.py plays every lesson on both engines."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from wts.engine.game import Game
from wts.serve.rooms import board_view, status_words, turn_events

__all__ = ["Lesson", "load"]


@dataclass(frozen=True)
class Lesson:
    number: int
    title: str
    rule: str
    you: str
    position: str
    goal: tuple[str, ...]
    reply: str
    prompt: str
    hint: str
    explain: str
    expect: dict[str, Any]

    def moves(self, square: str) -> tuple[str, str]:
        """(black's square, white's square) when the learner plays ``square``."""
        return (square, self.reply) if self.you == "black" else (self.reply, square)

    def public(self) -> dict[str, Any]:
        """What the page shows before the learner moves (not the answer)."""
        start = Game.from_fen(self.position)
        return {"number": self.number, "title": self.title, "rule": self.rule, "you": self.you,
                "prompt": self.prompt, **board_view(start), "words": status_words(start, None)}

    def attempt(self, square: str) -> dict[str, Any]:
        """The answer to the learner's ``square``: a hint, or the turn played and explained."""
        square = square.upper()
        if square not in self.goal:
            return {"correct": False, "hint": self.hint}
        game = Game.from_fen(self.position)
        result = game.play(*self.moves(square))
        return {"correct": True, "last": turn_events(result), **board_view(game),
                "words": status_words(game, None), "explain": self.explain}


def load() -> list[Lesson]:
    """The lessons, in order."""
    data = json.loads(resources.files("wts.serve").joinpath("lessons.json").read_text("utf-8"))
    return [Lesson(number=i, goal=tuple(item.pop("goal")), **item)
            for i, item in enumerate(data["lessons"], start=1)]
