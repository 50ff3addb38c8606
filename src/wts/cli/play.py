"""``wts play`` and ``wts replay``: games in the terminal.

``play_in_terminal`` runs a game between humans at the keyboard and bots,
printing the board and what happened after every turn; ``replay_record``
prints (or draws) a saved game record turn by turn. The command line
(:mod:`wts.cli.main`) parses the arguments and calls these.
"""

from __future__ import annotations

import os
import random
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
from wts.errors import ParameterError, SquareError
from wts.formats import record as records
from wts.params import check_float, check_seed
from wts.players import agents
from wts.players.specs import AGENT_NAMES, AgentSpec

__all__ = [
    "describe_result",
    "player_names",
    "default_bot",
    "make_player",
    "play_in_terminal",
    "replay_record",
    "HUMAN",
]

HUMAN = "human"
#: The longest pause between two bot moves, in seconds.
MAX_DELAY = 3600.0
#: A bot still choosing after this many seconds gets a "thinking" line.
THINKING_AFTER = 0.3


def _turns(count: int) -> str:
    return f"{count} turn" if count == 1 else f"{count} turns"


def describe_result(game: GameBase, resigned: Color | None = None) -> str:
    """The last line of a game: who won, after how many turns, and how."""
    if resigned is not None:
        return (f"result: {Status.for_winner(resigned.opponent).words}: {resigned.value} "
                f"resigned after {_turns(game.turn)}")
    if not game.is_over():
        return (f"result: unfinished after {_turns(game.turn)} "
                f"({game.status.words})")
    return (f"result: {game.status.words} after {_turns(game.turn)} "
            f"({text.decided_by(game)})")


# --- Players ---------------------------------------------------------------------------


class Bot(Protocol):
    def select(self, game: GameBase, color: Color) -> Square: ...


def player_names() -> tuple[str, ...]:
    """What ``--black``/``--white`` accept: human and every bot."""
    return (HUMAN, *AGENT_NAMES)


def default_bot() -> str:
    """The bot that plays the side not named."""
    return "mcts"


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


def bot_label(spec: str, seed: int, bot: object) -> str:
    """How a bot is named in the record's Black and White tags: ``mcts:3 (seed 7)``,
    or ``mcts:3,reuse=false (seed 7)`` with the spec's options."""
    if spec.strip().lower().startswith("engine:"):
        return f"{spec.strip()} (seed {seed})"
    head, *options = spec.strip().lower().split(",")
    name = head.partition(":")[0].strip()
    level = getattr(bot, "level", None)
    if isinstance(level, int):
        name = f"{name}:{level}"
    return "".join([name, *(f",{option.strip()}" for option in options)]) + f" (seed {seed})"


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


class Resign(Exception):
    """The player typed resign."""

    def __init__(self, color: Color) -> None:
        super().__init__(color)
        self.color = color


HELP = """\
  type a square like E5 (a letter A-I and a digit 1-9), or a command:
  'moves' lists the empty squares, 'board' shows the board, 'rules' the rules
  in short, 'resign' gives up, 'quit' stops without a result"""

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
    save: str | None = None,
    delay: float = 0.0,
    out: TextIO | None = None,
    stdin: TextIO | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> PlayOutcome:
    """Play one game in the terminal; ``black``/``white`` are ``human`` or a bot name.

    Bots get seeds ``seed`` (black) and ``seed + 1`` (white), so two bots of
    one kind do not play alike. Two humans type their squares hidden, one
    after the other; a single human edits the line on a terminal. The game
    ends when it is decided, when a human types quit or resign, at the end of
    input, or on Ctrl-C; with ``save`` the record is written in every case.
    """
    seed = check_seed(seed)
    delay = check_float(delay, "delay (seconds)", 0.0, MAX_DELAY)
    out = out if out is not None else sys.stdout
    stdin = stdin if stdin is not None else sys.stdin
    game = start.copy() if start is not None else Game()
    humans = [spec == HUMAN for spec in (black, white)]
    hidden = all(humans)
    players: list[Bot | None] = []
    labels = []
    seeds = (seed, (seed + 1) % 2**64)
    for spec, bot_seed in zip((black, white), seeds):
        if spec == HUMAN:
            players.append(None)
            labels.append(HUMAN)
        else:
            bot = make_player(spec, bot_seed, level)
            players.append(bot)
            labels.append(bot_label(spec, bot_seed, bot))

    print(f"What the Shell: black {labels[0]} against white {labels[1]}", file=out)
    # The labels show the bots' seeds; say where they come from, and how to play alike again.
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
    print(text.board(game), file=out)
    outcome = PlayOutcome(game, 0, headers={
        "Black": labels[0], "White": labels[1], "Date": time.strftime("%Y.%m.%d"),
    })
    previous = game.status
    try:
        while not game.is_over():
            moves: list[Square] = []
            for color, player in zip((Color.BLACK, Color.WHITE), players):
                if player is None:
                    moves.append(ask_move(game, color, hidden, out, stdin))
                    if hidden and color is Color.BLACK:
                        print("  black has chosen.", file=out)
                else:
                    with Thinking(color, out):
                        moves.append(player.select(game, color))
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
        print(f"game stopped after {_turns(game.turn)}", file=out)
    except EOFError:
        print(f"\nend of input: game stopped after {_turns(game.turn)}", file=out)
    except KeyboardInterrupt:
        print(f"\ninterrupted: game stopped after {_turns(game.turn)}", file=out)
        outcome.status = EXIT_INTERRUPTED
    if outcome.resigned is not None:
        outcome.headers["Result"] = Status.for_winner(outcome.resigned.opponent).result
    if save is not None:
        records.write(game, save, headers=outcome.headers)
        print(f"saved the game to {save}", file=out)
    out.flush()
    return outcome


# --- wts replay ------------------------------------------------------------------------


def replay_record(
    game_record: records.GameRecord,
    *,
    turn: int | None = None,
    out: TextIO,
) -> None:
    """Print a record: its tags, the start, then every turn's events and board.

    With ``turn``, only the position after that turn (as ``Game.turn`` counts).
    """
    start = game_record.start

    def comments(index: int) -> None:
        comment = game_record.comments.get(index)
        if comment:
            for line in comment.split("\n"):
                print(f"  ; {line}", file=out)

    if turn is None:
        for name, value in game_record.headers.items():
            print(f"{name + ':':<8} {value}", file=out)
        comments(0)
        print("", file=out)
        print(f"start (turn {start.turn})", file=out)
        print(text.board(start), file=out)
    game = start.copy()
    previous = game.status
    for played in game_record.turns:
        if turn is not None and game.turn >= turn:
            break
        result = game.play(played.black_move, played.white_move)
        index = game.turn - start.turn
        if turn is None:
            print("", file=out)
            print("\n".join(text.describe_turn(result, game, previous)), file=out)
            comments(index)
            print(text.board(game), file=out)
        elif game.turn == turn:
            print("\n".join(text.describe_turn(result, game, previous)), file=out)
            comments(index)
        previous = result.status
    if turn is not None:
        if turn == start.turn:
            print(f"start (turn {start.turn})", file=out)
        print(text.board(game), file=out)
        return
    print("", file=out)
    if not game_record.turns:
        print("the record holds no turns", file=out)
    resigned = None
    claimed = Status.from_result(game_record.headers.get("Result", "*"))
    if not game.is_over() and claimed is not None and claimed.winner is not None:
        resigned = claimed.winner.opponent
    print(describe_result(game, resigned), file=out)


def write_pictures(
    game_record: records.GameRecord,
    directory: str,
    *,
    turn: int | None = None,
    size: int = 400,
    progress: bool = False,
) -> list[str]:
    """One SVG picture per position of a record (``turn-NNN.svg``), or only the
    one after ``turn``; returns the paths written."""
    from wts.engine import svg

    os.makedirs(directory, exist_ok=True)
    game = game_record.game
    first, last = game_record.start.turn, game.turn
    turns = range(first, last + 1) if turn is None else range(turn, turn + 1)
    width = max(3, len(str(last)))
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(turns), unit="picture", file=sys.stderr, leave=False)
    paths = []
    try:
        for number in turns:
            path = os.path.join(directory, f"turn-{number:0{width}d}.svg")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(svg.board(game, turn=number, size=size))
            paths.append(path)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return paths


# --- The command line ------------------------------------------------------------------


#: What ``--delay`` takes: seconds, from none to the longest pause.
delay_seconds = arguments.real("a number of seconds", 0.0, MAX_DELAY)


def add_play_arguments(parser: Any) -> None:
    """The options of ``wts play``."""
    names = ", ".join(player_names())
    parser.add_argument(
        "--black", metavar="PLAYER", default=None,
        help=f"who plays black: {names} (mcts:LEVEL picks a level)",
    )
    parser.add_argument("--white", metavar="PLAYER", default=None,
                        help=f"who plays white (same choices); a side not named is played by "
                             f"{default_bot()}")
    parser.add_argument("--level", type=arguments.level, default=None, metavar="N",
                        help="strength of an mcts player, 1-5 (default 3)")
    parser.add_argument("--seed", type=arguments.seed, default=None,
                        help="seed of the bots (black gets SEED, white SEED+1; "
                             "default: a fresh one, printed)")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="write the game record to FILE when the game ends or stops")
    parser.add_argument("--fen", metavar="POSITION", default=None,
                        help="start from this position string instead of an empty board")
    parser.add_argument("--delay", type=delay_seconds, default=0.0, metavar="SECONDS",
                        help="seconds to wait between turns when two bots play (default 0)")


def run_play(args: Any) -> int:
    """``wts play``: check the arguments, then play."""
    parser = args.subparser
    try:
        if args.black is None and args.white is None:
            parser.error(
                "say who plays with --black and/or --white "
                f"({', '.join(player_names())}); the side not named is played by "
                f"{default_bot()}, e.g. wts play --black human"
            )
        specs = []
        for option, spec in (("--black", args.black), ("--white", args.white)):
            try:
                specs.append(check_player(spec) if spec is not None else default_bot())
            except ValueError as exc:
                parser.error(f"{option}: {exc}")
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
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    try:
        outcome = play_in_terminal(specs[0], specs[1], seed=seed, level=args.level,
                                   start=start, save=args.save, delay=args.delay)
    except BrokenPipeError:
        raise  # the reader went away: main() stops quietly
    except OSError as exc:
        if args.save is None:
            raise
        print(f"wts play: error: cannot write {args.save}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    return outcome.status


def add_replay_arguments(parser: Any) -> None:
    """The options of ``wts replay``."""
    parser.add_argument("file", metavar="FILE",
                        help="a game record (as written by wts play --save); - reads stdin")
    parser.add_argument("--turn", type=arguments.turn, default=None,
                        help="show only the position after turn N (0: the start)")
    parser.add_argument("--svg", metavar="DIR", default=None,
                        help="write one SVG picture per turn (turn-NNN.svg) to DIR instead "
                             "of printing")
    parser.add_argument("--size", type=arguments.pixels, default=400,
                        help="size of the pictures in pixels (default 400)")
    parser.add_argument("--progress", action="store_true", default=None,
                        help="show a progress bar while writing pictures "
                             "(default: on a terminal, for 50 or more)")


def run_replay(args: Any, out: TextIO | None = None) -> int:
    """``wts replay``: read the record, then print or draw it."""
    out = out if out is not None else sys.stdout
    name = "standard input" if args.file == "-" else args.file
    try:
        source: Any = sys.stdin if args.file == "-" else args.file
        game_record = records.read(source)
    except OSError as exc:
        print(f"wts replay: error: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except ValueError as exc:  # NotationError, and a bad SetUp
        print(f"wts replay: error: {name}: {exc}", file=sys.stderr)
        return 2
    if not (game_record.turns or game_record.headers):
        print(f"wts replay: error: {name} holds no turns and no tags: it is no game record",
              file=sys.stderr)
        return 2
    first, last = game_record.start.turn, game_record.game.turn
    if args.turn is not None and not first <= args.turn <= last:
        print(f"wts replay: error: --turn {args.turn}: the record has turns {first} to {last}",
              file=sys.stderr)
        return 2
    if args.svg is not None:
        count = 1 if args.turn is not None else last - first + 1
        progress = args.progress if args.progress is not None else (
            sys.stderr.isatty() and count >= 50)
        try:
            paths = write_pictures(game_record, args.svg, turn=args.turn, size=args.size,
                                   progress=progress)
        except OSError as exc:
            print(f"wts replay: error: cannot write to {args.svg}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
        print(f"wrote {len(paths)} picture{'s' if len(paths) != 1 else ''} to {args.svg}",
              file=out)
        return 0
    replay_record(game_record, turn=args.turn, out=out)
    return 0
