"""The ``wts`` commands of the README and the documentation's pages give what
they show.

Every ``text`` block that starts with ``$ wts ...`` is run as ``python -m
wts ...`` from this checkout and its output compared with the block, line by
line (``...`` on a line stands for any number of lines; the figures that
depend on the machine, such as its threads and speed, are left out). A
human's entries are the ones the block shows at the prompts. The example
game's caption (docs/positions.md) names the command that played
``docs/example-game.wts``: it is run and must play that game, the caption's
account of its turns must be what happened, and the pictures must be
``wts.svg.board`` of those turns. The page's example of reading and writing
a record runs as written. The commands of the README's "Try it" list are
whole commands the parser takes, and the quick ones run.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
import re
import shlex
import shutil

import pytest
from PIL import Image, ImageChops

import wts
from tests.support.processes import run_python
from tests.support.readme_blocks import (
    README,
    ROOT,
    page,
    python_blocks,
    reproduces,
    shell_sessions,
)
from wts.cli import main as cli
from wts.engine import text
from wts.engine.squares import SQUARE_NAMES

try:
    import cairosvg
except OSError:  # cairosvg is installed, the cairo C library is not
    if os.environ.get("WTS_REQUIRE_RENDERER") == "1":  # set by .ci/run: never skip there
        raise
    cairosvg = None

POSITIONS = page("positions")
SESSIONS = shell_sessions()
#: Sessions too long for the test suite, and the test that runs each.
RUN_ELSEWHERE = {
    "wts tournament mcts:3 greedy --games 200 --seed 0 --jobs 2": "bench/test_strength.py",
    "wts ladder --levels 1-3 --anchors random,greedy,openspiel-mcts:100 --games 8 --seed 0":
        "bench/test_strength.py",
}
RUN_HERE = [(place, command, shown) for place, command, shown in SESSIONS
            if command not in RUN_ELSEWHERE]
PROMPT = re.compile(r"^(?:black|white), your square(?: \(hidden\))?: (.*)$", re.M)

pytestmark = pytest.mark.skipif(not POSITIONS.is_file(), reason="no docs/ beside the tests")


def test_every_session_is_run_by_a_test() -> None:
    assert len(RUN_HERE) >= 2
    assert {command for _, command, _ in SESSIONS} - {c for _, c, _ in RUN_HERE} == set(
        RUN_ELSEWHERE)


@pytest.mark.parametrize(("place", "command", "shown"), RUN_HERE,
                         ids=[command for _, command, _ in RUN_HERE])
def test_shell_session_reproduces(place: str, command: str, shown: str) -> None:
    entries = "".join(entry + "\n" for entry in PROMPT.findall(shown))
    proc = run_python("-m", *shlex.split(command), input=entries, env={"COLUMNS": "80"},
                      timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    diff = "\n".join(difflib.unified_diff(shown.splitlines(), proc.stdout.splitlines(),
                                          place, command, lineterm=""))
    assert reproduces(shown, proc.stdout), f"{place}:\n{diff}"


# --- The README's "Try it" list --------------------------------------------------------


def try_it_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Try it\n")
    return re.findall(r"`(wts [^`]*)`", text[start:text.index("\n## ", start + 1)])


def test_the_try_it_commands_are_whole_commands() -> None:
    commands = try_it_commands()
    assert [shlex.split(command)[1] for command in commands] == [
        "serve", "play", "demo", "replay", "selfplay", "tournament", "tournament", "train"]
    for command in commands:
        _, unknown = cli.build_parser().parse_known_args(shlex.split(command)[1:])
        assert not unknown, command


@pytest.mark.parametrize("name", ["demo", "replay"])
def test_a_quick_try_it_command_runs(name: str, tmp_path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """From a copy of what the clone's top folder holds that it reads."""
    (command,) = [c for c in try_it_commands() if shlex.split(c)[1] == name]
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "example-game.wts", tmp_path / "docs")
    monkeypatch.chdir(tmp_path)
    assert cli.main(shlex.split(command)[1:]) == 0
    assert capsys.readouterr().out


# --- The example game ------------------------------------------------------------------


def caption() -> str:
    text = POSITIONS.read_text(encoding="utf-8")
    start = text.index("](images/example-game-turn-")
    return text[start:text.index("*\n", start)].replace("\n", " ")


def example() -> wts.record.GameRecord:
    return wts.record.read(ROOT / "docs" / "example-game.wts")


def test_the_caption_command_plays_the_example_game(tmp_path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    command = re.search(r"`(wts play [^`]*) --save …`", caption())
    assert command is not None
    path = tmp_path / "game.wts"
    assert cli.main([*shlex.split(command.group(1))[1:], "--save", str(path)]) == 0
    capsys.readouterr()
    played, shown = wts.record.read(path), example()
    assert played.moves == shown.moves
    for tag in ("Black", "White", "Result"):
        assert played.headers[tag] == shown.headers[tag]


def test_the_caption_tells_what_happened() -> None:
    words = caption()
    game = example().game
    history = game.history
    turns = [int(n) for n in re.findall(r"Turn (\d+):", words)]
    assert len(turns) == 2 and turns[1] == game.turn  # a turn of the game, then its last
    first, last = turns
    move = re.search(rf"Turn {first}: black played ([A-I]\d) and white ([A-I]\d)", words)
    capture = re.search(r"(black|white)'s ([A-I]\d) closes a bracket against ([A-I]\d) and "
                        r"captures ([A-I]\d) and ([A-I]\d)", words, re.I)
    hatch = re.search(r"hatches the oldest egg, ([A-I]\d), into a (black|white) turtle", words)
    row = re.search(rf"Turn {last}: (black|white)'s ([A-I]\d) makes five in a row, ([A-I]\d) "
                    r"to ([A-I]\d)", words)
    assert move and capture and hatch and row, words
    shown = history[first - 1]
    assert (SQUARE_NAMES[shown.black_move], SQUARE_NAMES[shown.white_move]) == move.groups()
    (taken,) = shown.captures
    assert [taken.color.value, *(SQUARE_NAMES[sq] for sq in (
        taken.closer, taken.anchor, *taken.squares))] == [capture.group(1).lower(),
                                                           *capture.groups()[1:]]
    (hatched,) = shown.hatched
    assert (SQUARE_NAMES[hatched.square], hatched.color.value) == hatch.groups()
    before = game.root()
    for played in history[:first - 1]:
        before.play(played.black_move, played.white_move)
    # The oldest egg once the captured pieces are gone.
    assert hatched.square == next(egg for egg in before.eggs if egg not in taken.squares)
    assert game.winner is not None
    winner, last_move, start, end = row.groups()
    assert winner == game.winner.value
    assert last_move == SQUARE_NAMES[history[last - 1].black_move if winner == "black"
                                     else history[last - 1].white_move]
    squares = [SQUARE_NAMES[sq] for sq in text.turtles_in_rows(game, game.winner)]
    assert (squares[0], squares[-1], len(squares)) == (start, end, 5)


def reading() -> str:
    """The page's example that reads the example game."""
    (code,) = [code for _, code in python_blocks(path=POSITIONS) if "example-game.wts" in code]
    return code


def test_the_record_excerpt_and_its_reading_are_the_example_game() -> None:
    text = POSITIONS.read_text(encoding="utf-8")
    excerpt = re.search(r"```text\n(\[Black .*?)```", text, re.S)
    assert excerpt is not None
    file_text = (ROOT / "docs" / "example-game.wts").read_text(encoding="utf-8")
    assert reproduces(excerpt.group(1), file_text)
    result = re.search(r'record\.headers\["Result"\], record\.game\.winner\)*\s+# (.*)', reading())
    assert result is not None
    record = example()
    assert repr((record.headers["Result"], record.game.winner)) == result.group(1)


def test_the_record_example_runs_as_written(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run where the page says, the clone's top folder (here a copy of what
    it reads): it prints what its comments say and writes a record that
    reads back as the game it played."""
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "example-game.wts", tmp_path / "docs")
    monkeypatch.chdir(tmp_path)
    code = reading()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(POSITIONS), "exec"), {"__name__": "docs_example"})
    comments = re.findall(r"^print\(.*?\)\s+# ([^:\n]*)", code, re.M)
    assert printed.getvalue().splitlines() == comments
    written = wts.record.read(tmp_path / "game.wts")
    assert written.headers["Black"] == "Ann" and written.moves == ((40, 0),)


@pytest.mark.skipif(cairosvg is None, reason="no cairo C library for cairosvg")
def test_the_pictures_are_the_turns_drawn() -> None:
    images = re.findall(r"\(images/example-game-turn-(\d+)\.png\)",
                        POSITIONS.read_text(encoding="utf-8"))
    assert images == re.findall(r"Turn (\d+):", caption())
    size = re.search(rf"`wts\.svg\.board\(game, turn={images[0]}, size=(\d+)\)`", caption())
    assert size is not None
    game = example().game
    for turn in images:
        drawn = cairosvg.svg2png(bytestring=wts.svg.board(
            game, turn=int(turn), size=int(size.group(1))).encode("utf-8"))
        fresh = Image.open(io.BytesIO(drawn)).convert("RGB")
        shown = Image.open(ROOT / "docs" / "images" / f"example-game-turn-{turn}.png")
        assert shown.size == fresh.size
        # Another cairo may smooth edges differently: compare with a tolerance.
        difference = ImageChops.difference(shown.convert("RGB"), fresh).convert("L")
        differing = sum(count for level, count in enumerate(difference.histogram()) if level > 48)
        assert differing < 0.01 * shown.size[0] * shown.size[1], turn
