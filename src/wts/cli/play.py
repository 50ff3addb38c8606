"""``wts play``: a game in the terminal.

``play_in_terminal`` runs a game between humans at the keyboard and bots,
printing the board and what happened after every turn; :func:`run` checks
the command's arguments and calls it.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol, TextIO

from wts._interrupts import EXIT_INTERRUPTED
from wts.cli import arguments
from wts.engine import text
from wts.engine.base import GameBase
from wts.engine.game import Game
from wts.engine.pieces import Color, Piece, Status
from wts.engine.squares import SQUARE_NAMES, Square, to_square
from wts.engine.text import describe_result
from wts.errors import (
    GameOverError,
    NotationError,
    NoTurnError,
    ParameterError,
    SquareError,
    WtsError,
)
from wts.formats import record as records
from wts.params import check_float, check_seed
from wts.players import agents
from wts.players.specs import AGENT_NAMES, AgentSpec
from wts.serve.defaults import BOT_LEVEL, PLAYER_COLOR

__all__ = [
    "add_parser",
    "add_arguments",
    "run",
    "describe_result",
    "player_names",
    "default_bot",
    "make_player",
    "play_in_terminal",
    "resumable_record",
    "recorded_players",
    "HUMAN",
]

HUMAN = "human"
#: The longest pause between two bot moves, in seconds.
MAX_DELAY = 3600.0
#: A bot still choosing after this many seconds gets a "thinking" line.
THINKING_AFTER = 0.3


# --- Players ---------------------------------------------------------------------------


class Bot(Protocol):
    def select(self, game: GameBase, color: Color) -> Square: ...


def player_names() -> tuple[str, ...]:
    """What ``--black``/``--white`` accept: human and every bot."""
    return (HUMAN, *AGENT_NAMES)


def default_bot() -> str:
    """The bot that plays the side not named."""
    return "mcts"


def first_game() -> tuple[tuple[str, str], int]:
    """The players and the MCTS level of ``wts play`` with no players named: a
    human against the bot of a game ``wts serve`` makes with no options, on the
    same sides."""
    bot = default_bot()
    players = (HUMAN, bot) if Color(PLAYER_COLOR) is Color.BLACK else (bot, HUMAN)
    return players, BOT_LEVEL


def check_player(spec: str) -> str:
    """``spec`` lower-cased if it names a player, else ValueError with the choices."""
    name = spec.strip().lower()
    if name == HUMAN:
        return name
    if name.startswith("engine:"):  # a program: its command keeps its case
        AgentSpec.parse(spec)
        return spec.strip()
    try:
        AgentSpec.parse(name)
    except ValueError as exc:
        if name.partition(":")[0] in player_names():
            raise  # a bad level: the agents' message says which are good
        raise ParameterError(f"unknown player {spec!r}: expected one of "
                             f"{', '.join(player_names())} (mcts:LEVEL picks a level)") from exc
    return name


def make_player(spec: str, seed: int, level: int | None = None) -> Bot:
    """The bot named ``spec`` (``random``, ``greedy``, ``mcts``, ``mcts:2``)."""
    bot: Bot = agents.make_agent(spec, seed=seed, level=level)
    return bot


def bot_name(spec: str, bot: object) -> str:
    """A bot's name with its level and the spec's options: ``mcts:3``,
    ``mcts:3,reuse=false``, ``engine:CMD``."""
    if spec.strip().lower().startswith("engine:"):
        return spec.strip()
    head, *options = spec.strip().lower().split(",")
    name = head.partition(":")[0].strip()
    level = getattr(bot, "level", None)
    if isinstance(level, int):
        name = f"{name}:{level}"
    return "".join([name, *(f",{option.strip()}" for option in options)])


def bot_label(spec: str, seed: int, bot: object) -> str:
    """How a bot is named in the record's Black and White tags: its name and
    its own seed, ``mcts:3 (seed 7)``."""
    return f"{bot_name(spec, bot)} (seed {seed})"


#: A bot's tag as :func:`bot_label` writes it.
_SEEDED_TAG = re.compile(r"(.+) \(seed ([0-9]{1,20})\)")


def recorded_players(game_record: records.GameRecord) -> tuple[str, str] | None:
    """The players a record's Black and White tags name as ``wts play`` writes
    them (``human``, ``mcts:3 (seed 7)``), or None unless both name one. A
    program (``engine:CMD``) is never taken from a file: it would run any
    command the file holds."""
    specs = []
    for tag in ("Black", "White"):
        value = game_record.headers.get(tag, "").strip()
        seeded = _SEEDED_TAG.fullmatch(value)
        spec = seeded.group(1) if seeded is not None else value
        if spec.lower().startswith("engine:") or (seeded is None and spec != HUMAN):
            return None
        try:
            specs.append(check_player(spec))
        except ValueError:
            return None
    return specs[0], specs[1]


def recorded_seed(game_record: records.GameRecord) -> int | None:
    """The game's seed its Black and White tags name (``mcts:3 (seed 7)``:
    black's bot has the game's seed, white's the next), or None."""
    for offset, tag in enumerate(("Black", "White")):
        seeded = _SEEDED_TAG.fullmatch(game_record.headers.get(tag, "").strip())
        if seeded is not None:
            return (int(seeded.group(2)) - offset) % 2**64
    return None


def resumable_record(file: str) -> records.GameRecord:
    """The record at ``file``, read to go on with its game: :class:`wts.NotationError`
    for a file that is no record, :class:`wts.GameOverError` for a game already
    decided or resigned, ``OSError`` for one that cannot be read."""
    game_record = records.read(file)
    game = game_record.game
    if not (game_record.turns or game_record.headers):
        raise NotationError("it holds no turns and no tags: it is no game record")
    if game.is_over():
        raise GameOverError(f"the game is over after turn {game.turn}: {text.outcome(game)}")
    claimed = Status.from_result(game_record.result)
    if claimed is not None and claimed is not Status.ONGOING:  # ended early: a resignation
        how = (f"{claimed.winner.opponent.value} resigned" if claimed.winner is not None
               else "a draw was agreed")
        raise GameOverError(f"the game is over after turn {game.turn}: {how} "
                            f"(Result {game_record.result})")
    return game_record


class Thinking:
    """A ``black is thinking...`` line on a terminal while a bot takes longer
    than ``after`` seconds to choose, erased once it has; nothing elsewhere,
    so a transcript holds only the game."""

    def __init__(self, color: Color, out: TextIO, after: float = THINKING_AFTER) -> None:
        self._line = f"{color.value} is thinking..."
        self._out = out
        self._lock = threading.Lock()
        self._shown = False
        self._timer: threading.Timer | None = None
        if out.isatty():
            self._timer = threading.Timer(after, self._show)
            self._timer.daemon = True

    def _show(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._out.write(self._line)
                self._out.flush()
                self._shown = True

    def __enter__(self) -> Thinking:
        if self._timer is not None:
            self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        timer = self._timer
        with self._lock:
            self._timer = None  # a timer firing now finds it gone and shows nothing
            if self._shown:
                self._out.write("\r" + " " * len(self._line) + "\r")
                self._out.flush()
        if timer is not None:
            timer.cancel()


# --- Reading a human's move ------------------------------------------------------------


class Quit(Exception):
    """The player typed quit."""


class Undo(Exception):
    """The player typed undo."""


class Resign(Exception):
    """The player typed resign."""

    def __init__(self, color: Color) -> None:
        super().__init__(color)
        self.color = color


HELP = """\
  type a square like E5 (a letter A-I and a digit 1-9), or a command:
  'moves' lists the empty squares, 'board' shows the board, 'rules' the rules
  in short, 'undo' takes back the last turn (both squares), 'resign' gives up,
  'quit' stops without a result"""

RULES = """\
  Both players name an empty square at once. The same square on both sides lays
  an egg there instead (eggs are numbered by age: 1 hatches next).
  A turtle landing so that exactly two enemy pieces (turtles or eggs) lie between
  it and another turtle of its colour, in a line, captures those two; each capture
  hatches the oldest egg into a turtle of the capturer's colour, which can capture
  in turn. Five or more turtles of one colour in a row win; the side with more
  turtles in rows of five wins, and equal rows on both sides are sudden death:
  play goes on until one side has more.
  On the board: X black, O white, [ ] the squares played last turn, ( ) the
  turtles hatched last turn, * a turtle in a row of five.
  The full rules, with every ruling: docs/rules.md in the wts source."""


def _line_editing(stdin: TextIO, out: TextIO) -> bool:
    """True when ``input()`` can read the line with editing (arrow keys,
    history): this process's own terminal on both ends, and readline there."""
    if stdin is not sys.stdin or out is not sys.stdout or not (stdin.isatty() and out.isatty()):
        return False
    try:
        import readline  # noqa: F401  # importing it is what gives input() line editing
    except ImportError:  # Windows: the console edits lines itself
        return False
    return True


def _read_line(prompt: str, hidden: bool, out: TextIO, stdin: TextIO) -> str:
    """One line from ``stdin`` after ``prompt``; not echoed when ``hidden`` and
    ``stdin`` is a terminal, edited with readline when it can be. Raises
    EOFError at the end of input."""
    if not hidden and _line_editing(stdin, out):
        return input(prompt) + "\n"
    out.write(prompt)
    out.flush()
    if hidden and stdin.isatty():
        try:
            import termios
        except ImportError:  # Windows: getpass reads the console without echo
            import getpass

            return getpass.getpass("")
        fd = stdin.fileno()
        saved = termios.tcgetattr(fd)
        quiet = termios.tcgetattr(fd)
        quiet[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSAFLUSH, quiet)
        try:
            line = stdin.readline()
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            out.write("\n")
            out.flush()
    else:
        line = stdin.readline()
        if line and not stdin.isatty():
            # Piped input is not echoed by a terminal: echo it, so the
            # transcript reads like a session (a hidden entry stays hidden).
            out.write("\n" if hidden else line if line.endswith("\n") else line + "\n")
    if not line:
        raise EOFError
    return line


def empty_squares(game: GameBase, width: int | None = None) -> str:
    """The ``moves`` answer: the empty squares, wrapped to ``width`` columns
    (default: the terminal's width)."""
    columns = width if width is not None else shutil.get_terminal_size().columns
    return textwrap.fill(" ".join(SQUARE_NAMES[sq] for sq in game.legal_moves()),
                         width=max(columns - 1, 24), initial_indent="  empty squares: ",
                         subsequent_indent="  ", break_on_hyphens=False)


def ask_move(game: GameBase, color: Color, hidden: bool, out: TextIO, stdin: TextIO) -> Square:
    """A human's square for this turn, asked until it is a legal one.

    With ``hidden``, neither the entry nor an error message names the square.
    """
    prompt = f"{color.value}, your square{' (hidden)' if hidden else ''}: "
    while True:
        entry = _read_line(prompt, hidden, out, stdin).strip()
        word = entry.lower()
        if not word:
            continue
        if word in ("help", "?"):
            print(HELP, file=out)
            continue
        if word == "rules":
            print(RULES, file=out)
            continue
        if word in ("quit", "exit"):
            raise Quit
        if word == "resign":
            raise Resign(color)
        if word == "undo":
            raise Undo
        if word == "board":
            print(text.board(game), file=out)
            continue
        if word in ("moves", "legal"):
            print(empty_squares(game), file=out)
            continue
        try:
            square = to_square(entry)
        except SquareError:
            if hidden:
                print("  that is not a square: type a letter A-I and a digit 1-9, like E5",
                      file=out)
            else:
                print(f"  {entry!r} is not a square: type a letter A-I and a digit 1-9, like E5 "
                      "('help' for more)", file=out)
            continue
        piece = game.piece_at(square)
        if piece is not Piece.EMPTY:
            if hidden:
                print("  that square is not empty: choose an empty one ('moves' lists them)",
                      file=out)
            else:
                what = "an egg" if piece is Piece.EGG else f"a {piece.value} turtle"
                print(f"  {SQUARE_NAMES[square]} holds {what}: choose an empty square "
                      "('moves' lists them)", file=out)
            continue
        return square


# --- wts play --------------------------------------------------------------------------


def take_back(game: GameBase, out: TextIO) -> bool:
    """Undo the last turn, both players' squares, and show the board before it;
    False (and a line saying so) when no turn was played since the start."""
    try:
        last = game.pop()
    except NoTurnError:
        print("  nothing to take back: no turn was played since the start", file=out)
        return False
    print(f"\ntook back turn {game.turn + 1}: black {SQUARE_NAMES[last.black_move]}, "
          f"white {SQUARE_NAMES[last.white_move]}", file=out)
    print(text.board(game), file=out)
    return True


@dataclass
class PlayOutcome:
    """How ``play_in_terminal`` ended: the game, a resignation, and the exit status."""

    game: GameBase
    status: int
    resigned: Color | None = None
    headers: dict[str, str] = field(default_factory=dict)


def play_in_terminal(
    black: str,
    white: str,
    *,
    seed: int,
    level: int | None = None,
    start: GameBase | None = None,
    record: records.GameRecord | None = None,
    save: str | None = None,
    delay: float = 0.0,
    out: TextIO | None = None,
    stdin: TextIO | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> PlayOutcome:
    """Play one game in the terminal; ``black``/``white`` are ``human`` or a bot name.

    ``seed`` is the game's: the bots' seeds are derived from it, ``seed`` for
    black's and ``seed + 1`` for white's, so two bots of one kind do not play
    alike. The game starts from ``start``, or goes on with the game of
    ``record`` (its turns, which undo takes back too, its tags and comments).
    Two humans type their squares hidden, one after the other; a single human
    edits the line on a terminal. The game ends when it is decided, when a
    human types quit or resign, at the end of input, or on Ctrl-C; with
    ``save`` the record is written in every case.
    """
    seed = check_seed(seed)
    delay = check_float(delay, "delay (seconds)", 0.0, MAX_DELAY)
    if start is not None and record is not None:
        raise ParameterError("start and record: give one, not both")
    out = out if out is not None else sys.stdout
    stdin = stdin if stdin is not None else sys.stdin
    if record is not None:
        game = record.game.copy()
    else:
        game = start.copy() if start is not None else Game()
    humans = [spec == HUMAN for spec in (black, white)]
    hidden = all(humans)
    players: list[Bot | None] = []
    names = []
    labels = []
    seeds = (seed, (seed + 1) % 2**64)
    for spec, bot_seed in zip((black, white), seeds):
        if spec == HUMAN:
            players.append(None)
            names.append(HUMAN)
            labels.append(HUMAN)
        else:
            bot = make_player(spec, bot_seed, level)
            players.append(bot)
            names.append(bot_name(spec, bot))
            labels.append(bot_label(spec, bot_seed, bot))

    # The seed named here is the game's; each bot's own, derived from it, follows.
    print(f"What the Shell: black {names[0]} against white {names[1]}"
          + ("" if all(humans) else f" (game seed {seed})"), file=out)
    if not any(humans):
        print(f"bots' seeds: black {seeds[0]} (--seed), white {seeds[1]} (--seed + 1); "
              f"--seed {seed} replays this game", file=out)
    elif not all(humans):
        color, bot_seed, which = ((Color.BLACK, seeds[0], "--seed") if humans[1] else
                                  (Color.WHITE, seeds[1], "--seed + 1"))
        print(f"{color.value}'s bot has seed {bot_seed} ({which}); --seed {seed} makes it "
              "play the same way again", file=out)
    if any(humans):
        print("Both players choose a square at once; type 'help' at the prompt for more.",
              file=out)
    if hidden and not stdin.isatty():
        print("(input is not a terminal: entries cannot be hidden)", file=out)
    headers = {"Date": time.strftime("%Y.%m.%d")}
    comments: dict[int, str] = {}
    # The record's turns still as it has them: its comments hold for those alone.
    kept = 0
    if record is not None:
        print(f"the game goes on after turn {game.turn} of its record", file=out)
        headers.update((name, value) for name, value in record.headers.items()
                       if name not in ("Black", "White", "Result", "SetUp"))
        comments, kept = dict(record.comments), len(record.turns)
    print(text.board(game), file=out)
    outcome = PlayOutcome(game, 0, headers={"Black": labels[0], "White": labels[1], **headers})
    previous = game.status
    try:
        while not game.is_over():
            moves: list[Square] = []
            try:
                for color, player in zip((Color.BLACK, Color.WHITE), players):
                    if player is None:
                        moves.append(ask_move(game, color, hidden, out, stdin))
                        if hidden and color is Color.BLACK:
                            print("  black has chosen.", file=out)
                    else:
                        with Thinking(color, out):
                            moves.append(player.select(game, color))
            except Undo:
                if take_back(game, out):
                    kept = min(kept, len(game.history))
                    previous = game.status
                continue  # the turn again, from its first square
            if delay and not any(humans):
                sleep(delay)
            result = game.play(moves[0], moves[1])
            print("", file=out)
            print("\n".join(text.describe_turn(result, game, previous)), file=out)
            print(text.board(game), file=out)
            previous = result.status
        print(describe_result(game), file=out)
    except Resign as exc:
        outcome.resigned = exc.color
        print(describe_result(game, exc.color), file=out)
    except Quit:
        print(f"game stopped after {text.turns(game.turn)}", file=out)
    except EOFError:
        print(f"\nend of input: game stopped after {text.turns(game.turn)}", file=out)
    except KeyboardInterrupt:
        print(f"\ninterrupted: game stopped after {text.turns(game.turn)}", file=out)
        outcome.status = EXIT_INTERRUPTED
    if outcome.resigned is not None:
        outcome.headers["Result"] = Status.for_winner(outcome.resigned.opponent).result
    for tag, player in zip(("Black", "White"), players):
        name = getattr(player, "engine_name", None)
        if isinstance(name, str) and name:  # an engine program, by the name it declares
            outcome.headers[tag] = f"{name} ({outcome.headers[tag]})"
    if save is not None:
        records.write(game, save, headers=outcome.headers,
                      comments={turn: note for turn, note in comments.items() if turn <= kept})
        print(f"saved the game to {save}", file=out)
    out.flush()
    return outcome


# --- The command line ------------------------------------------------------------------


#: What ``--delay`` takes: seconds, from none to the longest pause.
delay_seconds = arguments.real("a number of seconds", 0.0, MAX_DELAY)


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``play`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "play", help="play a game in the terminal: against a bot, two bots, or two people",
        description="Play What the Shell in the terminal. Each human types a square like E5 "
        "at the prompt (two people at one keyboard type theirs hidden, one after the other); "
        "bots choose at the same time. The board and what happened are shown after every "
        "turn. Type 'help' at the prompt for the other commands, 'undo' to take back the "
        f"last turn. With no players named you play {PLAYER_COLOR} against "
        f"{default_bot()}:{BOT_LEVEL}, the bot of wts serve.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``wts play``."""
    names = ", ".join(player_names())
    parser.add_argument(
        "--black", metavar="PLAYER", default=None,
        help=f"who plays black: {names} (mcts:LEVEL picks a level)",
    )
    parser.add_argument("--white", metavar="PLAYER", default=None,
                        help=f"who plays white (same choices); a side not named is played by "
                             f"{default_bot()}; with neither, a human plays {PLAYER_COLOR} "
                             f"against {default_bot()}:{BOT_LEVEL}")
    parser.add_argument("--level", type=arguments.level, default=None, metavar="N",
                        help="strength of an mcts player, 1-5 (default 3, or "
                             f"{BOT_LEVEL} with no player named)")
    parser.add_argument("--seed", type=arguments.seed, default=None,
                        help="the game's seed, from which the bots' are derived: black's "
                             "bot gets SEED, white's SEED+1 (default: a fresh one, printed)")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="write the game record to FILE when the game ends or stops")
    starts = parser.add_mutually_exclusive_group()
    starts.add_argument("--fen", metavar="POSITION", default=None,
                        help="start from this position string instead of an empty board")
    starts.add_argument("--resume", metavar="FILE", default=None,
                        help="go on with the game of a record (as --save writes it) after its "
                             "last turn; 'undo' takes back its turns too. The players are the "
                             "record's when its tags name them as --save writes them (never an "
                             "engine:CMD) and neither --black nor --white is given")
    parser.add_argument("--delay", type=delay_seconds, default=0.0, metavar="SECONDS",
                        help="seconds to wait between turns when two bots play (default 0)")


def run(args: argparse.Namespace) -> int:
    """``wts play``: check the arguments, then play."""
    parser = args.subparser
    try:
        game_record = None
        if args.resume is not None:
            try:
                game_record = resumable_record(args.resume)
            except OSError as exc:
                parser.error(f"--resume: cannot read {args.resume}: {exc.strerror or exc}")
            except WtsError as exc:
                parser.error(f"--resume: {args.resume}: {exc}")
        level = args.level
        specs: list[str] = []
        if args.black is not None or args.white is not None:
            for option, spec in (("--black", args.black), ("--white", args.white)):
                try:
                    specs.append(check_player(spec) if spec is not None else default_bot())
                except ValueError as exc:
                    parser.error(f"{option}: {exc}")
        elif game_record is not None and (recorded := recorded_players(game_record)):
            specs = list(recorded)
        else:
            first, bot_level = first_game()
            specs = list(first)
            level = bot_level if level is None else level
        start = None
        if args.fen is not None:
            try:
                start = Game.from_fen(args.fen)
            except ValueError as exc:
                parser.error(f"--fen: {exc}")
            if start is not None and start.is_over():
                parser.error("--fen: that position is already decided "
                             f"({text.outcome(start)})")
        if args.save is not None:
            folder = os.path.dirname(os.path.abspath(args.save))
            if os.path.isdir(args.save) or not os.path.isdir(folder) or not os.access(
                    folder, os.W_OK):
                parser.error(f"--save: cannot write a file at {args.save!r}")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    seed = args.seed
    if seed is None and game_record is not None:  # the bots keep the seeds of their tags
        seed = recorded_seed(game_record)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    try:
        outcome = play_in_terminal(specs[0], specs[1], seed=seed, level=level, start=start,
                                   record=game_record, save=args.save, delay=args.delay)
    except BrokenPipeError:
        raise  # the reader went away: main() stops quietly
    except OSError as exc:
        if args.save is None:
            raise
        print(f"wts play: error: cannot write {args.save}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    return outcome.status
