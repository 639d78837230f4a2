"""Stage 7 of the site, the fence: a verified diagram in a Markdown page of any site.

Takes the body of a ```` ```dama ```` fence (a diagram's YAML, or ``file:``
naming one), read and checked by :mod:`dama_diagrams.diagram.markdown`; the
figure code of :mod:`..pages` (view, pictures, HTML); and the figure's words,
copied from the catalogs of :mod:`..i18n` into the package (:mod:`.words`).
Gives the figure as HTML inside the page, pictures, style and scripts too
(:mod:`.figure`, :mod:`.assets`), and the ``pymdownx.superfences`` formatter
and validators that put it there in MkDocs, Zensical or plain
Python-Markdown (:mod:`.superfences`).  Nothing here writes a file; it takes
only from the earlier rooms; only the editor (:mod:`..editor`)
shows its figures too.
"""

from .extension import DamaFenceExtension
from .figure import fence_html
from .superfences import FenceError, dama_fence, format, locate, validator
from .words import LANGUAGES, fence_catalog

__all__ = [
    "LANGUAGES",
    "DamaFenceExtension",
    "FenceError",
    "dama_fence",
    "fence_catalog",
    "fence_html",
    "format",
    "locate",
    "validator",
]
