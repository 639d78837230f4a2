"""What a diagram marks, as plain data: :class:`Markers`.

Kept apart from the drawing so that a caller can build and check markers (from
verified moves, or by hand) without knowing anything about SVG.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from ..engine.board import Square
from ..engine.move import Move, jumped_square

__all__ = ["Markers", "path_move"]


def _check_square(square: object, what: str) -> Square:
    if not isinstance(square, int) or isinstance(square, bool) or not 1 <= square <= 32:
        raise ValueError(f"{what}: {square!r} is not a square number (squares are 1-32)")
    return square


@dataclass(frozen=True)
class Markers:
    """What a diagram marks: the move's squares, its captures and rejected moves.

    Plain data, so a caller can mark squares without a move; usually built
    with :meth:`from_move` or :meth:`from_moves` from verified moves.
    ``alternatives`` are other legal moves drawn beside the main one (a free
    choice, or every step of a king), in the same solid style.
    """

    start: Square | None = None
    landings: tuple[Square, ...] = ()
    captured: tuple[Square, ...] = ()
    path: tuple[Square, ...] = ()
    rejected: tuple[tuple[Square, ...], ...] = ()
    alternatives: tuple[tuple[Square, ...], ...] = ()

    def __post_init__(self) -> None:
        # Accept lists from callers but store tuples, so Markers stay hashable.
        for name in ("landings", "captured", "path"):
            squares = tuple(getattr(self, name))
            for square in squares:
                _check_square(square, name)
            object.__setattr__(self, name, squares)
        for name in ("rejected", "alternatives"):
            paths = tuple(tuple(path) for path in getattr(self, name))
            for path in (*paths, *((self.path,) if self.path else ())):
                if len(path) < 2:
                    raise ValueError(f"{name}: {path!r} needs a start square and a landing")
                if any(a == b for a, b in itertools.pairwise(path)):
                    raise ValueError(f"{name}: {path!r} repeats a square; a move goes somewhere")
                for square in path:
                    _check_square(square, name)
            object.__setattr__(self, name, paths)
        if self.start is not None:
            _check_square(self.start, "start")

    @classmethod
    def from_move(cls, move: Move | str, rejected: Iterable[Move | str] = ()) -> Markers:
        """The markers of a move: start, landings in order, captured pieces, path."""
        move = Move.parse(move) if isinstance(move, str) else move
        return cls(
            start=move.origin,
            landings=move.landings,
            captured=move.captured,
            path=move.squares,
            rejected=tuple((Move.parse(m) if isinstance(m, str) else m).squares for m in rejected),
        )

    @classmethod
    def from_moves(
        cls, moves: Iterable[Move | str], rejected: Iterable[Move | str] = ()
    ) -> Markers:
        """Several legal moves: the first as the main one, the others as alternatives.

        Every captured piece of every move is marked.  With no move at all, the
        first rejected move's piece gets the start marker (an illegal move).
        """
        shown = [Move.parse(m) if isinstance(m, str) else m for m in moves]
        refused = tuple(Move.parse(m) if isinstance(m, str) else m for m in rejected)
        if not shown:
            start = refused[0].origin if refused else None
            return cls(start=start, rejected=tuple(m.squares for m in refused))
        main = cls.from_move(shown[0], refused)
        captured = tuple(dict.fromkeys(s for move in shown for s in move.captured))
        alternatives = tuple(move.squares for move in shown[1:])
        return cls(
            start=main.start,
            landings=main.landings,
            captured=captured,
            path=main.path,
            rejected=main.rejected,
            alternatives=alternatives,
        )

    @property
    def squares(self) -> frozenset[Square]:
        """Every marked square: these get a number in ``numbers="marked"`` mode."""
        marked = set(self.landings) | set(self.captured) | set(self.path)
        if self.start is not None:
            marked.add(self.start)
        for path in (*self.rejected, *self.alternatives):
            marked.update(path)
        return frozenset(marked)

    @property
    def landing_sequences(self) -> tuple[tuple[Square, ...], ...]:
        """The landings of the main move, then of each alternative, each in order."""
        main = (self.landings,) if self.landings else ()
        return main + tuple(path[1:] for path in self.alternatives)


NO_MARKERS: Final = Markers()
"""An unmarked diagram."""


def path_move(path: tuple[Square, ...], *, captures: bool = False) -> Move | None:
    """The move a marker path stands for, if it is one.

    A path of several hops, or one jump over a square, is a capture; so is any
    path when ``captures`` says its move takes pieces.
    """
    if len(path) < 2:
        return None
    is_capture = captures or len(path) > 2 or jumped_square(path[0], path[1]) is not None
    try:
        return Move(path, is_capture=is_capture)
    except ValueError:
        return None
