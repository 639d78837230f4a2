"""The fence's words in each language: the site's own translations, shipped with the package.

A site that uses the ``dama`` fence has none of this project's PO catalogs,
yet its figures speak the language the fence is set to: the legend, the
engine's line, the move labels, the step controls and the alt text.  Those
messages (the groups in :data:`GROUPS`) are copied from the catalogs into
``words.json`` beside this module by ``python scripts/fence_words.py``; a test
checks that the copy matches the catalogs.  Each entry keeps its English, so
that a message whose English has changed since shows the English, as the site
does, never an outdated translation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..i18n import Catalog, CatalogError, Entry, load_catalog
from ..i18n.reading import DEFAULT_LANGUAGE
from ..messages import MESSAGES

GROUPS = ("alt", "engine", "explain", "legend", "position", "rules", "steps", "ui")
"""The message groups a figure uses (:mod:`..messages`): nothing of the site's own pages.

``explain`` is the engine's table of the captures a priority figure compares, which the
board editor shows beside its board."""
LANGUAGES = ("nl", "it", "en", "de", "fr", "es")
"""The languages the fence speaks: the rules site's six."""
WORDS_FILE = "words.json"

Words = dict[str, dict[str, list[str]]]
"""Language, then message key, then [English, translation]."""


def catalog_words(project_root: Path) -> Words:
    """The figure's messages of every language but English, as the project's catalogs have them.

    Only translations that are current for their English: the others show the
    English on the site, and so in the fence.
    """
    return {
        language: {
            context: [entry.english, entry.shown]
            for (context, _), entry in entries
            if context is not None
            and context.split(".")[0] in GROUPS
            and MESSAGES.get(context) == entry.english
        }
        for language, entries in current_translations(project_root).items()
    }


def current_translations(
    project_root: Path,
) -> dict[str, list[tuple[tuple[str | None, str], Entry]]]:
    """Each language but English, with the catalog entries whose translation the site shows
    (translated for their English, and sound): what a words file may ship."""
    found = {}
    for language in LANGUAGES:
        if language != DEFAULT_LANGUAGE:
            entries = load_catalog(project_root, language).entries.items()
            found[language] = [(key, entry) for key, entry in entries if entry.current]
    return found


def words_text(words: Mapping[str, object]) -> str:
    """A words file: JSON, keys sorted, one final newline, so each run writes the same bytes."""
    return json.dumps(words, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def read_words(package: str) -> Any:
    """The words file a package ships (:data:`WORDS_FILE` beside its modules), as JSON."""
    return json.loads(resources.files(package).joinpath(WORDS_FILE).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def shipped_words() -> Words:
    """The words the package ships, read once: every figure's catalog is made from them."""
    words: Words = read_words(__package__)
    return words


def fence_catalog(language: str) -> Catalog:
    """The catalog a figure of the fence speaks ``language`` with (one of :data:`LANGUAGES`)."""
    if language not in LANGUAGES:
        raise CatalogError(
            f"the dama fence speaks {', '.join(LANGUAGES)}, not {language!r}: "
            f'set lang="..." to one of them'
        )
    shown = Path("dama_diagrams") / "site" / "fence" / WORDS_FILE
    entries: dict[tuple[str | None, str], Entry] = {}
    for key, (english, translation) in shipped_words().get(language, {}).items():
        if MESSAGES.get(key) == english:
            entries[(key, english)] = Entry(english, translation, "translated", ())
    return Catalog(language, shown, entries)
