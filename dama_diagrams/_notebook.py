"""Positions and verified diagrams for notebooks: loaded with the pictures Jupyter shows.

``dama_diagrams.Position``, ``dama_diagrams.VerifiedDiagram`` and the functions
that give verified diagrams come from here, so that the render stage is loaded
with them and has registered how to draw them
(:mod:`dama_diagrams.engine.pictures`): in Jupyter each shows as its board.
"""

from __future__ import annotations

from . import render  # noqa: F401  (it registers the pictures)
from .diagram import VerifiedDiagram, load_diagram, verify, verify_paths
from .engine import Position

__all__ = ["Position", "VerifiedDiagram", "load_diagram", "verify", "verify_paths"]
