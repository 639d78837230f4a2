"""The moves a player might try: every diagonal step or jump the pieces could make.

The rules allow far fewer moves than these.  An exercise needs the others
too, to say why a reader's try is wrong ("a man never captures backwards"),
and the finder needs them to look for an ``illegal`` claim of each reason.
A try steps one square in any direction, or jumps any opposing piece in any
direction (a man over a king too), and a capture may stop at any landing:
everything :func:`~.legality.illegal_reason` can name, except moves that
could not be drawn on the board (onto an occupied square, over nothing).
"""

from __future__ import annotations

from .board import DIAGONALS, Square, offset
from .move import Move
from .position import Position


def plausible_moves(position: Position) -> list[Move]:
    """Every try for the side to move, legal or not, sorted."""
    pieces = position.pieces()
    tries: list[Move] = []
    for origin, piece in pieces.items():
        if piece.color is not position.turn:
            continue
        for row_step, column_step in DIAGONALS:
            target = offset(origin, row_step, column_step)
            if target is not None and target not in pieces:
                tries.append(Move((origin, target)))
        _extend_jumps(position, (origin,), frozenset(), tries)
    return sorted(tries)


def _extend_jumps(
    position: Position, path: tuple[Square, ...], jumped: frozenset[Square], tries: list[Move]
) -> None:
    here = path[-1]
    origin = path[0]
    for row_step, column_step in DIAGONALS:
        over = offset(here, row_step, column_step)
        landing = offset(here, 2 * row_step, 2 * column_step)
        if over is None or landing is None or over in jumped:
            continue
        victim = position.piece_at(over)
        if victim is None or victim.color is position.turn:
            continue
        if landing != origin and position.piece_at(landing) is not None:
            continue
        longer = (*path, landing)
        tries.append(Move(longer, is_capture=True))
        _extend_jumps(position, longer, jumped | {over}, tries)
