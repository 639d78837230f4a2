"""cairosvg and a real browser draw the same diagram.

Headless Chromium (Debian's ``chromium``, driven by Playwright; no browser is
downloaded) renders each SVG at the same pixel size as cairosvg, and the two
pictures must agree up to anti-aliasing.  A control SVG that uses a CSS
variable, which cairosvg ignores, shows that the comparison does catch a
renderer that draws something else.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat
from playwright.sync_api import Page

from dama_diagrams import Position
from dama_diagrams.render import Markers, Theme, legend_svg, render_svg, svg_to_png
from tests.conftest import PageOpener


def diagrams() -> dict[str, str]:
    capture = Position.from_fen("W:W31:B12,20,28")
    priority = Position.from_fen("W:WK30:B10,12,18,K20,K26,27")
    king_tour = Position.from_fen("W:WK27:B5,6,13,15,21,23")
    return {
        "initial": render_svg(Position.initial(), size=400),
        # every square numbered, nothing marked: each piece is scaled below its number
        "numbered": render_svg(
            Position.from_fen("W:WK21,23,29,30:B12,K19"), numbers="all", side_to_move=True, size=400
        ),
        "multi-capture": render_svg(
            capture, markers=Markers.from_move("31x24x15x8"), numbers="all", size=400
        ),
        "rejected": render_svg(
            priority,
            markers=Markers.from_move("30x21x14x5", rejected=["30x23x14x5"]),
            side_to_move=True,
            size=520,
        ),
        "flipped-green": render_svg(
            king_tour,
            markers=Markers.from_move("27x20x11x2x9x18x25"),
            flipped=True,
            frame=False,
            side_to_move=True,
            theme=Theme.named("green"),
            size=360,
        ),
    }


LEGEND = legend_svg(
    {
        "start": "Start square",
        "landing": "Landing",
        "captured": "Taken",
        "king": "King",
        "rejected": "Refused",
        "order": "In order",
        "white_to_move": "White to move",
        "black_to_move": "Black to move",
    }
)


@pytest.fixture()
def page(new_page: PageOpener) -> Page:
    opened: Page = new_page(viewport={"width": 900, "height": 900})  # device scale 1
    return opened


def on_white(png: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(png)).convert("RGBA")
    white = Image.new("RGBA", picture.size, "white")
    white.alpha_composite(picture)
    return white.convert("RGB")


def chromium_png(page: Page, svg: str) -> Image.Image:
    page.set_content(
        f'<!doctype html><html><body style="margin:0;background:#fff">{svg}</body></html>'
    )
    return on_white(page.locator("svg").first.screenshot(type="png"))


def compare(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean absolute difference (0-255) and the share of pixels off by more than 64."""
    assert a.size == b.size
    difference = ImageChops.difference(a, b)
    mean = sum(ImageStat.Stat(difference).mean) / 3
    far = difference.convert("L").point(lambda v: 255 if v > 64 else 0).histogram()[255]
    return mean, far / (a.size[0] * a.size[1])


@pytest.mark.parametrize("name", list(diagrams()))
def test_chromium_and_cairosvg_draw_the_same_picture(page: Page, name: str) -> None:
    svg = diagrams()[name]
    browser_picture = chromium_png(page, svg)
    cairo_picture = on_white(svg_to_png(svg))
    mean, far = compare(browser_picture, cairo_picture)
    assert mean < 1.0, f"{name}: mean pixel difference {mean:.2f}"
    assert far < 0.005, f"{name}: {far:.2%} of pixels differ strongly"


def test_the_comparison_catches_what_cairosvg_ignores(page: Page) -> None:
    # A CSS variable: browsers paint it red, cairosvg does not know it.
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" '
        'style="--paint: #cc2222"><rect width="200" height="200" fill="#ffffff"/>'
        '<rect x="20" y="20" width="160" height="160" style="fill: var(--paint)"/></svg>'
    )
    mean, _ = compare(chromium_png(page, svg), on_white(svg_to_png(svg)))
    assert mean > 10


def test_legend_icons_agree_and_labels_sit_in_the_same_place(page: Page) -> None:
    browser_picture, cairo_picture = chromium_png(page, LEGEND), on_white(svg_to_png(LEGEND))
    icons = (0, 0, 36, browser_picture.size[1])
    mean, far = compare(browser_picture.crop(icons), cairo_picture.crop(icons))
    # Small icons are mostly edges, where anti-aliasing differs most.
    assert mean < 2.5 and far < 0.01, (mean, far)
    # Glyph advances differ a little between the two text engines, so the labels
    # are compared by where their ink is, not pixel by pixel.
    text = (40, 0, *browser_picture.size)
    boxes = [
        ImageChops.invert(picture.crop(text).convert("L")).point(lambda v: 255 if v > 96 else 0)
        for picture in (browser_picture, cairo_picture)
    ]
    first, second = (box.getbbox() for box in boxes)
    assert first is not None and second is not None
    assert all(abs(a - b) <= 4 for a, b in zip(first, second, strict=True)), (first, second)
