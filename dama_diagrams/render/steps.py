"""A capture step by step: the start, each landing in turn, and the final position.

The pieces a capture jumps stay on the board, marked, until the move is
complete: in Italian draughts they come off only then.  Plain positions and
markers, so that the site (with titles in its language) and the animations
draw the same steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..diagram import VerifiedDiagram
from ..engine.move import Move
from ..engine.position import Piece, Position
from ..errors import PositionError
from .markers import NO_MARKERS, Markers

__all__ = ["FINAL_MS", "CaptureStep", "capture_steps"]

STEP_MS: Final = 900
"""How long each landing shows: time to see where the piece went and what it jumped."""
START_MS: Final = 1200
FINAL_MS: Final = 2500
"""The final position holds longer, before an animation starts again."""


@dataclass(frozen=True, slots=True)
class CaptureStep:
    """One step of a capture: the board and its markers, before any text is added.

    The site draws each step with a title in its own language; an animation
    draws it as it is.
    """

    position: Position
    markers: Markers
    milliseconds: int


def capture_steps(verified: VerifiedDiagram) -> list[CaptureStep]:
    """The start, each landing in turn, and the final position of the diagram's capture.

    A diagram that shows no capture has no steps.
    """
    position = verified.diagram.position
    move = verified.move
    if move is None or not move.is_capture:
        return []
    steps = [CaptureStep(position, NO_MARKERS, START_MS)]
    for step in range(1, len(move.squares)):
        markers = Markers(
            start=move.origin,
            landings=move.squares[1 : step + 1],
            captured=move.captured[:step],
            path=move.squares[: step + 1],
        )
        steps.append(CaptureStep(_after_landing(position, move, step), markers, STEP_MS))
    final = Markers(start=move.origin, landings=(move.destination,))
    steps.append(CaptureStep(position.play(move), final, FINAL_MS))
    return steps


def _after_landing(position: Position, move: Move, step: int) -> Position:
    """The board with the moving piece on its ``step``-th landing, nothing taken off yet."""
    pieces = position.pieces()
    mover = pieces.pop(move.origin)
    pieces[move.squares[step]] = mover
    try:
        return Position.from_pieces(position.turn, pieces)
    except PositionError:  # a man on the crowning row: it is crowned as it lands
        pieces[move.squares[step]] = Piece(mover.color, king=True)
        return Position.from_pieces(position.turn, pieces)
