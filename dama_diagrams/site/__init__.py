"""The rules site: verified diagrams and page templates, in every language, through MkDocs.

The last stage of the package.  Inside it, one room per step, in the order the
data flows; a room imports only earlier ones:

1. :mod:`.i18n`: the PO catalogs, read and checked, and the translators' tools;
2. :mod:`.pages`: templates, catalogs and verified diagrams become Markdown
   pages, figures, exercises and social cards, in memory;
3. :mod:`.booklet`: those pages, written for print, become a PDF through Typst;
4. :mod:`.builder`: MkDocs and Material make each language's HTML, and the root;
5. :mod:`.publish`: ``build`` and ``booklet``, every language in worker
   processes, swapped into ``site/`` atomically;
6. :mod:`.servers`: ``preview``, ``serve`` and the MkDocs plugin;
7. :mod:`.fence`: the ``dama`` Markdown fence, which shows a verified diagram
   in a page of any site (MkDocs, Zensical, plain Python-Markdown); it takes
   from :mod:`.i18n` and :mod:`.pages` only;
8. :mod:`.editor`: ``dama-diagrams editor``, the board editor on 127.0.0.1
   where authors set up a position, ask the engine and save a diagram file;
   it shows each figure as the fence draws it, and nothing takes from it.

Two modules serve them all: :mod:`._common` (the error and the file layout) and
:mod:`.messages` (the code's own English words, which the catalogs translate).
Generated HTML is read back by the package's stage-neutral ``_html_tree``, and
text becomes Markdown's HTML within the limits of ``_markdown_text``, which the
diagram stage shares.  :func:`build_site` is ``dama-diagrams build``;
:func:`serve_site` is ``dama-diagrams serve``.

The names below load when first used: a command that needs only a catalog or
the project's layout never imports MkDocs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._common import SITE_MARKER, SiteError
    from .builder import new_language
    from .i18n import (
        Catalog,
        CatalogError,
        LanguageStatus,
        available_languages,
        catalog_status,
        load_catalog,
        update_translations,
    )
    from .pages import (
        Card,
        Figure,
        FigureView,
        PageError,
        PageRenderer,
        RenderedPage,
        draw_cards,
        figure_view,
        load_figures,
    )
    from .publish import BuildReport, LanguageSources, build_site, generate_language
    from .servers import serve_site

__all__ = [
    "SITE_MARKER",
    "BuildReport",
    "Card",
    "Catalog",
    "CatalogError",
    "Figure",
    "FigureView",
    "LanguageSources",
    "LanguageStatus",
    "PageError",
    "PageRenderer",
    "RenderedPage",
    "SiteError",
    "available_languages",
    "build_site",
    "catalog_status",
    "draw_cards",
    "figure_view",
    "generate_language",
    "load_catalog",
    "load_figures",
    "new_language",
    "serve_site",
    "update_translations",
]


_LAZY = {
    **dict.fromkeys(("SITE_MARKER", "SiteError"), "_common"),
    "new_language": "builder",
    **dict.fromkeys(
        ("Catalog", "CatalogError", "LanguageStatus", "available_languages", "catalog_status",
         "load_catalog", "update_translations"),
        "i18n",
    ),
    **dict.fromkeys(
        ("Card", "Figure", "FigureView", "PageError", "PageRenderer", "RenderedPage",
         "draw_cards", "figure_view", "load_figures"),
        "pages",
    ),
    **dict.fromkeys(
        ("BuildReport", "LanguageSources", "build_site", "generate_language"), "publish"
    ),
    "serve_site": "servers",
}  # fmt: skip
"""Where each name lives, in the room that makes it."""


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals(), __all__)
