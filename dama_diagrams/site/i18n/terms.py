"""The terminology base, ``docs/terms.yaml``: each concept's preferred word per language.

One file makes the glossary page (:mod:`..pages.glossary`), the terminology
checks (:mod:`.quality`) and the TBX export (:mod:`.tbx`), so that none of them
can say what another does not.  The file is read with the project's strict,
safe YAML reader, and every fault is a :class:`TermsError` at its line.  The
format is described at the top of the file itself.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from ..._markdown_text import english_problem
from ...diagram._yaml import YamlError, YamlValue, compose_yaml, read_utf8
from .catalog import CatalogError

TERMS_FILE = Path("docs") / "terms.yaml"
ENGLISH = "en"
_ID = re.compile(r"[a-z][a-z0-9-]*")
_LANGUAGE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")
"""A language code, as :data:`.reading.LANGUAGE_CODE` (not imported: reading imports this)."""
_CONCEPT_KEYS = frozenset({"id", "italian", "definition", "check"})
_WORD_KEYS = frozenset({"term", "headword", "forms", "avoid", "also"})


class TermsError(CatalogError):
    """A terminology file that cannot be read; names its line."""

    @property
    def lineno(self) -> int | None:
        """The line, as Babel's extraction errors name it (see :mod:`.extract`)."""
        return self.line


@dataclass(frozen=True)
class Words:
    """One concept's words in one language."""

    term: str
    """The preferred word, as a dictionary writes it."""
    headword: str
    """The glossary's headword: the term with a capital, unless the file says otherwise."""
    forms: tuple[str, ...]
    """How the preferred word is written in sentences (``*`` for any ending)."""
    avoid: tuple[str, ...]
    also: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Concept:
    """One idea of the game, with its words in every language the file names."""

    id: str
    italian: tuple[str, ...]
    definition: str | None
    """The glossary's English definition; None for a concept only checked."""
    definition_line: int
    check: bool
    """Whether a translation must use the preferred word where the English uses its own."""
    words: Mapping[str, Words]
    line: int


@dataclass(frozen=True)
class Terms:
    """The whole file: concepts in glossary order, and what may stay unchanged."""

    concepts: tuple[Concept, ...]
    unchanged: frozenset[str]
    path: str


@lru_cache(maxsize=512)
def form_pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for whole-word, case-blind matches of ``forms`` (``*``: any ending).

    Cached: the checks ask for the same few dozen patterns for every message.
    """
    alternatives = []
    for form in sorted(forms, key=len, reverse=True):
        words = [
            re.escape(word.rstrip("*")) + (r"\w*" if word.endswith("*") else "")
            for word in form.split()
        ]
        alternatives.append(r"\s+".join(words))
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


def load_terms(project_root: Path) -> Terms | None:
    """The project's terminology file, or None if it has none."""
    path = project_root / TERMS_FILE
    try:
        stat = path.stat()
    except OSError:
        if os.path.lexists(path):  # a dangling link: read_utf8 names it
            return _load(project_root.resolve(), (0, 0))
        return None
    return _load(project_root.resolve(), (stat.st_mtime_ns, stat.st_size))


@lru_cache(maxsize=8)
def _load(root: Path, stamp: tuple[int, int]) -> Terms:
    shown = TERMS_FILE.as_posix()
    text = read_utf8(root / TERMS_FILE, shown, TermsError, inside=root)
    return _parsed(text, shown)


@lru_cache(maxsize=8)
def _parsed(text: str, shown: str) -> Terms:
    """The same terms for the same text, in any copy of the project: checks made with them hold."""
    return parse_terms(text, shown)


def parse_terms(text: str, shown: str) -> Terms:
    """The terminology in ``text``; ``shown`` is the path that messages name."""
    try:
        root = compose_yaml(text)
    except YamlError as exc:
        raise TermsError(exc.message, path=shown, line=exc.line) from None
    if root is None or not isinstance(root.data, dict):
        raise TermsError("expected a mapping with concepts: and unchanged:", path=shown, line=1)
    _no_unknown(root, {"concepts", "unchanged"}, shown)
    unchanged = frozenset(_texts(root.data.get("unchanged"), "unchanged", shown))
    listed = root.data.get("concepts")
    if listed is None or not isinstance(listed.data, list) or not listed.data:
        raise TermsError(
            "concepts: must be a list of concepts", path=shown, line=_line(listed, root)
        )
    concepts: list[Concept] = []
    seen: dict[str, int] = {}
    for item in listed.data:
        concept = _concept(item, shown)
        if concept.id in seen:
            raise TermsError(
                f"a second concept '{concept.id}' (the first is on line {seen[concept.id]}); "
                "give each concept one entry",
                path=shown,
                line=concept.line,
            )
        seen[concept.id] = concept.line
        concepts.append(concept)
    return Terms(tuple(concepts), unchanged, shown)


def _concept(item: YamlValue, shown: str) -> Concept:
    if not isinstance(item.data, dict):
        raise TermsError(
            "each concept is a mapping (id:, italian:, en:, ...)", path=shown, line=item.line
        )
    data = item.data
    for key, value in data.items():
        if key not in _CONCEPT_KEYS and not _LANGUAGE.fullmatch(key):
            raise TermsError(
                f"unknown key '{key}'; a concept has {', '.join(sorted(_CONCEPT_KEYS))} and "
                "one entry per language code (en, nl, ...)",
                path=shown,
                line=value.line,
            )
    ident = _text(data.get("id"), "id", shown, item.line)
    if not _ID.fullmatch(ident):
        raise TermsError(
            f"the id '{ident}' is not lowercase letters, digits and dashes; "
            "write it so, such as flying-king",
            path=shown,
            line=item.line,
        )
    definition = data.get("definition")
    check = data.get("check")
    if check is not None and not isinstance(check.data, bool):
        raise TermsError("check: is true or false", path=shown, line=check.line)
    words = {
        key: _words(value, key, shown) for key, value in data.items() if key not in _CONCEPT_KEYS
    }
    if ENGLISH not in words:
        raise TermsError(
            f"the concept '{ident}' has no English words; add {ENGLISH}: {{term: ...}}",
            path=shown,
            line=item.line,
        )
    return Concept(
        ident,
        tuple(_texts(data.get("italian"), "italian", shown)),
        None if definition is None else _text(definition, "definition", shown, item.line),
        item.line if definition is None else definition.line,
        True if check is None else bool(check.data),
        dict(sorted(words.items())),
        item.line,
    )


def _words(value: YamlValue, language: str, shown: str) -> Words:
    if not isinstance(value.data, dict):
        raise TermsError(
            f"{language}: expects a mapping such as {{term: ...}}", path=shown, line=value.line
        )
    _no_unknown(value, _WORD_KEYS, shown)
    term = _text(value.data.get("term"), f"{language}: term", shown, value.line)
    headword = value.data.get("headword")
    forms = _texts(value.data.get("forms"), "forms", shown) or [term]
    return Words(
        term,
        term[:1].upper() + term[1:]
        if headword is None
        else _text(headword, "headword", shown, value.line),
        tuple(forms),
        tuple(_texts(value.data.get("avoid"), "avoid", shown)),
        tuple(_texts(value.data.get("also"), "also", shown)),
        value.line,
    )


def _no_unknown(value: YamlValue, keys: Collection[str], shown: str) -> None:
    assert isinstance(value.data, dict)
    for key, item in value.data.items():
        if key not in keys:
            raise TermsError(
                f"unknown key '{key}'; expected one of {', '.join(sorted(keys))}",
                path=shown,
                line=item.line,
            )


def _text(value: YamlValue | None, what: str, shown: str, line: int) -> str:
    if value is None or not isinstance(value.data, str) or not value.data.strip():
        raise TermsError(f"{what} must be some text", path=shown, line=_line(value, None) or line)
    text = value.data.strip()
    # the limits of every text that reaches Markdown: a definition and the words are shown
    # in the glossary, and each of them goes into the TBX file ("\uffff" is an escape)
    problem = english_problem(text)
    if problem is not None:
        raise TermsError(f"{what} {problem}", path=shown, line=value.line)
    return text


def _texts(value: YamlValue | None, what: str, shown: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value.data, list):
        raise TermsError(f"{what}: must be a list such as [a, b]", path=shown, line=value.line)
    return [_text(item, f"each entry of {what}", shown, value.line) for item in value.data]


def _line(value: YamlValue | None, parent: YamlValue | None) -> int:
    if value is not None:
        return value.line
    return parent.line if parent is not None else 1


def extract_terms(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method: each glossary definition of the terminology file.

    Registered as ``dama_terms`` (``pyproject.toml``, ``babel.cfg``).  A file
    that cannot be read is an error at its line, never an empty list: the
    definitions would vanish from the template, and an update would make their
    translations obsolete.
    """
    terms = parse_terms(fileobj.read().decode("utf-8"), TERMS_FILE.as_posix())
    for concept in terms.concepts:
        if concept.definition is not None:
            yield (
                concept.definition_line,
                "gettext",
                concept.definition,
                [f"glossary: {concept.id}"],
            )
