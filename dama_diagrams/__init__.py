"""dama-diagrams: engine-checked Italian draughts diagrams and a multilingual rules site.

The package is four stages, each a subpackage that imports only the ones
before it: :mod:`.engine` (the rules), :mod:`.diagram` (diagram files, checked
by the engine), :mod:`.render` (their pictures) and :mod:`.site` (the rules
site).  The names below are what a user of the library needs; the diagram and
site names load lazily, so that ``import dama_diagrams`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_names
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
from .render import Markers, SvgPicture, Theme, render_picture, render_svg

if TYPE_CHECKING:
    from .diagram import VerifiedDiagram, VerifyReport, load_diagram, verify, verify_paths
    from .render import diagram_svg, render_png
    from .site import BuildReport, build_site

__all__ = [
    "BuildReport",
    "Color",
    "DamaError",
    "DiagramError",
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
    "diagram_svg",
    "explain",
    "illegal_reason",
    "load_diagram",
    "render_picture",
    "render_png",
    "render_svg",
    "verify",
    "verify_paths",
]

_LAZY = {
    "VerifiedDiagram": "diagram",
    "VerifyReport": "diagram",
    "load_diagram": "diagram",
    "verify": "diagram",
    "verify_paths": "diagram",
    "diagram_svg": "render",
    "render_png": "render",
    "BuildReport": "site",
    "build_site": "site",
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals(), __all__)
