"""Text for people: what a turn did, how a game stands, and the board with the
last turn and the rows of five marked.

``wts play``, ``wts replay`` and ``wts demo`` print these, and the SVG
pictures' titles use :func:`describe_turn` too, so every place says the same
thing the same way. ``str(game)`` stays the plain board of the engines.

>>> import wts
>>> game = wts.Game.from_setup(black=["H5"], white=["F5", "G5"], eggs=["C3"])
>>> result = game.play("E5", "A1")
>>> print("\\n".join(describe_turn(result, game)))
turn 1: black E5, white A1
  black captures F5 and G5, closed from E5 to H5
  the egg on C3 hatches into a black turtle (wave 1)
>>> print(board(game))
     A  B  C  D  E  F  G  H  I
 9   .  .  .  .  .  .  .  .  .  9
 8   .  .  .  .  .  .  .  .  .  8
 7   .  .  .  .  .  .  .  .  .  7
 6   .  .  .  .  .  .  .  .  .  6
 5   .  .  .  . [X] .  .  X  .  5
 4   .  .  .  .  .  .  .  .  .  4
 3   .  . (X) .  .  .  .  .  .  3
 2   .  .  .  .  .  .  .  .  .  2
 1  [O] .  .  .  .  .  .  .  .  1
     A  B  C  D  E  F  G  H  I
turn 1, ongoing
marks: [ ] played last turn, ( ) hatched last turn
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from wts.engine.pieces import Color, Piece, Status
from wts.engine.squares import BOARD_SIZE, FILE_NAMES, SQUARE_NAMES, SQUARES, Square

if TYPE_CHECKING:
    from wts.engine.api import GameAPI
    from wts.engine.events import TurnResult

__all__ = ["turtles_in_rows", "decided_by", "outcome", "headline", "describe_turn",
           "describe_result", "turns", "board"]

# The marks of the text board, strongest first: a square gets the first that
# applies, but a row's mark is a suffix only (a row across reads "X* X* X*"),
# so a turtle in a row keeps the left half of another mark it has.
_MARKS = (("row", " ", "*", "in a row of five"),
          ("hatched", "(", ")", "hatched last turn"),
          ("played", "[", "]", "played last turn"))


def turtles_in_rows(game: GameAPI, color: Color) -> list[Square]:
    """The squares of ``color``'s turtles standing in a row of five or more, in
    any direction: the rules' "winning turtles", whose numbers decide the game.
    Listed file by file, so a single row reads from one end to the other."""
    return sorted(game.winning_turtles(color), key=lambda sq: (sq % BOARD_SIZE, sq))


_LENGTHS = {5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def _one_row(squares: list[Square]) -> bool:
    """True when ``squares`` (as :func:`turtles_in_rows` orders them) are one
    unbroken straight row."""
    steps = {(b % BOARD_SIZE - a % BOARD_SIZE, b // BOARD_SIZE - a // BOARD_SIZE)
             for a, b in itertools.pairwise(squares)}
    return len(steps) == 1 and steps <= {(1, 0), (0, 1), (1, 1), (1, -1)}


def _rows(squares: list[Square]) -> str:
    names = " ".join(SQUARE_NAMES[sq] for sq in squares)
    if _one_row(squares):
        return f"{_LENGTHS[len(squares)]} in a row at {names}"
    return f"{len(squares)} turtles in rows of five at {names}"


def _count(turtles: int) -> str:
    return "five in a row" if turtles == 5 else f"{turtles} turtles in rows of five"


def decided_by(game: GameAPI) -> str:
    """What decides the game as it stands, naming the turtles in rows of five:
    ``five in a row at C3 D4 E5 F6 G7`` for a win; empty while play is normal."""
    status = game.status
    winner = status.winner
    if winner is not None:
        losing = len(turtles_in_rows(game, winner.opponent))
        return _rows(turtles_in_rows(game, winner)) + (
            f"; {winner.opponent.value} has {_count(losing)}" if losing else "")
    black, _ = game.winning_counts
    if status is Status.SUDDEN_DEATH:
        return f"both have {_count(black)}; play goes on until one has more"
    if status is Status.DRAW:
        full = all(game.piece_at(sq) is not Piece.EMPTY for sq in SQUARES)
        reason = "the board is full" if full else "the last turn number is reached"
        return reason + (f", both with {_count(black)}" if black else "")
    return ""


def outcome(game: GameAPI) -> str:
    """How the game stands, in words: ``white wins: five in a row at C3 D4 E5 F6 G7``."""
    reason = decided_by(game)
    return game.status.words + (f": {reason}" if reason else "")


def turns(count: int) -> str:
    """``1 turn``, ``2 turns``."""
    return f"{count} turn" if count == 1 else f"{count} turns"


def describe_result(game: GameAPI, resigned: Color | None = None) -> str:
    """The last line of a game: who won, after how many turns, and how."""
    if resigned is not None:
        return (f"result: {Status.for_winner(resigned.opponent).words}: {resigned.value} "
                f"resigned after {turns(game.turn)}")
    if not game.is_over():
        return f"result: unfinished after {turns(game.turn)} ({game.status.words})"
    return f"result: {game.status.words} after {turns(game.turn)} ({decided_by(game)})"


def headline(game: GameAPI) -> str:
    """The turn and how the game stands, in a few words, for a caption:
    ``turn 12: white wins with 6 winning turtles``."""
    status = game.status
    winner = status.winner
    if winner is not None:
        count = len(turtles_in_rows(game, winner))
        return f"turn {game.turn}: {status.words} with {count} winning turtles"
    if status is Status.SUDDEN_DEATH:
        count = game.winning_counts[0]
        return f"turn {game.turn}: {status.words}, {count} winning turtles each"
    if status is Status.DRAW:
        return f"turn {game.turn}: {status.words}"
    return f"turn {game.turn}: play goes on"


def describe_turn(result: TurnResult, position: GameAPI,
                  previous: Status | None = None) -> list[str]:
    """Lines saying what a turn did: the moves, then each event as it happened,
    then the status when it changed or is anything but normal play.

    ``position`` is the game just after the turn (it numbers the turn and names
    the turtles of a winning row); ``previous`` the status before it.
    """
    names = SQUARE_NAMES
    lines = [f"turn {position.turn}: black {names[result.black_move]}, "
             f"white {names[result.white_move]}"]
    if result.collision is not None:
        lines.append(f"  collision on {names[result.collision]}: an egg is laid")
    for capture in result.captures:
        wave = f" (hatching wave {capture.round})" if capture.round else ""
        lines.append(
            f"  {capture.color.value} captures {names[capture.squares[0]]} and "
            f"{names[capture.squares[1]]}, closed from {names[capture.closer]} to "
            f"{names[capture.anchor]}{wave}"
        )
    for sq in result.dissolved:
        lines.append(f"  the egg on {names[sq]} dissolves: both captured at once")
    for hatch in result.hatched:
        lines.append(f"  the egg on {names[hatch.square]} hatches into a {hatch.color.value} "
                     f"turtle (wave {hatch.wave})")
    black, _ = result.winning_counts
    if result.status is Status.SUDDEN_DEATH and previous is Status.SUDDEN_DEATH:
        lines.append(f"  sudden death goes on: both still have {_count(black)}")
    elif result.status is Status.SUDDEN_DEATH:
        lines.append(f"  sudden death: both have {_count(black)}; play goes on until one "
                     "has more")
    elif result.status.is_over:
        lines.append(f"  {outcome(position)}")
    elif previous is Status.SUDDEN_DEATH:
        lines.append("  both rows are broken: sudden death is over, normal play again")
    return lines


def board(game: GameAPI) -> str:
    """The board as text, ``X`` black, ``O`` white, eggs numbered by age (1 is
    the oldest, the next to hatch), with the last turn marked: ``[X]`` the
    squares played, ``(X)`` the turtles hatched, ``*X*`` turtles in a row of
    five; then how the game stands and a key to the marks shown."""
    marked: dict[str, set[Square]] = {"row": set(), "hatched": set(), "played": set()}
    history = game.history
    if history:
        last = history[-1]
        marked["played"] = {last.black_move, last.white_move}
        marked["hatched"] = {h.square for h in last.hatched
                             if game.piece_at(h.square) is Piece.turtle(h.color)}
    for color in (Color.BLACK, Color.WHITE):
        marked["row"].update(turtles_in_rows(game, color))
    ages = {sq: age for age, sq in enumerate(game.eggs, start=1)}
    header = "   " + "".join(f"{name:>3}" for name in FILE_NAMES)
    lines = [header]
    used: set[str] = set()
    for rank in reversed(range(BOARD_SIZE)):
        row = list(f"{rank + 1:>2}" + " " * (3 * BOARD_SIZE + 3) + f"{rank + 1}")
        for file in range(BOARD_SIZE):
            sq = rank * BOARD_SIZE + file
            piece = game.piece_at(sq)
            text = {Piece.BLACK: "X", Piece.WHITE: "O", Piece.EMPTY: "."}.get(piece)
            text = text if text is not None else str(ages[sq])
            # The piece's last character sits in its file's column; a two-digit
            # egg reaches one column left, into the space between squares.
            column = 5 + 3 * file
            row[column - len(text) + 1:column + 1] = text
            roles = [mark for mark in _MARKS if sq in marked[mark[0]]]
            if roles:
                # A turtle in a row that was also played or hatched keeps that
                # mark's left half: "[X*" was played last turn and wins.
                left = next((mark[1] for mark in roles if mark[0] != "row"), " ")
                row[column - len(text)] = left
                row[column + 1] = roles[0][2]
                used.update(mark[0] for mark in roles if mark[0] == "row" or mark[1] == left)
        lines.append("".join(row))
    lines.append(header)
    lines.append(f"turn {game.turn}, {outcome(game)}")
    if used:
        lines.append("marks: " + ", ".join(f"{left} {right}".strip() + f" {meaning}"
                                           for role, left, right, meaning in reversed(_MARKS)
                                           if role in used))
    return "\n".join(lines)
