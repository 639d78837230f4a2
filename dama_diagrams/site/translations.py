"""Translations: English in the sources, one gettext PO catalog per language.

The English text lives where it is written (page templates, diagram files,
:mod:`.messages`); :mod:`.extract` finds it.  Each other language has
``docs/locales/<lang>/LC_MESSAGES/messages.po``, the layout that ``pybabel``,
Poedit and Weblate use.  A build reads the PO file and measures it against the
English sources as they are now, the way ``pybabel update`` would, without
writing anything:

- a message translated for its current English is *translated*;
- one whose English changed since (fuzzy, or matched to its old English) is
  *outdated*, and shows its old translation;
- one with no translation is *missing*, and shows in English.

A page that shows outdated or missing text says so, in its own language.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.catalog import Message
from babel.messages.pofile import PoFileError, read_po, write_po

from ..errors import DamaError, shorten
from ._common import write_atomically
from ._po import (
    header_problem,
    po_syntax_problem,
    read_previous,
    with_previous,
    without_obsolete_previous,
)
from .extract import BABEL_CFG, TranslationSourceError, extract_messages, source_files
from .messages import MESSAGES

__all__ = [
    "DEFAULT_LANGUAGE",
    "LOCALES_DIR",
    "Catalog",
    "CatalogError",
    "CombinedCatalogError",
    "LanguageStatus",
    "available_languages",
    "catalog_path",
    "catalog_status",
    "format_status",
    "load_catalog",
    "native_name",
    "new_language",
    "translation_problems",
    "update_translations",
]

DEFAULT_LANGUAGE = "en"
"""The language of the sources: it needs no catalog."""
LOCALES_DIR = Path("docs") / "locales"
PO_FILE = Path("LC_MESSAGES") / "messages.po"
TEMPLATE_FILE = "messages.pot"
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def used_values(english: str, values: Mapping[str, str]) -> dict[str, str]:
    """The subset of ``values`` that a message mentions (its translation must match)."""
    wanted = set(PLACEHOLDER.findall(english))
    return {name: value for name, value in values.items() if name in wanted}


State = Literal["translated", "outdated", "missing"]
MessageKey = tuple[str | None, str]
"""A message's context (or None) and its English text, as gettext identifies it."""


class CatalogError(DamaError):
    """A catalog that cannot be read, or a translation that does not fit its English."""


class CombinedCatalogError(CatalogError):
    """Several catalog errors at once, printed as one ``path:line: message`` line each."""

    def __init__(self, problems: Sequence[CatalogError]) -> None:
        first = problems[0]
        super().__init__(first.message, path=first.path, line=first.line)
        self.problems = list(problems)

    def __str__(self) -> str:
        return "\n".join(str(problem) for problem in self.problems)


@dataclass(frozen=True, slots=True)
class Entry:
    """One message in one language: what the site shows, and why."""

    english: str
    shown: str
    state: State
    sources: tuple[tuple[str, int], ...]
    """Where the English is written: (file, line)."""
    po_line: int | None = None
    """The line of the translation in the PO file, if it has one."""


@dataclass
class Catalog:
    """One language's messages, measured against the English sources as they are now.

    ``used`` collects the messages a page asked for, so that the page can say
    how many of them are not translated for their current English.
    """

    language: str
    path: Path
    """The PO file, as shown in messages (relative to the project)."""
    entries: dict[MessageKey, Entry]
    used: set[MessageKey] = field(default_factory=set)

    def message(self, english: str, /, context: str | None = None, **params: str) -> str:
        """The message in this language, its ``{name}`` placeholders filled in."""
        return fill(self.raw(english, context), params, self._placeholder_error(english, context))

    def raw(self, english: str, context: str | None = None) -> str:
        """The message in this language as written, placeholders and all."""
        key = (context, english)
        self.used.add(key)
        entry = self.entries.get(key)
        return english if entry is None else entry.shown

    def text(self, key: str, /, **params: str) -> str:
        """A message of the code (:mod:`.messages`), by its key."""
        english = MESSAGES.get(key)
        if english is None:
            raise CatalogError(f"no message '{key}' in dama_diagrams/site/messages.py")
        return self.message(english, key, **params)

    def join(self, items: Sequence[str], *, escape: Callable[[str], str] = str) -> str:
        """'a, b and c' with this language's word for 'and' (``escape``-d, for raw HTML)."""
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} {escape(self.text('ui.and'))} {items[-1]}"

    def not_current(self) -> int:
        """How many of the messages used since the last reset are outdated or missing."""
        return sum(
            1
            for key in self.used
            if key in self.entries and self.entries[key].state != "translated"
        )

    def error(self, message: str) -> CatalogError:
        return CatalogError(f"{self.language}: {message}", path=self.path.as_posix())

    def _placeholder_error(
        self, english: str, context: str | None
    ) -> Callable[[str], CatalogError]:
        entry = self.entries.get((context, english))
        where = self.path.as_posix() if entry and entry.po_line else None
        line = entry.po_line if entry else None

        def error(message: str) -> CatalogError:
            text = f"{self.language}: {message} in the message {shorten(english)}"
            return CatalogError(text, path=where, line=line)

        return error


def fill(raw: str, params: Mapping[str, str], error: Callable[[str], Exception]) -> str:
    """Replace ``{name}`` placeholders; a missing or unknown one is an error.

    Only lowercase ``{name}`` patterns are placeholders, so code with braces
    passes through untouched.
    """
    if not params:
        return raw
    found = set(PLACEHOLDER.findall(raw))
    unknown = sorted(found - params.keys())
    if unknown:
        raise error(f"unknown placeholder {{{unknown[0]}}}")
    lost = sorted(params.keys() - found)
    if lost:
        raise error(f"placeholder {{{lost[0]}}} is missing")
    return PLACEHOLDER.sub(lambda match: params[match.group(1)], raw)


# --- where the catalogs are -----------------------------------------------------------


def catalog_path(project_root: Path, language: str) -> Path:
    return project_root / LOCALES_DIR / language / PO_FILE


def available_languages(project_root: Path) -> list[str]:
    """English and every language with a PO catalog, in alphabetical order of the code."""
    folder = project_root / LOCALES_DIR
    found = {
        path.parent.parent.name
        for path in folder.glob(f"*/{PO_FILE.as_posix()}")
        if LANGUAGE_CODE.fullmatch(path.parent.parent.name)
    }
    return sorted(found | {DEFAULT_LANGUAGE})


def native_name(language: str) -> str:
    """The language's name in itself, as Babel's CLDR data has it: 'Português'."""
    try:
        name = Locale.parse(language.replace("-", "_")).get_display_name() or language
    except (UnknownLocaleError, ValueError):
        return language
    return name[:1].upper() + name[1:]


# --- reading ----------------------------------------------------------------------------

_SOURCES: dict[Path, tuple[tuple[tuple[str, int, int], ...], BabelCatalog]] = {}
"""The extracted English, by project, with the (path, mtime, size) of every source."""


def source_messages(project_root: Path) -> BabelCatalog:
    """The English messages, extracted again only when a source file changed."""
    root = project_root.resolve()
    stamp = _source_stamp(root)
    cached = _SOURCES.get(root)
    if cached is None or cached[0] != stamp:
        _SOURCES[root] = (stamp, extract_messages(root))
    return _SOURCES[root][1]


def _source_stamp(root: Path) -> tuple[tuple[str, int, int], ...]:
    files = [root / BABEL_CFG]
    with contextlib.suppress(TranslationSourceError):  # extract_messages reports it
        files += source_files(root)
    stamps = []
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            continue
        stamps.append((path.as_posix(), stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)


def read_catalog(project_root: Path, language: str) -> BabelCatalog:
    """A language's PO file as Babel reads it; a syntax error names its line."""
    path = catalog_path(project_root, language)
    shown = _shown(project_root, path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CatalogError(
            f"{language}: no catalog at {shown}; start one with "
            f"'dama-diagrams new-language {language}'"
        ) from None
    except OSError as exc:
        raise CatalogError(
            f"{language}: cannot read the catalog ({exc.strerror})", path=shown
        ) from None
    problem = po_syntax_problem(data) or header_problem(data.decode("utf-8"))
    if problem is not None:
        line, message = problem
        raise CatalogError(f"{language}: not a valid PO file: {message}", path=shown, line=line)
    try:
        # Babel does not read an obsolete entry's previous English (#~|): blank those lines
        cleaned = without_obsolete_previous(data)
        catalog = read_po(
            io.BytesIO(cleaned), locale=language.replace("-", "_"), abort_invalid=True
        )
    except PoFileError as exc:
        raise CatalogError(
            f"{language}: not a valid PO file: {_po_problem(exc)}",
            path=shown,
            line=exc.lineno + 1,  # Babel counts from 0
        ) from None
    except LookupError as exc:  # a charset that Python does not know
        raise CatalogError(
            f"{language}: the header names an unknown charset ({exc}); write charset=UTF-8",
            path=shown,
            line=_header_line(data, b"charset="),
        ) from None
    except (UnknownLocaleError, ValueError) as exc:
        field = b"Language:" if isinstance(exc, UnknownLocaleError) else b"Plural-Forms:"
        raise CatalogError(
            f"{language}: the header is wrong: {exc}", path=shown, line=_header_line(data, field)
        ) from None
    read_previous(catalog)
    return catalog


def _header_line(data: bytes, field: bytes) -> int:
    """The line of a header field, else of the header itself (the first ``msgid``)."""
    lines = data.split(b"\n")
    for wanted in (field, b"msgid"):
        for number, line in enumerate(lines, start=1):
            if wanted.lower() in line.lower():
                return number
    return 1


def _po_problem(exc: PoFileError) -> str:
    return re.sub(r"\s*on (?:line )?\d+\s*$", "", str(exc)).strip() or "syntax error"


_MEASURED: dict[tuple[Path, str], tuple[tuple[int, int, int], dict[MessageKey, Entry]]] = {}
"""Measured catalogs, by project and language, with the PO file's (mtime, size) and the
English it was measured against: a build asks for each language several times."""


def load_catalog(project_root: Path, language: str) -> Catalog:
    """One language's catalog, measured against the English sources as they are now."""
    template = source_messages(project_root)
    path = catalog_path(project_root, language)
    shown = Path(_shown(project_root, path))
    try:
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size, id(template))
    except OSError:
        stamp = None
    key = (project_root.resolve(), language)
    cached = _MEASURED.get(key)
    if stamp is not None and cached is not None and cached[0] == stamp:
        return Catalog(language, shown, cached[1])
    catalog = _load_catalog(project_root, language, template, shown)
    if stamp is not None:
        _MEASURED[key] = (stamp, catalog.entries)
    return catalog


def _load_catalog(
    project_root: Path, language: str, template: BabelCatalog, shown: Path
) -> Catalog:
    if language == DEFAULT_LANGUAGE:
        entries = {
            _key(message): Entry(
                str(message.id), str(message.id), "translated", _locations(message)
            )
            for message in _messages(template)
        }
        return Catalog(language, shown, entries)
    catalog = read_catalog(project_root, language)
    po_lines = {_key(message): message.lineno for message in _messages(catalog)}
    measured(catalog, template)
    entries = {}
    for message in _messages(catalog):
        state = _state(message)
        shown_text = message.string if state != "missing" else message.id
        if state == "outdated" and _placeholders(shown_text) != _placeholders(message.id):
            shown_text = message.id  # an old text that cannot take the new values: the English
        entries[_key(message)] = Entry(
            str(message.id),
            str(shown_text),
            state,
            _locations(message),
            _po_line(message, po_lines),
        )
    return Catalog(language, shown, entries)


def _po_line(message: Message, po_lines: Mapping[MessageKey, int | None]) -> int | None:
    """The line of the message's translation in the PO file, before it was measured.

    Measuring makes new messages from the template, without their PO lines; an
    outdated one was matched to its old English (``previous_id``), at that line.
    """
    line = po_lines.get(_key(message))
    if line is None and message.previous_id:
        previous = message.previous_id
        old = previous if isinstance(previous, str) else previous[0]
        line = po_lines.get((message.context, old))
    return line


def measured(catalog: BabelCatalog, template: BabelCatalog) -> BabelCatalog:
    """The catalog updated to the template, as ``pybabel update`` would: in memory.

    A message that is still fuzzy keeps its previous English, as with GNU
    ``msgmerge``; Babel would drop it on the second update.
    """
    previous = {_key(message): message.previous_id for message in _messages(catalog)}
    catalog.update(template, update_creation_date=False)
    for message in _messages(catalog):
        if message.fuzzy and not message.previous_id and previous.get(_key(message)):
            message.previous_id = list(previous[_key(message)])
    return catalog


def _messages(catalog: BabelCatalog) -> Iterable[Message]:
    return (message for message in catalog if message.id and isinstance(message.id, str))


def _key(message: Message) -> MessageKey:
    return (message.context, str(message.id))


def _state(message: Message) -> State:
    if not message.string:
        return "missing"
    return "outdated" if message.fuzzy else "translated"


def _locations(message: Message) -> tuple[tuple[str, int], ...]:
    return tuple((str(path), int(line or 0)) for path, line in message.locations)


def _shown(project_root: Path, path: Path) -> str:
    try:
        return path.relative_to(project_root).as_posix()
    except ValueError:
        return path.as_posix()


# --- checking ----------------------------------------------------------------------------


def translation_problems(
    project_root: Path, languages: Iterable[str], *, strict: bool = False
) -> tuple[list[CatalogError], list[CatalogError]]:
    """Every broken translation of every language, and every outdated or missing one.

    Returns (errors, warnings).  Broken means a PO file that does not parse,
    or a translation whose placeholders differ from its English.  With
    ``strict``, outdated and missing messages are errors too.
    """
    errors: list[CatalogError] = []
    warnings: list[CatalogError] = []
    for language in languages:
        if language == DEFAULT_LANGUAGE:
            continue
        try:
            catalog = load_catalog(project_root, language)
        except CatalogError as exc:
            errors.append(exc)
            continue
        for (_, english), entry in catalog.entries.items():
            if entry.state != "missing" and entry.po_line is not None:
                wanted, got = _placeholders(english), _placeholders(entry.shown)
                if wanted != got:
                    errors.append(_placeholder_problem(catalog, english, entry, wanted, got))
            if entry.state != "translated":
                path, line = entry.sources[0] if entry.sources else (None, None)
                text = (
                    f"{language}: outdated translation of {shorten(english)} (its English "
                    "changed); update it in " + catalog.path.as_posix()
                    if entry.state == "outdated"
                    else f"{language}: no translation of {shorten(english)}; add it to "
                    + catalog.path.as_posix()
                )
                (errors if strict else warnings).append(CatalogError(text, path=path, line=line))
    return errors, warnings


def _placeholders(text: object) -> set[str]:
    return set(PLACEHOLDER.findall(str(text)))


def _placeholder_problem(
    catalog: Catalog, english: str, entry: Entry, wanted: set[str], got: set[str]
) -> CatalogError:
    extra = sorted(got - wanted)
    lost = sorted(wanted - got)
    what = (
        f"has the placeholder {{{extra[0]}}}, which the English lacks"
        if extra
        else f"lacks the placeholder {{{lost[0]}}}"
    )
    return CatalogError(
        f"{catalog.language}: the translation of {shorten(english)} {what}; "
        "keep exactly the English placeholders",
        path=catalog.path.as_posix(),
        line=entry.po_line,
    )


# --- writing -----------------------------------------------------------------------------


def update_translations(project_root: Path, languages: Iterable[str] | None = None) -> list[Path]:
    """Write the template and every PO file, as ``pybabel update`` does.

    New messages are added empty, changed ones are marked fuzzy with their old
    translation kept, removed ones become obsolete entries.  Every catalog is
    read first: if any cannot be, all of those are reported and nothing is written.
    """
    template = source_messages(project_root)
    updated = []
    errors = []
    for language in languages or available_languages(project_root):
        if language == DEFAULT_LANGUAGE:
            continue
        try:
            catalog = measured(read_catalog(project_root, language), template)
        except CatalogError as exc:
            errors.append(exc)
            continue
        updated.append((catalog_path(project_root, language), catalog))
    if errors:
        raise CombinedCatalogError(errors)
    written = [_write(project_root / LOCALES_DIR / TEMPLATE_FILE, template)]
    written += [_write(path, catalog) for path, catalog in updated]
    return written


def new_language(project_root: Path, language: str) -> Path:
    """Start a PO catalog for ``language`` from the English sources, through Babel."""
    if not LANGUAGE_CODE.fullmatch(language):
        raise CatalogError(f"{shorten(language)} is not a language code such as 'pt' or 'pt-BR'")
    if language == DEFAULT_LANGUAGE:
        raise CatalogError(
            f"{language}: English is the language of the sources (the page templates, the "
            "diagram files), so it needs no catalog"
        )
    try:
        locale = Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise CatalogError(
            f"{shorten(language)} is not a locale that Babel knows; use a code such as 'pt' or "
            "'pt-BR'"
        ) from None
    target = catalog_path(project_root, language)
    if target.exists():
        raise CatalogError(
            f"{language}: a catalog already exists at {_shown(project_root, target)}"
        )
    catalog = BabelCatalog(locale=locale, project="dama-diagrams", fuzzy=False)
    catalog.update(source_messages(project_root), update_creation_date=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    return _write(target, catalog)


def _write(path: Path, catalog: BabelCatalog) -> Path:
    """A PO (or POT) file, the same bytes for the same content: no dates that change."""
    catalog.creation_date = catalog.revision_date = _EPOCH
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "dama-diagrams"
    catalog.language_team = ""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, include_previous=False, sort_output=False)
    text = with_previous(buffer.getvalue().decode(catalog.charset), list(catalog))
    write_atomically(path, text.encode(catalog.charset))
    return path


_EPOCH = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
"""The date written into every PO header, so that the same content gives the same bytes."""


# --- status -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LanguageStatus:
    """How much of one language is translated for the current English."""

    language: str
    translated: tuple[tuple[MessageKey, Entry], ...]
    outdated: tuple[tuple[MessageKey, Entry], ...]
    missing: tuple[tuple[MessageKey, Entry], ...]

    @property
    def total(self) -> int:
        return len(self.translated) + len(self.outdated) + len(self.missing)

    @property
    def percent(self) -> float:
        return 100.0 * len(self.translated) / self.total if self.total else 100.0

    @property
    def shown_percent(self) -> str:
        """The percentage to one decimal, rounded down: a draft never shows 100.0%."""
        return f"{math.floor(self.percent * 10) / 10:.1f}%"

    @property
    def complete(self) -> bool:
        return not self.outdated and not self.missing


def catalog_status(
    project_root: Path, languages: Iterable[str] | None = None
) -> list[LanguageStatus]:
    """Completeness of every language other than English, for ``dama-diagrams status``."""
    report = []
    for language in languages or available_languages(project_root):
        if language == DEFAULT_LANGUAGE:
            continue
        catalog = load_catalog(project_root, language)
        by_state: dict[State, list[tuple[MessageKey, Entry]]] = {
            "translated": [],
            "outdated": [],
            "missing": [],
        }
        for key, entry in catalog.entries.items():
            by_state[entry.state].append((key, entry))
        report.append(
            LanguageStatus(
                language,
                tuple(by_state["translated"]),
                tuple(by_state["outdated"]),
                tuple(by_state["missing"]),
            )
        )
    return report


def format_status(statuses: list[LanguageStatus], *, verbose: bool = False) -> str:
    """One line per language, ``it  98.2%  translated 221, outdated 3, missing 1``.

    ``verbose`` lists each outdated or missing message by its source, ``path:line``.
    """
    lines = []
    width = max((len(status.language) for status in statuses), default=0)
    for status in statuses:
        lines.append(
            f"{status.language:<{width}}  {status.shown_percent}  "
            f"translated {len(status.translated)}, "
            f"outdated {len(status.outdated)}, missing {len(status.missing)}"
        )
        if verbose:
            for kind, items in (("outdated", status.outdated), ("missing", status.missing)):
                for (_, english), entry in items:
                    path, line = entry.sources[0] if entry.sources else ("?", 0)
                    lines.append(
                        f"  {path}:{line}: {kind}: {shorten(' '.join(english.split()), 70)}"
                    )
    return "\n".join(lines)
