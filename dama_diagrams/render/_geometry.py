"""Where things sit, in user units of :data:`SQUARE` per square.

The pixel ``size`` of a picture only scales it, so all the geometry is integer
and the same at every size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..engine.board import SQUARES, Square, square_column, square_row

SQUARE: Final = 100
"""User units per square.  ``size`` only scales the picture."""

BOARD_SIZE: Final = 8 * SQUARE
FRAME: Final = 30
"""Width of the frame, which also holds the side-to-move indicator."""

PIECE_RADIUS: Final = 36

# Vertical offsets of a piece's face from the square centre: a piece is drawn
# with its thickness below it, so the face sits a little above the centre.
MAN_FACE: Final = -2
KING_FACE: Final = -5


def _make_corners(flipped: bool) -> dict[Square, tuple[int, int]]:
    corners = {}
    for square in SQUARES:
        row, column = square_row(square), square_column(square)
        if flipped:
            row, column = 7 - row, 7 - column
        corners[square] = (column * SQUARE, row * SQUARE)
    return corners


_CORNERS: Final = {False: _make_corners(False), True: _make_corners(True)}


def corner(square: Square, flipped: bool, margin: int) -> tuple[int, int]:
    """Top-left corner of a square, in user units."""
    return _CORNERS[flipped][square][0] + margin, _CORNERS[flipped][square][1] + margin


def centre(square: Square, flipped: bool, margin: int) -> tuple[int, int]:
    x, y = corner(square, flipped, margin)
    return x + SQUARE // 2, y + SQUARE // 2


@dataclass(frozen=True)
class Layout:
    """Where the board sits in the picture: frame and indicator margins."""

    margin: int
    width: int
    height: int

    @classmethod
    def of(cls, frame: bool, side_to_move: bool) -> Layout:
        if frame:
            return cls(FRAME, BOARD_SIZE + 2 * FRAME, BOARD_SIZE + 2 * FRAME)
        extra = FRAME if side_to_move else 0
        return cls(0, BOARD_SIZE + extra, BOARD_SIZE)


def square_boxes(layout: Layout, flipped: bool) -> dict[Square, tuple[float, float, float, float]]:
    """Each square as (left, top, width, height), percentages of the picture's size.

    A page lays its own controls over the picture with these: an exercise's
    squares to click.
    """
    boxes = {}
    for square in SQUARES:
        x, y = corner(square, flipped, layout.margin)
        boxes[square] = (
            round(100 * x / layout.width, 4),
            round(100 * y / layout.height, 4),
            round(100 * SQUARE / layout.width, 4),
            round(100 * SQUARE / layout.height, 4),
        )
    return boxes
