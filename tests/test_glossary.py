"""The glossary defines every word of the game that the rules pages use, with its Italian term.

The list below is the game's vocabulary as the pages write it, kept by hand: each
headword of the glossary (``docs/terms.yaml``), with the words by which the English
pages use it.  A term the pages use that the glossary lacks fails, and so does a
glossary entry, in any language, without the file's headword or Italian term.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dama_diagrams.site.i18n import available_languages, load_catalog
from dama_diagrams.site.i18n.terms import Concept, load_terms
from dama_diagrams.site.pages.glossary import glossary_entries

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "pages"
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
    "Landing square": r"\blanding squares?\b|\blands on\b",
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


def _concepts() -> list[Concept]:
    """The glossary's concepts, in order: those of docs/terms.yaml with a definition."""
    terms = load_terms(ROOT)
    assert terms is not None
    return [concept for concept in terms.concepts if concept.definition is not None]


def _headwords(concept: Concept) -> list[str]:
    """The concept's English headword, and any term its definition defines in bold."""
    assert concept.definition is not None
    return [concept.words["en"].headword, *re.findall(r"\*\*([^*]+)\*\*", concept.definition)]


def test_the_glossary_defines_every_term_the_pages_use() -> None:
    text = _pages_text()
    defined = {word for concept in _concepts() for word in _headwords(concept)}
    used = [term for term, pattern in TERMS.items() if pattern and re.search(pattern, text)]
    assert [term for term in used if term not in defined] == []


@pytest.mark.parametrize("term", sorted(term for term, pattern in TERMS.items() if pattern))
def test_each_listed_term_is_one_the_pages_use(term: str) -> None:
    """The list above must not go stale: each term is in the pages' English today."""
    pattern = TERMS[term]
    assert pattern is not None and re.search(pattern, _pages_text()), term


def test_the_list_covers_every_glossary_entry() -> None:
    """A new glossary entry is added to the list too, with the words the pages use for it."""
    headwords = [_headwords(concept)[0] for concept in _concepts()]
    assert [word for word in headwords if word not in TERMS] == []


def test_the_checks_find_a_missing_term() -> None:
    """The pattern check is real: a glossary without 'Quiet move' would be caught."""
    concepts = [concept for concept in _concepts() if concept.id != "quiet-move"]
    defined = {word for concept in concepts for word in _headwords(concept)}
    assert re.search(r"\bquiet move\b", _pages_text())
    assert "Quiet move" not in defined


def test_every_concept_names_its_italian_term() -> None:
    assert [concept.id for concept in _concepts() if not concept.italian] == []


@pytest.mark.parametrize("language", available_languages(ROOT))
def test_each_page_entry_has_the_terms_file_headword_and_italian_term(language: str) -> None:
    """The page is made from the file: its headwords are the file's, in the file's order."""
    html = glossary_entries(ROOT, load_catalog(ROOT, language))
    items = html.split("\n")
    assert len(items) == len(_concepts())
    wrong = []
    for item, concept in zip(items, _concepts(), strict=True):
        words = concept.words[language]
        if not item.startswith(f"- <strong>{words.headword}</strong>"):
            wrong.append((concept.id, item[:60]))
        # an Italian term the headword already spells is not repeated in brackets
        same = {words.term.casefold(), words.headword.casefold()}
        italian = [word for word in concept.italian if word.casefold() not in same]
        wrong += [(concept.id, word) for word in italian if f"<em>{word}</em>" not in item]
    assert wrong == []


@pytest.mark.parametrize(
    ("language", "headword"),
    [("en", "Base"), ("en", "Soffio"), ("fr", "Base"), ("es", "Base"), ("es", "Dama")],
)
def test_an_entry_whose_headword_is_the_italian_term_has_no_brackets(
    language: str, headword: str
) -> None:
    """'Base (base)' and 'Dama (dama)' say the same word twice; the entry is '**Base**: …'."""
    html = glossary_entries(ROOT, load_catalog(ROOT, language))
    items = [item for item in html.split("\n") if item.startswith(f"- <strong>{headword}</strong>")]
    assert len(items) == 1
    assert f"<em>{headword.casefold()}</em>" not in items[0].casefold()
    after = items[0].removeprefix(f"- <strong>{headword}</strong>")
    assert after.startswith((":", "&nbsp;:")), items[0]  # French spaces its colon
