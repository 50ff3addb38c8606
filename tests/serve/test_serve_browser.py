"""``wts serve`` in a real browser: Playwright driving Debian's Chromium plays
an online game between two browser contexts, a hotseat game, a bot game and
the whole tutorial, and checks screenshots of the key states (the hidden
move not shown, the winning row highlighted).

Skips only when Playwright or Chromium is missing and WTS_REQUIRE_BROWSER is
not set (CI sets it, after tools/browser_setup.sh installs Chromium).
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

REQUIRED = bool(os.environ.get("WTS_REQUIRE_BROWSER"))
CHROMIUM = os.environ.get("WTS_CHROMIUM") or shutil.which("chromium") or shutil.which(
    "chromium-browser")

if not REQUIRED:
    pytest.importorskip("playwright")
    pytest.importorskip("uvicorn")
    pytest.importorskip("PIL")
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (tools/browser_setup.sh installs it)",
                    allow_module_level=True)

from PIL import Image  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from tests.support.serve_process import Server  # noqa: E402
from wts.serve.lessons import load as load_lessons  # noqa: E402

BLUE = (0, 114, 178)  # the winning rings' colour (style.css)
FIVE = [("A1", "A9"), ("B1", "B9"), ("C1", "C9"), ("D1", "H8"), ("E1", "I2")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    running = Server(tmp_path_factory.mktemp("serve") / "games.sqlite3")
    try:
        yield running.url
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


def new_page(browser: Browser, **options: Any) -> Page:
    context = browser.new_context(viewport={"width": 900, "height": 800}, **options)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def settled(page: Page, turn: int) -> None:
    page.wait_for_selector(f'body[data-turn="{turn}"]', state="attached")
    page.wait_for_selector('body:not([data-animating="1"])', state="attached")


def click(page: Page, square: str) -> None:
    page.click(f'#board [data-square="{square}"]')


def shot(page: Page, selector: str, path: Path) -> Image.Image:
    data = page.locator(selector).screenshot(path=str(path))
    return Image.open(io.BytesIO(data)).convert("RGB")


def pixel_near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    """How many pixels are within ``tolerance`` of ``colour`` on each channel."""
    pixels = np.asarray(image, dtype=np.int16)
    return int((np.abs(pixels - np.array(colour)) <= tolerance).all(axis=2).sum())


def box_of(page: Page, selector: str) -> dict[str, float]:
    """The element's box, asked again while a new state redraws the board under it."""
    for _ in range(100):
        box = page.locator(selector).bounding_box()
        if box is not None:
            return dict(box)
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} never settled on the page")


def square_box(page: Page, square: str) -> tuple[float, float, float, float]:
    box = box_of(page, f'#board [data-square="{square}"]')
    origin = box_of(page, "#board")
    return (box["x"] - origin["x"], box["y"] - origin["y"], box["width"], box["height"])


def dark_pixels(image: Image.Image, box: tuple[float, float, float, float]) -> int:
    x, y, w, h = (int(v) for v in box)
    crop = np.asarray(image.crop((x + 6, y + 6, x + w - 6, y + h - 6)))
    return int((crop.max(axis=2) < 60).sum())


def test_online_game_between_two_browsers(server: str, browser: Browser,
                                          tmp_path: Path) -> None:
    host = new_page(browser)
    host.goto(server + "/")
    host.click("#start-online")
    host.wait_for_selector("#invite-code:not(:empty)")
    link = host.locator("#invite-link").inner_text()
    guest = new_page(browser)
    guest.goto(link)
    guest.wait_for_url("**/game/*")
    guest.wait_for_selector("#prompt:has-text('You are white')")
    # The invitation goes once the seat is taken; the spectators' link stays.
    host.wait_for_selector("#invite", state="hidden")
    assert host.locator("#watch-link").is_visible()
    assert host.locator("#watch-link").inner_text() == host.url
    watcher = new_page(browser)
    watcher.goto(host.url)
    watcher.wait_for_selector("#status:not(:empty)")
    watcher.wait_for_selector("#players:has-text('you are watching')")
    for page in (host, guest):
        assert "watching" not in page.locator("#players").inner_text()

    for turn, (black, white) in enumerate(FIVE):
        click(host, black)
        host.wait_for_selector(f"#prompt:has-text('You chose {black}')")
        guest.wait_for_selector("#prompt:has-text('Your opponent has chosen')")
        if turn == 0:
            # The hidden move: the host sees its own choice marked, the guest and
            # the watcher see nothing on A1, on the page or in the pixels.
            mine = shot(host, "#board", tmp_path / "host-committed.png")
            theirs = shot(guest, "#board", tmp_path / "guest-before-reveal.png")
            assert dark_pixels(theirs, square_box(guest, "A1")) == 0
            assert pixel_near(mine, BLUE) > 0 and pixel_near(theirs, BLUE) == 0
            for page in (guest, watcher):
                assert page.locator('#board [data-square="A1"]').get_attribute(
                    "data-piece") == "."
                assert page.locator("#board .ring-mine, #board .mark-mine").count() == 0
                assert "A1" not in page.locator("#play aside").inner_text()
        click(guest, white)
        for page in (host, guest, watcher):
            settled(page, turn + 1)
        if turn == 0:
            revealed = shot(guest, "#board", tmp_path / "guest-after-reveal.png")
            assert dark_pixels(revealed, square_box(guest, "A1")) > 50

    for page in (host, guest, watcher):
        page.wait_for_selector("#status:has-text('Black wins with 5 winning turtles')")
        assert page.locator("#board .ring-win").count() == 5
    final = shot(watcher, "#board", tmp_path / "winning-row.png")
    assert pixel_near(final, BLUE) > 500  # the five rings
    record = host.request.get(f"{server}/api/games/{host.url.rsplit('/', 1)[1]}/record")
    assert '[Result "1-0"]' in record.text()


def test_a_seat_resumes_after_closing_the_tab(server: str, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.click("#start-hotseat")
    page.wait_for_url("**/game/*")
    click(page, "E5")
    page.wait_for_selector("#prompt:has-text('White, your turn')")
    url = page.url
    again = page.context.new_page()  # the same browser, a new tab; the first one closed
    page.close()
    again.goto(url)
    again.wait_for_selector("#prompt:has-text('White, your turn')")
    again.click('#board [data-square="D5"]')
    settled(again, 1)


def test_hotseat_game_hides_the_first_choice(server: str, browser: Browser,
                                             tmp_path: Path) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.click("#start-hotseat")
    page.wait_for_url("**/game/*")
    for turn, (black, white) in enumerate(FIVE):
        page.wait_for_selector("#prompt:has-text('Black, choose')")
        if turn == 0:  # a square is reached with the keyboard and played with Enter
            cell = page.locator(f'#board [data-square="{black}"]')
            assert cell.get_attribute("tabindex") == "0"
            cell.focus()
            page.keyboard.press("Enter")
        else:
            click(page, black)
        page.wait_for_selector("#prompt:has-text('Black has chosen (hidden)')")
        if turn == 0:
            hidden = shot(page, "#board", tmp_path / "hotseat-hidden.png")
            assert dark_pixels(hidden, square_box(page, black)) == 0
            assert page.locator(f'#board [data-square="{black}"]').get_attribute(
                "data-piece") == "."
        page.keyboard.press("Tab")
        page.fill("#move-input", white.lower())  # keyboard play: a square's name
        page.press("#move-input", "Enter")
        settled(page, turn + 1)
    page.wait_for_selector("#status:has-text('Black wins with 5 winning turtles')")
    assert page.locator("#board .ring-win").count() == 5


def test_bot_game_on_a_phone(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 760}, has_touch=True,
                                  is_mobile=True, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(server + "/")
    page.click("#start-bot")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board svg")  # drawn when the first state arrives
    width = box_of(page, "#board svg")["width"]
    assert 300 < width <= 390  # the board scales to the window
    turn = 0
    while page.get_attribute("body", "data-over") != "1":
        assert turn < 81
        empty = page.locator('#board [data-piece="."].pickable').first
        empty.tap()
        turn += 1
        for _ in range(600):  # the bot's reply: polled, as the page's CSP forbids eval
            if (int(page.get_attribute("body", "data-turn") or 0) >= turn
                    or page.get_attribute("body", "data-over") == "1"):
                break
            page.wait_for_timeout(50)
        page.wait_for_selector('body:not([data-animating="1"])', state="attached")
        turn = int(page.get_attribute("body", "data-turn") or 0)
    words = page.locator("#status").inner_text()
    assert words.startswith(("Black wins", "White wins", "A draw"))


def test_the_whole_tutorial(server: str, browser: Browser) -> None:
    page = new_page(browser, reduced_motion="reduce")
    page.goto(server + "/learn")
    lessons = load_lessons()
    for lesson in lessons:
        page.wait_for_selector(f'body[data-lesson="{lesson.number}"]', state="attached")
        assert page.locator("#lesson-prompt").inner_text() == lesson.prompt
        wrong = page.locator('#lesson-board [data-piece="."]').first.get_attribute(
            "data-square")
        if wrong not in lesson.goal:
            page.click(f'#lesson-board [data-square="{wrong}"]')
            page.wait_for_selector("#lesson-feedback:has-text('Not that one')")
        page.click(f'#lesson-board [data-square="{lesson.goal[0]}"]')
        page.wait_for_selector('body[data-lesson-done="1"]', state="attached")
        feedback = page.locator("#lesson-feedback").inner_text()
        assert lesson.explain in feedback and "both choose a square" not in feedback
        if lesson.number < len(lessons):
            page.click("#lesson-next")


def test_replay_a_pasted_record_forward_and_back(server: str, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server + "/replay")
    page.fill("#replay-text", "[Black \"a\"]\n\nE5 E5\nD4 F6\nA1 A2\n")
    page.click("#replay-form button[type=submit]")
    page.wait_for_selector('body[data-replay-at="0"]', state="attached")
    assert page.locator("#replay-headers").inner_text().split() == ["Black", "a"]
    page.click("#replay-forward")
    page.wait_for_selector('body[data-replay-at="1"]', state="attached")
    assert page.locator('#replay-board [data-square="E5"]').get_attribute("data-piece") == "e"
    # The turn in words and the egg numbered by age; the counter agrees with the status.
    assert page.locator("#replay-words").inner_text() == "Turn 1: Both chose E5: an egg."
    assert page.locator('#replay-board [data-egg="E5"]').text_content() == "1"
    assert page.locator("#replay-turn").inner_text() == "after turn 1 of 3"
    assert page.locator("#replay-status").inner_text().startswith("Turn 2:")
    assert page.locator("#replay-moves li").all_inner_texts() == [
        "Both chose E5: an egg.", "Black D4, White F6.", "Black A1, White A2."]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('body[data-replay-at="3"]', state="attached")
    assert page.locator("#replay-turn").inner_text() == "after turn 3 of 3"
    page.click("#replay-back")
    page.wait_for_selector('body[data-replay-at="2"]', state="attached")
    assert page.locator('#replay-board [data-square="A1"]').get_attribute("data-piece") == "."
    page.fill("#replay-text", "E5 E5\nE5 D4\n")
    page.click("#replay-form button[type=submit]")
    page.wait_for_selector("#replay-error:has-text('line 2')")


def test_the_pages_load_with_no_console_error_and_an_icon(server: str, browser: Browser) -> None:
    """Every browser asks for an icon; a 404 there is a console error on every page."""
    page = new_page(browser)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    failed: list[str] = []
    page.on("response", lambda response: failed.append(f"{response.status} {response.url}")
            if response.status >= 400 else None)
    for path in ("/", "/learn", "/replay", "/account", "/leaderboard", "/lobby"):
        page.goto(server + path, wait_until="networkidle")
    icon = page.evaluate("document.querySelector('link[rel=icon]').href")
    assert icon == server + "/static/favicon.svg"
    assert page.request.get(server + "/favicon.ico").status == 200
    assert errors == [] and failed == []


def sign_up_in(page: Page, server: str, name: str) -> None:
    page.goto(server + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", "correct horse battery")
    page.check("#signup-adult")
    page.click("#signup-button")
    page.wait_for_url(f"**/players/{name}")
    page.wait_for_selector(f"#me-nav:has-text('{name}')")


def black_wins_rated(server: str, players: dict[str, Page]) -> None:
    """Black (the first of ``players``) makes five against White; then each
    profile shows the one rated game, black's rating up and white's down."""
    (black_name, black), (white_name, white) = players.items()
    for turn, (b, w) in enumerate(FIVE):
        click(black, b)
        white.wait_for_selector("#prompt:has-text('Your opponent has chosen')")
        click(white, w)
        for page in (black, white):
            settled(page, turn + 1)
    black.wait_for_selector("#status:has-text('Black wins')")
    ratings = {}
    for name, page in players.items():
        page.goto(f"{server}/players/{name}")
        page.wait_for_selector("#profile-rating:has-text('after 1 rated games')")
        ratings[name] = float(page.locator("body").get_attribute("data-rating") or 0)
        assert page.locator("#profile-plot svg polyline").count() == 1
        assert page.locator("#profile-games tr").count() == 1
    assert ratings[black_name] > 1500 > ratings[white_name]


def test_a_rated_game_between_two_accounts_moves_both_ratings(
        server: str, browser: Browser) -> None:
    """Sign up in two browsers, play a rated game to its end, see both
    ratings change on the profiles and the leaderboard, log out and in."""
    ann, bob = new_page(browser), new_page(browser)
    sign_up_in(ann, server, "ann")
    sign_up_in(bob, server, "bob")
    assert ann.locator("#profile-rating").inner_text().startswith("Rating 1500? ± 350")
    ann.goto(server + "/")
    ann.select_option("#online-form select[name=clock]", "game:900")  # rated games have one
    ann.check("#rated")
    ann.click("#start-online")
    ann.wait_for_selector("#invite-code:not(:empty)")
    bob.goto(ann.locator("#invite-link").inner_text())
    bob.wait_for_url("**/game/*")
    bob.wait_for_selector("#players:has-text('Black: ann · White: bob · rated')")
    black_wins_rated(server, {"ann": ann, "bob": bob})
    ann.goto(server + "/leaderboard")
    ann.wait_for_selector("#leaderboard-list li")
    assert ann.locator("#leaderboard-list li").first.inner_text().startswith("ann ")
    ann.goto(server + "/account")
    ann.click("#logout-button")
    ann.wait_for_selector("#login-link:has-text('Log in')")
    ann.fill("#login-name", "ann")
    ann.fill("#login-password", "correct horse battery")
    ann.click("#login-button")
    ann.wait_for_selector("#me-nav:has-text('ann')")


def test_a_rated_seek_posted_in_one_browser_is_accepted_in_another_and_played_out(
        server: str, browser: Browser) -> None:
    """The club's whole path: sign up in two browsers, post a rated seek in
    one, accept it in the other, play the game to its end, see both ratings
    move on the profiles, log out; a guest watches the lobby live."""
    cyd, dee, guest = new_page(browser), new_page(browser), new_page(browser)
    sign_up_in(cyd, server, "cyd")
    sign_up_in(dee, server, "dee")
    guest.goto(server + "/lobby")
    guest.wait_for_selector("#lobby-guest", state="visible")
    cyd.goto(server + "/lobby")
    cyd.select_option("#seek-form select[name=color]", "black")
    cyd.select_option("#seek-form select[name=clock]", "game:900")  # rated games have one
    cyd.check("#seek-rated")
    cyd.click("#seek-button")
    dee.goto(server + "/lobby")
    seek = dee.locator("#seek-list li", has_text="cyd (1500) plays black")
    seek.wait_for()
    guest.locator("#seek-list li", has_text="cyd (1500)").wait_for()  # seen live, no button
    assert guest.locator("#seek-list li button").count() == 0
    seek.locator("button", has_text="Accept").click()
    for page, colour in ((cyd, "black"), (dee, "white")):
        page.wait_for_url("**/game/*")
        page.wait_for_selector(f"#prompt:has-text('You are {colour}')")
    assert cyd.url == dee.url
    dee.wait_for_selector("#players:has-text('Black: cyd · White: dee · rated')")
    guest.locator("#live-list li", has_text="cyd vs dee").wait_for()
    black_wins_rated(server, {"cyd": cyd, "dee": dee})
    dee.goto(server + "/account")
    dee.click("#logout-button")
    dee.wait_for_selector("#login-link:has-text('Log in')")


@pytest.mark.parametrize(("record", "said"), [
    # A capture of two and an egg that hatches in the same turn.
    ("E4 A8\nG6 G1\nH4 G7\nG5 E1\nI3 I3\nC9 A4\nH9 H9\nC6 E2\nF3 G4\n",
     "Black F3, White G4. White captures G5 G6. I3 hatches white."),
    # Two captures at once, and the oldest egg dissolving for them.
    ("F5 F5\nA6 F1\nE5 H2\nI8 C2\nG1 D8\nE4 F3\nA8 E8\nD2 H9\nC5 G2\nF6 F6\nF4 I1\n"
     "I2 I9\nD5 D5\nD4 G4\nI7 I7\nC4 C4\nG6 C8\nC6 D1\nH7 H7\nB4 H6\nD7 D7\nE7 E7\n"
     "F7 I6\n",
     "Black F7, White I6. Black captures F6 F5; White captures I7 I8. Egg D5 dissolves."),
])
def test_a_replayed_turn_says_its_captures_hatchings_and_dissolved_eggs(
        server: str, browser: Browser, record: str, said: str) -> None:
    page = new_page(browser)
    page.goto(server + "/replay")
    page.fill("#replay-text", record)
    page.click("#replay-form button[type=submit]")
    page.wait_for_selector('body[data-replay-at="0"]', state="attached")
    turns = record.count("\n")
    assert page.locator("#replay-moves li").nth(turns - 1).inner_text() == said
    page.click("#replay-last")
    page.wait_for_selector(f'body[data-replay-at="{turns}"]', state="attached")
    assert page.locator("#replay-words").inner_text() == f"Turn {turns}: {said}"


def test_a_turn_is_said_in_words_and_the_eggs_are_numbered_by_age(
        server: str, browser: Browser) -> None:
    page = new_page(browser, reduced_motion="reduce")
    page.goto(server + "/")
    page.click("#start-hotseat")
    page.wait_for_url("**/game/*")
    for turn, square in enumerate(("E5", "D4")):  # two collisions: two eggs
        click(page, square)
        click(page, square)
        settled(page, turn + 1)
    assert page.locator("#turn-words").inner_text() == "Turn 2: Both chose D4: an egg."
    assert page.locator("#moves li").all_inner_texts() == [
        "Both chose E5: an egg.", "Both chose D4: an egg."]
    assert page.locator('#board [data-egg="E5"]').text_content() == "1"  # hatches first
    assert page.locator('#board [data-egg="D4"]').text_content() == "2"
    page.reload()  # the words come from the server's history, not the animation
    page.wait_for_selector("#moves li")
    assert page.locator("#moves li").count() == 2
    assert page.locator("#turn-words").inner_text() == "Turn 2: Both chose D4: an egg."


@pytest.mark.parametrize(("path", "said"), [
    ("/join/XY", "That is not a join code"),
    ("/join/ZZZZZZ", "Cannot join: no game has that code"),
    ("/game/nope", "No game has that address"),
    ("/game/abcdefghijkm", "No game has that address: it may have expired"),
])
def test_a_bad_join_code_or_game_address_is_said_clearly(server: str, browser: Browser,
                                                          path: str, said: str) -> None:
    page = new_page(browser)
    page.goto(server + path)
    page.wait_for_selector(f"#home-error:has-text('{said}')")
    assert page.locator("#home").is_visible()


def test_at_one_screen_the_chosen_square_keeps_no_highlight(server: str,
                                                            browser: Browser) -> None:
    """The pointer still rests where Black clicked: no hover colour shows it to White."""
    page = new_page(browser)
    page.goto(server + "/")
    page.click("#start-hotseat")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#prompt:has-text('Black, choose')")
    click(page, "C3")  # the pointer stays on C3
    page.wait_for_selector("#prompt:has-text('Black has chosen (hidden)')")
    fill = 'getComputedStyle(document.querySelector(\'#board [data-square="%s"]\')).fill'
    assert page.evaluate(fill % "C3") in ("transparent", "rgba(0, 0, 0, 0)")
    page.hover('#board [data-square="D4"]')  # moved away: hovering highlights again
    assert page.evaluate(fill % "D4") == "rgba(0, 114, 178, 0.18)"
    click(page, "G7")
    page.wait_for_selector('body[data-animating="1"]', state="attached")
    click(page, "A1")  # during the turn's animation: refused, and said
    page.wait_for_selector("#play-error:has-text('still being shown')")


def test_a_seat_moves_by_its_link_and_a_rematch_is_offered(server: str,
                                                           browser: Browser) -> None:
    host = new_page(browser, reduced_motion="reduce")
    host.goto(server + "/")
    host.click("#start-online")
    host.wait_for_selector("#invite-code:not(:empty)")
    guest = new_page(browser, reduced_motion="reduce")
    guest.goto(host.locator("#invite-link").inner_text())
    guest.wait_for_selector("#prompt:has-text('You are white')")
    seat_link = host.locator("#seat-link").get_attribute("href") or ""
    assert "#seat=" in seat_link
    phone = new_page(browser, reduced_motion="reduce")  # the host's seat, on another device
    phone.goto(seat_link)
    phone.wait_for_selector("#prompt:has-text('You are black')")
    assert "#" not in phone.url  # the token leaves the address bar
    for turn, (black, white) in enumerate(FIVE):
        click(phone, black)
        click(guest, white)
        for page in (phone, guest):
            settled(page, turn + 1)
    guest.click("#rematch-button")
    guest.wait_for_url(lambda url: url != host.url and "/game/" in url)
    guest.wait_for_selector("#invite-code:not(:empty)")
    phone.click("#rematch-join")
    phone.wait_for_url(guest.url)
    phone.wait_for_selector("#prompt:has-text('You are white')")  # the colours swapped
