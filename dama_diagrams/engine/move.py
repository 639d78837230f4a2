"""Moves and their notation: ``22-19`` for a step, ``29x22x15x6`` for a capture."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from ..errors import MoveNotationError, shorten
from .board import Square, square_at, square_column, square_row

# At most two digits a square: longer numbers are refused before int() sees them.
_NOTATION = re.compile(r"[0-9]{1,2}(?:-[0-9]{1,2}|(?:x[0-9]{1,2})+)")  # ASCII digits only


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move as the squares it visits.

    A capture lists every landing square, so two capture sequences that end
    on the same square are still two different moves.
    """

    squares: tuple[Square, ...]
    is_capture: bool = False

    def __post_init__(self) -> None:
        if len(self.squares) < 2:
            raise MoveNotationError("a move needs a start square and at least one more square")
        if not self.is_capture and len(self.squares) != 2:
            raise MoveNotationError(
                "a move that is not a capture has exactly two squares, as in 22-19"
            )
        for square in self.squares:
            if not 1 <= square <= 32:
                raise MoveNotationError(f"square {square} is off the board (squares are 1-32)")
        for start, end in itertools.pairwise(self.squares):
            if start == end:
                raise MoveNotationError(
                    f"{self} goes from {start} to {start}: each step must reach another square"
                )

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``22-19`` or ``29x22x15x6``."""
        cleaned = text.strip()
        if not _NOTATION.fullmatch(cleaned):
            raise MoveNotationError(
                f"{shorten(text)} is not a move: write a step as 22-19 "
                "and a capture with every landing square, as 29x22x15x6"
            )
        is_capture = "x" in cleaned
        squares = tuple(int(part) for part in re.split("[-x]", cleaned))
        return cls(squares, is_capture)

    @property
    def origin(self) -> Square:
        return self.squares[0]

    @property
    def destination(self) -> Square:
        return self.squares[-1]

    @property
    def landings(self) -> tuple[Square, ...]:
        """The squares the piece lands on, in order (the end squares' markers)."""
        return self.squares[1:]

    @property
    def captured(self) -> tuple[Square, ...]:
        """The jumped squares, in order; empty if a hop is not a diagonal jump."""
        if not self.is_capture:
            return ()
        jumped = []
        for start, end in zip(self.squares, self.squares[1:], strict=False):
            middle = jumped_square(start, end)
            if middle is None:
                return ()
            jumped.append(middle)
        return tuple(jumped)

    def __str__(self) -> str:
        return ("x" if self.is_capture else "-").join(map(str, self.squares))


def jumped_square(start: Square, end: Square) -> Square | None:
    """The square between two squares two diagonal steps apart, else ``None``."""
    row_delta = square_row(end) - square_row(start)
    column_delta = square_column(end) - square_column(start)
    if abs(row_delta) != 2 or abs(column_delta) != 2:
        return None
    return square_at(square_row(start) + row_delta // 2, square_column(start) + column_delta // 2)


def is_diagonal_step(start: Square, end: Square) -> bool:
    """Whether ``end`` is one diagonal step from ``start``."""
    return (
        abs(square_row(end) - square_row(start)) == 1
        and abs(square_column(end) - square_column(start)) == 1
    )
