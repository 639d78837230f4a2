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
from importlib import resources
from pathlib import Path

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
    words: Words = {}
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        catalog = load_catalog(project_root, language)
        words[language] = {
            context: [entry.english, entry.shown]
            for (context, _), entry in sorted(catalog.entries.items(), key=_by_key)
            if context is not None
            and context.split(".")[0] in GROUPS
            and entry.current  # translated for this English, and sound
            and MESSAGES.get(context) == entry.english
        }
    return words


def _by_key(item: tuple[tuple[str | None, str], Entry]) -> str:
    return item[0][0] or ""


def words_text(words: Words) -> str:
    """The words file: JSON, keys sorted, one final newline, so each run writes the same bytes."""
    return json.dumps(words, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def shipped_words() -> Words:
    """The words the package ships."""
    text = resources.files(__package__).joinpath(WORDS_FILE).read_text(encoding="utf-8")
    words: Words = json.loads(text)
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
