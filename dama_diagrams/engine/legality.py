"""Why a move is illegal, named the way the rules page names it.

The verifier uses this to check an ``illegal`` claim's ``reason``, and to say
what is really wrong when a diagram claims a move that the rules forbid.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .board import Color, square_row
from .move import Move, is_diagonal_step, jumped_square
from .position import Piece, Position
from .priority import explain


class IllegalReason(Enum):
    """The rule a move breaks, as :func:`illegal_reason` names it and ``illegal`` claims give it."""

    BACKWARD = "backward"
    MAN_TAKES_KING = "man-takes-king"
    CAPTURE_COMPULSORY = "capture-compulsory"
    PRIORITY = "priority"
    OCCUPIED = "occupied"
    NOT_DIAGONAL = "not-diagonal"
    NO_PIECE = "no-piece"
    NOTHING_TO_CAPTURE = "nothing-to-capture"
    JUMPED_TWICE = "jumped-twice"


@dataclass(frozen=True, slots=True)
class Illegality:
    reason: IllegalReason
    detail: str
    """An English sentence that names the squares involved."""


def illegal_reason(position: Position, move: Move) -> Illegality | None:
    """``None`` if ``move`` is legal, else the first rule it breaks."""
    if move in position.legal_moves():
        return None
    mover = position.piece_at(move.origin)
    if mover is None or mover.color is not position.turn:
        return Illegality(
            IllegalReason.NO_PIECE,
            f"there is no {position.turn.value} piece on {move.origin} "
            f"({position.turn.value} is to move)",
        )
    check = _capture_problem if move.is_capture else _quiet_problem
    problem = check(position, move, mover)
    if problem:
        return problem
    legal = " ".join(map(str, position.legal_moves()))
    if not move.is_capture:
        return Illegality(
            IllegalReason.CAPTURE_COMPULSORY,
            f"capturing is compulsory: the legal moves are {legal}",
        )
    candidate = explain(position).candidate(move)
    if candidate is None or candidate.rejected_by is None:
        return Illegality(
            IllegalReason.CAPTURE_COMPULSORY,
            f"the capture is not finished: the piece must capture on; the legal moves are {legal}",
        )
    rule = candidate.rejected_by
    return Illegality(
        IllegalReason.PRIORITY,
        f"priority rule {rule.number} ({rule.summary}) rules it out: the legal moves are {legal}",
    )


def _is_backward(mover: Piece, start: int, end: int) -> bool:
    if mover.king:
        return False
    rows_forward = square_row(start) - square_row(end)
    return rows_forward < 0 if mover.color is Color.WHITE else rows_forward > 0


def _quiet_problem(position: Position, move: Move, mover: Piece) -> Illegality | None:
    start, end = move.squares
    if not is_diagonal_step(start, end):
        hint = f"; a capture is written {start}x{end}" if jumped_square(start, end) else ""
        return Illegality(
            IllegalReason.NOT_DIAGONAL,
            f"{end} is not one diagonal step from {start}{hint}",
        )
    if position.piece_at(end) is not None:
        return Illegality(IllegalReason.OCCUPIED, f"square {end} is occupied")
    if _is_backward(mover, start, end):
        return Illegality(IllegalReason.BACKWARD, f"a man never moves backwards ({start}-{end})")
    return None


def _capture_problem(position: Position, move: Move, mover: Piece) -> Illegality | None:
    jumped: set[int] = set()
    for start, end in zip(move.squares, move.squares[1:], strict=False):
        over = jumped_square(start, end)
        if over is None:
            return Illegality(
                IllegalReason.NOT_DIAGONAL,
                f"{start}x{end} is not a diagonal jump over one square",
            )
        if _is_backward(mover, start, end):
            return Illegality(
                IllegalReason.BACKWARD, f"a man captures forwards only ({start}x{end})"
            )
        victim = position.piece_at(over)
        if victim is None or victim.color is mover.color:
            return Illegality(
                IllegalReason.NOTHING_TO_CAPTURE,
                f"{start}x{end} jumps {over}, which holds no {mover.color.opponent.value} piece",
            )
        if over in jumped:
            return Illegality(
                IllegalReason.JUMPED_TWICE,
                f"{start}x{end} jumps the piece on {over} a second time",
            )
        if victim.king and not mover.king:
            return Illegality(
                IllegalReason.MAN_TAKES_KING,
                f"a man may not capture a king (the king on {over})",
            )
        # Captured pieces stay on the board until the move ends; the origin is vacated.
        if end != move.origin and position.piece_at(end) is not None:
            return Illegality(
                IllegalReason.OCCUPIED, f"{start}x{end} lands on {end}, which is occupied"
            )
        jumped.add(over)
    return None
