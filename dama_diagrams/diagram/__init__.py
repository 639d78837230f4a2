"""Diagrams: hand-written YAML files read strictly, then checked by the engine.

This stage sits between the engine and the renderer so that nothing is drawn
or published unless its file is well formed (:mod:`.schema`) and the engine
confirms its claim (:mod:`.verify`).  Every error names the file and the line.

The attribute ``verify`` of this package is the function, not the module;
``from dama_diagrams.diagram.verify import ...`` still reaches the module.
"""

from .schema import Claim, Diagram, Show, diagram_id, load_diagram, parse_diagram
from .verify import (
    Failure,
    VerifiedDiagram,
    VerifyReport,
    check_file,
    diagram_paths,
    verify,
    verify_directory,
    verify_paths,
)

__all__ = [
    "Claim",
    "Diagram",
    "Failure",
    "Show",
    "VerifiedDiagram",
    "VerifyReport",
    "check_file",
    "diagram_id",
    "diagram_paths",
    "load_diagram",
    "parse_diagram",
    "verify",
    "verify_directory",
    "verify_paths",
]
