"""``dama-diagrams render``: verified diagrams written as picture files, one per diagram.

Apart from :mod:`.figure`, which draws one picture, because a file may also be
an animation (:mod:`.animation`), itself made of :mod:`.figure`'s pictures.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .._files import make_output_folder, write_atomically, write_text_atomically
from ..diagram import Failure, verify_paths
from .animation import animate, capture_frames
from .figure import ImageFormat, diagram_svg
from .png import svg_to_png

__all__ = ["RenderReport", "render_files"]


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
    make_output_folder(out_dir)
    written = []
    for verified in report.verified:
        target = out_dir / f"{verified.id}.{image_format}"
        if image_format == "png":
            raster = diagram_svg(verified, shared_shapes=False).svg
            write_atomically(target, svg_to_png(raster, scale=scale))
        elif image_format in ("gif", "webp"):
            frames = capture_frames(verified)
            write_atomically(target, animate(frames, image_format=image_format, scale=scale))
        else:
            write_text_atomically(target, diagram_svg(verified).svg)
        written.append(target)
    return RenderReport(out_dir, tuple(written), report.failures)
