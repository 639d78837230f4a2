"""Writing the catalogs: ``update-translations`` and ``new-language``, as ``pybabel`` would.

``update-translations`` may propose a fuzzy match for a new message, for the
translator to check; :mod:`.reading` never takes such a guess for a translation.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable, Iterable
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.pofile import write_po

from ..._files import write_atomically
from ..._interrupts import terminate_as_interrupt
from ...errors import shorten
from ._po import with_previous
from .catalog import CatalogError, CombinedCatalogError
from .reading import (
    DEFAULT_LANGUAGE,
    LANGUAGE_CODE,
    LOCALES_DIR,
    available_languages,
    catalog_path,
    check_languages,
    measured,
    read_catalog,
    shown_path,
    source_messages,
)

TEMPLATE_FILE = "messages.pot"

_EPOCH = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
"""The date written into every PO header, so that the same content gives the same bytes."""


def update_translations(
    project_root: Path,
    languages: Iterable[str] | None = None,
    on_written: Callable[[Path], None] = lambda path: None,
) -> list[Path]:
    """Write the template and every PO file, as ``pybabel update`` does.

    New messages are added empty, changed ones are marked fuzzy with their old
    translation kept, removed ones become obsolete entries.  Every catalog is
    read first: if any cannot be, all of those are reported and nothing is written.
    ``on_written`` hears of each file as soon as it is written, so that a write
    that fails later (a full disk) never hides the ones before it.
    """
    with terminate_as_interrupt():  # a kill runs the cleanup: no temporary file stays
        return _update_translations(project_root, languages, on_written)


def _update_translations(
    project_root: Path, languages: Iterable[str] | None, on_written: Callable[[Path], None]
) -> list[Path]:
    if languages:
        check_languages(project_root, languages)
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
    written = []
    for path, catalog in [(project_root / LOCALES_DIR / TEMPLATE_FILE, template), *updated]:
        written.append(_write(path, catalog))
        on_written(path)
    return written


def new_catalog(
    project_root: Path, language: str, *, accept: Callable[[str], None] | None = None
) -> Path:
    """Start a PO catalog for ``language`` from the English sources, through Babel.

    ``accept`` may refuse a well-formed code, by raising, before anything is
    written: :func:`dama_diagrams.site.new_language` asks the site's theme so.
    """
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
    if accept is not None:
        accept(language)
    target = catalog_path(project_root, language)
    if target.exists():
        raise CatalogError(
            f"{language}: a catalog already exists at {shown_path(project_root, target)}"
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
