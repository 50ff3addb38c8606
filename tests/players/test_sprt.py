"""Matches that decide something: openings in pairs with colours swapped, the
pentanomial SPRT (wts.players.sprt), resumable records (wts.players.pairs)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import wts
from wts.cli import main as cli
from wts.errors import ParameterError, WtsError
from wts.players import pairs
from wts.players.openings import stored_openings, suite_digest
from wts.players.pairs import SPRTResult, play_sprt, suite_openings
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


def test_a_match_plays_the_stored_suite_its_first_n_or_a_file(tmp_path: Path) -> None:
    stored = stored_openings()
    assert suite_openings() == stored and suite_openings(7) == stored[:7]
    assert all(not wts.Game.from_fen(fen).is_over() and fen.endswith(" 2") for fen in stored)
    with pytest.raises(ParameterError):
        suite_openings(len(stored) + 1)
    own = tmp_path / "own.txt"
    own.write_text("# mine\n" + "\n".join(stored[40:43]) + "\n")
    assert suite_openings(own) == suite_openings(str(own)) == stored[40:43]


def test_two_levels_stop_with_h1() -> None:
    result = play_sprt("mcts:2", "mcts:1", parse_sprt("elo0=0,elo1=100"), seed=0)
    assert result.status.verdict == "H1" and result.status.pairs <= 10
    assert all(pair.games[0].a_color == "black" and pair.games[1].a_color == "white"
               for pair in result.pairs)
    assert result.pairs[0].opening == stored_openings()[0]


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


def test_a_match_is_not_saved_after_every_pair_but_kept_on_ctrl_c(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each save writes the whole match: one a pair made --out quadratic.
    test = parse_sprt("elo0=0,elo1=400")
    whole = play_sprt("greedy", "random", test, seed=4, max_pairs=6)
    saves: list[int] = []
    save = pairs._save

    def counted(path: Path, result: SPRTResult) -> None:
        saves.append(len(result.pairs))
        save(path, result)

    monkeypatch.setattr(pairs, "_save", counted)
    monkeypatch.setattr(pairs, "SAVE_EVERY", 1e9, raising=False)  # none falls due

    def interrupt(result: SPRTResult) -> None:
        if len(result.pairs) == 3:
            raise KeyboardInterrupt

    out = tmp_path / "match.json"
    with pytest.raises(KeyboardInterrupt):
        play_sprt("greedy", "random", test, seed=4, max_pairs=6, out=out, progress=interrupt)
    assert saves == [3] and len(json.loads(out.read_text())["pairs"]) == 3
    again = play_sprt("greedy", "random", test, seed=4, max_pairs=6, out=out)
    assert saves == [3, len(whole.pairs)] and again.pairs == whole.pairs


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


def test_sprt_openings_file_is_played_and_recorded(tmp_path: Path) -> None:
    fens = stored_openings()[10:12]
    own = tmp_path / "two.txt"
    own.write_text("\n".join(fens) + "\n")
    out = tmp_path / "match.json"
    result = play_sprt("greedy", "random", parse_sprt("elo0=0,elo1=400"), seed=5, max_pairs=3,
                       suite=own, out=out)
    assert [pair.opening for pair in result.pairs] == [fens[0], fens[1], fens[0]]
    document = json.loads(out.read_text())
    assert document["openings"] == 2 and document["openings_sha256"] == suite_digest(fens)


def test_a_resume_with_another_suite_is_refused(tmp_path: Path) -> None:
    test = parse_sprt("elo0=0,elo1=400")
    out = tmp_path / "match.json"
    play_sprt("greedy", "random", test, seed=6, max_pairs=1, suite=3, out=out)
    other = tmp_path / "other.txt"
    other.write_text("\n".join(stored_openings()[3:6]) + "\n")  # as many openings, others
    with pytest.raises(WtsError, match="another match"):
        play_sprt("greedy", "random", test, seed=6, max_pairs=2, suite=other, out=out)
    same = tmp_path / "same.txt"
    same.write_text("# the first three\n" + "\n".join(stored_openings()[:3]) + "\n")
    assert len(play_sprt("greedy", "random", test, seed=6, max_pairs=2, suite=same,
                         out=out).pairs) == 2


def test_the_command_line_takes_an_openings_file(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    own = tmp_path / "own.txt"
    own.write_text(stored_openings()[20] + "\n")
    out = tmp_path / "sprt.json"
    assert cli.main(["tournament", "greedy", "random", "--sprt", "elo0=0,elo1=400",
                     "--max-pairs", "2", "--openings", str(own), "--out", str(out)]) == 0
    assert "1 openings" in capsys.readouterr().out
    assert {p["opening"] for p in json.loads(out.read_text())["pairs"]} == {stored_openings()[20]}
    bad = tmp_path / "bad.txt"
    bad.write_text("# fine\n" + stored_openings()[0] + "\nnot a position\n")
    assert cli.main(["tournament", "greedy", "random", "--sprt", "elo0=0,elo1=400",
                     "--openings", str(bad)]) == 2  # a bad argument, as docs/cli.md says
    assert "line 3" in capsys.readouterr().err
