"""A match keeps an engine program running from game to game (``newgame``),
starts it again only after a failure, or for every game with
``restart="game"``; the games are the same either way, and on any number of
threads."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.support.engines import ENGINES, MISBEHAVING
from wts.errors import ParameterError
from wts.players.pairs import _PairTask, play_pair
from wts.players.specs import AgentSpec
from wts.players.tournament import Seats, play_match

LOGGED = ENGINES / "logged.py"


def logged(log: Path, *command: str) -> str:
    """The spec of ``command`` as an engine whose processes are counted in ``log``."""
    return "engine:" + shlex.join([sys.executable, str(LOGGED), str(log), *command])


def wts_engine(log: Path, agent: str) -> str:
    return logged(log, sys.executable, "-m", "wts", "engine", "--agent", agent)


def started(log: Path) -> int:
    return len(log.read_text().split()) if log.exists() else 0


def games_of(result):
    return [(g.index, g.a_color, g.winner, g.moves, g.forfeit) for g in result.records]


def test_an_engine_is_kept_between_games_and_plays_them_as_fresh_ones(tmp_path: Path) -> None:
    runs = {}
    for restart, jobs in (("failure", 1), ("game", 1), ("failure", 2)):
        log = tmp_path / f"{restart}-{jobs}.log"
        # Greedy answers at once, the same for its seed whatever the time it is given.
        runs[restart, jobs] = play_match(wts_engine(log, "greedy"), "mcts:1", 6, seed=3,
                                         restart=restart, jobs=jobs)
        assert started(log) == {("failure", 1): 1, ("game", 1): 6, ("failure", 2): 2}[
            restart, jobs]
    first = games_of(runs["failure", 1])
    assert all(g[4] is None for g in first) and len({g[3] for g in first}) > 1
    assert games_of(runs["game", 1]) == first == games_of(runs["failure", 2])


def test_an_engine_that_failed_starts_again_and_the_other_is_kept(tmp_path: Path) -> None:
    failing, good = tmp_path / "failing.log", tmp_path / "good.log"
    # "occupied" names E5 every turn: illegal from its second move, a forfeit each game.
    result = play_match(logged(failing, sys.executable, str(MISBEHAVING), "occupied"),
                        wts_engine(good, "greedy"), 3, seed=1)
    assert all(g.forfeit is not None and g.b_won for g in result.records)
    assert (started(failing), started(good)) == (3, 1)


def test_both_games_of_a_pair_are_played_by_one_engine_process(tmp_path: Path) -> None:
    log = tmp_path / "pair.log"
    spec = AgentSpec.parse(wts_engine(log, "greedy"))
    pair = play_pair(_PairTask(spec, AgentSpec.parse("random"), 2, 0,
                               "9/9/9/9/9/9/9/9/9 - 0", None))
    assert [game.forfeit for game in pair.games] == [None, None]
    assert started(log) == 1


def test_restart_is_checked() -> None:
    with pytest.raises(ParameterError, match="restart"):
        Seats("sometimes")
    with pytest.raises(ParameterError, match="restart"):
        play_match("random", "random", 1, restart="never")
