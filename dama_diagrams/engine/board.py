"""Board geometry: square numbers, rows and columns, and the bitboard layout.

Squares are numbered 1-32 as in the FID notation: left to right, top to bottom,
from Black's side.  Square 1 is the top-left corner, square 32 the bottom-right
one (which is dark).  White starts on 21-32 and moves up the board.

Internally a side's pieces are a Python ``int`` used as a bitboard.  The bit
layout has one unused "ghost" bit after every pair of rows, so that a diagonal
step is always the same shift (4 or 5) and a step off the left or right edge
lands on a ghost bit, which is never part of :data:`BOARD`.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import TypeAlias

Square: TypeAlias = int
"""A square number, 1-32."""

Bitboard: TypeAlias = int
"""A set of squares as bits of the ghost-padded layout."""

SQUARES: tuple[Square, ...] = tuple(range(1, 33))


class Color(Enum):
    """The two sides.  White moves first and up the board."""

    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


def square_row(square: Square) -> int:
    """Row 0 is Black's back row (squares 1-4), row 7 is White's (29-32)."""
    return (square - 1) // 4


def square_column(square: Square) -> int:
    """Column 0 is the left edge.  Even rows start dark, odd rows start light."""
    row, index = divmod(square - 1, 4)
    return 2 * index + (1 if row % 2 else 0)


def square_at(row: int, column: int) -> Square | None:
    """The dark square at (row, column), or ``None`` for a light or off-board one."""
    if not (0 <= row < 8 and 0 <= column < 8) or (row + column) % 2:
        return None
    return row * 4 + column // 2 + 1


DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
"""The four diagonal directions as (rows, columns); rows count towards White's side."""


def offset(square: Square, rows: int, columns: int) -> Square | None:
    """The dark square ``rows`` rows and ``columns`` columns away (each from -2 to 2), or ``None``.

    A table lookup: the finder asks this for every square of many thousand positions.
    """
    return _OFFSETS[square, rows, columns]


def _bit_index(square: Square) -> int:
    row, index = divmod(square - 1, 4)
    return 4 * row + index + (row + 1) // 2


_OFFSETS: dict[tuple[Square, int, int], Square | None] = {
    (square, rows, columns): square_at(square_row(square) + rows, square_column(square) + columns)
    for square in SQUARES
    for rows in range(-2, 3)
    for columns in range(-2, 3)
}

BIT: tuple[Bitboard, ...] = (0, *(1 << _bit_index(s) for s in SQUARES))
"""``BIT[square]`` is the one-bit bitboard of a square (``BIT[0]`` is unused)."""

SQUARE_OF_BIT: dict[Bitboard, Square] = {BIT[s]: s for s in SQUARES}

BOARD: Bitboard = sum(BIT[1:])
"""Every playable square; the ghost bits are excluded."""

WHITE_CROWN_ROW: Bitboard = BIT[1] | BIT[2] | BIT[3] | BIT[4]
"""Where a white man is crowned (Black's back row)."""

BLACK_CROWN_ROW: Bitboard = BIT[29] | BIT[30] | BIT[31] | BIT[32]
"""Where a black man is crowned (White's back row)."""

# Diagonal steps as shifts.  "Up" is towards square 1: a right shift.
UP_LEFT = 5
UP_RIGHT = 4
DOWN_LEFT = -4
DOWN_RIGHT = -5

UP_STEPS = (UP_LEFT, UP_RIGHT)
DOWN_STEPS = (DOWN_LEFT, DOWN_RIGHT)
ALL_STEPS = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)


def shift(bitboard: Bitboard, step: int) -> Bitboard:
    """Move every bit one diagonal step; bits that leave the board are dropped."""
    return (bitboard >> step if step > 0 else bitboard << -step) & BOARD


def squares_of(bitboard: Bitboard) -> list[Square]:
    """The squares of a bitboard, in ascending square order."""
    found = []
    while bitboard:
        low = bitboard & -bitboard
        found.append(SQUARE_OF_BIT[low])
        bitboard ^= low
    found.sort()
    return found


def bitboard_of(squares: Iterable[Square]) -> Bitboard:
    """The bitboard of some square numbers (assumed valid)."""
    result = 0
    for square in squares:
        result |= BIT[square]
    return result
