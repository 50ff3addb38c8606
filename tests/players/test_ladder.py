"""The ladder: Elo fitted to synthetic results, and a tiny ``wts ladder`` run."""

from __future__ import annotations

import math

import pytest

import wts
from wts.cli.main import main
from wts.players.ladder import (
    ELO_SCALE,
    fit_elo,
    format_ladder,
    ladder_pairings,
    pairing_seed,
    run_ladder,
)

TRUE = {"random": 0.0, "greedy": 300.0, "mcts:1": 450.0, "mcts:2": 600.0}
PAIRS = [("mcts:1", "mcts:2"), ("mcts:1", "random"), ("mcts:1", "greedy"),
         ("mcts:2", "random"), ("mcts:2", "greedy")]


def _expected(a: str, b: str) -> float:
    return 1.0 / (1.0 + 10 ** ((TRUE[b] - TRUE[a]) / 400.0))


def _synthetic(games: int) -> list[tuple[str, str, float, int]]:
    """Every pairing scoring exactly what the true ratings expect."""
    return [(a, b, games * _expected(a, b), games) for a, b in PAIRS]


def test_known_ratings_are_recovered_with_random_at_zero() -> None:
    ratings = {r.player: r for r in fit_elo(_synthetic(100), prior_draws=0)}
    assert ratings["random"].elo == ratings["random"].low == ratings["random"].high == 0.0
    for player, elo in TRUE.items():
        assert ratings[player].elo == pytest.approx(elo, abs=1e-6)
        assert ratings[player].low <= elo <= ratings[player].high
    assert ratings["mcts:1"].games == 300 and ratings["random"].games == 200
    assert ratings["random"].points == pytest.approx(100 * (1 - _expected("mcts:1", "random"))
                                                     + 100 * (1 - _expected("mcts:2", "random")))


def test_the_virtual_draws_pull_little_on_many_games() -> None:
    ratings = {r.player: r.elo for r in fit_elo(_synthetic(2000))}
    for player, elo in TRUE.items():
        assert ratings[player] == pytest.approx(elo, abs=5)


def test_ratings_are_best_first() -> None:
    assert [r.player for r in fit_elo(_synthetic(40))] == ["mcts:2", "mcts:1", "greedy", "random"]


def test_intervals_shrink_as_the_square_root_of_the_games() -> None:
    def widths(games: int) -> dict[str, float]:
        return {r.player: r.high - r.low for r in fit_elo(_synthetic(games), prior_draws=0)}

    small, large = widths(25), widths(100)
    for player in ("greedy", "mcts:1", "mcts:2"):
        assert large[player] == pytest.approx(small[player] / 2, rel=1e-6)
        assert 0 < large[player] < small[player]


def test_one_match_matches_the_logistic_formula() -> None:
    [a, random_] = fit_elo([("a", "random", 30, 40)], prior_draws=0)
    assert a.elo == pytest.approx(400 * math.log10(30 / 10))
    # The Fisher information of n games at score p is n p (1 - p) per natural unit squared.
    half = 1.959963984540054 * ELO_SCALE / math.sqrt(40 * 0.75 * 0.25)
    assert (a.high - a.elo, a.elo - a.low) == (pytest.approx(half), pytest.approx(half))
    assert (random_.player, random_.elo, a.score) == ("random", 0.0, 0.75)


def test_a_clean_sweep_stays_finite_with_the_virtual_draw() -> None:
    [a, _] = fit_elo([("a", "random", 10, 10)])
    assert a.elo == pytest.approx(400 * math.log10(10.5 / 0.5))
    with pytest.raises(wts.ParameterError, match="do not converge"):
        fit_elo([("a", "random", 10, 10)], prior_draws=0)


def test_bad_results_are_parameter_errors() -> None:
    with pytest.raises(wts.ParameterError, match="no games link c, d"):
        fit_elo([("a", "random", 1, 2), ("c", "d", 1, 2)])
    with pytest.raises(wts.ParameterError, match="anchor 'random' played no game"):
        fit_elo([("a", "b", 1, 2)])
    with pytest.raises(wts.ParameterError, match="3 points in 2 games"):
        fit_elo([("a", "random", 3, 2)])
    with pytest.raises(wts.ParameterError, match="itself"):
        fit_elo([("random", "random", 1, 2)])


def test_pairings_and_their_seeds() -> None:
    assert ladder_pairings([1, 2, 3], ["random", "greedy"]) == [
        ("mcts:1", "mcts:2"), ("mcts:2", "mcts:3"),
        ("mcts:1", "random"), ("mcts:1", "greedy"), ("mcts:2", "random"), ("mcts:2", "greedy"),
        ("mcts:3", "random"), ("mcts:3", "greedy")]
    seeds = {pairing_seed(0, a, b) for a, b in ladder_pairings([1, 2, 3], ["random"])}
    assert len(seeds) == 5
    assert pairing_seed(1, "mcts:1", "random") != pairing_seed(0, "mcts:1", "random")


def test_a_tiny_ladder() -> None:
    seen = []
    result = run_ladder([1, 2], ["random", "greedy"], games=2, seed=3,
                        progress=lambda label, done, total: seen.append((label, done, total)))
    assert result.players == ["mcts:1", "mcts:2", "random", "greedy"]
    assert [(m.a, m.b, m.games) for m in result.matches] == [
        (a, b, 2) for a, b in ladder_pairings([1, 2], ["random", "greedy"])]
    assert sorted(r.player for r in result.ratings) == sorted(result.players)
    assert [r.elo for r in result.ratings] == sorted((r.elo for r in result.ratings), reverse=True)
    games = {r.player: r.games for r in result.ratings}
    assert games == {"mcts:1": 6, "mcts:2": 6, "random": 4, "greedy": 4}
    assert seen[-1] == ("mcts:2 vs greedy", 10, 10) and len(seen) == 10
    report = format_ladder(result).splitlines()
    assert report[0] == "wts ladder: 5 pairings of 2 games, seed 3"
    assert report[1].split()[:3] == ["mcts:1", "vs", "mcts:2"]
    header = report.index("") + 1
    assert report[header].split() == ["player", "Elo", "95%", "interval", "games", "score"]
    rows = report[header + 1:header + 5]
    assert [row.split()[0] for row in rows] == [r.player for r in result.ratings]
    assert "random 0 anchor 4" in " ".join(" ".join(row.split()) for row in rows)
    assert report[-1].endswith("random = 0")


def test_the_same_seed_plays_the_same_games_on_the_process_backend() -> None:
    local = run_ladder([1], ["random"], games=2, seed=5)
    spread = run_ladder([1], ["random"], games=2, seed=5, backend="process", workers=1)
    assert [m.records for m in spread.matches] == [m.records for m in local.matches]


def test_bad_ladders_are_parameter_errors() -> None:
    with pytest.raises(wts.ParameterError, match="even"):
        run_ladder([1], ["random"], games=3)
    with pytest.raises(wts.ParameterError, match="named twice"):
        run_ladder([1], ["random", "mcts:1"], games=2)
    with pytest.raises(wts.ParameterError, match="unknown agent"):
        run_ladder([1], ["minimax"], games=2)
    with pytest.raises(wts.ParameterError, match="level"):
        run_ladder([6], ["random"], games=2)


def test_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--levels", "1", "--anchors", "random", "--games", "2",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("wts ladder: 1 pairings of 2 games, seed 0\n")
    assert "random = 0" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--games", "3"], "expected an even number of games"),
    (["--levels", "0,1"], "expected MCTS levels"),
    (["--levels", "1,1"], "distinct"),
    (["--anchors", "minimax"], "unknown agent"),
    (["--anchors", "openspiel-mcts:0"], "simulations"),
])
def test_bad_arguments_exit_2(argv: list[str], message: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", *argv]) == 2
    assert message in capsys.readouterr().err


def test_levels_as_a_range() -> None:
    from wts.cli.ladder import _levels

    assert _levels("2-4") == [2, 3, 4] and _levels("1,3") == [1, 3]


def test_ctrl_c_exits_130_with_one_line(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("wts.players.ladder.run_ladder", interrupted)
    assert main(["ladder", "--levels", "1", "--anchors", "random", "--no-progress"]) == 130
    assert capsys.readouterr().err == "wts ladder: interrupted\n"
