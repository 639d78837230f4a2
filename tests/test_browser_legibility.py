"""The labels of the diagrams are big enough to read, in Chromium, on a phone and a desktop.

A diagram is an ``<img>``, so its text is as big on screen as its font size
(in the SVG's user units) times the image's rendered width over the width of
the viewBox.  The square numbers and the landing-order badges must be at least
9 CSS px tall at a 390 px wide phone viewport, with a halo of at least 1 CSS px.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.site.i18n import available_languages
from tests.conftest import PageOpener

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = available_languages(ROOT)
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 900)}
PAGES = ("", "board/", "capturing/")
"""The home page, the page of ``board-numbers`` (all 32 numbers), and one with badges."""
SMALLEST_TEXT = 9.0
"""CSS px: the least font size of a label at any of the viewports."""
SMALLEST_HALO = 1.0
"""CSS px: the least width of a number's halo on each side of its glyphs."""

pytestmark = pytest.mark.slow


# For each board on the page: its rendered width, the viewBox width of its SVG,
# and the font size and halo width (user units, inherited as SVG inherits them)
# of the square numbers and of the badge digits.
_MEASURE = """async images => Promise.all(images.map(async image => {
  const text = await (await fetch(image.currentSrc || image.src)).text();
  const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  const inherited = (element, name) => {
    for (let node = element; node && node.getAttribute; node = node.parentNode) {
      if (node.hasAttribute(name)) return Number(node.getAttribute(name));
    }
    return null;
  };
  const sizes = selector => [...svg.querySelectorAll(selector)].map(
    label => inherited(label, "font-size"));
  return {
    src: image.currentSrc || image.src,
    rendered: image.getBoundingClientRect().width,
    viewBox: Number(svg.getAttribute("viewBox").trim().split(/[\\s,]+/)[2]),
    numbers: sizes('g[class="number"] text'),
    halos: [...svg.querySelectorAll('g[class="number halo"] text')].map(
      label => inherited(label, "stroke-width")),
    badges: sizes("g.marker.landing.text text"),
  };
}))"""


def _boards(page: Any) -> list[dict[str, Any]]:
    boards: list[dict[str, Any]] = page.eval_on_selector_all("img.dama-board", _MEASURE)
    assert boards, "no diagram on the page"
    for board in boards:
        assert board["rendered"] > 0 and board["viewBox"] > 0, board
    return boards


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_square_numbers_and_badges_are_big_enough(
    new_page: PageOpener, site_url: str, language: str, viewport: str
) -> None:
    width, height = VIEWPORTS[viewport]
    page = new_page(viewport={"width": width, "height": height})
    measured: dict[str, list[float]] = {"numbers": [], "badges": [], "halos": []}
    for path in PAGES:
        page.goto(f"{site_url}/{language}/{path}")
        page.wait_for_load_state("load")
        if path == "board/":
            assert page.locator("#figure-board-numbers img.dama-board").count() == 1
        for board in _boards(page):
            scale = board["rendered"] / board["viewBox"]
            name = board["src"].rsplit("/", 1)[-1]
            for kind, sizes in measured.items():
                for units in board[kind]:
                    assert units is not None, f"{name}: a {kind} label without a size"
                    css = units * scale / 2 if kind == "halos" else units * scale
                    least = SMALLEST_HALO if kind == "halos" else SMALLEST_TEXT
                    assert css >= least, (
                        f"{language}/{path} {name} at {width} px: {kind} are {css:.2f} CSS px"
                        f" ({units} units on a board {board['rendered']:.0f} px wide)"
                    )
                    sizes.append(css)
    # board-numbers has all 32 numbers; the capture page has numbered landings.
    assert len(measured["numbers"]) >= 32 and measured["badges"], measured
    assert len(measured["halos"]) == len(measured["numbers"])
