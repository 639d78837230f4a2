"""The rules site: verified diagrams and page templates, in every language, through MkDocs.

The last stage.  It takes the diagrams that the engine confirmed
(:mod:`dama_diagrams.diagram`) and their pictures (:mod:`dama_diagrams.render`),
fills the page templates from each language's catalog, and runs one MkDocs
build per language.  :func:`build_site` is ``dama-diagrams build``;
:func:`serve_site` is ``dama-diagrams serve``.
"""

from ._common import SITE_MARKER, SiteError
from .build import BuildReport, LanguageSources, build_site, generate_language
from .cards import Card, draw_cards
from .figures import Figure, FigureView, figure_view, load_figures
from .i18n import (
    Catalog,
    CatalogError,
    LanguageStatus,
    available_languages,
    catalog_status,
    load_catalog,
    new_language,
    update_translations,
)
from .nav import PageError
from .pages import PageRenderer, RenderedPage
from .serve import serve_site

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
