"""Stage 1 of the site, the translations: English in the sources, one PO catalog per language.

Takes the English of the templates, the diagram files and the code's own words
(:mod:`..messages`), and each language's ``docs/locales/<lang>/LC_MESSAGES/
messages.po``.  Gives a checked :class:`Catalog` per language, which every later
room reads, and the translators' tools.  One module each: :mod:`.extract`
finds the English, :mod:`.reading` reads and measures a PO file,
:mod:`.catalog` serves the messages to the pages,
:mod:`.status` checks the catalogs and tells which languages are drafts,
:mod:`.update` writes the PO files, :mod:`.terms` reads the terminology base
(``docs/terms.yaml``) and :mod:`.tbx` exports it, and :mod:`.quality` and
:mod:`.typography` are the translators' quality checks that :mod:`.status` runs.
"""

from __future__ import annotations

from .catalog import (
    Catalog,
    CatalogError,
    CombinedCatalogError,
    Entry,
    fill,
    placeholders,
    used_values,
)
from .reading import (
    DEFAULT_LANGUAGE,
    LOCALES_DIR,
    available_languages,
    catalog_path,
    check_languages,
    load_catalog,
    native_name,
)
from .status import (
    DRAFTS_SETTING,
    LanguageStatus,
    catalog_status,
    check_drafts,
    draft_reason,
    format_status,
    translation_problems,
)
from .update import new_catalog, update_translations

__all__ = [
    "DEFAULT_LANGUAGE",
    "DRAFTS_SETTING",
    "LOCALES_DIR",
    "Catalog",
    "CatalogError",
    "CombinedCatalogError",
    "Entry",
    "LanguageStatus",
    "available_languages",
    "catalog_path",
    "catalog_status",
    "check_drafts",
    "check_languages",
    "draft_reason",
    "fill",
    "format_status",
    "load_catalog",
    "native_name",
    "new_catalog",
    "placeholders",
    "translation_problems",
    "update_translations",
    "used_values",
]
