"""Stage 4 of the site, the builder: MkDocs and Material turn one language's pages into HTML.

Takes ``mkdocs.yml`` (:mod:`.config` reads it once and adds what each language
changes) and one language's generated pages.  Gives one strict MkDocs build of
that language (:mod:`.run`, with Material's templates compiled once per process
by :mod:`.templates` and :mod:`.compiled_theme`) and the site's root: the
language chooser and the root 404 page (:mod:`.root`).  Every import of MkDocs
at build time is here, so that another builder (Zensical) would replace this
room and no other.
"""

from .config import (
    BaseConfig,
    LanguageSettings,
    apply_language,
    check_theme_language,
    language_config,
    language_settings,
    new_language,
)
from .root import root_pages, site_path

__all__ = [
    "BaseConfig",
    "LanguageSettings",
    "apply_language",
    "check_theme_language",
    "language_config",
    "language_settings",
    "new_language",
    "root_pages",
    "site_path",
]
