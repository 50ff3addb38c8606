"""Matches that decide something: openings in pairs with colours swapped, the
pentanomial SPRT (wts.players.sprt), resumable records (wts.players.pairs)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import wts
from wts.errors import ParameterError, WtsError
from wts.interfaces import cli
from wts.players.pairs import openings, play_sprt
from wts.players.sprt import SPRT, parse_sprt


def test_bounds_are_walds() -> None:
    test = SPRT(elo0=0, elo1=5, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))


def test_the_llr_is_antisymmetric_and_grows_with_the_evidence() -> None:
    test = SPRT(elo0=-10, elo1=10)
    counts = [1, 2, 5, 6, 3]
    assert test.status(counts).llr == pytest.approx(-test.status(counts[::-1]).llr)
    better = [1, 2, 5, 6, 4]
    assert test.status(better).llr > test.status(counts).llr > 0
    assert test.status([0, 0, 0, 0, 0]).llr == 0 and test.status([0] * 5).verdict is None


def test_elo_interval_and_los_follow_the_pairs() -> None:
    status = SPRT().status([2, 4, 10, 4, 2])  # as many won pairs as lost
    assert status.elo == pytest.approx(0.0, abs=1e-9) and status.los == pytest.approx(0.5)
    assert status.elo_low < 0 < status.elo_high
    status = SPRT().status([0, 1, 4, 8, 7])
    assert status.elo > 0 and status.los > 0.99 and status.elo_low > 0


def test_one_clean_pair_decides_nothing() -> None:
    assert SPRT(elo0=0, elo1=5).status([0, 0, 0, 0, 1]).verdict is None


def test_sprt_settings_are_checked() -> None:
    assert parse_sprt("elo1=5,elo0=-2,beta=0.1") == SPRT(-2, 5, 0.05, 0.1)
    for text in ("elo0=5,elo1=0", "elo2=1", "elo0=x", "alpha=0.7", "elo1=nan", "elo0=1,elo0=2"):
        with pytest.raises(ParameterError):
            parse_sprt(text)


def test_openings_are_undecided_distinct_and_seeded() -> None:
    suite = openings(20, seed=3)
    assert len(set(suite)) == 20 and suite == openings(20, seed=3) != openings(20, seed=4)
    assert all(not wts.Game.from_fen(fen).is_over() and fen.endswith(" 2") for fen in suite)


def test_two_levels_stop_with_h1() -> None:
    result = play_sprt("mcts:2", "mcts:1", parse_sprt("elo0=0,elo1=100"), seed=0)
    assert result.status.verdict == "H1" and result.status.pairs <= 10
    assert all(pair.games[0].a_color == "black" and pair.games[1].a_color == "white"
               for pair in result.pairs)
    assert result.pairs[0].opening == openings(50, 0)[0]


def test_equal_players_stop_with_h0() -> None:
    result = play_sprt("random", "random", parse_sprt("elo0=0,elo1=200"), seed=1)
    assert result.status.verdict == "H0"


def test_a_stopped_match_resumes_where_it_stopped(tmp_path: Path) -> None:
    test = parse_sprt("elo0=0,elo1=400")
    whole = play_sprt("greedy", "random", test, seed=2, max_pairs=6)
    out = tmp_path / "match.json"
    first = play_sprt("greedy", "random", test, seed=2, max_pairs=2, out=out)
    assert len(first.pairs) == 2 and json.loads(out.read_text())["status"]["pairs"] == 2
    again = play_sprt("greedy", "random", test, seed=2, max_pairs=6, out=out)
    assert again.pairs == whole.pairs
    document = json.loads(out.read_text())
    assert document["format"] == "wts-sprt/1" and len(document["pairs"]) == len(whole.pairs)
    with pytest.raises(WtsError, match="another match"):
        play_sprt("greedy", "random", test, seed=3, out=out)
    document["pairs"][0]["games"][0]["a_color"] = "white"
    out.write_text(json.dumps(document))
    with pytest.raises(WtsError, match="cannot resume"):
        play_sprt("greedy", "random", test, seed=2, out=out)


def test_the_process_backend_plays_the_same_pairs() -> None:
    test = parse_sprt("elo0=0,elo1=400")
    local = play_sprt("greedy", "random", test, seed=4, max_pairs=4)
    spread = play_sprt("greedy", "random", test, seed=4, max_pairs=4, backend="process",
                       workers=2)
    assert spread.pairs == local.pairs


def test_the_command_line_prints_the_verdict(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    out = tmp_path / "sprt.json"
    assert cli.main(["tournament", "greedy", "random", "--sprt", "elo0=0,elo1=100",
                     "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "pentanomial" in text and "LLR" in text and "LOS" in text
    assert "verdict        H1 accepted: greedy is at least 100 Elo stronger" in text
    assert json.loads(out.read_text())["status"]["verdict"] == "H1"
    assert cli.main(["tournament", "greedy", "random", "--sprt", "elo0=9,elo1=1"]) == 2


def test_the_modules_examples_run() -> None:
    import doctest

    import wts.players.pairs
    import wts.players.sprt

    for module in (wts.players.sprt, wts.players.pairs):
        assert doctest.testmod(module).failed == 0
