"""One scenario per figure of the rulebook (rules-en.txt), on both engines.

The rows are in tests/scenarios/figures.py, each named after its figure and
quoting its caption: ``test_figure[fast-figure_collision_lays_an_egg_on_e5]``.
"""

from __future__ import annotations

import pytest
from scenarios import Scenario, ids, play_through
from scenarios.figures import FIGURES


@pytest.mark.parametrize("scenario", FIGURES, ids=ids(FIGURES))
def test_figure(Game, scenario: Scenario) -> None:
    """The position of a figure plays out as its caption says."""
    play_through(Game, scenario)
