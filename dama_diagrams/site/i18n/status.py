"""How complete each language is, what is broken in it, and whether a build leaves it out.

``dama-diagrams status``, ``verify`` and ``build`` all check the catalogs here,
with the same function, so that ``status`` fails on every catalog that the
build refuses, at the same ``path:line``.

A language is left out of a plain build only while it is a *draft*: listed
under ``extra: dama_diagrams: drafts:`` in ``mkdocs.yml``, or new, with not
one message translated yet.  Adding English text never makes a language a
draft: the new text shows in English, and the page's notice counts it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ..._book_text import is_blank
from ..._markdown_text import noncharacter_problem
from ...errors import shorten
from .._common import BASE_CONFIG
from .catalog import Catalog, CatalogError, Entry, MessageKey, State, placeholders
from .limits import markup_problem
from .quality import QualityError, quality_findings
from .reading import (
    DEFAULT_LANGUAGE,
    available_languages,
    catalog_path,
    load_catalog,
    native_name,
)
from .terms import Terms, TermsError, load_terms

DRAFTS_SETTING = "extra.dama_diagrams.drafts"
"""Where ``mkdocs.yml`` lists the languages that are not published yet."""


# --- checking ----------------------------------------------------------------------------


def translation_problems(
    project_root: Path, languages: Iterable[str], *, strict: bool = False
) -> tuple[list[CatalogError], list[CatalogError]]:
    """Every broken translation of every language, and every outdated or missing one.

    Returns (errors, warnings).  Broken means a PO file that does not parse,
    or a translation whose placeholders differ from its English.  With
    ``strict``, outdated and missing messages are errors too, and so are the
    findings of the quality checks (:mod:`.quality`), each a :class:`.QualityError`.
    """
    errors: list[CatalogError] = []
    warnings: list[CatalogError] = []
    try:
        terms = load_terms(project_root)
    except TermsError as exc:
        errors.append(exc)
        terms = None
    for language in languages:
        if language == DEFAULT_LANGUAGE:
            continue
        try:
            catalog = load_catalog(project_root, language)
        except CatalogError as exc:
            errors.append(exc)
            continue
        checked = _checked(catalog, terms)
        for broken, problem in checked.problems:
            (errors if broken or strict else warnings).append(problem)
        (errors if strict else warnings).extend(checked.quality)
    return errors, warnings


@dataclass(frozen=True)
class _Checked:
    """What the checks found in one catalog, for the catalog and terms they read."""

    entries: dict[MessageKey, Entry]
    terms: Terms | None
    problems: tuple[tuple[bool, CatalogError], ...]
    """In the file's order, each marked whether it is broken (else outdated or missing)."""
    quality: tuple[QualityError, ...]


_CHECKED: dict[tuple[Path, str], _Checked] = {}
"""The last checks of each catalog: a build asks twice (to choose its languages, then to
report), and the quality checks render every translation's Markdown."""


def _checked(catalog: Catalog, terms: Terms | None) -> _Checked:
    """The checks of ``catalog``, run again only for other entries or terms.

    :func:`.reading.load_catalog` hands out the same entries while the PO file
    and the English are unchanged, and :func:`.terms.load_terms` the same terms.
    """
    key = (catalog.path, catalog.language)
    found = _CHECKED.get(key)
    if found is None or found.entries is not catalog.entries or found.terms is not terms:
        found = _check(catalog, terms)
        _CHECKED[key] = found
    return found


def _check(catalog: Catalog, terms: Terms | None) -> _Checked:
    problems: list[tuple[bool, CatalogError]] = []
    refused: set[MessageKey] = set()
    for key, entry in catalog.entries.items():
        english = key[1]
        if entry.state == "translated" and entry.po_line is not None:
            broken = entry_problems(catalog, english, entry)
            problems.extend((True, problem) for problem in broken)
            if broken:
                refused.add(key)
        elif entry.state != "translated" and not _blank(entry):
            problems.append((False, _not_current(catalog, english, entry)))
    # a refused translation is not read further: its Markdown may be what stalls a build
    findings = quality_findings(catalog, terms, refused=refused)
    quality = tuple(QualityError(finding) for finding in findings)
    return _Checked(catalog.entries, terms, tuple(problems), quality)


def _blank(entry: Entry) -> bool:
    """A translation that shows nothing: missing, and the quality check "blank" names its line."""
    return bool(entry.translation) and is_blank(entry.translation)


def entry_problems(catalog: Catalog, english: str, entry: Entry) -> list[CatalogError]:
    """Why a build refuses the translation ``entry`` of ``english``, at its PO line; [] if not.

    Its placeholders differ from the English's, it breaks the limits
    (:func:`.limits.markup_problem`), or it holds a noncharacter
    (:func:`dama_diagrams._markdown_text.noncharacter_problem`).  ``terms`` asks too, of the
    glossary's definitions that go into the TBX file.
    """
    found = []
    wanted, got = placeholders(english), placeholders(entry.translation)
    if wanted != got:
        found.append(_placeholder_problem(catalog, english, entry, wanted, got))
    problem = noncharacter_problem(entry.translation) or markup_problem(english, entry.translation)
    if problem is not None:
        found.append(_translation_problem(catalog, english, entry, problem))
    return found


def _not_current(catalog: Catalog, english: str, entry: Entry) -> CatalogError:
    path, line = entry.sources[0] if entry.sources else (None, None)
    where = catalog.path.as_posix()
    if entry.state == "outdated":
        text = f"outdated translation of {shorten(english)} (its English changed, so the site "
        text += f"shows the English); update it in {where} and clear its fuzzy flag"
    elif entry.suggested_by is not None:
        text = f"no translation of {shorten(english)}, only a suggestion copied from "
        text += f"{shorten(entry.suggested_by)} (the site shows the English); "
        if entry.po_line is None:  # made in memory: the PO file lacks it until it is written
            text += "run dama-diagrams update-translations, then "
        text += f"check it in {where}"
    else:
        text = f"no translation of {shorten(english)}; add it to {where}"
    return CatalogError(f"{catalog.language}: {text}", path=path, line=line)


def _placeholder_problem(
    catalog: Catalog, english: str, entry: Entry, wanted: frozenset[str], got: frozenset[str]
) -> CatalogError:
    extra = sorted(got - wanted)
    lost = sorted(wanted - got)
    what = (
        f"has the placeholder {{{extra[0]}}}, which the English lacks"
        if extra
        else f"lacks the placeholder {{{lost[0]}}}"
    )
    at = entry.translation.find(f"{{{extra[0]}}}") if extra else -1
    return _translation_problem(
        catalog,
        english,
        entry,
        f"{what}; keep exactly the English placeholders",
        at if at >= 0 else None,
    )


def _translation_problem(
    catalog: Catalog, english: str, entry: Entry, problem: str, at: int | None = None
) -> CatalogError:
    """The error at the msgstr's line and column (of character ``at``, else its start)."""
    line, column = entry.at(at)
    return CatalogError(
        f"{catalog.language}: the translation of {shorten(english)} {problem}",
        path=catalog.path.as_posix(),
        line=line,
        column=column,
    )


# --- status ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class LanguageStatus:
    """How much of one language is translated for the current English."""

    language: str
    translated: tuple[tuple[MessageKey, Entry], ...]
    outdated: tuple[tuple[MessageKey, Entry], ...]
    missing: tuple[tuple[MessageKey, Entry], ...]
    draft: str | None = None
    """Why a build without ``--drafts`` leaves the language out, if it does."""

    @property
    def total(self) -> int:
        return len(self.translated) + len(self.outdated) + len(self.missing)

    @property
    def percent(self) -> float:
        return 100.0 * len(self.translated) / self.total if self.total else 100.0

    @property
    def shown_percent(self) -> str:
        """The percentage to one decimal, rounded down: an incomplete one never shows 100.0%."""
        return f"{math.floor(self.percent * 10) / 10:.1f}%"

    @property
    def complete(self) -> bool:
        return not self.outdated and not self.missing

    @property
    def started(self) -> bool:
        """Whether any message was ever translated (outdated ones count: they were)."""
        return bool(self.translated or self.outdated)

    def left_out(self) -> str:
        """The line a build prints when it leaves this draft out."""
        return (
            f"{self.language} ({native_name(self.language)}) is left out of the site: "
            f"{self.draft}; build --drafts includes it"
        )


def draft_reason(language: str, started: bool, drafts: Collection[str]) -> str | None:
    """Why ``language`` is a draft: listed in ``mkdocs.yml``, or new and untranslated."""
    if language in drafts:
        return f"mkdocs.yml lists it as a draft ({DRAFTS_SETTING})"
    if not started:
        return "it is a new language, with no message translated yet"
    return None


def check_drafts(project_root: Path, drafts: Iterable[str], *, line: int | None) -> None:
    """Every language that ``mkdocs.yml`` lists as a draft has a catalog (else it is a typo)."""
    found = available_languages(project_root)
    for code in drafts:
        if code not in found:
            raise CatalogError(
                f"{DRAFTS_SETTING} lists '{code}', which has no catalog "
                f"({catalog_path(Path(), code).as_posix()}); remove it, or start the catalog "
                f"with 'dama-diagrams new-language {code}'",
                path=BASE_CONFIG,
                line=line,
            )


def catalog_status(
    project_root: Path,
    languages: Iterable[str] | None = None,
    *,
    drafts: Collection[str] = (),
) -> list[LanguageStatus]:
    """Completeness of every readable language other than English, and which are drafts.

    A catalog that cannot be read is skipped: :func:`translation_problems` names it.
    """
    report = []
    for language in languages or available_languages(project_root):
        if language == DEFAULT_LANGUAGE:
            continue
        try:
            catalog = load_catalog(project_root, language)
        except CatalogError:
            continue
        by_state: dict[State, list[tuple[MessageKey, Entry]]] = {
            "translated": [],
            "outdated": [],
            "missing": [],
        }
        for key, entry in catalog.entries.items():
            by_state[entry.state].append((key, entry))
        status = LanguageStatus(
            language,
            tuple(by_state["translated"]),
            tuple(by_state["outdated"]),
            tuple(by_state["missing"]),
        )
        report.append(replace(status, draft=draft_reason(language, status.started, drafts)))
    return report


def format_status(
    statuses: list[LanguageStatus],
    *,
    broken: Iterable[str] = (),
    strict: Iterable[str] = (),
    verbose: bool = False,
) -> str:
    """One line per language, ``it  98.2%  translated 221, outdated 3, missing 1``.

    A draft's line says that a build leaves it out, and why; a ``broken``
    language's line says that every build refuses it, a ``strict`` one's that
    ``build --strict-translations`` does (its problems are only outdated,
    missing or flawed translations, which a plain build shows in English or as
    they are).  ``verbose`` lists each outdated or missing message by its
    source, ``path:line``.
    """
    lines = []
    refused = set(broken)
    strict_only = set(strict) - refused
    listed = {status.language for status in statuses}
    width = max((len(code) for code in [*refused, *listed]), default=0)
    for status in statuses:
        line = (
            f"{status.language:<{width}}  {status.shown_percent}  "
            f"translated {len(status.translated)}, "
            f"outdated {len(status.outdated)}, missing {len(status.missing)}"
        )
        if status.language in refused:
            line += f"  ({BROKEN})"
        elif status.language in strict_only:
            line += f"  ({STRICT_REFUSED})"
        elif status.draft is not None:
            line += f"  (draft: {status.draft}; left out of a build without --drafts)"
        lines.append(line)
        if verbose:
            for kind, items in (("outdated", status.outdated), ("missing", status.missing)):
                for (_, english), entry in items:
                    path, number = entry.sources[0] if entry.sources else ("?", 0)
                    text = shorten(" ".join(english.split()), 70)
                    if entry.suggested_by is not None:
                        text += f" (a suggestion from {shorten(entry.suggested_by, 40)})"
                    lines.append(f"  {path}:{number}: {kind}: {text}")
    lines += [f"{code:<{width}}  {BROKEN}" for code in sorted(refused - listed)]
    return "\n".join(lines)


BROKEN = "broken: every build refuses it until the problems below are fixed"
STRICT_REFUSED = "build --strict-translations refuses it until the problems below are fixed"
