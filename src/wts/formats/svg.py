"""Pictures of the board as SVG: :func:`board`.

Pure string building, no dependencies. Black and white turtles on a 9x9
pond, eggs numbered by age (1 = the oldest, the next to hatch), file letters
and rank numbers around the board, and the last turn marked: the squares
played get a yellow background, hatched eggs an apricot one, captured
pieces a red dashed ring and dissolved eggs a grey one.

>>> import wts
>>> game = wts.Game()
>>> result = game.play("E5", "E5")
>>> picture = wts.svg.board(game, size=300)
>>> picture.startswith("<svg")
True

In a Jupyter notebook a game shows itself this way (``Game._repr_svg_``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from wts.engine.pieces import Piece
from wts.engine.squares import BOARD_SIZE, FILE_NAMES, NUM_SQUARES, RANK_NAMES, SQUARE_NAMES, Square
from wts.params import check_float, check_int

if TYPE_CHECKING:
    from wts.engine.base import GameBase
    from wts.engine.events import TurnResult

__all__ = ["board", "square_center", "COLORS", "describe"]

COLORS = {
    "background": "#f7f3ea",  # around the board
    "board": "#9fd3c7",  # an empty square
    "grid": "#5f9e90",
    "coordinates": "#3d5c55",
    "black": "#1f1f1f",  # a black turtle's shell
    "black_detail": "#5a5a5a",
    "white": "#fafafa",  # a white turtle's shell
    "white_detail": "#9a9a9a",
    "outline": "#2b2b2b",
    "egg": "#f1dca0",
    "egg_outline": "#9c8146",
    "egg_number": "#5c4414",
    "played": "#f7e07e",  # squares named in the last turn
    "hatched": "#f5b66a",  # eggs hatched in the last turn
    "captured": "#d63c3c",  # ring where a piece was captured
    "dissolved": "#7a7a7a",  # ring where an egg dissolved
}
"""The colours of the picture, by role: ``COLORS["black"]`` fills a black
turtle's shell, ``COLORS["board"]`` an empty square."""

#: The largest picture drawn, in pixels.
MAX_SIZE = 100_000.0
_MARGIN_WITH_COORDINATES = 0.6  # in squares, on each side
_MARGIN_WITHOUT = 0.15


def _margin(coordinates: bool) -> float:
    return _MARGIN_WITH_COORDINATES if coordinates else _MARGIN_WITHOUT


def _cell(size: float, coordinates: bool) -> float:
    return size / (BOARD_SIZE + 2 * _margin(coordinates))


def square_center(square: Square, *, size: float = 400, coordinates: bool = True) -> tuple[
    float, float
]:
    """The (x, y) pixel of a square's centre in a picture of ``size`` pixels."""
    cell = _cell(size, coordinates)
    margin = _margin(coordinates) * cell
    file, rank = square % BOARD_SIZE, square // BOARD_SIZE
    return margin + (file + 0.5) * cell, margin + (BOARD_SIZE - 1 - rank + 0.5) * cell


def _n(value: float) -> str:
    """A coordinate, short: 12.5 -> '12.5', 12.0 -> '12'."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def describe(result: TurnResult) -> str:
    """One line of text about a turn, for the picture's title."""
    names = SQUARE_NAMES
    parts = [f"black {names[result.black_move]}, white {names[result.white_move]}"]
    if result.collision is not None:
        parts.append(f"collision on {names[result.collision]}, an egg is laid")
    for capture in result.captures:
        parts.append(f"{capture.color.value} captures "
                     f"{' and '.join(names[s] for s in capture.squares)}")
    for sq in result.dissolved:
        parts.append(f"the egg on {names[sq]} dissolves")
    for hatch in result.hatched:
        parts.append(f"the egg on {names[hatch.square]} hatches {hatch.color.value}")
    return "; ".join(parts)


def _turtle(cx: float, cy: float, cell: float, color: str) -> list[str]:
    shell, detail = COLORS[color], COLORS[f"{color}_detail"]
    outline = COLORS["outline"]
    s = cell
    limbs = [
        # head, then four legs and a tail, all outside the shell's middle
        f'<circle cx="{_n(cx)}" cy="{_n(cy - 0.36 * s)}" r="{_n(0.1 * s)}"/>',
        f'<ellipse cx="{_n(cx - 0.28 * s)}" cy="{_n(cy - 0.2 * s)}" rx="{_n(0.09 * s)}" '
        f'ry="{_n(0.07 * s)}"/>',
        f'<ellipse cx="{_n(cx + 0.28 * s)}" cy="{_n(cy - 0.2 * s)}" rx="{_n(0.09 * s)}" '
        f'ry="{_n(0.07 * s)}"/>',
        f'<ellipse cx="{_n(cx - 0.28 * s)}" cy="{_n(cy + 0.22 * s)}" rx="{_n(0.09 * s)}" '
        f'ry="{_n(0.07 * s)}"/>',
        f'<ellipse cx="{_n(cx + 0.28 * s)}" cy="{_n(cy + 0.22 * s)}" rx="{_n(0.09 * s)}" '
        f'ry="{_n(0.07 * s)}"/>',
        f'<circle cx="{_n(cx)}" cy="{_n(cy + 0.37 * s)}" r="{_n(0.05 * s)}"/>',
    ]
    hexagon = " ".join(
        f"{_n(cx + 0.13 * s * dx)},{_n(cy + 0.13 * s * dy)}"
        for dx, dy in ((0, -1), (0.87, -0.5), (0.87, 0.5), (0, 1), (-0.87, 0.5), (-0.87, -0.5))
    )
    spokes = " ".join(
        f"M{_n(cx + 0.13 * s * dx)} {_n(cy + 0.13 * s * dy)}L{_n(cx + 0.27 * s * dx)} "
        f"{_n(cy + 0.3 * s * dy)}"
        for dx, dy in ((0, -1), (0.87, -0.5), (0.87, 0.5), (0, 1), (-0.87, 0.5), (-0.87, -0.5))
    )
    width = _n(0.03 * s)
    return [
        f'<g class="turtle {color}" fill="{shell}" stroke="{outline}" stroke-width="{width}">',
        *limbs,
        f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(0.29 * s)}" ry="{_n(0.32 * s)}"/>',
        f'<polygon points="{hexagon}" fill="none" stroke="{detail}"/>',
        f'<path d="{spokes}" fill="none" stroke="{detail}"/>',
        "</g>",
    ]


def _egg(cx: float, cy: float, cell: float, age: int) -> list[str]:
    s = cell
    return [
        '<g class="egg">',
        f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(0.27 * s)}" ry="{_n(0.35 * s)}" '
        f'fill="{COLORS["egg"]}" stroke="{COLORS["egg_outline"]}" stroke-width="{_n(0.03 * s)}"/>',
        # The number sits in the lower half, clear of the egg's centre.
        f'<text x="{_n(cx)}" y="{_n(cy + 0.3 * s)}" font-size="{_n(0.3 * s)}" '
        f'font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-weight="bold" '
        f'text-anchor="middle" fill="{COLORS["egg_number"]}">{age}</text>',
        "</g>",
    ]


def _ring(cx: float, cy: float, cell: float, role: str) -> str:
    s = cell
    return (
        f'<circle class="{role}" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(0.34 * s)}" fill="none" '
        f'stroke="{COLORS[role]}" stroke-width="{_n(0.06 * s)}" '
        f'stroke-dasharray="{_n(0.12 * s)} {_n(0.08 * s)}"/>'
    )


def _position_at(game: GameBase, turn: int | None) -> tuple[GameBase, TurnResult | None]:
    """The game after turn ``turn`` of its history, and that turn."""
    history = game.history
    if turn is None:
        return game, history[-1] if history else None
    first = game.turn - len(history)
    turn = check_int(turn, "turn", first, game.turn)
    if turn == game.turn:
        return game, history[-1] if history else None
    position = game.root()
    for played in history[: turn - first]:
        position.play(played.black_move, played.white_move)
    return position, history[turn - first - 1] if turn > first else None


def board(
    game: GameBase, *, turn: int | None = None, size: float = 400, coordinates: bool = True
) -> str:
    """An SVG picture of the board, ``size`` pixels square.

    ``turn`` picks a position of the game's history (as ``game.turn`` counts
    turns; default: the current one); the turn that led there is marked.
    ``coordinates`` adds the file letters and rank numbers around the board.
    """
    size = check_float(size, "size (pixels)", 0.0, MAX_SIZE, exclude_minimum=True)
    position, last = _position_at(game, turn)
    cell = _cell(size, coordinates)
    margin = _margin(coordinates) * cell
    side = BOARD_SIZE * cell

    title = f"What the Shell, turn {position.turn}, {position.status.value}"
    if last is not None:
        title += f": {describe(last)}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(size)}" '
        f'height="{_n(size)}" viewBox="0 0 {_n(size)} {_n(size)}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{_n(size)}" height="{_n(size)}" fill="{COLORS["background"]}"/>',
        f'<rect x="{_n(margin)}" y="{_n(margin)}" width="{_n(side)}" height="{_n(side)}" '
        f'fill="{COLORS["board"]}"/>',
    ]

    played: set[Square] = set()
    hatched: set[Square] = set()
    captured: set[Square] = set()
    dissolved: set[Square] = set()
    if last is not None:
        played = {last.black_move, last.white_move}
        hatched = {h.square for h in last.hatched}
        captured = {sq for c in last.captures for sq in c.squares}
        dissolved = set(last.dissolved)

    def corner(sq: Square) -> tuple[float, float]:
        x, y = square_center(sq, size=size, coordinates=coordinates)
        return x - cell / 2, y - cell / 2

    for squares, role in ((played, "played"), (hatched, "hatched")):
        for sq in sorted(squares):
            x, y = corner(sq)
            out.append(f'<rect class="{role}" x="{_n(x)}" y="{_n(y)}" width="{_n(cell)}" '
                       f'height="{_n(cell)}" fill="{COLORS[role]}"/>')

    lines = []
    for k in range(BOARD_SIZE + 1):
        offset = margin + k * cell
        lines.append(f"M{_n(margin)} {_n(offset)}H{_n(margin + side)}")
        lines.append(f"M{_n(offset)} {_n(margin)}V{_n(margin + side)}")
    out.append(f'<path d="{"".join(lines)}" stroke="{COLORS["grid"]}" '
               f'stroke-width="{_n(max(1.0, cell / 40))}" fill="none"/>')

    if coordinates:
        font = _n(0.36 * cell)
        style = (f'font-size="{font}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" '
                 f'text-anchor="middle" fill="{COLORS["coordinates"]}"')
        out.append(f'<g class="coordinates" {style}>')
        for index, letter in enumerate(FILE_NAMES):
            x = margin + (index + 0.5) * cell
            for y in (margin * 0.5 + 0.13 * cell, margin + side + margin * 0.5 + 0.13 * cell):
                out.append(f'<text x="{_n(x)}" y="{_n(y)}">{letter}</text>')
        for index, digit in enumerate(RANK_NAMES):
            y = margin + (BOARD_SIZE - 1 - index + 0.5) * cell + 0.13 * cell
            for x in (margin * 0.5, margin + side + margin * 0.5):
                out.append(f'<text x="{_n(x)}" y="{_n(y)}">{digit}</text>')
        out.append("</g>")

    ages = {sq: age for age, sq in enumerate(position.eggs, start=1)}
    for sq in range(NUM_SQUARES):
        piece = position.piece_at(sq)
        if piece is Piece.EMPTY:
            continue
        cx, cy = square_center(sq, size=size, coordinates=coordinates)
        if piece is Piece.EGG:
            out += _egg(cx, cy, cell, ages[sq])
        else:
            out += _turtle(cx, cy, cell, "black" if piece is Piece.BLACK else "white")

    for squares, role in ((captured, "captured"), (dissolved, "dissolved")):
        for sq in sorted(squares):
            cx, cy = square_center(sq, size=size, coordinates=coordinates)
            out.append(_ring(cx, cy, cell, role))
    out.append("</svg>")
    return "\n".join(out) + "\n"
