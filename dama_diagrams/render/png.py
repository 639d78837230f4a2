"""PNG diagrams: the SVG of :mod:`dama_diagrams.render.svg`, drawn by cairosvg.

The PNG is made from the very same SVG text that the site embeds, so the two
can never disagree about the position.  cairosvg writes no timestamp or other
metadata, so the same SVG gives the same PNG bytes on every run.
"""

from __future__ import annotations

from typing import Unpack

from ..engine.position import Position
from .svg import SvgOptions, render_svg

__all__ = ["render_png", "svg_to_png"]


def svg_to_png(
    svg_text: str,
    *,
    scale: float = 1.0,
    output_width: int | None = None,
    output_height: int | None = None,
    background_color: str | None = None,
) -> bytes:
    """Draw an SVG document as PNG bytes; ``scale`` multiplies its pixel size.

    ``output_width`` and ``output_height`` give the size in pixels instead, and
    ``background_color`` fills what the picture leaves transparent.  ``unsafe``
    stays off, so cairosvg never resolves external entities or fetches files
    while drawing.
    """
    if not scale > 0:
        raise ValueError(f"scale={scale!r}; the scale must be a positive number")
    # Imported here: cairocffi parses cairo's C declarations when imported (0.3 s), which
    # a command that draws no PNG (verify, booklet, a build whose cards are cached) never pays.
    import cairosvg  # type: ignore[import-untyped]  # cairosvg ships no type hints

    png: object = cairosvg.svg2png(
        bytestring=svg_text.encode("utf-8"),
        scale=scale,
        output_width=output_width,
        output_height=output_height,
        background_color=background_color,
    )
    if not isinstance(png, bytes):  # None only when given write_to, which we never do
        raise RuntimeError("cairosvg returned no PNG data")
    return png


def render_png(position: Position, *, scale: float = 1.0, **options: Unpack[SvgOptions]) -> bytes:
    """The diagram of :func:`dama_diagrams.render.svg.render_picture` as PNG bytes.

    The options are those of ``render_picture``; the picture is ``size * scale``
    pixels wide.  Pieces are drawn in full unless ``shared_shapes`` is given:
    cairosvg draws them three times faster so.
    """
    options.setdefault("shared_shapes", False)
    return svg_to_png(render_svg(position, **options), scale=scale)
