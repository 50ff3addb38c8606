"""Pictures of the board as SVG: :func:`board`.

Pure string building, no dependencies. Black and white turtles on a 9x9
pond, eggs numbered by age (1 = the oldest, the next to hatch), file letters
and rank numbers around the board, and the last turn marked: the squares
played get a yellow background, hatched eggs an apricot one, captured
pieces a red dashed ring and dissolved eggs a grey one; turtles in a row of
five (the ones that win) get a solid blue ring. A legend under the board
names the marks the picture shows, and the title says what the turn did.

>>> import wts
>>> game = wts.Game()
>>> result = game.play("E5", "E5")
>>> picture = wts.svg.board(game, size=300)
>>> picture.startswith("<svg")
True

In a Jupyter notebook a game shows itself this way (``Game._repr_svg_``).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from wts.engine.pieces import Color, Piece, Status
from wts.engine.squares import BOARD_SIZE, FILE_NAMES, NUM_SQUARES, RANK_NAMES, Square
from wts.engine.text import describe_turn, headline, outcome, turtles_in_rows
from wts.params import check_bool, check_float, check_int

if TYPE_CHECKING:
    from wts.engine.api import GameAPI
    from wts.engine.events import TurnResult

__all__ = ["board", "square_center", "COLORS"]

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
    "row": "#1f4fd8",  # solid ring around a turtle in a row of five
    "legend": "#3d5c55",
}
"""The colours of the picture, by role: ``COLORS["black"]`` fills a black
turtle's shell, ``COLORS["board"]`` an empty square."""

#: The largest picture drawn, in pixels.
MAX_SIZE = 100_000.0
_MARGIN_WITH_COORDINATES = 0.6  # in squares, on each side
_MARGIN_WITHOUT = 0.15
_LEGEND_BAND = 0.6  # in squares, under the board and its margin
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# The legend's entries, in the order they are drawn: the role and its words.
_LEGEND = (("played", "last moves"), ("hatched", "hatched"), ("captured", "captured"),
           ("dissolved", "dissolved"), ("row", "five in a row"))


def _margin(coordinates: bool) -> float:
    return _MARGIN_WITH_COORDINATES if coordinates else _MARGIN_WITHOUT


def _layout(size: float, coordinates: bool, legend: bool) -> tuple[float, float, float]:
    """The side of a square, and the x and y of the board's top-left corner.

    With a legend the board is scaled down so the band under it fits in the
    same square picture, and centred across."""
    margin = _margin(coordinates)
    band = _LEGEND_BAND if legend else 0.0
    cell = size / (BOARD_SIZE + 2 * margin + band)
    left = (size - (BOARD_SIZE + 2 * margin) * cell) / 2 + margin * cell
    return cell, left, margin * cell


def square_center(square: Square, *, size: float = 400, coordinates: bool = True,
                  legend: bool = True) -> tuple[float, float]:
    """The (x, y) pixel of a square's centre in a picture of ``size`` pixels
    drawn with these ``coordinates`` and ``legend`` options."""
    cell, left, top = _layout(size, coordinates, legend)
    file, rank = square % BOARD_SIZE, square // BOARD_SIZE
    return left + (file + 0.5) * cell, top + (BOARD_SIZE - 1 - rank + 0.5) * cell


def _xml(text: str) -> str:
    """Text for an element's content: &, < and > escaped, quotes left."""
    return html.escape(text, quote=False)


def _n(value: float) -> str:
    """A coordinate, short: 12.5 -> '12.5', 12.0 -> '12'."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


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
        f'font-family="{_FONT}" font-weight="bold" '
        f'text-anchor="middle" fill="{COLORS["egg_number"]}">{age}</text>',
        "</g>",
    ]


def _ring(cx: float, cy: float, cell: float, role: str, css_class: str | None = None) -> str:
    """A ring of ``role``'s colour on a square of side ``cell``: dashed where a
    piece left, solid and wider, outside the shell, around a turtle in a row
    of five."""
    radius = (0.44 if role == "row" else 0.34) * cell
    dashes = "" if role == "row" else (
        f' stroke-dasharray="{_n(0.12 * cell)} {_n(0.08 * cell)}"')
    return (
        f'<circle class="{css_class or role}" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(radius)}" '
        f'fill="none" stroke="{COLORS[role]}" stroke-width="{_n(0.06 * cell)}"{dashes}/>'
    )


def _legend(roles: set[str], status: str, size: float, cell: float, y: float) -> list[str]:
    """One line under the board: the turn and how the game stands, then each
    mark in ``roles`` named, centred; the text shrinks to fit a small picture."""
    entries = [(role, words) for role, words in _LEGEND if role in roles]
    font = 0.3 * cell
    swatch, gap, space = 0.36 * cell, 0.12 * cell, 0.4 * cell

    def width(font: float) -> float:
        # DejaVu Sans letters average about 0.6 em; a rough width is enough to centre.
        text = sum(0.6 * font * len(words) for _, words in entries)
        return (0.6 * font * len(status) + text + len(entries) * (swatch + gap + space))

    scale = min(1.0, 0.96 * size / width(font))
    font, swatch, gap, space = font * scale, swatch * scale, gap * scale, space * scale
    x = (size - width(font)) / 2
    out = [f'<text class="status" x="{_n(x)}" y="{_n(y + 0.36 * font)}" font-size="{_n(font)}" '
           f'font-family="{_FONT}" font-weight="bold" fill="{COLORS["legend"]}">'
           f'{_xml(status)}</text>']
    x += 0.6 * font * len(status) + space
    if not entries:
        return out
    out.append(f'<g class="legend" font-size="{_n(font)}" font-family="{_FONT}" '
               f'fill="{COLORS["legend"]}">')
    for role, words in entries:
        if role in ("played", "hatched"):
            out.append(f'<rect class="legend-{role}" x="{_n(x)}" y="{_n(y - swatch / 2)}" '
                       f'width="{_n(swatch)}" height="{_n(swatch)}" fill="{COLORS[role]}"/>')
        else:
            out.append(_ring(x + swatch / 2, y, swatch, role, f"legend-{role}"))
        x += swatch + gap
        out.append(f'<text x="{_n(x)}" y="{_n(y + 0.36 * font)}">{_xml(words)}</text>')
        x += 0.6 * font * len(words) + space
    out.append("</g>")
    return out


def _position_at(game: GameAPI, turn: int | None) -> tuple[GameAPI, TurnResult | None, Status]:
    """The game after turn ``turn`` of its history, that turn, and the status before it."""
    history = game.history
    first = game.turn - len(history)
    if turn is not None:
        turn = check_int(turn, "turn", first, game.turn)
    if turn is None or turn == game.turn:
        position = game
    else:
        position = game.root()
        for played in history[: turn - first]:
            position.play(played.black_move, played.white_move)
    played_turns = position.turn - first
    if played_turns == 0:
        return position, None, position.status
    before = history[played_turns - 2].status if played_turns >= 2 else game.root().status
    return position, history[played_turns - 1], before


def _title(game: GameAPI, last: TurnResult | None, previous: Status) -> str:
    """The picture's title: what the last turn did, or how the game stands."""
    if last is None:
        return f"What the Shell, turn {game.turn}, {outcome(game)}"
    return "What the Shell, " + "; ".join(
        line.strip() for line in describe_turn(last, game, previous))


def board(
    game: GameAPI, *, turn: int | None = None, size: float = 400, coordinates: bool = True,
    legend: bool = True,
) -> str:
    """An SVG picture of the board, ``size`` pixels square.

    ``turn`` picks a position of the game's history (as ``game.turn`` counts
    turns; default: the current one); the turn that led there is marked.
    ``coordinates`` adds the file letters and rank numbers around the board;
    ``legend`` a line under it naming the marks shown (the board is drawn a
    little smaller to make room).
    """
    size = check_float(size, "size (pixels)", 0.0, MAX_SIZE, exclude_minimum=True)
    legend = check_bool(legend, "legend")
    position, last, previous = _position_at(game, turn)
    cell, left, top = _layout(size, coordinates, legend)
    margin = _margin(coordinates) * cell
    side = BOARD_SIZE * cell

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(size)}" '
        f'height="{_n(size)}" viewBox="0 0 {_n(size)} {_n(size)}">',
        f"<title>{_xml(_title(position, last, previous))}</title>",
        f'<rect width="{_n(size)}" height="{_n(size)}" fill="{COLORS["background"]}"/>',
        f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(side)}" height="{_n(side)}" '
        f'fill="{COLORS["board"]}"/>',
    ]

    marked: dict[str, set[Square]] = {role: set() for role, _ in _LEGEND}
    if last is not None:
        marked["played"] = {last.black_move, last.white_move}
        marked["hatched"] = {h.square for h in last.hatched}
        marked["captured"] = {sq for c in last.captures for sq in c.squares}
        marked["dissolved"] = set(last.dissolved)
    for color in (Color.BLACK, Color.WHITE):
        marked["row"].update(turtles_in_rows(position, color))

    def center(sq: Square) -> tuple[float, float]:
        return square_center(sq, size=size, coordinates=coordinates, legend=legend)

    for role in ("played", "hatched"):
        for sq in sorted(marked[role]):
            x, y = center(sq)
            out.append(f'<rect class="{role}" x="{_n(x - cell / 2)}" y="{_n(y - cell / 2)}" '
                       f'width="{_n(cell)}" height="{_n(cell)}" fill="{COLORS[role]}"/>')

    lines = []
    for k in range(BOARD_SIZE + 1):
        lines.append(f"M{_n(left)} {_n(top + k * cell)}H{_n(left + side)}")
        lines.append(f"M{_n(left + k * cell)} {_n(top)}V{_n(top + side)}")
    out.append(f'<path d="{"".join(lines)}" stroke="{COLORS["grid"]}" '
               f'stroke-width="{_n(max(1.0, cell / 40))}" fill="none"/>')

    if coordinates:
        font = _n(0.36 * cell)
        style = (f'font-size="{font}" font-family="{_FONT}" '
                 f'text-anchor="middle" fill="{COLORS["coordinates"]}"')
        out.append(f'<g class="coordinates" {style}>')
        for index, letter in enumerate(FILE_NAMES):
            x = left + (index + 0.5) * cell
            for y in (top - margin * 0.5 + 0.13 * cell, top + side + margin * 0.5 + 0.13 * cell):
                out.append(f'<text x="{_n(x)}" y="{_n(y)}">{letter}</text>')
        for index, digit in enumerate(RANK_NAMES):
            y = top + (BOARD_SIZE - 1 - index + 0.5) * cell + 0.13 * cell
            for x in (left - margin * 0.5, left + side + margin * 0.5):
                out.append(f'<text x="{_n(x)}" y="{_n(y)}">{digit}</text>')
        out.append("</g>")

    ages = {sq: age for age, sq in enumerate(position.eggs, start=1)}
    for sq in range(NUM_SQUARES):
        piece = position.piece_at(sq)
        if piece is Piece.EMPTY:
            continue
        cx, cy = center(sq)
        if piece is Piece.EGG:
            out += _egg(cx, cy, cell, ages[sq])
        else:
            out += _turtle(cx, cy, cell, "black" if piece is Piece.BLACK else "white")

    for role in ("captured", "dissolved", "row"):
        for sq in sorted(marked[role]):
            cx, cy = center(sq)
            out.append(_ring(cx, cy, cell, role))
    if legend:
        shown = {role for role, squares in marked.items() if squares}
        out += _legend(shown, headline(position), size, cell,
                       top + side + margin + _LEGEND_BAND * cell / 2)
    out.append("</svg>")
    return "\n".join(out) + "\n"
