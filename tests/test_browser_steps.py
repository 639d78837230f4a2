"""Step controls of multi-captures, in Debian's headless Chromium.

The worked example is ``multi-capture``: White's man on 31 jumps the black men
on 28, 20 and 12, landing on 24, 15 and 8.  So the page steps through five
pictures: the start, three landings and the final position with Black's men
gone, and each step is announced in the page's language.
"""

from __future__ import annotations

import re
import urllib.request
from typing import Any

import pytest

from tests.conftest import PageOpener
from tests.test_browser_site import LANGUAGES

pytestmark = pytest.mark.slow

FIGURE = "#figure-multi-capture"
MAN = {"en": "man", "it": "pedina", "fr": "pion", "es": "peón", "de": "Stein", "nl": "schijf"}
"""The word for a man in each language: the piece that moves and the pieces it takes."""


@pytest.fixture
def page(new_page: PageOpener) -> Any:
    return new_page(viewport={"width": 390, "height": 844})


def _open(page: Any, site_url: str, language: str) -> Any:
    page.goto(f"{site_url}/{language}/capturing/")
    page.wait_for_load_state("load")
    return page.locator(FIGURE)


def _state(figure: Any) -> tuple[str, str, str]:
    image = figure.locator("img.dama-board")
    status = figure.locator(".dama-steps-status").text_content() or ""
    return image.get_attribute("src"), image.get_attribute("alt"), status


def _loaded(figure: Any) -> bool:
    return bool(figure.locator("img.dama-board").evaluate("i => i.complete && i.naturalWidth > 0"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_arrow_keys_step_through_the_capture_and_announce_each_landing(
    page: Any, site_url: str, language: str
) -> None:
    figure = _open(page, site_url, language)
    buttons = figure.locator(".dama-steps button")
    assert buttons.count() == 4
    src, alt, status = _state(figure)
    assert src.endswith("/multi-capture.svg") and status == ""  # the complete diagram first
    whole = alt
    live = figure.locator(".dama-steps-status")
    assert live.get_attribute("aria-live") == "polite"

    buttons.nth(0).focus()  # "first": the arrow keys work while the controls have focus
    seen = []
    for key in ("Home", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
        src, alt, status = _state(figure)
        assert alt == status != ""
        seen.append((src.rsplit("/", 2)[-2:], status))
        page.wait_for_function(
            "f => f.querySelector('img.dama-board').complete",
            arg=figure.element_handle(),
        )
        assert _loaded(figure)
    assert [where for where, _ in seen] == [["multi-capture.steps", f"{n}.svg"] for n in range(5)]
    texts = [text for _, text in seen]
    assert "31x24x15x8" in texts[0]
    for text, (landing, taken) in zip(texts[1:4], [(24, 28), (15, 20), (8, 12)], strict=True):
        numbers = [int(n) for n in re.findall(r"\d+", text)]
        assert landing in numbers and taken in numbers, text
        assert MAN[language] in text.lower() or MAN[language] in text, text
    assert all(str(square) in texts[4] for square in (28, 20, 12))

    page.keyboard.press("ArrowRight")  # after the final position: the whole capture again
    assert _state(figure) == (src.replace(".steps/4.svg", ".svg"), whole, whole)
    page.keyboard.press("ArrowRight")  # past the end: nothing changes
    assert _state(figure)[2] == whole
    page.keyboard.press("Home")
    assert _state(figure)[2] == texts[0]
    page.keyboard.press("End")
    assert _state(figure)[2] == whole
    page.keyboard.press("ArrowLeft")
    assert _state(figure)[2] == texts[4]


def test_buttons_go_to_the_start_the_final_position_and_say_when_they_cannot(
    page: Any, site_url: str
) -> None:
    figure = _open(page, site_url, "en")
    first, previous, following, last = (
        figure.locator(".dama-steps button").nth(n) for n in range(4)
    )
    assert [b.get_attribute("aria-label") for b in (first, previous, following, last)] == [
        "Start",
        "Previous step",
        "Next step",
        "Final position",
    ]
    assert figure.locator(".dama-steps").get_attribute("role") == "group"
    # It opens on the whole capture, the last step: nothing after it.
    assert following.get_attribute("aria-disabled") == "true"
    assert last.get_attribute("aria-disabled") == "true"
    assert previous.get_attribute("aria-disabled") == "false"
    last.click(force=True)  # disabled: it stays on the whole capture
    assert _state(figure)[0].endswith("/multi-capture.svg")
    previous.click()
    assert _state(figure)[0].endswith("multi-capture.steps/4.svg")
    assert following.get_attribute("aria-disabled") == "false"
    previous.click()
    assert _state(figure)[0].endswith("multi-capture.steps/3.svg")
    first.click()
    assert _state(figure)[0].endswith("multi-capture.steps/0.svg")
    assert first.get_attribute("aria-disabled") == "true"
    following.click()
    assert _state(figure)[2] == "Step 1 of 3: the man lands on 24, taking the man on 28."


def _legend(figure: Any) -> list[str]:
    """The legend entries a reader sees, in order: ``white_to_move`` for "White to move"."""
    entries = figure.locator(".dama-legend li")
    return [
        (entries.nth(n).get_attribute("class") or "").removeprefix("dama-legend-")
        for n in range(entries.count())
        if entries.nth(n).is_visible()
    ]


def test_the_legend_follows_the_step_shown(page: Any, site_url: str) -> None:
    """Worked by hand: the complete diagram is White's capture; after it Black is to move,
    and the final picture marks only where the man started and where it landed."""
    figure = _open(page, site_url, "en")
    capture = ["start", "landing", "order", "captured", "white_to_move"]
    assert _legend(figure) == capture
    previous = figure.locator(".dama-steps button").nth(1)
    previous.click()
    assert _state(figure)[0].endswith("multi-capture.steps/4.svg")
    assert _legend(figure) == ["start", "landing", "black_to_move"]
    page.keyboard.press("Home")
    assert _legend(figure) == ["white_to_move"]  # the start: the board alone
    page.keyboard.press("ArrowRight")
    assert _legend(figure) == ["start", "landing", "captured", "white_to_move"]  # one landing
    page.keyboard.press("End")  # the whole capture again, with the legend the page gave it
    assert _legend(figure) == capture


def test_the_final_picture_has_the_captured_men_removed(site_url: str) -> None:
    with urllib.request.urlopen(f"{site_url}/en/assets/diagrams/multi-capture.steps/4.svg") as r:
        svg = r.read().decode()
    pieces = re.findall(r'class="piece (white|black) (man|king)"[^>]*data-square="(\d+)"', svg)
    assert pieces == [("white", "man", "8")]
    with urllib.request.urlopen(f"{site_url}/en/assets/diagrams/multi-capture.steps/2.svg") as r:
        svg = r.read().decode()
    pieces = re.findall(r'class="piece (white|black) (man|king)"[^>]*data-square="(\d+)"', svg)
    # After two landings the man is on 15; the men it jumped come off only at the end.
    assert sorted(pieces, key=lambda p: int(p[2])) == [
        ("black", "man", "12"),
        ("white", "man", "15"),
        ("black", "man", "20"),
        ("black", "man", "28"),
    ]


def test_without_javascript_the_figure_is_the_complete_diagram(browser: Any, site_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        figure = _open(page, site_url, "en")
        assert figure.locator(".dama-steps, .dama-steps-status").count() == 0
        image = figure.locator("img.dama-board")
        src, alt = image.get_attribute("src"), image.get_attribute("alt")
        assert src.endswith("/multi-capture.svg")
        assert "31x24x15x8" in alt
        assert _loaded(figure)
    finally:
        context.close()


def test_a_single_capture_gets_no_controls(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}/en/man/")
    page.wait_for_load_state("load")
    assert page.locator("#figure-man-capture").count() == 1
    assert page.locator("#figure-man-capture .dama-steps").count() == 0
    assert (
        page.locator("figure[data-steps] .dama-steps").count()
        == page.locator("figure[data-steps]").count()
    )


GAME = "#figure-example-game"
"""games/example.pdn: 1. 23-19 10-14 2. 19x10 5x14 3. 24-20 9-13 4. 20-16 1-5
5. 21-18 14x21 6. 26x17x10x1, eleven moves; the final position has Black to move."""


def _told(figure: Any) -> tuple[str, str, str]:
    """The picture shown, its caption and the engine's line."""
    image = figure.locator("img.dama-board").get_attribute("src") or ""
    caption = figure.locator(".dama-caption").text_content() or ""
    engine = figure.locator(".dama-engine-text").text_content() or ""
    return image.rsplit("/", 2)[-1], caption, engine


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_caption_and_engine_line_follow_the_step_shown(
    page: Any, site_url: str, language: str
) -> None:
    page.goto(f"{site_url}/{language}/game/")
    page.wait_for_load_state("load")
    figure = page.locator(GAME)
    first, previous, following, last = (
        figure.locator(".dama-steps button").nth(n) for n in range(4)
    )
    # It opens on the start of the game; the final position is one press away.
    start = _told(figure)
    assert start[0] == "0.svg"
    assert previous.get_attribute("aria-disabled") == "true"
    assert following.get_attribute("aria-disabled") == "false"
    assert last.get_attribute("aria-disabled") == "false"
    following.click()
    one = _told(figure)
    following.click()
    two = _told(figure)
    last.click()
    final = _told(figure)
    assert [one[0], two[0], final[0]] == ["1.svg", "2.svg", "11.svg"]
    # Four positions, four captions and three engine lines (after 1. 23-19 and
    # at the end Black is to move): never the final position's words before the end.
    assert len({start[1], one[1], two[1], final[1]}) == 4
    assert "23-19" in one[1] and "10-14" in two[1] and "10-14" not in one[1]
    assert "26x17x10x1" in final[1] and "26x17x10x1" not in start[1] + one[1] + two[1]
    assert "7" in start[2]  # White's seven first moves
    assert one[2] == final[2] != two[2] != start[2]
    if language == "en":
        assert start[1:] == (
            "The starting position.",
            "this is the starting position, and White has 7 legal moves.",
        )
        assert one[1:] == ("Move 1. 23-19.", "the position is valid; Black is to move.")
        assert two[1:] == ("Move 1... 10-14.", "the position is valid; White is to move.")
        assert final[1].startswith("The final position, after 1.\u00a023-19 10-14 2.\u00a019x10")
    first.click()
    assert _told(figure) == start
    # The step is said once: the caption shows it, the live region is only heard.
    status = figure.locator(".dama-steps-status")
    box = status.bounding_box()
    assert status.text_content() == start[1]
    assert box is not None and box["width"] <= 1 and box["height"] <= 1, box


def test_without_javascript_the_game_figure_is_the_final_position(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site_url}/en/game/")
        figure = page.locator(GAME)
        image, caption, engine = _told(figure)
        assert image == "example-game.svg"
        assert caption.startswith("The final position, after 1.\u00a023-19")
        assert engine == "the position is valid; Black is to move."
        assert _legend(figure) == ["king", "black_to_move"]  # no square marked, a king on 1
    finally:
        context.close()


# ------------------------------------------------------------------------------
# The capture stepper opens on the whole capture as its last step, in headless Chromium.
#
# ``multi-capture``: White's man on 31 jumps 28, 20 and 12, landing on 24, 15 and 8.
# The steps are the start, three landings and the final position; the complete
# diagram, the one the page shows first, draws the whole capture.  A reader takes
# it as the end of the story: so nothing comes after it, and going back from it
# shows the final position, then the landings, down to the start.


def _figure(page: Any, site_url: str) -> Any:
    page.goto(f"{site_url}/en/capturing/")
    page.wait_for_load_state("load")
    return page.locator(FIGURE)


def _disabled(figure: Any) -> list[bool]:
    """Whether "first", "previous", "next" and "last" are disabled, in that order."""
    buttons = figure.locator(".dama-steps button")
    return [buttons.nth(n).get_attribute("aria-disabled") == "true" for n in range(4)]


def _shown(figure: Any) -> tuple[str, str]:
    """The picture's file (``multi-capture.svg``, ``4.svg``) and the status line."""
    src = figure.locator("img.dama-board").get_attribute("src") or ""
    return src.rsplit("/", 1)[-1], figure.locator(".dama-steps-status").text_content() or ""


def test_it_opens_on_the_whole_capture_with_only_the_backward_buttons(
    page: Any, site_url: str
) -> None:
    figure = _figure(page, site_url)
    assert _shown(figure) == ("multi-capture.svg", "")
    assert _disabled(figure) == [False, False, True, True]


def test_the_first_press_of_next_does_nothing_and_previous_shows_the_final_position(
    page: Any, site_url: str
) -> None:
    figure = _figure(page, site_url)
    buttons = figure.locator(".dama-steps button")
    buttons.nth(2).click(force=True)  # "next", disabled: still the whole capture, nothing said
    assert _shown(figure) == ("multi-capture.svg", "")
    buttons.nth(1).click()  # "previous": the final position, the men taken off
    picture, said = _shown(figure)
    assert picture == "4.svg"
    assert said.startswith("Final position") and all(str(n) in said for n in (28, 20, 12))
    assert _disabled(figure) == [False, False, False, False]
    buttons.nth(1).click()  # the last landing: on 8, taking the man on 12
    assert _shown(figure) == ("3.svg", "Step 3 of 3: the man lands on 8, taking the man on 12.")


def test_from_the_start_next_goes_forward_and_last_comes_back_to_the_whole_capture(
    page: Any, site_url: str
) -> None:
    figure = _figure(page, site_url)
    whole = figure.locator("img.dama-board").get_attribute("alt") or ""
    assert "31x24x15x8" in whole
    buttons = figure.locator(".dama-steps button")
    buttons.nth(0).click()  # "first"
    assert _shown(figure)[0] == "0.svg"
    assert _disabled(figure) == [True, True, False, False]
    buttons.nth(2).click()  # the first "next" after the start: the first landing
    assert _shown(figure) == ("1.svg", "Step 1 of 3: the man lands on 24, taking the man on 28.")
    buttons.nth(3).click()  # "last": the whole capture, as the page first showed it
    assert _shown(figure) == ("multi-capture.svg", whole)
    assert figure.locator("img.dama-board").get_attribute("alt") == whole
    assert _disabled(figure) == [False, False, True, True]
