"""The capture stepper opens on the whole capture as its last step, in headless Chromium.

``multi-capture``: White's man on 31 jumps 28, 20 and 12, landing on 24, 15 and 8.
The steps are the start, three landings and the final position; the complete
diagram, the one the page shows first, draws the whole capture.  A reader takes
it as the end of the story: so nothing comes after it, and going back from it
shows the final position, then the landings, down to the start.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.slow

FIGURE = "#figure-multi-capture"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    opened = browser.new_page(viewport={"width": 390, "height": 844})
    yield opened
    opened.close()


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
