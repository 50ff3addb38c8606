"""``wts play`` driven through a pseudo-terminal (pexpect), and ``wts replay``
against golden outputs in ``tests/golden/``.

Regenerate the golden files after an intended change of the output with
``PYTHONPATH=src python -m tests.cli.test_play_cli --regenerate`` and review the diff.
"""

from __future__ import annotations

import io
import os
import random
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

import wts
from tests.support.processes import ROOT, TESTS, python_env, run_python
from wts import record
from wts.cli import play as terminal
from wts.engine.text import board as board_text

if sys.platform != "win32":
    import pexpect  # the test extra installs it everywhere but on Windows

pty_only = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX-only")

GOLDEN = str(TESTS / "golden")
TERMINAL = {"COLUMNS": "100", "TERM": "dumb"}
BOARD_LINE = re.compile(r"^ 1 .* 1$", re.M)


def _default_sigint() -> None:
    # A suite started with SIGINT ignored would pass that on: Ctrl-C is sent here.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str, timeout: float = 60) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "wts", *args], env=python_env(TERMINAL),
                          encoding="utf-8", timeout=timeout, dimensions=(50, 120),
                          preexec_fn=_default_sigint)
    return child


def run_wts(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_python("-m", "wts", *args, input=stdin, env=TERMINAL)


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus if child.exitstatus is not None else -child.signalstatus


def last_board(output: str, expected: str) -> str:
    """The last board printed in ``output``, as many lines as ``expected`` has
    (the board, its status line and its key to the marks)."""
    lines = output.replace("\r\n", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if line.split() == list("ABCDEFGHI")]
    first = starts[-2]
    return "\n".join(lines[first:first + len(expected.splitlines())])


# --- wts play through a pseudo-terminal ------------------------------------------------


@pty_only
def test_human_against_a_random_bot(tmp_path) -> None:
    path = tmp_path / "game.wts"
    child = spawn("play", "--black", "human", "--white", "random", "--seed", "1",
                  "--save", str(path))
    child.expect_exact("black human against white random (game seed 1)")
    child.expect_exact("black, your square: ")
    child.sendline("e5")
    child.expect(r"turn 1: black E5, white ([A-I][1-9])")
    white_first = child.match.group(1)
    child.expect_exact("turn 1, ")
    # Bad input is refused with the reason, and the prompt comes back.
    child.expect_exact("black, your square: ")
    child.sendline("E5")
    child.expect_exact("E5 holds a black turtle: choose an empty square")
    child.expect_exact("black, your square: ")
    child.sendline("J1")
    child.expect_exact("'J1' is not a square")
    child.sendline("help")
    child.expect_exact("'moves' lists the empty squares")
    child.sendline("moves")
    child.expect("empty squares: A1 B1 ")
    child.sendline("board")
    child.expect_exact("turn 1, ongoing")
    child.sendline("A1" if white_first != "A1" else "B1")
    child.expect("turn 2: black ")
    child.expect_exact("black, your square: ")
    child.sendline("quit")
    child.expect_exact("game stopped after 2 turns")
    child.expect_exact(f"saved the game to {path}")
    assert finish(child) == 0
    saved = record.read(path)
    assert len(saved.turns) == 2 and saved.moves[0][0] == 40
    assert saved.headers["Black"] == "human" and saved.headers["White"] == "random (seed 2)"
    assert saved.headers["Result"] == "*"


@pty_only
def test_two_humans_the_first_entry_is_hidden() -> None:
    child = spawn("play", "--black", "human", "--white", "human")
    child.expect_exact("black, your square (hidden): ")
    child.sendline("E5")
    child.expect_exact("black has chosen.")
    assert "E5" not in child.before  # not echoed
    child.expect_exact("white, your square (hidden): ")
    child.sendline("E5")
    child.expect_exact("turn 1: black E5, white E5")
    assert "E5" not in child.before
    child.expect_exact("collision on E5: an egg is laid")
    # An occupied square is refused without naming it.
    child.expect_exact("black, your square (hidden): ")
    child.sendline("E5")
    child.expect_exact("that square is not empty")
    child.expect_exact("black, your square (hidden): ")
    assert "E5" not in child.before
    child.sendline("Q9")
    child.expect_exact("that is not a square")
    assert "Q9" not in child.before
    child.expect_exact("black, your square (hidden): ")
    child.sendline("A1")
    child.expect_exact("black has chosen.")
    child.expect_exact("white, your square (hidden): ")
    child.sendline("resign")
    child.expect_exact("result: black wins: white resigned after 1 turn")
    assert finish(child) == 0


@pty_only
def test_bot_against_bot_saves_a_record_that_replays_to_the_same_board(tmp_path) -> None:
    path = tmp_path / "bots.wts"
    child = spawn("play", "--black", "random", "--white", "random", "--seed", "7",
                  "--save", str(path))
    child.expect(r"result: (black wins|white wins|a draw) after (\d+) turns")
    turns = int(child.match.group(2))
    played = child.before.replace("\r\n", "\n")
    child.expect_exact("saved the game to")
    assert finish(child) == 0
    saved = record.read(path)
    assert saved.game.turn == turns and saved.game.is_over()
    assert saved.headers["Result"] == record.result_of(saved.game)
    assert last_board(played, board_text(saved.game)) == board_text(saved.game)
    replay = run_wts("replay", str(path))
    assert replay.returncode == 0, replay.stderr
    assert last_board(replay.stdout, board_text(saved.game)) == board_text(saved.game)


@pty_only
def test_ctrl_c_and_end_of_input_stop_cleanly(tmp_path) -> None:
    child = spawn("play", "--black", "human", "--white", "human")
    child.expect_exact("black, your square (hidden): ")
    child.sendintr()
    child.expect_exact("interrupted: game stopped after 0 turns")
    assert finish(child) == 130
    assert "Traceback" not in (child.before or "")
    child = spawn("play", "--black", "human", "--white", "random", "--save",
                  str(tmp_path / "eof.wts"))
    child.expect_exact("black, your square: ")
    child.sendeof()
    child.expect_exact("end of input: game stopped after 0 turns")
    assert finish(child) == 0
    assert record.read(tmp_path / "eof.wts").turns == ()


@pty_only
def test_the_side_not_named_is_played_by_a_bot() -> None:
    child = spawn("play", "--white", "human", "--seed", "3", "--level", "1")
    child.expect(r"black (mcts:1|random) against white human \(game seed 3\)")
    child.expect_exact("white, your square: ")
    child.sendline("quit")
    assert finish(child) == 0


@pty_only
def test_the_prompt_edits_the_line_and_explains_the_rules() -> None:
    child = spawn("play", "--black", "human", "--white", "random", "--seed", "1")
    child.expect_exact("white's bot has seed 2 (--seed + 1); --seed 1 makes it play the same "
                       "way again")
    child.expect_exact("black, your square: ")
    child.send("5\x1b[DE\r")  # 5, the left arrow, E: readline makes it E5
    child.expect_exact("turn 1: black E5, white H1")
    child.expect_exact(" 5   .  .  .  . [X] .  .  .  .  5")
    child.expect_exact("marks: [ ] played last turn")
    child.sendline("rules")
    child.expect_exact("Five or more turtles of one colour in a row win")
    child.expect_exact("docs/rules.md")
    child.sendline("moves")
    child.expect_exact("empty squares: ")
    child.expect_exact("black, your square: ")  # the whole list is out before the prompt
    lines = ("empty squares: " + child.before).replace("\r", "").splitlines()
    wrapped = [line for line in lines if line.startswith(("empty squares: ", "  "))]
    assert len(wrapped) > 1 and max(len(line) for line in wrapped) < 100  # COLUMNS=100
    assert len(" ".join(wrapped).split()) == 2 + 79
    child.sendline("quit")
    assert finish(child) == 0


@pty_only
def test_a_slow_bot_shows_that_it_is_thinking() -> None:
    child = spawn("play", "--black", "human", "--white", "mcts", "--level", "4", "--seed", "1")
    child.expect_exact("black, your square: ")
    child.sendline("E5")
    child.expect_exact("white is thinking...")
    child.expect_exact("turn 1: black E5, white ")
    child.expect_exact("black, your square: ")
    child.sendline("quit")
    assert finish(child) == 0


def test_thinking_is_shown_on_a_terminal_only_once_the_bot_is_slow() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    slow, fast, piped = Terminal(), Terminal(), io.StringIO()
    with terminal.Thinking(wts.Color.WHITE, slow, after=0.01):
        time.sleep(0.3)
    with terminal.Thinking(wts.Color.BLACK, fast, after=30.0):
        pass
    with terminal.Thinking(wts.Color.BLACK, piped, after=0.0):
        time.sleep(0.1)
    line = "white is thinking..."
    assert slow.getvalue() == line + "\r" + " " * len(line) + "\r"
    assert fast.getvalue() == piped.getvalue() == ""


def test_moves_are_wrapped_to_the_width() -> None:
    game = wts.Game()
    for width in (30, 60, 300):
        lines = terminal.empty_squares(game, width).splitlines()
        assert all(len(line) < width for line in lines)
        assert " ".join(lines).split()[2:] == [wts.square_name(sq) for sq in range(81)]
    assert len(terminal.empty_squares(game, 30).splitlines()) > len(
        terminal.empty_squares(game, 300).splitlines()) == 1


def test_moves_can_be_piped_in() -> None:
    proc = run_wts("play", "--black", "human", "--white", "random", "--seed", "4",
                   stdin="E5\nnonsense\n")
    assert proc.returncode == 0, proc.stderr
    assert "turn 1: black E5, white " in proc.stdout
    assert "'nonsense' is not a square" in proc.stdout
    assert "end of input: game stopped after 1 turn" in proc.stdout


def test_play_from_a_position(tmp_path) -> None:
    path = tmp_path / "setup.wts"
    proc = run_wts("play", "--black", "human", "--white", "human",
                   "--fen", "9/9/9/9/5oox1/9/2e6/9/9 C3 0", "--save", str(path),
                   stdin="E5\nA1\n")
    assert proc.returncode == 0, proc.stderr
    assert "black captures F5 and G5, closed from E5 to H5" in proc.stdout
    assert "the egg on C3 hatches into a black turtle (wave 1)" in proc.stdout
    saved = record.read(path)
    assert saved.setup == "9/9/9/9/5oox1/9/2e6/9/9 C3 0"
    assert saved.game.fen() == "9/9/9/9/4x2x1/9/2x6/9/o8 - 1"


@pty_only
def test_with_no_options_a_human_plays_the_bot_of_wts_serve() -> None:
    from wts.serve.defaults import BOT_LEVEL, PLAYER_COLOR

    child = spawn("play", "--seed", "5")
    child.expect_exact(f"What the Shell: black human against white mcts:{BOT_LEVEL} "
                       "(game seed 5)")
    child.expect_exact(f"{PLAYER_COLOR}, your square: ")
    child.sendline("quit")
    assert finish(child) == 0


def test_the_bot_of_a_bare_play_is_the_default_of_wts_serve() -> None:
    messages = pytest.importorskip("wts.serve.messages")  # needs the serve extra
    from wts.serve.defaults import BOT_LEVEL, PLAYER_COLOR

    asked = messages.CreateGame(mode="bot")
    assert (asked.level, asked.color) == (BOT_LEVEL, PLAYER_COLOR) == (1, "black")
    assert terminal.first_game() == (("human", "mcts"), BOT_LEVEL)


def test_the_first_line_names_the_game_seed_and_the_next_each_bot_seed(tmp_path) -> None:
    path = tmp_path / "bots.wts"
    out = io.StringIO()
    terminal.play_in_terminal("random", "greedy", seed=7, save=str(path), out=out,
                              stdin=io.StringIO(""))
    first, second = out.getvalue().splitlines()[:2]
    assert first == "What the Shell: black random against white greedy (game seed 7)"
    assert second == "bots' seeds: black 7 (--seed), white 8 (--seed + 1); --seed 7 replays " \
                     "this game"
    saved = record.read(path)  # the record's tags name each player's own seed
    assert (saved.headers["Black"], saved.headers["White"]) == ("random (seed 7)",
                                                                "greedy (seed 8)")
    out = io.StringIO()
    terminal.play_in_terminal("human", "human", seed=7, out=out, stdin=io.StringIO(""))
    assert out.getvalue().splitlines()[0] == "What the Shell: black human against white human"


@pty_only
def test_undo_takes_back_the_turn_of_the_human_and_the_bot(tmp_path) -> None:
    path = tmp_path / "undone.wts"
    child = spawn("play", "--black", "human", "--white", "random", "--seed", "1",
                  "--save", str(path))
    child.expect_exact("black, your square: ")
    child.sendline("undo")
    child.expect_exact("nothing to take back: no turn was played since the start")
    child.expect_exact("black, your square: ")
    child.sendline("E5")
    child.expect(r"turn 1: black E5, white ([A-I][1-9])")
    white_first = child.match.group(1)
    child.expect_exact("black, your square: ")
    child.sendline("D4" if white_first != "D4" else "D5")
    child.expect_exact("turn 2: black ")
    child.expect_exact("black, your square: ")
    child.sendline("undo")
    child.expect(r"took back turn 2: black D[45], white [A-I][1-9]")
    child.expect_exact("turn 1, ongoing")
    child.sendline("undo")
    child.expect_exact(f"took back turn 1: black E5, white {white_first}")
    child.expect_exact("turn 0, ongoing")
    child.expect_exact("black, your square: ")
    child.sendline("A1")
    child.expect_exact("turn 1: black A1, white ")
    child.expect_exact("black, your square: ")
    child.sendline("help")
    child.expect_exact("'undo' takes back the last turn")
    child.sendline("quit")
    child.expect_exact("game stopped after 1 turn")
    assert finish(child) == 0
    saved = record.read(path)
    assert len(saved.turns) == 1 and saved.moves[0][0] == wts.to_square("A1")


@pty_only
def test_undo_between_two_humans_asks_the_turn_again_from_black() -> None:
    child = spawn("play", "--black", "human", "--white", "human")
    child.expect_exact("black, your square (hidden): ")
    child.sendline("E5")
    child.expect_exact("white, your square (hidden): ")
    child.sendline("D4")
    child.expect_exact("turn 1: black E5, white D4")
    child.expect_exact("black, your square (hidden): ")
    child.sendline("A1")
    child.expect_exact("black has chosen.")
    child.expect_exact("white, your square (hidden): ")
    child.sendline("undo")  # black's A1 of this turn goes too
    child.expect_exact("took back turn 1: black E5, white D4")
    child.expect_exact("turn 0, ongoing")
    child.expect_exact("black, your square (hidden): ")
    child.sendline("quit")
    child.expect_exact("game stopped after 0 turns")
    assert finish(child) == 0


def _saved_game(path, *, white: str = "random (seed 2)", result: str | None = None) -> None:
    game = wts.Game()
    game.play("E5", "D4")
    game.play("A1", "B2")
    headers = {"Black": "human", "White": white, "Date": "2025.06.01", "Event": "club night"}
    if result is not None:
        headers["Result"] = result
    record.write(game, path, headers=headers, comments={1: "a quiet start", 2: "then this"})


@pty_only
def test_resume_goes_on_with_the_record_and_undo_takes_back_its_turns(tmp_path) -> None:
    source, path = tmp_path / "club.wts", tmp_path / "again.wts"
    _saved_game(source)
    child = spawn("play", "--resume", str(source), "--seed", "4", "--save", str(path))
    # The players are the record's, its bot with a seed of this game.
    child.expect_exact("What the Shell: black human against white random (game seed 4)")
    child.expect_exact("the game goes on after turn 2 of its record")
    child.expect_exact("turn 2, ongoing")
    child.expect_exact("black, your square: ")
    child.sendline("undo")
    child.expect_exact("took back turn 2: black A1, white B2")
    child.expect_exact("turn 1, ongoing")
    child.expect_exact("black, your square: ")
    child.sendline("quit")
    child.expect_exact("game stopped after 1 turn")
    assert finish(child) == 0
    saved = record.read(path)
    assert saved.moves == ((wts.to_square("E5"), wts.to_square("D4")),)
    assert saved.headers["Event"] == "club night" and saved.headers["Date"] == "2025.06.01"
    assert saved.headers["White"] == "random (seed 5)"
    assert saved.comments == {1: "a quiet start"}  # turn 2's went with turn 2


def test_resume_plays_on_to_the_end_with_the_players_given(tmp_path) -> None:
    source, path = tmp_path / "club.wts", tmp_path / "done.wts"
    _saved_game(source)
    proc = run_wts("play", "--resume", str(source), "--black", "random", "--white", "greedy",
                   "--seed", "3", "--save", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("What the Shell: black random against white greedy "
                                  "(game seed 3)\n")
    saved = record.read(path)
    assert saved.game.is_over() and saved.moves[:2] == record.read(source).moves
    assert saved.comments == {1: "a quiet start", 2: "then this"}


def test_a_program_is_never_taken_from_a_record(tmp_path) -> None:
    source = tmp_path / "engine.wts"
    _saved_game(source, white="engine:touch pwned (seed 2)")
    assert terminal.recorded_players(record.read(source)) is None
    _saved_game(source, white="Alice")  # not a player: the defaults play
    assert terminal.recorded_players(record.read(source)) is None
    _saved_game(source, white="mcts:2,reuse=false (seed 9)")
    assert terminal.recorded_players(record.read(source)) == ("human", "mcts:2,reuse=false")


def test_a_resumed_game_keeps_the_seeds_its_tags_name(tmp_path) -> None:
    source, path = tmp_path / "club.wts", tmp_path / "again.wts"
    _saved_game(source, white="mcts:1 (seed 6)")
    assert terminal.recorded_seed(record.read(source)) == 5  # white's is the game's + 1
    _saved_game(source, white="random (seed 6)")
    proc = run_wts("play", "--resume", str(source), "--save", str(path), stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "(game seed 5)" in proc.stdout.splitlines()[0]
    assert record.read(path).headers["White"] == "random (seed 6)"
    _saved_game(source, white="human")
    assert terminal.recorded_seed(record.read(source)) is None


def test_a_bad_record_to_resume_is_a_typed_error_and_exit_2(tmp_path) -> None:
    unreadable, empty, resigned = (tmp_path / name for name in ("bad.wts", "empty.wts",
                                                                  "resigned.wts"))
    unreadable.write_text("[Black \"human\"]\n\nE5 Z9\n")
    empty.write_text("")
    _saved_game(resigned, result="1-0")
    decided = str(ROOT / "docs" / "example-game.wts")
    with pytest.raises(wts.NotationError, match="line 3: expected white's square"):
        terminal.resumable_record(str(unreadable))
    with pytest.raises(wts.NotationError, match="no game record"):
        terminal.resumable_record(str(empty))
    with pytest.raises(wts.GameOverError, match="white resigned"):
        terminal.resumable_record(str(resigned))
    cases = [(unreadable, "line 3: expected white's square"), (empty, "no game record"),
             (resigned, "the game is over after turn 2: white resigned (Result 1-0)")]
    if os.path.isfile(decided):
        cases.append((decided, "the game is over after turn 26: white wins"))
    for path, message in cases:
        proc = run_wts("play", "--resume", str(path))
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert proc.stderr.startswith("usage: wts play") and message in proc.stderr
        assert f"wts play: error: --resume: {path}: " in proc.stderr
        assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "--fen", "9/9 - 0", "--resume", "game.wts"], "not allowed with"),
        (["play", "--resume", "/nonexistent/game.wts"], "--resume: cannot read"),
        (["play", "--black", "nobody"], "--black: unknown"),
        (["play", "--white", "human", "--black", "mcts:9"], "--black:"),
        (["play", "--black", "human", "--level", "7"], "expected an MCTS level from 1 to 5"),
        (["play", "--black", "human", "--seed", "-1"], "expected an integer seed"),
        (["play", "--black", "human", "--fen", "9/9 - 0"], "--fen: position 3: expected"),
        (["play", "--black", "human", "--fen", "9/9/9/9/9/9/9/9/xxxxx4 - 0"], "already decided"),
        (["play", "--black", "human", "--save", "/nonexistent/dir/game.wts"], "--save: cannot"),
        (["play", "--black", "random", "--white", "random", "--delay", "nan"], "seconds"),
        (["replay"], "the following arguments are required: FILE"),
        (["replay", "x.wts", "--turn", "-1"], "expected a turn number"),
        (["replay", "x.wts", "--size", "3"], "expected a size in pixels"),
        (["play", "--black", "random", "--white", "random", "--delay", "5000"],
         "expected a number of seconds from 0 to 3600"),
        (["play", "--black", "human", "--seed", str(2**64)], "from 0 to 2**64 - 1"),
        (["replay", "x.wts", "--speed", "2"], "unrecognized arguments: --speed"),
    ],
)
def test_bad_arguments_exit_2_with_usage_and_no_traceback(args, message) -> None:
    proc = run_wts(*args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.startswith("usage: wts ") and message in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.mark.parametrize("command", ["play", "replay"])
def test_help(command: str) -> None:
    proc = run_wts(command, "--help")
    assert proc.returncode == 0 and proc.stdout.startswith(f"usage: wts {command}")
    options = {"play": ["--black", "--white", "--seed", "--save", "--level", "--fen",
                        "--resume"],
               "replay": ["--turn", "--svg", "--size"]}[command]
    for option in options:
        assert option in proc.stdout


# --- wts replay: golden outputs ----------------------------------------------------------


def golden_game() -> wts.Game:
    """The game of ``golden/random-4422.wts``: random moves, a quarter of them collisions,
    with collisions, captures, hatching, a dissolved egg and sudden death."""
    rng = random.Random(4422)
    game = wts.Game()
    while not game.is_over():
        legal = game.legal_moves()
        black = rng.choice(legal)
        game.play(black, black if rng.random() < 0.25 else rng.choice(legal))
    return game


def golden_setup_game() -> wts.Game:
    """The rulebook's big turn, then one more turn: ``golden/big-turn.wts``."""
    game = wts.Game.from_setup(
        black=["H5", "E8", "B5", "B6"], white=["F5", "G5", "E6", "E7", "B7"],
        eggs=["C1", "A9", "I9"],
    )
    game.play("E5", "B4")
    game.play("I8", "I8")
    return game


GOLDEN_RECORDS = {
    "random-4422.wts": lambda: record.dumps(
        golden_game(),
        headers={"Black": "random", "White": "random", "Date": "2025.01.01"},
        comments={0: "random moves, seed 4422: collisions, captures, hatches, "
                     "a dissolve, sudden death"},
    ),
    "big-turn.wts": lambda: record.dumps(
        golden_setup_game(),
        headers={"Black": "rulebook", "White": "rulebook", "Date": "?"},
        comments={1: "the big turn: two black captures, one white; C1 dissolves, A9 hatches"},
    ),
}
GOLDEN_OUTPUTS = {
    "replay-random-4422.txt": ["random-4422.wts"],
    "replay-random-4422-turn-20.txt": ["random-4422.wts", "--turn", "20"],
    "replay-random-4422-turn-0.txt": ["random-4422.wts", "--turn", "0"],
    "replay-big-turn.txt": ["big-turn.wts"],
}


def read_golden(name: str) -> str:
    with open(os.path.join(GOLDEN, name), encoding="utf-8", newline="") as handle:
        return handle.read()


@pytest.mark.parametrize("name", sorted(GOLDEN_RECORDS))
def test_golden_records_are_what_the_engine_writes(name: str) -> None:
    assert read_golden(name) == GOLDEN_RECORDS[name]()


@pytest.mark.parametrize("name", sorted(GOLDEN_OUTPUTS))
def test_replay_matches_the_golden_output(name: str) -> None:
    args = GOLDEN_OUTPUTS[name]
    proc = run_wts("replay", os.path.join(GOLDEN, args[0]), *args[1:])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == read_golden(name)


def test_golden_game_has_every_kind_of_event() -> None:
    text = read_golden("replay-random-4422.txt")
    for event in ("collision on", "captures", "dissolves", "hatches into", "sudden death:",
                  "result: "):
        assert event in text, event


def test_replay_reads_stdin() -> None:
    proc = run_wts("replay", "-", "--turn", "1", stdin=read_golden("big-turn.wts"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("turn 1: black E5, white B4\n")


def test_replay_writes_one_picture_per_turn(tmp_path) -> None:
    out = tmp_path / "pictures"
    proc = run_wts("replay", os.path.join(GOLDEN, "big-turn.wts"), "--svg", str(out),
                   "--size", "300")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"wrote 3 pictures to {out}\n"
    assert sorted(os.listdir(out)) == ["turn-000.svg", "turn-001.svg", "turn-002.svg"]
    game = record.read(os.path.join(GOLDEN, "big-turn.wts")).game
    for number in range(3):
        text = (out / f"turn-{number:03d}.svg").read_text(encoding="utf-8")
        ET.fromstring(text)
        assert text == wts.svg.board(game, turn=number, size=300)
    proc = run_wts("replay", os.path.join(GOLDEN, "big-turn.wts"), "--svg", str(out / "one"),
                   "--turn", "1")
    assert proc.stdout.endswith("wrote 1 picture to " + str(out / "one") + "\n")
    assert os.listdir(out / "one") == ["turn-001.svg"]


def test_replay_errors_exit_2_with_a_message(tmp_path) -> None:
    missing = run_wts("replay", str(tmp_path / "missing.wts"))
    assert missing.returncode == 2
    assert missing.stderr == f"wts replay: error: cannot read {tmp_path / 'missing.wts'}: " \
                             "No such file or directory\n"
    bad = tmp_path / "bad.wts"
    bad.write_text("E5 B4\nE5 A1\n")
    proc = run_wts("replay", str(bad))
    assert proc.returncode == 2
    assert proc.stderr == (f"wts replay: error: {bad}: line 2: turn 2: black's move E5 is "
                           "illegal: the square holds a black turtle\n")
    proc = run_wts("replay", os.path.join(GOLDEN, "big-turn.wts"), "--turn", "9")
    assert proc.returncode == 2
    assert proc.stderr == "wts replay: error: --turn 9: the record has turns 0 to 2\n"
    proc = run_wts("replay", str(tmp_path))
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    blocker = tmp_path / "file"
    blocker.write_text("")
    proc = run_wts("replay", os.path.join(GOLDEN, "big-turn.wts"), "--svg", str(blocker))
    assert proc.returncode == 2 and "cannot write to" in proc.stderr
    for text in (proc.stderr, missing.stderr):
        assert "Traceback" not in text


def test_replay_says_a_file_holds_no_turns(tmp_path) -> None:
    empty = tmp_path / "empty.wts"
    empty.write_text("\n  \n")
    proc = run_wts("replay", str(empty))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"wts replay: error: {empty} holds no turns and no tags: "
                           "it is no game record\n")
    tagged = tmp_path / "tagged.wts"
    tagged.write_text('[Black "Ann"]\n')
    proc = run_wts("replay", str(tagged))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("\nthe record holds no turns\n"
                                "result: unfinished after 0 turns (ongoing)\n")


def regenerate() -> None:
    os.makedirs(GOLDEN, exist_ok=True)
    for name, make in GOLDEN_RECORDS.items():
        with open(os.path.join(GOLDEN, name), "w", encoding="utf-8", newline="") as handle:
            handle.write(make())
    for name, args in GOLDEN_OUTPUTS.items():
        proc = run_wts("replay", os.path.join(GOLDEN, args[0]), *args[1:])
        assert proc.returncode == 0, proc.stderr
        with open(os.path.join(GOLDEN, name), "w", encoding="utf-8", newline="") as handle:
            handle.write(proc.stdout)
    print(f"wrote {len(GOLDEN_RECORDS) + len(GOLDEN_OUTPUTS)} files to {GOLDEN}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(f"usage: {sys.argv[0]} --regenerate")
    regenerate()
