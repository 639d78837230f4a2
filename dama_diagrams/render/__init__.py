"""Pictures of positions: SVG for the page, PNG from the very same SVG.

This stage sits after the engine and the diagram files so that drawing never
decides anything: it shows what the engine confirmed (:mod:`.figure`) and
nothing else, and it can change its looks without touching a rule.

The PNG and figure functions load lazily: cairosvg and the YAML loader are only
imported when first used, so ``import dama_diagrams`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from ..engine.pictures import register
from .legend import LEGEND_KEYS, legend_html, legend_svg
from .markers import Markers
from .svg import SvgPicture, render_picture, render_svg
from .theme import Theme

if TYPE_CHECKING:
    from ..diagram import VerifiedDiagram
    from .animation import Frame, animate, capture_frames
    from .figure import diagram_markers, diagram_svg, exercise_squares, exercise_svg
    from .files import RenderReport, render_files
    from .png import render_png, svg_to_png
    from .steps import CaptureStep, capture_steps


def _diagram_picture(verified: VerifiedDiagram) -> str:
    """A verified diagram as the site draws it (its title: the id)."""
    from .figure import diagram_svg

    return diagram_svg(verified).svg


register("position", render_svg)
register("diagram", _diagram_picture)
"""Notebooks show positions and verified diagrams as these pictures (``_repr_svg_``)."""

__all__ = [
    "LEGEND_KEYS",
    "CaptureStep",
    "Frame",
    "Markers",
    "RenderReport",
    "SvgPicture",
    "Theme",
    "animate",
    "capture_frames",
    "capture_steps",
    "diagram_markers",
    "diagram_svg",
    "exercise_squares",
    "exercise_svg",
    "legend_html",
    "legend_svg",
    "render_files",
    "render_picture",
    "render_png",
    "render_svg",
    "svg_to_png",
]

_LAZY = {
    "CaptureStep": "steps",
    "Frame": "animation",
    "capture_steps": "steps",
    "animate": "animation",
    "capture_frames": "animation",
    "RenderReport": "files",
    "diagram_markers": "figure",
    "diagram_svg": "figure",
    "exercise_squares": "figure",
    "exercise_svg": "figure",
    "render_files": "files",
    "render_png": "png",
    "svg_to_png": "png",
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals(), __all__)
