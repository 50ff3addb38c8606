"""The ``wts`` command line, run as ``python -m wts`` in a subprocess."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import wts
import wts.engine.reference
from tests.support.processes import ROOT, run_python
from wts.cli import main as cli
from wts.engine import text


def run_wts(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m wts ARGS`` with the wts under test."""
    return run_python("-m", "wts", *args, timeout=timeout)


# A turn as wts demo prints it: the moves, then its events indented by two spaces.
TURN_LINE = re.compile(r"^turn (\d+): black ([A-I][1-9]), white ([A-I][1-9])\n((?:  \S.*\n)*)",
                       re.M)


def test_demo_plays_one_game_and_prints_every_turn() -> None:
    proc = run_wts("demo", "--seed", "5")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("What the Shell: a demo game between two random players (seed 5)")
    turns = TURN_LINE.findall(out)
    assert [int(t[0]) for t in turns] == list(range(1, len(turns) + 1))
    result = out.strip().splitlines()[-1]
    assert re.match(r"result: (black wins|white wins|a draw) after \d+ turns", result)
    assert f"after {len(turns)} turns" in result
    # Replaying the printed moves on the reference engine gives the printed boards.
    game = wts.reference.Game()
    for _number, black, white, summary in turns:
        before = game.status
        played = game.play(black, white)
        if played.status.is_over:
            assert text.outcome(game) in summary
        elif played.status is wts.Status.SUDDEN_DEATH:
            assert "sudden death" in summary
        else:
            assert "wins" not in summary
            assert ("sudden death is over" in summary) == (before is wts.Status.SUDDEN_DEATH)
        if played.collision is not None:
            assert f"collision on {black}" in summary
        for word, present in ((" captures ", played.captures), (" dissolves", played.dissolved),
                              (" hatches into ", played.hatched)):
            assert (word in summary) == bool(present), summary
        assert text.board(game) in out
    assert game.is_over()
    assert out.rstrip().endswith(f"({text.decided_by(game)})")
    assert "_wins" not in out  # the status in words, never its code


def test_demo_is_reproducible_from_its_seed() -> None:
    first, again, other = run_wts("demo", "--seed", "11"), run_wts("demo", "--seed", "11"), run_wts(
        "demo", "--seed", "12"
    )
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout


def test_demo_without_a_seed_prints_the_one_it_used() -> None:
    proc = run_wts("demo")
    assert proc.returncode == 0
    seed = re.search(r"\(seed (\d+)\)", proc.stdout)
    assert seed is not None
    assert run_wts("demo", "--seed", seed.group(1)).stdout == proc.stdout


def test_demo_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--seed", "1"]) == 0
    assert "result: " in capsys.readouterr().out


@pytest.mark.parametrize("args", [["--help"], ["demo", "--help"], ["fuzz", "--help"], ["-h"]])
def test_help_for_each_command(args: list[str]) -> None:
    proc = run_wts(*args)
    assert proc.returncode == 0
    assert proc.stdout.startswith("usage: wts")
    assert proc.stderr == ""
    if "fuzz" in args:
        for option in ("--seconds", "--seed", "--games", "--quiet"):
            assert option in proc.stdout
    elif "demo" in args:
        assert "--seed" in proc.stdout
    else:
        assert "demo" in proc.stdout and "fuzz" in proc.stdout


def test_version() -> None:
    proc = run_wts("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"wts {wts.__version__}"


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["demo", "--seed", "x"],
        ["demo", "--seed"],
        ["demo", "--seed", "-1"],
        ["demo", "--frobnicate"],
        ["fuzz", "--games", "0"],
        ["fuzz", "--seconds", "-3"],
        ["fuzz", "--seconds", "nan"],
        ["fuzz", "--candidate", "nowhere"],
        ["fuzz", "--candidate", "wts:NoSuchEngine"],
        # A value inside a player spec, checked by the agent it makes.
        ["tournament", "mcts:1,threads=0", "greedy"],
        ["tournament", "mcts:1,policy=foo", "greedy"],
        ["tournament", "mcts:1,prior_weight=1", "greedy"],
        ["tournament", "engine:/nonexistent/engine", "greedy"],
        ["engine", "--agent", "mcts:1,threads=0"],
        ["selfplay", "--agent", "mcts:1,exploration=inf", "--games", "2", "--out", "x"],
        ["ladder", "--anchors", "random,mcts:1,playouts=0"],
        # Settings that do not go together, or options of another mode.
        ["tournament", "random", "greedy", "--backend", "process", "--jobs", "2"],
        ["tournament", "random", "greedy", "--backend", "local", "--workers", "2"],
        ["tournament", "random", "greedy", "--out", "x.json"],
        ["tournament", "random", "greedy", "--openings", "5"],
        ["simulate", "--games", "99999999999999999999999"],
        ["tournament", "random", "greedy", "--games", "10000000000000000000"],
    ],
)
def test_bad_arguments_exit_2_without_traceback(args: list[str]) -> None:
    proc = run_wts(*args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "usage: wts" in proc.stderr and "error:" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stdout == ""  # refused before anything is played or printed


def test_bad_arguments_in_process_return_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--seed", "x"]) == 2
    assert cli.main([]) == 2
    assert "error:" in capsys.readouterr().err


def test_fuzz_subcommand_delegates_to_the_fuzzer() -> None:
    proc = run_wts("fuzz", "--games", "40", "--seed", "5", "--quiet")  # every branch by game 17
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "played 40 games" in proc.stdout
    assert "sudden death entered" in proc.stdout and "no mismatch" in proc.stdout


def test_fuzz_subcommand_exits_1_on_a_mismatch() -> None:
    proc = run_wts("fuzz", "--games", "300", "--seed", "1", "--quiet",
                   "--candidate", "tests.devtools.test_fuzz:DropsHatches")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "MISMATCH" in proc.stdout and "reproducer:" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_simulate_subcommand_prints_the_same_result_as_the_api() -> None:
    proc = run_wts("simulate", "--games", "3000", "--seed", "5", "--threads", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    expected = wts.simulate(3000, seed=5)
    for label, value in [("games", expected.games), ("turns", expected.turns),
                         ("black wins", expected.black_wins), ("white wins", expected.white_wins),
                         ("draws", expected.draws)]:
        assert re.search(rf"^\s+{label}\s+{value:,}$", proc.stdout, re.MULTILINE), label
    assert "M turns/s" in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "-1"],
        ["simulate", "--games", "many"],
        ["simulate", "--threads", "0"],
        ["simulate", "--seed", "-5"],
        ["simulate", "--threads", "5000"],
        ["bench", "--rounds"],
    ],
)
def test_simulate_and_bench_bad_arguments_exit_2(args: list[str]) -> None:
    proc = run_wts(*args)
    assert proc.returncode == 2
    assert "error:" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", ["demo", "simulate", "bench", "fuzz", "play", "replay",
                                     "tournament"])
def test_an_unknown_option_gets_the_command_s_own_usage(command: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    needed = {"replay": ["x.wts"], "tournament": ["random", "random"]}.get(command, [])
    assert cli.main([command, *needed, "--fast"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: wts {command} ")
    assert err.endswith(f"wts {command}: error: unrecognized arguments: --fast\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["demo", "--seed", "-1"], "--seed: expected an integer seed from 0 to 2**64 - 1, got '-1'"),
    (["simulate", "--seed", "-1"], "--seed: expected an integer seed from 0 to 2**64 - 1"),
    (["simulate", "--threads", "5000"], "expected a number of threads from 1 to 1,024"),
    (["simulate", "--games", "-1"], "expected a number of games from 0 to 9,223,372,036,854,7"),
    (["tournament", "random", "random", "--jobs", "5000"], "a number of jobs from 1 to 1,024"),
    (["tournament", "mcts", "random", "--time-limit", "1e9"],
     "expected a number of seconds above 0 and at most 86400, got '1e9'"),
    (["tournament", "mcts", "random", "--level", "6"], "expected an MCTS level from 1 to 5"),
])
def test_the_commands_share_their_option_checks(argv: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_bench_says_which_targets_were_missed_and_how_to_measure_fairly() -> None:
    from wts.devtools.bench import BenchRow, verdict

    met = BenchRow("simulate, 1 thread", "15 M turns/s", ">= 12 M turns/s", True)
    missed = BenchRow("simulate, 2 threads / 1 thread", "1.2x", ">= 1.8x", False)
    untargeted = BenchRow("Game.play, fast", "0.3 us/turn", "", None)
    assert verdict([met, untargeted]) == "every target met"
    report = verdict([met, missed, untargeted], quick=True)
    assert report.startswith("1 of 2 targets missed: simulate, 2 threads / 1 thread\n")
    assert "idle" in report and "without --quick" in report
    assert "without --quick" not in verdict([missed])


def test_bench_prints_its_verdict_under_the_table(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from wts.devtools.bench import BenchRow

    rows = [BenchRow("bytes per game state", "200 B", "<= 160 B", False)]
    monkeypatch.setattr("wts.devtools.bench.run", lambda quick: rows)
    assert cli.main(["bench"]) == 0
    out = capsys.readouterr().out
    assert "200 B" in out and "\n1 of 1 targets missed: bytes per game state\n" in out


def test_bench_subcommand_prints_one_table_with_every_measure() -> None:
    proc = run_wts("bench", "--quick")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for measure in ["Game.play fast / reference", "simulate, 1 thread",
                    "simulate / reference random play", "simulate, 2 threads / 1 thread",
                    "BatchGame.step / simulate, per game-turn", "bytes per game state"]:
        assert measure in proc.stdout
    assert "152 B" in proc.stdout
    # The yardstick is the benchmarks' (bench/scalar_loop.py), not the package's.
    assert "scalar C loop" not in proc.stdout


@pytest.mark.parametrize(("argv", "target"), [
    (["simulate", "--games", "10"], "wts.engine.simulate.simulate"),
    (["tournament", "greedy", "random"], "wts.players.tournament.play_match"),
    (["fuzz", "--games", "5"], "wts.devtools.fuzz.run_fuzz"),
    (["bench", "--quick"], "wts.devtools.bench.run"),
])
def test_ctrl_c_exits_130_with_one_line(argv: list[str], target: str,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(target, interrupted)
    assert cli.main(argv) == 130
    assert capsys.readouterr().err == f"wts {argv[0]}: interrupted\n"



def test_tournament_prints_its_header_before_the_first_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from wts.players import tournament

    real = tournament.play_match
    seen: list[str] = []

    def play(*args: object, **kwargs: object) -> object:
        before = capsys.readouterr()  # what was printed before any game
        seen.append((before.out, "0/3" in before.err, callable(kwargs["progress"])))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "play_match", play)
    assert cli.main(["tournament", "random", "greedy", "--games", "3", "--progress"]) == 0
    # The header, and a bar of the games on standard error that the match updates.
    assert seen == [("wts tournament: random vs greedy, 3 games, seed 0\n", True, True)]
    captured = capsys.readouterr()
    report = captured.out.splitlines()
    assert "wts tournament" not in captured.out  # the header is printed once
    assert report[0].split() == ["wins", "as", "black", "as", "white"]


def test_ladder_estimates_its_time_and_weighs_its_bar_by_work(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from wts.players import ladder

    monkeypatch.setattr(ladder, "playouts_per_second", lambda: 100_000.0)
    assert cli.main(["ladder", "--levels", "1", "--anchors", "random", "--games", "2",
                     "--progress"]) == 0
    err = capsys.readouterr().err
    # 2 games of 40 turns, 1,000 playouts a move for mcts:1 and none for random.
    assert "wts ladder: 2 games in 1 pairings; about 1 s here (at 100,000 playouts/s" in err
    assert ladder.move_cost("mcts:4") == 100_000 and ladder.move_cost("greedy") == 0
    assert ladder.move_cost("mcts:2,playouts=50") == 50
    assert ladder.move_cost("openspiel-mcts:1000") == 1000 * ladder.OPENSPIEL_SIMULATION_PLAYOUTS


def test_ladder_with_no_options_plays_a_short_ladder() -> None:
    import argparse

    from wts.cli import ladder as ladder_cli
    from wts.players import ladder

    parser = argparse.ArgumentParser()
    ladder_cli.add_arguments(parser)
    args = parser.parse_args([])
    assert (args.levels, args.anchors, args.games) == ([1, 2, 3], ["random", "greedy"], 8)
    pairs = ladder.ladder_pairings(args.levels, args.anchors)
    work = sum(ladder.ESTIMATED_TURNS * (ladder.move_cost(a) + ladder.move_cost(b))
               for a, b in pairs) * args.games
    assert work / 220_000 < 5 * 60  # minutes on the README's machine, not hours


def test_each_command_is_one_module_that_runs_it() -> None:
    """``wts X`` is ``wts.cli.X``: the module adds the subcommand and its ``run``
    is what the parsed arguments call; main holds no command of its own."""
    import argparse
    import inspect

    parser = cli.build_parser()
    subparsers = next(action for action in parser._actions
                      if isinstance(action, argparse._SubParsersAction))
    assert set(subparsers.choices) == {module.__name__.rsplit(".", 1)[1].replace("_", "-")
                                       for module in cli.COMMANDS}
    for name, subparser in subparsers.choices.items():
        run = subparser.get_default("run")
        module = inspect.getmodule(run)
        assert module is not None and module.__name__ == f"wts.cli.{name.replace('-', '_')}"
    source = inspect.getsource(cli.main)
    assert "args.run(" in source and "args.command ==" not in source


def test_elo_is_never_printed_as_minus_zero() -> None:
    from wts.players import pairs, tournament

    assert tournament._signed(-0.4) == "0" and tournament._signed(0.4) == "0"
    assert tournament._signed(-3.2) == "-3" and tournament._signed(7.6) == "+8"
    source = Path(pairs.__file__).read_text()
    assert '"0.0"  # never "-0.0"' in source


def test_a_bad_openings_file_is_a_bad_argument(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "openings.txt"
    bad.write_text("not a position\n")
    status = cli.main(["tournament", "random", "random", "--sprt", "elo0=0,elo1=5",
                       "--openings", str(bad)])
    assert status == 2
    assert "wts tournament: error: --openings" in capsys.readouterr().err
    missing = cli.main(["tournament", "random", "random", "--sprt", "elo0=0,elo1=5",
                        "--openings", str(tmp_path / "none.txt")])
    assert missing == 2


@pytest.mark.parametrize(("command", "words"), [
    ("engine-check", ("in seconds", "default 0.05", "a count, default 300")),
    ("fuzz", ("a count", "default 1", "one per CPU core")),
])
def test_the_help_gives_units_and_defaults(command: str, words: tuple[str, ...],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for word in words:
        assert word in text
    row = next(line for line in (ROOT / "docs" / "cli.md")
               .read_text().splitlines() if line.startswith(f"| `wts {command} "))
    assert "default" in row and ("seconds" in row or "CPU core" in row)


def test_bench_network_prints_the_forward_against_the_peak_and_the_search() -> None:
    proc = run_wts("bench", "--network", "--quick")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for measure in ["FLOP a position", "sgemm peak", "evaluate, batch 1,", "evaluate, batch 256,",
                    "peak / best forward", "AZAgent search", "Learner step"]:
        assert measure in proc.stdout, measure
