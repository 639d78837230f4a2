"""The glossary page's entries, made from the terminology file (``docs/terms.yaml``).

Each entry is the concept's headword in the page's language, its Italian terms
and its definition from the catalog.  The headword comes from the same file as
the terminology checks (:mod:`..i18n.quality`), so the page and the checks
cannot disagree.  The punctuation between the parts is a catalog message, so
French can put its no-break space before the colon.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..i18n import Catalog
from ..i18n.safe_text import catalog_html
from ..i18n.terms import ENGLISH, TERMS_FILE, TermsError, load_terms
from .nav import PageError

_MARKDOWN = re.compile(r"([\\`*_\[\]])")


def glossary_entries(project_root: Path, catalog: Catalog) -> str:
    """The glossary as a Markdown list, one item per concept with a definition."""
    try:
        terms = load_terms(project_root)
    except TermsError as exc:  # named at its own line, not at the template's
        raise PageError(exc.message, path=exc.path, line=exc.line) from None
    if terms is None:
        raise PageError(
            f"the glossary needs the terminology file {TERMS_FILE.as_posix()}, which is missing"
        )
    items = []
    for concept in terms.concepts:
        if concept.definition is None:
            continue
        words = concept.words.get(catalog.language) or concept.words[ENGLISH]
        # An Italian term the headword already spells is not repeated in brackets:
        # "Base", not "Base (base)"; in Italian the headword is the Italian term.
        same = {words.term.casefold(), words.headword.casefold()}
        italian = tuple(word for word in concept.italian if word.casefold() not in same)
        originals = [*italian, *words.also]
        definition = catalog.message(concept.definition)
        term = _escaped(words.headword)
        if originals:
            original = ", ".join(f"*{_escaped(word)}*" for word in originals)
            entry = catalog.text(
                "glossary.entry", term=term, original=original, definition=definition
            )
        else:
            entry = catalog.text("glossary.entry_plain", term=term, definition=definition)
        items.append(f"- {catalog_html(entry, inline=True)}")
    return "\n".join(items)


def _escaped(text: str) -> str:
    """A word from the terminology file, as literal Markdown: it marks up nothing."""
    return _MARKDOWN.sub(r"\\\1", text)
