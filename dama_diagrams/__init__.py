"""dama-diagrams: engine-checked Italian draughts diagrams and a multilingual rules site.

The package is four stages, each a subpackage that imports only the ones
before it: :mod:`.engine` (the rules), :mod:`.diagram` (diagram files, checked
by the engine), :mod:`.render` (their pictures) and :mod:`.site` (the rules
site).  The names below are what a user of the library needs; they load
lazily, so that ``import dama_diagrams`` stays fast.
"""

from __future__ import annotations

from ._lazy import lazy_names

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (see _start.py)

if TYPE_CHECKING:
    from ._notebook import DiagramFigure, figure
    from .diagram import (
        Diagram,
        VerifiedDiagram,
        VerifyReport,
        diagram_from_yaml,
        load_diagram,
        verify,
        verify_paths,
    )
    from .engine import (
        Color,
        GameOverReason,
        IllegalReason,
        Move,
        Outcome,
        Piece,
        Position,
        PriorityRule,
        Square,
        explain,
        illegal_reason,
    )
    from .errors import DamaError, DiagramError, IllegalMoveError, MoveNotationError, PositionError
    from .render import (
        Markers,
        SvgPicture,
        Theme,
        diagram_svg,
        render_picture,
        render_png,
        render_svg,
    )
    from .site import BuildReport, build_site
    from .site.fence import DamaFenceExtension, dama_fence, fence_html

__all__ = [
    "BuildReport",
    "Color",
    "DamaError",
    "DamaFenceExtension",
    "Diagram",
    "DiagramError",
    "DiagramFigure",
    "GameOverReason",
    "IllegalMoveError",
    "IllegalReason",
    "Markers",
    "Move",
    "MoveNotationError",
    "Outcome",
    "Piece",
    "Position",
    "PositionError",
    "PriorityRule",
    "Square",
    "SvgPicture",
    "Theme",
    "VerifiedDiagram",
    "VerifyReport",
    "build_site",
    "dama_fence",
    "diagram_from_yaml",
    "diagram_svg",
    "explain",
    "fence_html",
    "figure",
    "illegal_reason",
    "load_diagram",
    "render_picture",
    "render_png",
    "render_svg",
    "verify",
    "verify_paths",
]

_LAZY = {
    # through _notebook, which also loads the pictures that Jupyter shows them as
    **dict.fromkeys(
        ("DiagramFigure", "Position", "VerifiedDiagram", "figure", "load_diagram", "verify",
         "verify_paths"),
        "_notebook",
    ),
    **dict.fromkeys(
        ("Color", "GameOverReason", "IllegalReason", "Move", "Outcome", "Piece",
         "PriorityRule", "Square", "explain", "illegal_reason"),
        "engine",
    ),
    **dict.fromkeys(
        ("DamaError", "DiagramError", "IllegalMoveError", "MoveNotationError", "PositionError"),
        "errors",
    ),
    **dict.fromkeys(
        ("Diagram", "VerifyReport", "diagram_from_yaml"), "diagram"
    ),
    **dict.fromkeys(
        ("Markers", "SvgPicture", "Theme", "diagram_svg", "render_picture", "render_png",
         "render_svg"),
        "render",
    ),
    "BuildReport": "site",
    "build_site": "site",
    "DamaFenceExtension": "site.fence",
    "dama_fence": "site.fence",
    "fence_html": "site.fence",
}  # fmt: skip
"""Where each name lives: everything loads when first used, so that ``import`` stays fast
(and a Ctrl-C while the command line starts finds its handler already in place)."""


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals(), __all__)
