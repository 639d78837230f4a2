"""The glossary defines every word of the game that the rules pages use, with its Italian term.

The list below is the game's vocabulary as the pages write it, kept by hand: each
headword of the glossary, with the words by which the English pages use it.  A
term the pages use that the glossary lacks fails, and so does a glossary entry,
in any language, that drops its Italian term.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dama_diagrams.site.i18n import available_languages
from dama_diagrams.site.i18n.reading import read_catalog

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "pages"
GLOSSARY = PAGES / "glossary.md.j2"
RULES_PAGES = [
    "index", "board", "play", "man", "king", "capturing", "priority",
    "promotion", "end", "exercises", "game", "compare",
]  # fmt: skip
"""The pages that teach the rules (not the glossary itself, nor the contributor page)."""

TERMS: dict[str, str | None] = {
    "Board": r"\bboard\b",
    "Corner square": r"\bcorner square\b",
    "Base": None,  # the pages say "last row"; the glossary ties the two, as Italian players do
    "last row": r"\blast row\b|\bfar row\b",
    "Piece": r"\bpieces?\b",
    "Man": r"\b(man|men)\b",
    "King": r"\bkings?\b",
    "Flying king": r"\bfly(ing)?\b|\bflies\b",
    "To be crowned": r"\bcrowned\b",
    "Move": r"\bmoves?\b",
    "Quiet move": r"\bquiet move\b",
    "Side to move": r"\bside to move\b|\bwhose turn\b",
    "Start square": r"\bstart square\b",
    "landing square": r"\blanding squares?\b|\blands on\b",
    "Capture": r"\bcaptur(e|es|ed|ing)\b",
    "Multiple capture": r"\bmultiple captures?\b",
    "Compulsory capture": r"\bcompulsory\b",
    "Priority rules": r"\bpriority rules\b",
    "Free choice": r"\bfree choice\b|\bmay choose\b|\bplayer chooses\b",
    "Touch-move": r"\btouch(-move|es|ed)?\b",
    "I adjust": r"\baccomodo\b",
    "Draw": r"\bdraw(n|s)?\b",
    "Resignation": r"\bresign(s|ed|ation)?\b",
    "Soffio": r"\bsoffio\b",
}
"""Each glossary headword, and how the English rules pages say it."""


def _plain(template: str) -> str:
    """A template's English words: Jinja tags and Markdown marks out, calls' text kept."""
    text = re.sub(r"\{%.*?%\}|\{\{|\}\}", " ", template, flags=re.DOTALL)
    return " ".join(re.sub(r"[*_`]", "", text).split()).lower()


def _pages_text() -> str:
    return " ".join(_plain((PAGES / f"{page}.md.j2").read_text("utf-8")) for page in RULES_PAGES)


def _entries() -> list[str]:
    """The English of each glossary entry, as its message id."""
    template = GLOSSARY.read_text("utf-8")
    return re.findall(r"^- \{% trans %\}(.*?)\{% endtrans %\}$", template, flags=re.MULTILINE)


def _headwords(entry: str) -> list[str]:
    """The bold words of an entry: its headword, and any term it defines beside it."""
    return re.findall(r"\*\*([^*]+)\*\*", entry)


def _italian_terms(entry: str) -> list[str]:
    """The Italian terms in italics in the entry's first bracket, e.g. ['mossa', 'tratto']."""
    bracket = re.search(r"\((\*.*?)\)", entry)
    assert bracket is not None, f"no Italian term in brackets: {entry}"
    return re.findall(r"\*([^*]+)\*", bracket.group(1))


def _folded(text: str) -> str:
    return " ".join(re.sub(r"[*_]", "", text).split()).casefold()


def test_the_glossary_defines_every_term_the_pages_use() -> None:
    text = _pages_text()
    defined = {word for entry in _entries() for word in _headwords(entry)}
    used = [term for term, pattern in TERMS.items() if pattern and re.search(pattern, text)]
    assert [term for term in used if term not in defined] == []


@pytest.mark.parametrize("term", sorted(term for term, pattern in TERMS.items() if pattern))
def test_each_listed_term_is_one_the_pages_use(term: str) -> None:
    """The list above must not go stale: each term is in the pages' English today."""
    pattern = TERMS[term]
    assert pattern is not None and re.search(pattern, _pages_text()), term


def test_the_list_covers_every_glossary_entry() -> None:
    """A new glossary entry is added to the list too, with the words the pages use for it."""
    headwords = [_headwords(entry)[0] for entry in _entries()]
    assert [word for word in headwords if word not in TERMS] == []


def test_the_checks_find_a_missing_term() -> None:
    """The pattern check is real: a glossary without 'Quiet move' would be caught."""
    entries = [entry for entry in _entries() if "**Quiet move**" not in entry]
    defined = {word for entry in entries for word in _headwords(entry)}
    assert re.search(r"\bquiet move\b", _pages_text())
    assert "Quiet move" not in defined


def test_every_english_entry_names_its_italian_term() -> None:
    for entry in _entries():
        assert _italian_terms(entry), entry


@pytest.mark.parametrize("language", [lang for lang in available_languages(ROOT) if lang != "en"])
def test_every_language_keeps_the_italian_term_of_each_entry(language: str) -> None:
    catalog = read_catalog(ROOT, language)
    missing = []
    for entry in _entries():
        message = catalog.get(entry)
        assert message is not None and message.string, f"{language}: no translation of {entry}"
        assert not message.fuzzy, f"{language}: outdated translation of {entry}"
        translated = _folded(message.string)
        missing += [
            (language, term, message.string)
            for term in _italian_terms(entry)
            if _folded(term) not in translated
        ]
    assert missing == []
