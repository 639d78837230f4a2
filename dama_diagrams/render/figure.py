"""From a verified diagram to its picture: the one place that maps claims to markers.

The command line's ``render`` and the rules site both draw diagrams through
:func:`diagram_svg`, so a diagram looks the same wherever it appears.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Literal, TextIO

from ..diagram.verify import VerifiedDiagram, verify_paths
from .svg import Markers, render_svg

ImageFormat = Literal["svg", "png"]


def diagram_markers(verified: VerifiedDiagram) -> Markers:
    """Markers come from what the engine confirmed, never from the file alone."""
    return Markers.from_moves(verified.moves, rejected=verified.rejected)


def diagram_svg(
    verified: VerifiedDiagram,
    *,
    title: str | None = None,
    description: str | None = None,
    size: int = 400,
) -> str:
    """The SVG of a verified diagram, with its display options applied."""
    diagram = verified.diagram
    return render_svg(
        diagram.position,
        diagram_id=diagram.id,
        markers=diagram_markers(verified),
        title=title,
        description=description,
        numbers=diagram.show.numbers,
        arrows=diagram.show.arrows,
        flipped=diagram.show.flip,
        size=size,
    )


def render_files(
    paths: Iterable[Path],
    out_dir: Path,
    *,
    image_format: ImageFormat = "svg",
    scale: float = 1.0,
    log: TextIO,
    errors: TextIO | None = None,
) -> int:
    """Verify, then write ``<id>.svg`` or ``<id>.png`` for every diagram that holds.

    A diagram whose claim fails is reported and not drawn.  Returns the exit
    code: 0 if every diagram was rendered, 1 otherwise.
    """
    report = verify_paths(list(paths))
    for failure in report.failures:
        print(str(failure.error), file=errors or log)
    out_dir.mkdir(parents=True, exist_ok=True)
    for verified in report.verified:
        svg = diagram_svg(verified)
        target = out_dir / f"{verified.id}.{image_format}"
        if image_format == "png":
            from .png import svg_to_png

            target.write_bytes(svg_to_png(svg, scale=scale))
        else:
            target.write_text(svg, encoding="utf-8")
    print(
        f"{len(report.verified)} diagram(s) rendered to {out_dir}"
        + (f", {len(report.failures)} refused" if report.failures else ""),
        file=log,
    )
    return 0 if report.ok else 1
