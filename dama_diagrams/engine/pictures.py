"""Where a notebook asks for a picture: the engine names the place, the render stage fills it.

Jupyter shows an object as SVG when it has ``_repr_svg_``, as python-chess
boards do.  A :class:`~.position.Position` and a verified diagram have it,
but drawing is a later stage than the engine and the diagrams, which may not
import it.  So the render stage registers its drawing functions here when it
is imported (``dama_diagrams.Position`` and ``dama_diagrams.VerifiedDiagram``
import it); before that, ``_repr_svg_`` gives None and a notebook shows the text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_DRAWERS: dict[str, Callable[[Any], str]] = {}


def register(kind: str, draw: Callable[[Any], str]) -> None:
    """How the render stage draws ``kind`` ("position", "diagram") as SVG text."""
    _DRAWERS[kind] = draw


def picture(kind: str, thing: object) -> str | None:
    """The SVG of ``thing`` when a drawer is registered for its kind, else None."""
    draw = _DRAWERS.get(kind)
    return None if draw is None else draw(thing)
