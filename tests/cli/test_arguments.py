"""The argparse converters every ``wts`` command shares (:mod:`wts.cli.arguments`)."""

from __future__ import annotations

import argparse
import math

import pytest

from wts.cli import arguments
from wts.limits import MAX_THREADS, SEED_MAX
from wts.players.agents import MAX_TIME_LIMIT
from wts.players.specs import AgentSpec


@pytest.mark.parametrize(("convert", "text", "value"), [
    (arguments.seed, "0", 0),
    (arguments.seed, str(SEED_MAX), SEED_MAX),
    (arguments.level, "5", 5),
    (arguments.threads, str(MAX_THREADS), MAX_THREADS),
    (arguments.jobs, "1", 1),
    (arguments.turn, "0", 0),
    (arguments.pixels, "16", 16),
    (arguments.game_count(0), "1_000_000", 1_000_000),
    (arguments.game_count(1), "1,000", 1000),
    (arguments.time_limit, "0.5", 0.5),
    (arguments.time_limit, str(MAX_TIME_LIMIT), MAX_TIME_LIMIT),
    (arguments.agent_spec, " MCTS:2 ", AgentSpec("mcts", 2)),
])
def test_good_values_are_taken(convert, text: str, value: object) -> None:
    assert convert(text) == value


@pytest.mark.parametrize(("convert", "text", "message"), [
    (arguments.seed, "-1", "expected an integer seed from 0 to 2**64 - 1, got '-1'"),
    (arguments.seed, str(SEED_MAX + 1), "from 0 to 2**64 - 1"),
    (arguments.seed, "1e3", "expected an integer seed, got '1e3'"),
    (arguments.level, "6", "expected an MCTS level from 1 to 5, got '6'"),
    (arguments.threads, "0", "expected a number of threads from 1 to 1,024, got '0'"),
    (arguments.turn, "-1", "expected a turn number of at least 0, got '-1'"),
    (arguments.pixels, "10001", "expected a size in pixels from 16 to 10,000, got '10001'"),
    (arguments.game_count(1), "0", "a number of games from 1 to 9,223,372,036,854,775,807"),
    (arguments.game_count(0), "many", "expected a number of games, got 'many'"),
    (arguments.time_limit, "0", "expected a number of seconds above 0 and at most 86400"),
    (arguments.time_limit, "nan", "got 'nan'"),
    (arguments.time_limit, "inf", "got 'inf'"),
    (arguments.agent_spec, "minimax", "unknown agent 'minimax'"),
])
def test_bad_values_say_what_was_expected(convert, text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as error:
        convert(text)
    assert message in str(error.value)


def test_seconds_may_include_or_exclude_the_lower_bound() -> None:
    closed = arguments.real("a delay", 0.0, 10.0)
    opened = arguments.real("a limit", 0.0, 10.0, low_open=True)
    assert closed("0") == 0.0 and opened("10") == 10.0
    with pytest.raises(argparse.ArgumentTypeError, match="above 0 and at most 10"):
        opened("0")
    with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 10"):
        closed(str(math.nextafter(10.0, 11.0)))
