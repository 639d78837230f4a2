"""From a verified diagram to its picture: the one place that maps claims to markers.

The command line's ``render``, the contact sheet and the rules site all draw
diagrams through :func:`diagram_svg`, so a diagram looks the same wherever it
appears.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .._files import write_atomically, write_text_atomically
from ..diagram import Failure, VerifiedDiagram, verify_paths
from ..engine.board import Square
from ..engine.position import Position
from ._geometry import Layout, square_boxes
from .markers import Markers
from .svg import SvgPicture, render_picture

__all__ = [
    "ImageFormat",
    "RenderReport",
    "diagram_markers",
    "diagram_svg",
    "exercise_squares",
    "exercise_svg",
    "render_files",
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
    return render_picture(
        diagram.position if position is None else position,
        diagram_id=diagram.id,
        markers=diagram_markers(verified) if markers is None else markers,
        title=title,
        description=description,
        numbers=diagram.show.numbers,
        arrows=diagram.show.arrows,
        flipped=diagram.show.flip,
        side_to_move=diagram.show.turn,
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


@dataclass(frozen=True, slots=True)
class RenderReport:
    """What :func:`render_files` did, for the caller to report as it likes."""

    out_dir: Path
    written: tuple[Path, ...]
    failures: tuple[Failure, ...]

    @property
    def ok(self) -> bool:
        """Something was checked and every diagram was drawn."""
        return bool(self.written) and not self.failures


def render_files(
    paths: Iterable[Path],
    out_dir: Path,
    *,
    image_format: ImageFormat = "svg",
    scale: float = 1.0,
) -> RenderReport:
    """Verify, then write ``<id>.<image_format>`` for every diagram that holds.

    A diagram whose claim fails is not drawn; it comes back in the report's
    ``failures``.
    """
    report = verify_paths(list(paths))
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for verified in report.verified:
        svg = diagram_svg(verified).svg
        target = out_dir / f"{verified.id}.{image_format}"
        if image_format == "png":
            from .png import svg_to_png

            raster = diagram_svg(verified, shared_shapes=False).svg
            write_atomically(target, svg_to_png(raster, scale=scale))
        elif image_format in ("gif", "webp"):
            from .animation import animate, capture_frames

            frames = capture_frames(verified)
            write_atomically(target, animate(frames, image_format=image_format, scale=scale))
        else:
            write_text_atomically(target, svg)
        written.append(target)
    return RenderReport(out_dir, tuple(written), report.failures)
