"""The board editor in six languages, in a real Chromium: ``editor --lang it`` and the menu.

An English word of the page is a word of the editor's English messages (its
page, its script, its server: extraction finds them) or of the figure's
(the fence's words) that no Italian translation of those messages uses too:
"dama", "file" or "mouse" are Italian as well, and the code the help quotes
(``dama-diagrams verify``) stays code in every language.  The Italian page,
after the actions an author takes, shows none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.site.editor.words import SOURCES, shipped_words
from dama_diagrams.site.fence.words import GROUPS
from dama_diagrams.site.fence.words import shipped_words as fence_words
from dama_diagrams.site.i18n.extract import extract_messages
from dama_diagrams.site.messages import MESSAGES
from tests.conftest import PageOpener
from tests.test_browser_accessibility import _findings
from tests.test_browser_editor import answering_dialogs, show_rule_4_capture, square
from tests.test_editor_api import serving, small_project

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[A-Za-z]{3,}")
NOT_WORDS = re.compile(r"\{[a-z_]+\}|`[^`]*`")
"""Placeholders and code: the same in every language, never a word of its prose."""


@contextmanager
def editor_at(project: Path, lang: str) -> Iterator[str]:
    """``dama-diagrams editor --lang <lang>`` of ``project`` on a free port: its address."""
    with serving(project, lang) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def italian(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with editor_at(small_project(tmp_path_factory.mktemp("editor-it")), "it") as address:
        yield address


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with editor_at(small_project(tmp_path_factory.mktemp("editor-en")), "en") as address:
        yield address


def english_words() -> set[str]:
    """The words of the editor's and the figure's English that Italian does not use too."""
    sources = [
        str(message.id)
        for message in extract_messages(ROOT)
        if message.id and any(path.startswith(SOURCES) for path, _ in message.locations)
    ]
    figure = [text for key, text in MESSAGES.items() if key.split(".")[0] in GROUPS]
    italian = [*shipped_words()["it"].values()]
    italian += [translation for _, translation in fence_words()["it"].values()]
    said = {word.lower() for text in italian for word in WORD.findall(NOT_WORDS.sub(" ", text))}
    found = {
        word.lower()
        for text in [*sources, *figure]
        for word in WORD.findall(NOT_WORDS.sub(" ", text))
    }
    return found - said


def english_left(page: Any, words: set[str]) -> list[str]:
    """The English words anywhere a reader meets them: text, labels, options, the title.

    Not in the language menu, which names each language in itself ("English"),
    nor in the names of the project's files, nor in code (``king-first-capture``).
    """
    texts: list[str] = page.evaluate(
        """() => {
            let text = document.body.innerText;
            const files = [...document.querySelectorAll('#open-name option, code')];
            for (const name of [document.querySelector('nav.languages').innerText,
                                ...files.map(e => e.textContent)]) {
              text = text.split(name).join(' ');
            }
            const labelled = [...document.querySelectorAll('[aria-label]')];
            return [document.title, text,
              ...labelled.map(e => e.getAttribute('aria-label')),
              ...[...document.querySelectorAll('option')]
                .filter(e => e.parentElement.id !== 'open-name').map(e => e.textContent),
              ...[...document.querySelectorAll('svg title, svg desc, img')]
                .map(e => e.getAttribute('alt') || e.textContent)];
        }"""
    )
    return sorted(
        {word for text in texts for word in WORD.findall(text or "") if word.lower() in words}
    )


def said(page: Any, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => document.querySelector(s).textContent.includes(t)", arg=[selector, text]
    )


def test_the_english_words_are_found_where_they_are(english: str, new_page: PageOpener) -> None:
    """The check itself: the English page is full of them."""
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(english)
    page.wait_for_selector("#moves button")
    left = english_left(page, english_words())
    assert {"Board", "Undo", "Swap", "legal", "moves"} <= set(left)


def test_editor_lang_it_shows_the_whole_page_in_italian(italian: str, new_page: PageOpener) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(italian)
    page.wait_for_selector("#moves button")
    words = english_words()
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.inner_text("h1") == "Editor della damiera"
    said(page, "#engine-summary", "Tocca al Bianco, 7 mosse regolari")
    assert square(page, 21).get_attribute("aria-label") == "casella 21, pedina bianca"
    assert "Canc" in page.inner_text("#board-help")  # the keys as Italian keyboards name them
    assert (left := english_left(page, words)) == [], left
    # a square set up on an empty board: the live line says it in Italian
    page.click("#empty-board")
    said(page, "#engine-summary", "Tocca al Bianco, 0 mosse regolari")
    square(page, 14).click()
    said(page, "#status", "Casella 14: pedina bianca.")
    assert (left := english_left(page, words)) == [], left
    # FID Art. 6.9: the table, the engine's line, the claims and the figure
    show_rule_4_capture(page)
    said(page, "#chosen", "Scelta: 30x21x14x5.")
    said(page, "#engine-summary", "decide la regola 4 (la dama incontrata per prima)")
    assert "Esito" in page.inner_text("#explain")  # the site's table: its Verdict column
    labels = page.locator("#claim option").all_text_contents()
    assert any(label.startswith("priorità") for label in labels), labels
    page.wait_for_selector("#preview figure")
    said(page, "#preview-summary", "30x21x14x5 è l\u2019unica mossa regolare")
    assert (left := english_left(page, words)) == [], left


def test_the_language_menu_switches_and_keeps_the_draft(english: str, new_page: PageOpener) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(english)
    page.wait_for_selector("#moves button")
    page.click("#empty-board")
    page.wait_for_selector("#moves button", state="detached")
    square(page, 14).click()  # a white man on 14: unsaved work, kept in the browser
    said(page, "#status", "Square 14: white man.")
    page.wait_for_function(
        "() => Object.keys(localStorage).some(k => k.startsWith('dama-diagrams-editor:draft'))"
    )

    with answering_dialogs(page) as asked:
        page.get_by_role("navigation").get_by_role("link", name="Italiano").click()
        page.wait_for_url("**/?lang=it")
    assert asked == []  # the draft goes with it: no "Leave site?" question
    assert page.inner_text("h1") == "Editor della damiera"
    said(page, "#draft-note", "La bozza non salvata è stata ripristinata.")
    page.wait_for_function(
        "() => document.querySelector('[data-square=\"14\"]').getAttribute('aria-label')"
        " === 'casella 14, pedina bianca'"
    )
    current = page.get_by_role("link", name="Italiano")
    assert current.get_attribute("aria-current") == "page"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_the_italian_editor(
    italian: str, new_page: PageOpener, scheme: str
) -> None:
    page = new_page(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page.goto(italian)
    page.wait_for_selector("#moves button")
    show_rule_4_capture(page)
    page.wait_for_selector("#preview figure")
    found = _findings(page, "", scheme)
    assert found == [], "\n".join(found)
