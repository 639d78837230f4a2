"""The board editor's words: the catalogs' translations, shipped with the package, all there.

The editor's English is the source (its page, its script's ``t("...")``, its
server's ``tr(lang, "...")``); ``babel.cfg`` puts those messages in the
catalogs, and ``scripts/editor_words.py`` copies their translations into
``dama_diagrams/site/editor/words.json``, which an author's project (with none
of our catalogs) runs on.  The expected Italian and German below are the
site's own words for the game (``docs/terms.yaml``: pedina, dama; einfacher
Stein, Dame).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dama_diagrams.site.editor.words import (
    LANGUAGES,
    SOURCES,
    LanguageError,
    catalog_words,
    check_language,
    page_text,
    script_json,
    shipped_words,
    tr,
)
from dama_diagrams.site.fence.words import WORDS_FILE, words_text
from dama_diagrams.site.i18n.extract import extract_messages

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "dama_diagrams" / "site" / "editor" / WORDS_FILE
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def editor_messages() -> set[str]:
    """Every message written in the editor's sources, as extraction finds them."""
    return {
        str(message.id)
        for message in extract_messages(ROOT)
        if message.id and any(path.startswith(SOURCES) for path, _ in message.locations)
    }


def test_the_shipped_words_are_the_catalogs_translations() -> None:
    """Run ``python scripts/editor_words.py`` after the catalogs change."""
    assert SHIPPED.read_text(encoding="utf-8") == words_text(catalog_words(ROOT))


def test_the_editor_speaks_the_six_languages_of_the_site() -> None:
    assert sorted(LANGUAGES) == ["de", "en", "es", "fr", "it", "nl"]
    assert set(shipped_words()) == set(LANGUAGES) - {"en"}


@pytest.mark.parametrize("language", ["nl", "it", "de", "fr", "es"])
def test_every_message_of_the_editor_is_translated(language: str) -> None:
    messages = editor_messages()
    assert len(messages) > 150  # the page, its script and the server's sentences
    words = shipped_words()[language]
    assert sorted(messages - words.keys()) == []
    for english in messages:
        assert sorted(PLACEHOLDER.findall(words[english])) == sorted(PLACEHOLDER.findall(english))


def test_a_sentence_is_filled_in_the_language_and_english_stays_english() -> None:
    said = {"square": 14, "content": tr("it", "white man")}
    assert tr("it", "Square {square}: {content}.", **said) == "Casella 14: pedina bianca."
    said = {"square": 14, "content": tr("de", "black king")}
    assert tr("de", "Square {square}: {content}.", **said) == "Feld 14: schwarze Dame."
    said = {"square": 14, "content": "white man"}
    assert tr("en", "Square {square}: {content}.", **said) == "Square 14: white man."
    # a message no catalog has (yet) shows in English, its placeholders filled
    assert tr("it", "Not in any catalog: {n}.", n=3) == "Not in any catalog: 3."


def test_no_internal_id_is_shown_in_a_language() -> None:
    """E22: the reasons and claims read as words, in each language, never as ids."""
    for language in ("nl", "it", "de", "fr", "es"):
        words = shipped_words()[language]
        for english in ("a man may not capture a king", "the side to move has no pieces left"):
            assert "-" not in words[english]
    assert tr("it", "a man may not capture a king") == "la pedina non può prendere la dama"


@pytest.mark.parametrize("language", ["xx", "EN", "", "../it", None, 3])
def test_a_language_the_editor_does_not_speak_is_refused(language: object) -> None:
    with pytest.raises(LanguageError, match="the editor speaks nl, it, en, de, fr, es"):
        check_language(language)


def test_the_script_words_cannot_close_their_script_element() -> None:
    hostile = {"a": "</script><script>alert(1)</script>", "b": "<!-- & -->"}
    text = str(script_json(hostile))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == hostile


def test_page_text_is_markdown_made_safe_for_text_and_attributes() -> None:
    assert str(page_text("en", "As `<title>`: say it")) == "As <code>&lt;title&gt;</code>: say it"
    hostile = str(page_text("en", 'x" onclick="alert(1) <script>alert(2)</script>'))
    assert '"' not in hostile and "<script" not in hostile
    assert str(page_text("it", "Board editor")) == "Editor della damiera"
