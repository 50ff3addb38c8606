"""``wts replay``: a saved game record turn by turn, or as SVG pictures."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from wts.cli import arguments
from wts.engine import text
from wts.engine.pieces import Status
from wts.engine.text import describe_result
from wts.formats import record as records

__all__ = ["add_parser", "add_arguments", "run", "replay_record", "write_pictures"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``replay`` to the ``wts`` subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay", help="show a saved game record turn by turn, or draw it as SVG pictures",
        description="Read a game record, check every turn, and print the board and what "
        "happened after each turn (or only after --turn N), or write one SVG picture per "
        "turn with --svg DIR.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)
    return parser


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


def add_arguments(parser: argparse.ArgumentParser) -> None:
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


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
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
