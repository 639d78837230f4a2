"""Diagrams: hand-written YAML files read strictly, then checked by the engine.

This stage sits between the engine and the renderer so that nothing is drawn
or published unless its file is well formed (:mod:`.schema`) and the engine
confirms its claim (:mod:`.claims`, and :mod:`.report` for many files at
once).  Every error names the file and the line.  A diagram may also live in a
Markdown page, in a ```` ```dama ```` fence (:mod:`.markdown`), and editors
check the files' shape with the JSON Schema of :mod:`.json_schema`.
"""

from .claims import VerifiedDiagram, verify
from .options import Claim, Show
from .report import (
    Failure,
    VerifyReport,
    check_file,
    diagram_paths,
    verify_directory,
    verify_paths,
)
from .schema import Diagram, diagram_from_yaml, diagram_id, load_diagram, parse_diagram

__all__ = [
    "Claim",
    "Diagram",
    "Failure",
    "Show",
    "VerifiedDiagram",
    "VerifyReport",
    "check_file",
    "diagram_from_yaml",
    "diagram_id",
    "diagram_paths",
    "load_diagram",
    "parse_diagram",
    "verify",
    "verify_directory",
    "verify_paths",
]
