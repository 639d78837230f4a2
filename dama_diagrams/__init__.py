"""dama-diagrams: engine-checked Italian draughts diagrams and a multilingual rules site."""

from .engine.board import Color, Square
from .engine.move import Move
from .engine.position import GameOverReason, Outcome, Piece, Position
from .errors import DamaError, DiagramError, IllegalMoveError, MoveNotationError, PositionError
from .render import Markers, Theme, render_svg

__all__ = [
    "Color",
    "DamaError",
    "DiagramError",
    "GameOverReason",
    "IllegalMoveError",
    "Markers",
    "Move",
    "MoveNotationError",
    "Outcome",
    "Piece",
    "Position",
    "PositionError",
    "Square",
    "Theme",
    "render_svg",
]
