"""From a verified diagram to its picture: the one place that maps claims to markers.

The command line's ``render``, the contact sheet and the rules site all draw
diagrams through :func:`diagram_svg`, so a diagram looks the same wherever it
appears.
"""

from __future__ import annotations

from typing import Literal

from ..diagram import VerifiedDiagram
from ..engine.board import Square
from ..engine.position import Position
from ._geometry import Layout, square_boxes
from .markers import Markers
from .svg import SvgPicture, render_picture

__all__ = [
    "ImageFormat",
    "diagram_markers",
    "diagram_svg",
    "exercise_squares",
    "exercise_svg",
]

ImageFormat = Literal["svg", "png", "gif", "webp"]
"""SVG and PNG draw the diagram; GIF and WebP animate its capture, landing by landing."""


def diagram_markers(verified: VerifiedDiagram) -> Markers:
    """Markers come from what the engine confirmed, never from the file alone."""
    return Markers.from_moves(verified.moves, rejected=verified.rejected)


def diagram_svg(
    verified: VerifiedDiagram,
    *,
    title: str | None = None,
    description: str | None = None,
    size: int = 400,
    position: Position | None = None,
    markers: Markers | None = None,
    shared_shapes: bool = True,
) -> SvgPicture:
    """The picture of a verified diagram, with its display options applied.

    ``position`` and ``markers`` replace the diagram's own for a step of its
    move (the frames of an animation); by default the picture shows what the
    engine confirmed.  Without ``shared_shapes``, the picture is for cairosvg
    (see :func:`.svg.render_picture`).
    """
    diagram = verified.diagram
    shown = diagram.position if position is None else position
    return render_picture(
        shown,
        diagram_id=diagram.id,
        markers=diagram_markers(verified) if markers is None else markers,
        title=title,
        description=description,
        numbers=diagram.show.numbers,
        arrows=diagram.show.arrows,
        flipped=diagram.show.flip,
        side_to_move=diagram.show.turn and bool(shown.pieces()),  # an empty board: nobody
        size=size,
        shared_shapes=shared_shapes,
    )


def exercise_svg(
    verified: VerifiedDiagram,
    *,
    title: str | None = None,
    description: str | None = None,
    size: int = 400,
) -> SvgPicture:
    """An exercise's board: the position alone, every square numbered, nothing marked.

    The reader finds the move on it, so it shows no marker that gives the answer away.
    """
    diagram = verified.diagram
    return render_picture(
        diagram.position,
        diagram_id=f"{diagram.id}-exercise",
        title=title,
        description=description,
        numbers="all",
        flipped=diagram.show.flip,
        side_to_move=diagram.show.turn,
        size=size,
    )


def exercise_squares(verified: VerifiedDiagram) -> dict[Square, tuple[float, float, float, float]]:
    """Where each square sits on :func:`exercise_svg`'s picture, as percentages."""
    show = verified.diagram.show
    return square_boxes(Layout.of(True, show.turn), show.flip)
