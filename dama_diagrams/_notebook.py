"""Positions and verified diagrams for notebooks: loaded with the pictures Jupyter shows.

``dama_diagrams.Position``, ``dama_diagrams.VerifiedDiagram`` and the functions
that give verified diagrams come from here, so that the render stage is loaded
with them and has registered how to draw them
(:mod:`dama_diagrams.engine.pictures`): in Jupyter a position shows as its board.

A verified diagram shows as its whole figure, as a ``dama`` fence draws it:
board, caption, move, legend and the engine's line (``_repr_html_``, given to
:class:`VerifiedDiagram` here, above every stage, because the fence is the
site's); :func:`figure` gives it in another language.  Its ``_repr_svg_`` is
still the board alone.  The site's figure code loads only when a figure is
first shown, and needs none of the ``site`` extra (MkDocs, Typst, cairo).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import render  # noqa: F401  (it registers the pictures)
from .diagram import VerifiedDiagram, load_diagram, verify, verify_paths
from .engine import Position

__all__ = [
    "DiagramFigure",
    "Position",
    "VerifiedDiagram",
    "figure",
    "load_diagram",
    "verify",
    "verify_paths",
]

DEFAULT_LANGUAGE = "en"
"""The language a verified diagram speaks when Jupyter shows it (the fence's own default)."""


@dataclass(frozen=True, repr=False)
class DiagramFigure:
    """A verified diagram's whole figure in one language, as HTML: Jupyter shows it.

    ``html`` is self-contained (its style inside, its pictures as ``data:``
    addresses), so it may also be written into any HTML page.
    """

    diagram: VerifiedDiagram
    lang: str
    html: str

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return f"<DiagramFigure {self.diagram.id!r} lang={self.lang!r}>"


def figure(verified: VerifiedDiagram, lang: str = DEFAULT_LANGUAGE) -> DiagramFigure:
    """A verified diagram's figure in ``lang`` (nl, it, en, de, fr or es), as the fence draws it.

    Board, caption, move, legend and the engine's line; a capture of several
    pieces gets the step controls where the notebook runs scripts.  Raises
    :class:`~dama_diagrams.errors.DamaError` for a language the figure does not speak.
    """
    if not isinstance(verified, VerifiedDiagram):
        raise TypeError(
            f"figure() draws a verified diagram, not {type(verified).__name__}: "
            "pass it dama_diagrams.verify(diagram)"
        )
    from .site.fence.notebook import notebook_html

    return DiagramFigure(verified, lang, notebook_html(verified, lang))


def _figure_html(verified: VerifiedDiagram) -> str:
    """A verified diagram in Jupyter: its whole figure, in English."""
    return figure(verified).html


VerifiedDiagram._repr_html_ = _figure_html  # type: ignore[attr-defined]
