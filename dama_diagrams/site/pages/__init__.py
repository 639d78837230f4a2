"""Stage 2 of the site, the pages: verified diagrams, templates and a catalog become Markdown.

Takes the diagrams the engine confirmed (:mod:`dama_diagrams.diagram`), their
pictures (:mod:`dama_diagrams.render`), the page templates of ``docs/pages/``
and one language's :class:`~dama_diagrams.site.i18n.Catalog`.  Gives, in
memory, that language's Markdown pages (:mod:`.renderer`, on the Jinja
environment of :mod:`.page_templates` and the order of :mod:`.nav`), its
figures and their words (:mod:`.figures`, :mod:`.descriptions`), its exercises
(:mod:`.exercises`) and the social cards (:mod:`.cards`).  Catalog text goes in
only through :mod:`._markdown`, which keeps it text.  Nothing here knows MkDocs.
"""

from .cards import CARD_CACHE, Card, draw_cards, iter_cards
from .figures import DrawnFigure, Figure, FigureView, figure_view, load_figures
from .nav import PAGES_DIR, TEMPLATE_SUFFIX, PageError, load_nav, mkdocs_nav, page_names
from .page_templates import page_in_book
from .renderer import EXERCISES_PAGE, PageRenderer, RenderedPage

__all__ = [
    "CARD_CACHE",
    "EXERCISES_PAGE",
    "PAGES_DIR",
    "TEMPLATE_SUFFIX",
    "Card",
    "DrawnFigure",
    "Figure",
    "FigureView",
    "PageError",
    "PageRenderer",
    "RenderedPage",
    "draw_cards",
    "figure_view",
    "iter_cards",
    "load_figures",
    "load_nav",
    "mkdocs_nav",
    "page_in_book",
    "page_names",
]
