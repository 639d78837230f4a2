"""Every page for everyone: axe-core clean in six languages and both schemes, and a phone.

axe-core (the copy that axe-playwright-python ships) checks the WCAG 2.1 A and
AA rules on every built page, in Material's light (default) and dark (slate)
scheme, in the same headless Chromium as the other browser tests.  A finding
fails the test with its rule, page and element.  The phone checks measure the
rendered layout at 390 px: nothing the reader needs lies outside the screen.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.site.i18n import available_languages
from dama_diagrams.site.pages.nav import load_nav, page_names
from tests.conftest import PageOpener

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = available_languages(ROOT)
PHONE = {"width": 390, "height": 844}
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

pytestmark = pytest.mark.slow


@functools.cache
def _axe_source() -> str:
    from importlib.resources import files

    return files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def _pages(site: Path, language: str) -> list[str]:
    """The site's pages of one language, as paths below the site root ('' for the root)."""
    if language == "root":
        return ["", "404.html"]
    folder = site / language
    pages = sorted(path.parent.relative_to(site) for path in folder.rglob("index.html"))
    return [f"{page.as_posix()}/" for page in pages] + [f"{language}/404.html"]


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.1 AA violations on the page as it is now (also run by a benchmark)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(_axe_source())  # into the page's scripts, not its document
        # noHtml: no HTML snippet of each element axe looks at (the report names elements by
        # their selector): axe serialized the whole document for each rule that checks <html>
        # or <body>, a fifth of each run.  The rules, elements and findings are the same.
        page.evaluate("axe.configure({noHtml: true})")
    # resultTypes: axe still runs every rule on every element, but details only what fails
    # (axe-core's documented way to make a run faster; the violations are the same).
    result = page.evaluate(
        """async tags => await axe.run(document, {
            runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})""",
        WCAG_AA,
    )
    return list(result["violations"])


SCHEMES = {"light": "default", "dark": "slate"}
"""The reader's colour scheme, and the Material scheme a page must then show."""


def _findings(page: Any, path: str, scheme: str) -> list[str]:
    return [
        f"{violation['id']} on /{path} ({scheme}) at {json.dumps(node['target'])}: "
        f"{violation['help']}"
        for violation in axe_violations(page)
        for node in violation["nodes"]
    ]


def _shown_scheme(page: Any) -> str:
    return str(page.get_attribute("body", "data-md-color-scheme"))


def _switch_scheme(page: Any, wanted: str) -> None:
    """Click the header's scheme toggle, as a reader does, and wait until the colours settle.

    Material marks the body while it switches (no transition runs meanwhile) and
    clears the mark once the new colours apply: axe reads the settled colours.
    """
    page.click(".md-header__option label:not([hidden])")
    page.mouse.move(0, 0)  # no hover state on the toggle
    page.wait_for_function(
        """wanted => document.body.dataset.mdColorScheme === wanted
            && !document.body.hasAttribute("data-md-color-switching")""",
        arg=SCHEMES[wanted],
    )


def test_the_check_finds_what_a_careless_edit_would_break(
    new_page: PageOpener, site_url: str
) -> None:
    """The check itself, on a real page: grey on white text and a picture without alt text."""
    page = new_page()
    page.goto(f"{site_url}/en/king/")
    page.evaluate(
        """() => {
            const text = document.querySelector('article p');
            text.id = 'faint'; text.style.color = '#ddd';
            const picture = document.querySelector('article img');
            picture.id = 'unnamed'; picture.removeAttribute('alt');
        }"""
    )
    found = {(violation["id"], node["target"][0]) for violation in axe_violations(page)
             for node in violation["nodes"]}  # fmt: skip
    assert {("color-contrast", "#faint"), ("image-alt", "#unnamed")} <= found, found


@pytest.mark.parametrize("first", ["dark", "light"])
def test_axe_finds_no_wcag_violation_on_the_language_chooser(
    new_page: PageOpener, built_site: Path, site_url: str, first: str
) -> None:
    """The root pages have no toggle: they follow the reader's scheme alone."""
    page = new_page(color_scheme=first)
    found = []
    for path in _pages(built_site, "root"):
        page.goto(f"{site_url}/{path}")
        page.wait_for_load_state("load")
        found += _findings(page, path, first)
    assert found == [], "\n".join(found)


@pytest.mark.long
@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_wcag_violation(
    new_page: PageOpener, built_site: Path, language: str, site_url: str
) -> None:
    """Every page in both schemes, each loaded once: axe, the toggle, axe again.

    The reader's system asks for dark: the first page must open in the slate
    scheme by that alone.  After a toggle, the next page opens in the scheme
    chosen last (Material keeps the choice), so the pages alternate.  Last, with
    the choice forgotten, a system that asks for light must get the default scheme.
    """
    page = new_page(color_scheme="dark")
    found = []
    checked = 0
    scheme = "dark"
    for path in _pages(built_site, language):
        page.goto(f"{site_url}/{path}")
        page.wait_for_load_state("load")
        if path.endswith("404.html"):
            # Material keeps the choice per site root; with no site_url (this project sets
            # none) the 404 page's root is "/", not the language's: only the system's
            # scheme reaches it
            scheme = "dark"
        assert _shown_scheme(page) == SCHEMES[scheme], path
        found += _findings(page, path, scheme)
        scheme = "light" if scheme == "dark" else "dark"
        _switch_scheme(page, scheme)
        found += _findings(page, path, scheme)
        checked += 1
        # the next page opens in the scheme chosen last: the two alternate
    # with no choice kept, a system that asks for light gets the light scheme
    page.evaluate("localStorage.clear()")
    page.emulate_media(color_scheme="light")
    page.reload()
    assert _shown_scheme(page) == SCHEMES["light"]
    assert checked == len(page_names(load_nav(ROOT))) + 1
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_explanation_tables_keep_every_column_on_a_phone(
    new_page: PageOpener, site_url: str, language: str
) -> None:
    """The priority page's verdicts were cut off at 390 px; now every cell is on screen."""
    page = new_page(viewport=PHONE)
    page.goto(f"{site_url}/{language}/priority/")
    cells = page.eval_on_selector_all(
        ".dama-explain :is(th, td)",
        """cells => cells.map(cell => {
            const box = cell.getBoundingClientRect();
            const table = cell.closest('table');
            return {text: cell.textContent.trim(), left: box.left, right: box.right,
                    width: box.width, overflow: table.scrollWidth - table.clientWidth,
                    inner: cell.scrollWidth - cell.clientWidth};
        })""",
    )
    assert len(cells) >= 5 * 6 * 3  # five tables, six columns, a heading row and two captures
    for cell in cells:
        assert cell["left"] >= 0 and cell["right"] <= PHONE["width"], cell
        assert cell["width"] > 0 and cell["overflow"] <= 1 and cell["inner"] <= 1, cell


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_language_menu_shows_every_name_whole(
    new_page: PageOpener, site_url: str, language: str
) -> None:
    page = new_page(viewport=PHONE)
    page.goto(f"{site_url}/{language}/")
    page.locator(".md-header .md-select").first.hover()
    page.wait_for_timeout(400)  # Material's opening transition
    names = page.eval_on_selector_all(
        ".md-header .md-select__link",
        """links => links.map(link => {
            const box = link.getBoundingClientRect();
            const menu = link.closest('.md-select__inner').getBoundingClientRect();
            return {name: link.textContent.trim(), clipped: link.scrollWidth > link.clientWidth,
                    inside: box.top >= menu.top && box.bottom <= menu.bottom + 0.5,
                    onScreen: box.left >= 0 && box.right <= innerWidth};
        })""",
    )
    assert [name["name"] for name in names] == [
        "Deutsch",
        "English",
        "Español",
        "Français",
        "Italiano",
        "Nederlands",
    ]
    for name in names:
        assert not name["clipped"] and name["inside"] and name["onScreen"], name


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_heading_puts_its_hidden_permalink_on_a_line_of_its_own(
    new_page: PageOpener, site_url: str, language: str
) -> None:
    """A title that fits on one line takes one line: the invisible ¶ used to wrap below it."""
    page = new_page(viewport=PHONE)
    lonely = []
    for name in ("compare", "priority", "capturing", "glossary"):
        page.goto(f"{site_url}/{language}/{name}/")
        lonely += page.eval_on_selector_all(
            ".md-typeset :is(h1, h2, h3)",
            """headings => headings.filter(heading => {
                const link = heading.querySelector('.headerlink');
                if (!link) return false;
                const words = document.createRange();
                words.setStartBefore(heading.firstChild);
                words.setEndBefore(link);
                const last = [...words.getClientRects()].pop();
                return link.getBoundingClientRect().top >= last.bottom - 1;
            }).map(heading => heading.textContent)""",
        )
    assert lonely == []


def test_no_floating_control_lies_over_an_exercise_board(
    new_page: PageOpener, site_url: str
) -> None:
    """Scrolling up over the exercises once brought a 'Back to top' button onto the boards."""
    page = new_page(viewport=PHONE)
    page.goto(f"{site_url}/en/exercises/")
    page.mouse.wheel(0, 4000)
    page.wait_for_timeout(300)
    page.mouse.wheel(0, -600)
    page.wait_for_timeout(300)
    covering = page.evaluate(
        """() => [...document.querySelectorAll('body *')].filter(element => {
            const style = getComputedStyle(element);
            if (style.position !== 'fixed' || style.visibility === 'hidden') return false;
            if (element.closest('.md-header, .md-sidebar, .md-search, .md-dialog')) return false;
            const box = element.getBoundingClientRect();
            if (!box.width || !box.height || style.opacity === '0') return false;
            return [...document.querySelectorAll('img.dama-exercise-board')].some(board => {
                const b = board.getBoundingClientRect();
                return box.left < b.right && box.right > b.left &&
                       box.top < b.bottom && box.bottom > b.top;
            });
        }).map(element => element.className)"""
    )
    assert covering == []


def test_motion_stops_when_the_reader_asks_for_less(new_page: PageOpener, site_url: str) -> None:
    page = new_page(reduced_motion="reduce")
    page.goto(f"{site_url}/en/")
    durations = page.eval_on_selector_all(
        ".md-select__inner, .md-header, .md-search__inner",
        "elements => elements.map(e => getComputedStyle(e).transitionDuration)",
    )
    assert durations
    for duration in durations:
        assert all(float(part.strip().rstrip("s")) <= 0.0001 for part in duration.split(","))


def test_a_screen_reader_hears_the_position_and_the_move(
    new_page: PageOpener, site_url: str
) -> None:
    """Chromium's accessibility tree for one figure: W:W30:B27, White plays 30x23."""
    page = new_page()
    page.goto(f"{site_url}/en/man/")
    tree = page.locator("#figure-man-capture").aria_snapshot()
    image = next(line for line in tree.splitlines() if 'img "' in line)
    assert "White: man on 30. Black: man on 27. White to move." in image
    assert "30x23" in image
    assert "captured piece on 27" in image
    # the caption is read too, with the numbers the engine filled in
    assert "The white man jumps over the black man on 27 and lands on 23." in tree


def test_step_controls_are_heard_and_work_by_keyboard(new_page: PageOpener, site_url: str) -> None:
    """A capture's stepper: named buttons in a named group, a status line, a focus that shows."""
    page = new_page()
    page.goto(f"{site_url}/en/capturing/")
    figure = page.locator("figure[data-steps]").first
    figure.scroll_into_view_if_needed()
    before = figure.aria_snapshot()
    assert '- group "Step through the capture 31x24x15x8":' in before
    for name in ("Start", "Previous step", "Next step", "Final position"):
        assert f'- button "{name}"' in before
    # The figure opens on the whole capture, its last step: back to the start first.
    figure.get_by_role("button", name="Start").focus()
    page.keyboard.press("Enter")
    figure.get_by_role("button", name="Next step").focus()
    focused = page.evaluate(
        """() => { const e = document.activeElement, s = getComputedStyle(e);
                   return [e.getAttribute('aria-label') || e.textContent,
                           e.matches(':focus-visible'), s.outlineStyle, s.outlineWidth]; }"""
    )
    page.keyboard.press("Enter")  # to the first landing
    live = figure.locator("[aria-live]")
    heard = live.inner_text()
    polite = live.get_attribute("aria-live")
    name, visible, outline, width = focused
    assert name == "Next step" and visible, focused
    assert outline != "none" and width != "0px", focused
    assert polite == "polite"
    # W:W31:B12,20,28: the man's first jump goes from 31 over 28 to 24
    assert heard == "Step 1 of 3: the man lands on 24, taking the man on 28."


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_table_that_scrolls_shows_a_shadow_at_its_hidden_edge(
    new_page: PageOpener, site_url: str, scheme: str
) -> None:
    """The comparison page's five games do not fit 390 px: the cut edge must say so."""
    import io
    import statistics

    from PIL import Image

    page = new_page(viewport=PHONE, color_scheme=scheme)
    page.goto(f"{site_url}/de/compare/")
    wrap = page.locator(".md-typeset__scrollwrap").nth(1)
    wrap.scroll_into_view_if_needed()
    assert wrap.evaluate("wrap => wrap.scrollWidth > wrap.clientWidth + 20")

    def right_edge() -> float:
        """The page's colour at the wrapper's right edge (the median: text is sparse there)."""
        shot = Image.open(io.BytesIO(wrap.screenshot())).convert("L")
        column = [shot.getpixel((shot.width - 2, y)) for y in range(shot.height)]
        return float(statistics.median(column))  # type: ignore[arg-type]

    hidden = right_edge()
    wrap.evaluate("wrap => { wrap.scrollLeft = wrap.scrollWidth; }")
    page.wait_for_timeout(100)
    reached = right_edge()
    # light: the shadow darkens the white edge; dark: a light glow brightens the slate edge
    if scheme == "light":
        assert hidden < reached - 30, (hidden, reached)
    else:
        assert hidden > reached + 20, (hidden, reached)
