"""The built site in a real browser: Debian's headless Chromium, driven by Playwright.

Playwright never downloads a browser here: it starts the system Chromium.
Screenshots go to $DAMA_SCREENSHOTS (default: a temporary folder) so that a
person can look at them, on a desktop and a phone-sized viewport.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.site.i18n import available_languages
from tests.conftest import PageOpener, _Tab, serving

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = available_languages(ROOT)
SEARCH_WORDS = {
    "nl": "schijf",
    "it": "pedina",
    "en": "compulsory",
    "de": "Schlagzwang",
    "fr": "rafle",
    "es": "peón",
}
VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}

pytestmark = pytest.mark.slow


def _drawn_images(page: Any) -> list[int]:
    return list(
        page.eval_on_selector_all(
            "img.dama-board", "images => images.map(image => image.naturalWidth)"
        )
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_home_page_draws_its_diagrams(
    new_page: PageOpener, site_url: str, shots: Path, language: str
) -> None:
    for name, (width, height) in VIEWPORTS.items():
        page = new_page(viewport={"width": width, "height": height})
        page.goto(f"{site_url}/{language}/")
        page.wait_for_load_state("load")
        assert page.get_attribute("html", "lang") == language
        widths = _drawn_images(page)
        assert widths and all(width > 0 for width in widths), widths
        page.screenshot(path=str(shots / f"{language}-home-{name}.png"))
        page.goto(f"{site_url}/{language}/priority/")
        page.wait_for_load_state("load")
        assert all(width > 0 for width in _drawn_images(page))
        page.locator("#figure-priority-most-pieces").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"{language}-priority-{name}.png"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_language_menu_leads_to_the_same_page(
    new_page: PageOpener, site_url: str, language: str
) -> None:
    other = LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)]
    page = new_page()
    page.goto(f"{site_url}/{language}/king/")
    page.hover(".md-header__option .md-select")
    page.click(f".md-select__list a[hreflang='{other}']")
    page.wait_for_url(f"{site_url}/{other}/king/")
    assert page.get_attribute("html", "lang") == other
    assert _drawn_images(page)


@pytest.mark.parametrize("language", LANGUAGES)
def test_search_finds_a_word_of_the_language(
    new_page: PageOpener, site_url: str, language: str
) -> None:
    page = new_page()
    page.goto(f"{site_url}/{language}/")
    search = page.locator("input.md-search__input")
    search.click()
    search.press_sequentially(SEARCH_WORDS[language], delay=30)  # Material reacts to keys
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=15_000)
    assert results.count() > 0
    assert f"/{language}/" in (results.first.locator("a").first.get_attribute("href") or "")


def test_root_page_sends_the_reader_to_their_language(
    browser: Any, new_page: PageOpener, site_url: str
) -> None:
    context = browser.new_context(locale="it-IT")
    page = context.new_page()
    page.goto(f"{site_url}/")
    page.wait_for_url(f"{site_url}/it/")
    context.close()
    page = new_page()
    page.goto(f"{site_url}/?choose")
    assert page.locator("a[hreflang]").count() == len(LANGUAGES)


def test_the_tab_that_tests_share_keeps_nothing_of_the_test_before(
    _worker_tab: Any, built_site: Path, site_url: str
) -> None:
    """Each test's page is the worker's one tab: after a test, nothing it kept is left.

    The storage of two origins (two servers of the site), cookies, script errors.
    """
    page = _worker_tab.page
    keep = """() => { localStorage.setItem('kept', '1'); sessionStorage.setItem('kept', '1');
                      document.cookie = 'kept=1; path=/';
                      setTimeout(() => { throw new Error('left over'); }); }"""
    kept = "[localStorage.getItem('kept'), sessionStorage.getItem('kept'), document.cookie]"
    with serving(built_site) as elsewhere:
        for origin in (elsewhere, site_url):
            page.goto(f"{origin}/en/exercises/")
            page.evaluate(keep)
            page.wait_for_timeout(50)
        assert len(_worker_tab.errors) == 2
        _worker_tab.forget()
        assert _worker_tab.errors == []
        page.goto(f"{elsewhere}/en/")
        assert page.evaluate(kept)[::2] == [None, ""]  # sessionStorage: the last page's only
        page.goto(f"{site_url}/en/")
        assert page.evaluate(kept) == [None, None, ""]
        _worker_tab.forget()


def test_a_tab_that_a_test_broke_is_replaced(browser: Any, site_url: str) -> None:
    """A test that closed the shared page (or crashed it) costs the next test nothing."""
    tab = _Tab(browser)
    tab.open()
    broken = tab.page
    broken.goto(f"{site_url}/en/")
    broken.close()
    tab.forget()
    assert tab.page is not broken
    tab.page.goto(f"{site_url}/en/")
    assert tab.page.get_attribute("html", "lang") == "en"
    assert tab.origins == {site_url}
    tab.context.close()
