"""Reading the catalogs: where they are, the English sources, and each PO file measured.

The English text lives where it is written (page templates, diagram files,
:mod:`..messages`); :mod:`.extract` finds it.  Each other language has
``docs/locales/<lang>/LC_MESSAGES/messages.po``, the layout that ``pybabel``,
Poedit and Weblate use.  A build reads the PO file and measures it against the
English sources as they are now, the way ``pybabel update`` would, without
writing anything:

- a message translated for its current English is *translated*;
- one whose English changed since it was translated (fuzzy) is *outdated*;
- one with no translation is *missing*, and so is a fuzzy entry that
  ``update-translations`` proposed from another message that still exists: a
  guess for the translator to check, never a translation of its own.

Only translated messages reach a page (see :mod:`.catalog`), and of those only
the ones whose Markdown is sound (:func:`.typography.markdown_fault`): a broken
one shows the English until it is fixed, as a missing one does.
"""

from __future__ import annotations

import functools
import io
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.catalog import Message
from babel.messages.pofile import PoFileError

from ..._book_text import is_blank
from ..._files import read_project_file
from ...errors import shorten
from ._po import (
    PluralsRefusedError,
    PoString,
    header_problem,
    msgstr_strings,
    po_syntax_problem,
    read_bounded_po,
    read_previous,
    without_obsolete_previous,
)
from .catalog import Catalog, CatalogError, Entry, MessageKey, State
from .extract import extract_messages
from .limits import MAX_CATALOG_BYTES
from .typography import markdown_fault

DEFAULT_LANGUAGE = "en"
"""The language of the sources: it needs no catalog."""
LOCALES_DIR = Path("docs") / "locales"
PO_FILE = Path("LC_MESSAGES") / "messages.po"
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")


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


@functools.lru_cache(maxsize=256)
def native_name(language: str) -> str:
    """The language's name in itself, as Babel's CLDR data has it: 'Português'."""
    try:
        name = Locale.parse(language.replace("-", "_")).get_display_name() or language
    except (UnknownLocaleError, ValueError):
        return language
    return name[:1].upper() + name[1:]


def check_languages(project_root: Path, languages: Iterable[str]) -> None:
    """Each asked-for language is a code with a catalog here: ``--lang ../x`` reads nothing."""
    found = available_languages(project_root)
    for language in languages:
        if not LANGUAGE_CODE.fullmatch(language):
            raise CatalogError(
                f"{shorten(language)} is not a language code such as 'pt' or 'pt-BR'"
            )
        if language not in found:
            raise CatalogError(
                f"no catalog for language '{language}' "
                f"({catalog_path(Path(), language).as_posix()}); start one with "
                f"'dama-diagrams new-language {language}', or choose one of {', '.join(found)}"
            )


def shown_path(project_root: Path, path: Path) -> str:
    """A path as messages show it: relative to the project."""
    try:
        return path.relative_to(project_root).as_posix()
    except ValueError:
        return path.as_posix()


# --- the English ----------------------------------------------------------------------


def source_messages(project_root: Path) -> BabelCatalog:
    """The English messages, extracted again only when a source file changed."""
    return extract_messages(project_root)


# --- one PO file ------------------------------------------------------------------------


def read_catalog(project_root: Path, language: str) -> BabelCatalog:
    """A language's PO file as Babel reads it; a syntax error names its line."""
    data, shown = _catalog_bytes(project_root, language)
    return _parse_catalog(data, language, shown)


def _catalog_bytes(project_root: Path, language: str) -> tuple[bytes, str]:
    """The PO file's bytes, and its path as messages show it."""
    path = catalog_path(project_root, language)
    shown = shown_path(project_root, path)
    if not os.path.lexists(path):
        raise CatalogError(
            f"{language}: no catalog at {shown}; start one with "
            f"'dama-diagrams new-language {language}'"
        )
    # the one door: no link out of the project, no FIFO or device, a bound on what is read
    data = read_project_file(
        path,
        shown,
        CatalogError,
        inside=project_root,
        limit=MAX_CATALOG_BYTES,
        prefix=f"{language}: ",
    )
    return data, shown


def _parse_catalog(data: bytes, language: str, shown: str) -> BabelCatalog:
    problem = po_syntax_problem(data) or header_problem(data.decode("utf-8"))
    if problem is not None:
        line, message = problem
        raise CatalogError(f"{language}: not a valid PO file: {message}", path=shown, line=line)
    try:
        # Babel does not read an obsolete entry's previous English (#~|): blank those lines
        cleaned = without_obsolete_previous(data)
        catalog = read_bounded_po(io.BytesIO(cleaned), locale=language.replace("-", "_"))
    except PluralsRefusedError as refused:
        line, message = refused.problem(data.decode("utf-8"))
        raise CatalogError(
            f"{language}: not a valid PO file: {message}", path=shown, line=line
        ) from None
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


_MEASURED: dict[
    tuple[Path, str], tuple[tuple[int, int], BabelCatalog, dict[MessageKey, Entry]]
] = {}
"""Measured catalogs, by project and language, with the PO file's (mtime, size) and the
English it was measured against: a build asks for each language several times."""


def load_catalog(project_root: Path, language: str) -> Catalog:
    """One language's catalog, measured against the English sources as they are now."""
    template = source_messages(project_root)
    path = catalog_path(project_root, language)
    shown = Path(shown_path(project_root, path))
    try:
        stat = path.stat()
        stamp: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        stamp = None
    key = (project_root.resolve(), language)
    cached = _MEASURED.get(key)
    if stamp is not None and cached is not None and cached[0] == stamp and cached[1] is template:
        return Catalog(language, shown, cached[2])
    catalog = _load_catalog(project_root, language, template, shown)
    if stamp is not None:
        _MEASURED[key] = (stamp, template, catalog.entries)
    return catalog


def _load_catalog(
    project_root: Path, language: str, template: BabelCatalog, shown: Path
) -> Catalog:
    if language == DEFAULT_LANGUAGE:
        entries = {
            message_key(message): Entry(
                str(message.id), str(message.id), "translated", _locations(message)
            )
            for message in messages_of(template)
        }
        return Catalog(language, shown, entries)
    data, _ = _catalog_bytes(project_root, language)
    content = (language, shown.as_posix(), data)
    found = _MEASURED_CONTENT.pop(content, None)
    if found is None or found[0] is not template:
        catalog = _parse_catalog(data, language, str(shown))
        strings = msgstr_strings(data.decode("utf-8"))
        found = (template, _measured_entries(catalog, template, strings))
    _MEASURED_CONTENT[content] = found  # the newest last
    while len(_MEASURED_CONTENT) > _MEASURED_CONTENT_KEPT:
        del _MEASURED_CONTENT[next(iter(_MEASURED_CONTENT))]
    return Catalog(language, shown, found[1])


_MEASURED_CONTENT: dict[tuple[str, str, bytes], tuple[BabelCatalog, dict[MessageKey, Entry]]] = {}
"""The last catalogs measured, by language, path (as shown) and bytes, with the template
they were measured against: a copy of the project finds those it did not change."""
_MEASURED_CONTENT_KEPT = 32


def _measured_entries(
    catalog: BabelCatalog, template: BabelCatalog, strings: Mapping[int, tuple[PoString, ...]]
) -> dict[MessageKey, Entry]:
    """Each message of the template, as the PO file translates it (``strings``: where)."""
    po_lines = {message_key(message): message.lineno for message in messages_of(catalog)}
    measured(catalog, template)
    english = {str(message.id) for message in messages_of(template)}
    entries = {}
    for message in messages_of(catalog):
        state, suggested_by = _state(message, english)
        key = message_key(message)
        # a suggestion is in the file only once update-translations wrote it there
        line = _po_line(message, po_lines) if suggested_by is None else po_lines.get(key)
        translation = str(message.string or "")
        fault = markdown_fault(str(message.id), translation) if state == "translated" else None
        entries[key] = Entry(
            str(message.id),
            translation if state == "translated" and fault is None else str(message.id),
            state,
            _locations(message),
            line,
            translation,
            suggested_by,
            (*message.user_comments, *message.auto_comments),
            strings.get(line, ()) if line is not None else (),
            None if fault is None else fault[0],
        )
    return entries


def _po_line(message: Message, po_lines: Mapping[MessageKey, int | None]) -> int | None:
    """The line of the message's translation in the PO file, before it was measured.

    Measuring makes new messages from the template, without their PO lines; an
    outdated one was matched to its old English (``previous_id``), at that line.
    """
    line = po_lines.get(message_key(message))
    old = _previous_english(message)
    if line is None and old is not None:
        line = po_lines.get((message.context, old))
    return line


def measured(catalog: BabelCatalog, template: BabelCatalog) -> BabelCatalog:
    """The catalog updated to the template, as ``pybabel update`` would: in memory.

    A message that is still fuzzy keeps its previous English, as with GNU
    ``msgmerge``; Babel would drop it on the second update.
    """
    previous = {message_key(message): message.previous_id for message in messages_of(catalog)}
    catalog.update(template, update_creation_date=False)
    for message in messages_of(catalog):
        if message.fuzzy and not message.previous_id and previous.get(message_key(message)):
            message.previous_id = list(previous[message_key(message)])
        if message.fuzzy and message.string and _other_numbers(message):
            # "Rule 2: …" guessed from "Rule 4: …": a trap for a translator, no suggestion
            message.string = ""
            message.flags.discard("fuzzy")
            message.previous_id = []
    return catalog


def _other_numbers(message: Message) -> bool:
    """Whether a fuzzy guess was copied from English with other numbers (a rule, a square)."""
    old = _previous_english(message)
    return old is not None and _NUMBERS.findall(old) != _NUMBERS.findall(str(message.id))


_NUMBERS = re.compile(r"\d+")


def messages_of(catalog: BabelCatalog) -> Iterable[Message]:
    return (message for message in catalog if message.id and isinstance(message.id, str))


def message_key(message: Message) -> MessageKey:
    return (message.context, str(message.id))


def _state(message: Message, english: set[str]) -> tuple[State, str | None]:
    """The message's state, and the other message a fuzzy guess was copied from.

    A fuzzy entry whose previous English is still a message of its own was
    never a translation of this one: ``update-translations`` matched it to a
    look-alike (``Opening moves`` to ``A king moves``).  It is missing, and so is
    a translation that shows nothing (U+2028, U+3000, a zero-width space).
    """
    if not message.string or (is_blank(str(message.string)) and not is_blank(str(message.id))):
        return "missing", None  # a translation that shows nothing is none: status says so
    if not message.fuzzy:
        return "translated", None
    old = _previous_english(message)
    if old is not None and old != message.id and old in english:
        return "missing", old
    return "outdated", None


def _previous_english(message: Message) -> str | None:
    previous = message.previous_id
    if not previous:
        return None
    return previous if isinstance(previous, str) else str(previous[0])


def _locations(message: Message) -> tuple[tuple[str, int], ...]:
    return tuple((str(path), int(line or 0)) for path, line in message.locations)
