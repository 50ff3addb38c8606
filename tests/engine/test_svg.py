"""Pictures of the board (:mod:`wts.svg`): valid XML, the right pieces and marks,
and rendered by a real SVG renderer (cairosvg) to pixels whose colours at the
square centres match the position."""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

import wts
from tests.support.games import names, random_game
from wts import parse_square, svg
from wts.engine.pieces import Piece
from wts.engine.squares import SQUARE_NAMES

RENDERER_MISSING = ""
try:
    import cairosvg  # the test extra installs it and pillow
except OSError as error:  # cairosvg is installed, the cairo C library is not
    if os.environ.get("WTS_REQUIRE_RENDERER") == "1":  # set by .ci/run: never skip there
        raise
    cairosvg = None
    RENDERER_MISSING = str(error)
needs_renderer = pytest.mark.skipif(
    cairosvg is None, reason=f"no cairo C library for cairosvg: {RENDERER_MISSING}")

NS = "{http://www.w3.org/2000/svg}"



def big_turn(Game):
    """The rulebook's big turn: two black captures and a white one, a dissolve, a hatch."""
    game = Game.from_setup(black=names("H5 E8 B5 B6"), white=names("F5 G5 E6 E7 B7"),
                           eggs=names("C1 A9 I9"))
    game.play("E5", "B4")
    return game



def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    return root


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def rgb(hex_color: str) -> tuple[int, int, int]:
    return int(hex_color[1:3], 16), int(hex_color[3:5], 16), int(hex_color[5:7], 16)


def render(picture: str) -> Image.Image:
    png = cairosvg.svg2png(bytestring=picture.encode("utf-8"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 10) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


# --- The SVG text -----------------------------------------------------------------------


def test_valid_xml_with_size_and_view_box(Game) -> None:
    root = parse(svg.board(big_turn(Game), size=360))
    assert root.get("width") == "360" and root.get("height") == "360"
    assert root.get("viewBox") == "0 0 360 360"
    assert "turn 1" in root.find(f"{NS}title").text


def test_pieces_are_drawn_where_they_stand(Game) -> None:
    game = big_turn(Game)
    root = parse(svg.board(game))
    assert len(by_class(root, "black")) == len(game.black) == 4
    assert len(by_class(root, "white")) == len(game.white) == 2
    eggs = by_class(root, "egg")
    assert len(eggs) == 1 and eggs[0].find(f"{NS}text").text == "1"


def test_eggs_are_numbered_by_age(Game) -> None:
    game = Game()
    for sq in ("I9", "A1", "E5"):
        game.play(sq, sq)
    root = parse(svg.board(game, coordinates=False))
    numbers = {}
    for egg in by_class(root, "egg"):
        ellipse = egg.find(f"{NS}ellipse")
        numbers[(float(ellipse.get("cx")), float(ellipse.get("cy")))] = egg.find(f"{NS}text").text
    for age, sq in enumerate(game.eggs, start=1):
        x, y = svg.square_center(sq, coordinates=False)
        assert numbers[(round(x, 2), round(y, 2))] == str(age)


def test_the_last_turn_is_marked(Game) -> None:
    game = big_turn(Game)
    root = parse(svg.board(game))

    def squares(name: str) -> set[str]:
        found = set()
        for element in by_class(root, name):
            if element.tag == f"{NS}rect":
                x = float(element.get("x")) + float(element.get("width")) / 2
                y = float(element.get("y")) + float(element.get("height")) / 2
            else:
                x, y = float(element.get("cx")), float(element.get("cy"))
            found.add(nearest_square(x, y))
        return found

    assert squares("played") == {"E5", "B4"}
    assert squares("captured") == {"F5", "G5", "E6", "E7", "B5", "B6"}
    assert squares("dissolved") == {"C1"}
    assert squares("hatched") == {"A9"}
    assert "black captures F5 and G5" in root.find(f"{NS}title").text


def nearest_square(x: float, y: float, size: float = 400, coordinates: bool = True) -> str:
    best = min(range(81), key=lambda sq: (svg.square_center(sq, size=size,
                                                            coordinates=coordinates)[0] - x) ** 2
               + (svg.square_center(sq, size=size, coordinates=coordinates)[1] - y) ** 2)
    return SQUARE_NAMES[best]


def test_no_marks_without_a_turn(Game) -> None:
    root = parse(svg.board(Game.from_setup(black=names("A1"), eggs=names("E5"))))
    for name in ("played", "captured", "hatched", "dissolved"):
        assert by_class(root, name) == []


def test_coordinates_are_optional(Game) -> None:
    game = Game()  # without the legend line, which has text of its own
    with_labels = parse(svg.board(game, legend=False))
    texts = sorted(t.text for t in with_labels.iter(f"{NS}text"))
    assert texts == sorted(list("ABCDEFGHI") * 2 + list("123456789") * 2)
    without = parse(svg.board(game, coordinates=False, legend=False))
    assert list(without.iter(f"{NS}text")) == []


def test_turn_picks_a_position_of_the_history(Game) -> None:
    start = Game.from_setup(black=names("H5"), white=names("F5 G5"), eggs=names("C3"), turn=3)
    game = start.copy()
    game.play("E5", "A1")
    game.play("I9", "I9")
    assert svg.board(game, turn=3) == svg.board(start)
    assert svg.board(game, turn=5) == svg.board(game)
    after_capture = start.copy()
    after_capture.play("E5", "A1")
    assert svg.board(game, turn=4) == svg.board(after_capture)
    for bad in (2, 6):
        with pytest.raises(wts.ParameterError, match="turn must be from 3 to 5"):
            svg.board(game, turn=bad)
    for bad in ("4", None.__class__, 4.0):
        with pytest.raises(wts.ParameterTypeError, match="turn must be an int"):
            svg.board(game, turn=bad)


@pytest.mark.parametrize("size", [0, -5, "big", True, float("nan"), float("inf"), 1e9])
def test_size_must_be_a_positive_finite_number(Game, size) -> None:
    with pytest.raises(wts.ParameterError, match="size"):
        svg.board(Game(), size=size)


def test_notebooks_show_the_picture(Game) -> None:
    game = big_turn(Game)
    assert game._repr_svg_() == svg.board(game)


def test_both_engines_draw_the_same_picture() -> None:
    assert svg.board(big_turn(wts.Game)) == svg.board(big_turn(wts.reference.Game))


# --- Rendered by cairosvg ---------------------------------------------------------------


def expected_color(game, sq: int, played: set[int]) -> tuple[int, int, int]:
    piece = game.piece_at(sq)
    if piece is Piece.BLACK:
        return rgb(svg.COLORS["black"])
    if piece is Piece.WHITE:
        return rgb(svg.COLORS["white"])
    if piece is Piece.EGG:
        return rgb(svg.COLORS["egg"])
    return rgb(svg.COLORS["played" if sq in played else "board"])


def check_pixels(game, picture_game, size: int, coordinates: bool) -> None:
    history = game.history
    played = {history[-1].black_move, history[-1].white_move} if history else set()
    image = render(svg.board(picture_game, size=size, coordinates=coordinates))
    assert image.size == (size, size)
    for sq in range(81):
        x, y = svg.square_center(sq, size=size, coordinates=coordinates)
        pixel = image.getpixel((int(x), int(y)))
        expected = expected_color(game, sq, played)
        assert close(pixel, expected), (SQUARE_NAMES[sq], game.piece_at(sq), pixel, expected)


def test_the_colours_are_told_apart() -> None:
    roles = ["black", "white", "egg", "board", "played"]
    for i, a in enumerate(roles):
        for b in roles[i + 1:]:
            assert not close(rgb(svg.COLORS[a]), rgb(svg.COLORS[b]), 30), (a, b)


@needs_renderer
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rendered_pixels_match_the_position(Game, seed: int) -> None:
    game = random_game(Game, seed, 200)
    check_pixels(game, game, 400, True)


@needs_renderer
def test_rendered_pixels_match_the_big_turn_small_and_without_coordinates(Game) -> None:
    game = big_turn(Game)
    check_pixels(game, game, 240, False)
    check_pixels(game, game, 400, True)


@needs_renderer
def test_rendered_pixels_at_every_turn_of_a_game(Game) -> None:
    game = random_game(Game, 7, turns=30)
    position = game.root()
    for number in range(0, game.turn + 1, 5):
        while position.turn < number:
            played = game.history[position.turn]
            position.play(played.black_move, played.white_move)
        image = render(svg.board(game, turn=number, size=300))
        last = position.history[-1] if position.history else None
        moves = {last.black_move, last.white_move} if last else set()
        for sq in range(81):
            x, y = svg.square_center(sq, size=300)
            assert close(image.getpixel((int(x), int(y))), expected_color(position, sq, moves))


# --- Rows of five, the legend and the title ----------------------------------------------


def won(Game):
    """White completes C3-G7 with E5; black's A2 is the other move."""
    game = Game.from_setup(black=names("A1 B1 C1 D1"), white=names("C3 D4 F6 G7"),
                           eggs=names("I9"))
    game.play("A2", "E5")
    return game


def ringed(root: ET.Element, name: str, **layout: object) -> set[str]:
    return {nearest_square(float(e.get("cx")), float(e.get("cy")), **layout)
            for e in by_class(root, name)}


def test_the_winning_row_is_ringed_and_the_title_says_who_won(Game) -> None:
    root = parse(svg.board(won(Game)))
    assert ringed(root, "row") == {"C3", "D4", "E5", "F6", "G7"}
    title = root.find(f"{NS}title").text
    assert title == ("What the Shell, turn 1: black A2, white E5; "
                     "white wins: five in a row at C3 D4 E5 F6 G7")
    # The same words when the picture is of a position, not a turn.
    start = Game.from_setup(black=names("A1 B1 C1 D1 E1"))
    assert parse(svg.board(start)).find(f"{NS}title").text == (
        "What the Shell, turn 0, black wins: five in a row at A1 B1 C1 D1 E1")


def test_both_rows_of_sudden_death_are_ringed(Game) -> None:
    game = Game.from_setup(black=names("A1 B1 C1 D1 E1"), white=names("A9 B8 C7 D6 E5"))
    root = parse(svg.board(game, coordinates=False))
    assert ringed(root, "row", coordinates=False) == {"A1", "B1", "C1", "D1", "E1",
                                                      "A9", "B8", "C7", "D6", "E5"}


def legend_words(root: ET.Element) -> list[str]:
    return [t.text for group in by_class(root, "legend") for t in group.iter(f"{NS}text")]


def test_the_legend_names_the_marks_shown_in_order(Game) -> None:
    assert legend_words(parse(svg.board(big_turn(Game)))) == [
        "last moves", "hatched", "captured", "dissolved"]
    assert legend_words(parse(svg.board(won(Game), size=120))) == ["last moves", "five in a row"]
    assert by_class(parse(svg.board(Game())), "legend") == []
    assert by_class(parse(svg.board(big_turn(Game), legend=False)), "legend") == []


def status_line(root: ET.Element) -> str:
    (element,) = by_class(root, "status")
    return element.text


def test_the_line_under_the_board_names_the_turn_and_who_won(Game) -> None:
    assert status_line(parse(svg.board(won(Game)))) == "turn 1: white wins with 5 winning turtles"
    assert status_line(parse(svg.board(Game()))) == "turn 0: play goes on"
    sudden = Game.from_setup(black=names("A1 B1 C1 D1 E1"), white=names("A9 B8 C7 D6 E5"))
    assert status_line(parse(svg.board(sudden))) == (
        "turn 0: sudden death, 5 winning turtles each")
    assert by_class(parse(svg.board(won(Game), legend=False)), "status") == []
    for size in (90, 400):  # on the line, inside the picture
        element = by_class(parse(svg.board(big_turn(Game), size=size)), "status")[0]
        assert 0 <= float(element.get("x")) and svg.square_center(0, size=size)[1] < float(
            element.get("y")) <= size


def test_the_legend_fits_in_the_picture_under_the_board(Game) -> None:
    for size in (90, 400):
        root = parse(svg.board(big_turn(Game), size=size))
        bottom = svg.square_center(0, size=size)[1]
        (group,) = by_class(root, "legend")
        for element in group:
            x = float(element.get("x") or element.get("cx"))
            y = float(element.get("y") or element.get("cy"))
            assert 0 <= x <= size and bottom < y <= size, (size, element.attrib)


def test_without_a_legend_the_board_fills_the_picture(Game) -> None:
    with_legend = svg.square_center(0, size=400)
    without = svg.square_center(0, size=400, legend=False)
    assert without == svg.square_center(0, size=400, legend=False, coordinates=True)
    assert without[1] > with_legend[1]  # a larger board reaches further down
    with pytest.raises(wts.ParameterTypeError, match="legend"):
        svg.board(Game(), legend="yes")


@needs_renderer
def test_rendered_row_rings_have_their_colour(Game) -> None:
    game = won(Game)
    image = render(svg.board(game, size=400))
    cell = svg.square_center(1, size=400)[0] - svg.square_center(0, size=400)[0]
    for name in ("C3", "E5", "G7"):
        x, y = svg.square_center(parse_square(name), size=400)
        assert close(image.getpixel((int(x + 0.44 * cell), int(y))), rgb(svg.COLORS["row"]), 40)
    x, y = svg.square_center(parse_square("A1"), size=400)  # black's four: no ring
    assert not close(image.getpixel((int(x + 0.44 * cell), int(y))), rgb(svg.COLORS["row"]), 40)


def test_the_row_colour_is_its_own() -> None:
    for other in ("black", "white", "egg", "board", "played", "hatched", "captured", "dissolved"):
        assert not close(rgb(svg.COLORS["row"]), rgb(svg.COLORS[other]), 30), other
