# ruff: noqa: RUF001  (typographic apostrophes and the multiplication sign are the subject)
"""The translators' quality checks, as Weblate and Crowdin run them, on every PO catalog.

:mod:`.status` refuses what would break a page (placeholders, markup, limits).
These checks find what a reader would stumble over, and are warnings unless
``--strict-translations``:

- ``terminology``: the English uses a term of ``docs/terms.yaml`` and the
  translation lacks the language's preferred word, or uses a word to avoid;
- ``inconsistent``: one English text (or one short label, whatever its case or
  final colon) translated two ways in one language;
- ``unchanged``: a translation identical to its English, unless it is only
  names and notation (the file's ``unchanged:`` list, ``22x13``, code, links);
- ``punctuation``, ``typography``, ``markdown``: see :mod:`.typography`;
- ``glyphs``: a character that the printed book's fonts lack (an emoji, ⛀, a
  Thai letter): the book shows the replacement character in its place;
- ``blank``: a translation that shows nothing (U+2028, U+3000, a zero-width
  space): it is no translation, and the site and book show the English.

Each finding is a :class:`Finding`, a plain record (catalog, line, English,
check, message) that any output format can print.  A finding is accepted with
a comment ``dama: allow <check>[, <check>...]``, then any words of explanation:

- by a translator, in one language, as a *translator comment* in the PO file
  (``# dama: allow unchanged, «no» is Italian too``), which ``pybabel update``,
  ``msgmerge`` and ``update-translations`` keep;
- by the author of the English, in every language, as a comment just before the
  message in its source (``{# dama: allow unchanged #}`` in a template), which
  extraction turns into the *extracted comment* ``#. dama: allow unchanged``.

A translator cannot write ``#.`` lines: those are the template's, replaced at
every update (and so ignored when the catalog is measured against the template).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from ..._book_text import blank_problem, glyph_problem, is_blank
from ...errors import shorten
from .catalog import Catalog, CatalogError, Entry, MessageKey
from .terms import ENGLISH, Terms, form_pattern
from .typography import (
    original_offset,
    prose,
    punctuation_located,
    structure_located,
    typography_located,
)

CHECKS = (
    *("terminology", "inconsistent", "unchanged", "punctuation", "typography", "markdown"),
    *("glyphs", "blank"),
)
"""Every check's name, as a finding and an allow comment name it."""
_ALLOW = re.compile(r"\s*dama:\s*allow\s+([a-z]+(?:\s*,\s*[a-z]+)*)", re.IGNORECASE)
"""``dama: allow unchanged, markdown``: the names, then any words of explanation."""
_NOTATION = re.compile(r"(?<!\w)\d+(?:\s*[-x×]\s*\d+)*\.?(?!\w)")
"""Move and square numbers: 22x13, 21-17, 8 × 8, 32."""
_LABEL_WORDS = 6
"""A message of at most this many words is a label: the same label is translated alike."""


@dataclass(frozen=True)
class Finding:
    """One quality finding: where it is, which English, which check, and what to do."""

    path: str
    """The PO catalog, relative to the project."""
    line: int | None
    """The line of the catalog that holds the fault: of the msgstr, or of the one string of
    a wrapped msgstr that holds it."""
    language: str
    english: str
    check: str
    message: str
    column: int | None = None
    """Where on ``line`` the fault is (from 1), if the check knows."""

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return (
            f"{where}: {self.language}: {self.check}: the translation of "
            f"{shorten(self.english)} {self.message}"
        )


class QualityError(CatalogError):
    """A :class:`Finding` as the catalog errors and warnings of ``status`` and ``build``."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(
            f"{finding.language}: {finding.check}: the translation of "
            f"{shorten(finding.english)} {finding.message}",
            path=finding.path,
            line=finding.line,
            column=finding.column,
        )
        self.finding = finding


def allowed_checks(comments: Iterable[str]) -> frozenset[str]:
    """The checks that ``# dama: allow ...`` comments accept for one entry (``all``: every one)."""
    found: set[str] = set()
    for comment in comments:
        match = _ALLOW.match(comment)
        if match is not None:
            names = {name.strip().lower() for name in match.group(1).split(",")}
            found |= set(CHECKS) if "all" in names else names & set(CHECKS)
    return frozenset(found)


def quality_findings(
    catalog: Catalog, terms: Terms | None, *, refused: Collection[MessageKey] = ()
) -> list[Finding]:
    """Every finding of every check in one language's catalog, in the order of the file.

    ``terms`` is the project's :func:`.terms.load_terms`; without it, no terminology check.
    ``refused`` messages are left out: :func:`.status.translation_problems` refuses them
    already, and their text may be built to stall a Markdown reader.
    """
    findings = []
    path = catalog.path.as_posix()
    for check, english, entry, message, at in _problems(catalog, terms, frozenset(refused)):
        # a blank one is none at all, and a broken one is not shown whatever a comment says
        kept = {"blank"} | ({"markdown"} if entry.fault is not None else set())
        if check in allowed_checks(entry.comments) - kept:
            continue
        line, column = entry.at(at)
        findings.append(Finding(path, line, catalog.language, english, check, message, column))
    return sorted(
        findings, key=lambda f: (f.line or 0, f.column or 0, CHECKS.index(f.check), f.message)
    )


def _translated(catalog: Catalog, refused: frozenset[MessageKey]) -> list[tuple[str, Entry]]:
    return [
        (key[1], entry)
        for key, entry in catalog.entries.items()
        if entry.state == "translated" and entry.po_line is not None and key not in refused
    ]


Problem = tuple[str, str, Entry, str, int | None]
"""A check's name, the English, its entry, what is wrong, and where in the translation."""


def _problems(
    catalog: Catalog, terms: Terms | None, refused: frozenset[MessageKey]
) -> Iterator[Problem]:
    entries = _translated(catalog, refused)
    language = catalog.language
    unchanged = terms.unchanged if terms is not None else frozenset()
    for english, entry in entries:
        text = entry.translation
        if terms is not None:
            for message, at in terminology_located(english, text, language, terms):
                yield "terminology", english, entry, message, at
        if _is_unchanged(english, text, unchanged):
            yield (
                "unchanged",
                english,
                entry,
                (
                    "is the English, unchanged; translate it (a name or notation that every "
                    "language keeps goes under unchanged: in docs/terms.yaml)"
                ),
                None,
            )
        for message, at in punctuation_located(english, text):
            yield "punctuation", english, entry, message, at
        for message, at in typography_located(text, language):
            yield "typography", english, entry, message, at
        for message, at in structure_located(english, text):
            yield "markdown", english, entry, message, at
        glyphs = glyph_problem(text)
        if glyphs is not None:
            yield "glyphs", english, entry, f"{glyphs}; {_GLYPHS}", None
    yield from _inconsistent(entries)
    for key, entry in catalog.entries.items():
        written = entry.translation and entry.po_line is not None and key not in refused
        if written and is_blank(entry.translation) and not is_blank(key[1]):
            yield "blank", key[1], entry, f"{blank_problem(entry.translation)}; {_BLANK}", None


_GLYPHS = (
    "write it another way (the web pages show it), or keep it with a translator comment "
    "'# dama: allow glyphs'"
)
_BLANK = "the site and the book show the English instead: translate it, or empty the msgstr"


# --- terminology ---------------------------------------------------------------------------

_ITALICS = re.compile(r"(?<![*\w])\*(?!\*)[^*\n]+\*(?!\*)|(?<!\w)_[^_\n]+_(?!\w)")
"""A word in italics: the Italian term that a translation quotes (*pedina*), never avoided."""


def terminology_problems(english: str, translation: str, language: str, terms: Terms) -> list[str]:
    """Where the translation misses a preferred word, or uses a word to avoid."""
    return [problem for problem, _ in terminology_located(english, translation, language, terms)]


def terminology_located(
    english: str, translation: str, language: str, terms: Terms
) -> list[tuple[str, int | None]]:
    """:func:`terminology_problems`, each with the character where it is (an avoided word)."""
    problems: list[tuple[str, int | None]] = []
    source = prose(english)
    text = prose(translation)
    for concept in terms.concepts:
        words = concept.words.get(language)
        if words is None or language == ENGLISH:
            continue
        preferred = form_pattern(words.forms)
        used = form_pattern(concept.words[ENGLISH].forms)
        own = english == concept.definition  # a definition need not repeat its own word
        if concept.check and not own and used.search(source) and not preferred.search(text):
            problems.append(
                (
                    f"lacks '{words.term}', this language's word for "
                    f"'{concept.words[ENGLISH].term}' ({terms.path}:{words.line}); use it, as the "
                    "glossary does",
                    None,
                )
            )
        if words.avoid:
            rest = preferred.sub(_blanked, _ITALICS.sub(_blanked, text))
            avoided = form_pattern(words.avoid).search(rest)
            if avoided is not None:
                problems.append(
                    (
                        f"says '{avoided.group()}', which {terms.path}:{words.line} lists to "
                        f"avoid for '{concept.words[ENGLISH].term}'; write '{words.term}'",
                        original_offset(translation, avoided.start()),
                    )
                )
    return problems


def _blanked(found: re.Match[str]) -> str:
    """Spaces as many as the characters found: a word's place stays where it was."""
    return " " * len(found[0])


# --- unchanged -------------------------------------------------------------------------------


def _is_unchanged(english: str, translation: str, allowed: frozenset[str]) -> bool:
    """The translation is the English, and the English holds words that a language translates."""
    if " ".join(english.split()) != " ".join(translation.split()):
        return False
    words = re.findall(r"[^\W\d_][\w’'-]*", _NOTATION.sub(" ", prose(english)))
    return any(len(word) > 1 and word not in allowed for word in words)


# --- inconsistent ----------------------------------------------------------------------------


def _label(text: str) -> str:
    """A short message as a label: case, final colon or stop and spaces aside."""
    return (
        " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())
        .rstrip(" :.!?…")
        .casefold()
    )


def _inconsistent(entries: list[tuple[str, Entry]]) -> Iterator[Problem]:
    """One English, or one label, translated two ways: each later entry names the first."""
    first: dict[str, tuple[str, Entry]] = {}
    for english, entry in sorted(entries, key=lambda item: item[1].po_line or 0):
        short = len(english.split()) <= _LABEL_WORDS
        key = f"label:{_label(english)}" if short else f"text:{english}"
        seen = first.setdefault(key, (english, entry))
        if seen[1] is entry:
            continue
        same = (
            _label(seen[1].translation) == _label(entry.translation)
            if short
            else " ".join(seen[1].translation.split()) == " ".join(entry.translation.split())
        )
        if not same:
            yield (
                "inconsistent",
                english,
                entry,
                (
                    f"is {shorten(entry.translation, 50)}, but {shorten(seen[0], 40)} (line "
                    f"{seen[1].at()[0]}) is {shorten(seen[1].translation, 50)}; "
                    "translate both alike"
                ),
                None,
            )
