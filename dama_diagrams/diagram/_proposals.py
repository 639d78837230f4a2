"""What the finder proposes: random positions built around captures, and the move to show.

Random positions rarely hold a capture worth a diagram, so the generator
places the opponent's pieces where the side to move could jump them, one
landing after another, which makes long captures and rival captures common.
It only proposes: each ``match_*`` function asks the engine what the
position really holds, and the finder verifies the diagram it writes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import _rules as rules
from ..engine.attempts import plausible_moves
from ..engine.board import (
    BIT,
    BLACK_CROWN_ROW,
    DIAGONALS,
    SQUARES,
    WHITE_CROWN_ROW,
    Color,
    Square,
    bitboard_of,
    offset,
)
from ..engine.legality import IllegalReason, illegal_reason
from ..engine.move import Move
from ..engine.position import MAX_PIECES, GameOverReason, Piece, Position
from ..engine.priority import PriorityRule, explain

# == Positions ================================================================


@dataclass(frozen=True, slots=True)
class Shape:
    """What the generator must respect: the side to move, kings, and whether it has pieces."""

    side: Color | None = None
    kings: bool | None = None
    """``True``: at least one king; ``False``: none; ``None``: either."""
    mover_has_pieces: bool = True


def random_position(rng: random.Random, pieces: int, shape: Shape) -> Position:
    """A valid position of exactly ``pieces`` pieces, most of them within capturing reach."""
    turn = shape.side if shape.side is not None else rng.choice((Color.WHITE, Color.BLACK))
    if shape.mover_has_pieces:
        # Few of the side to move's pieces, many to capture; at most 12 a side.
        least, most = max(1, pieces - MAX_PIECES), min(pieces - 1, MAX_PIECES)
        own = min(rng.randint(least, most), rng.randint(least, most))
    else:
        own = 0
    colors = [turn] * own + [turn.opponent] * min(pieces - own, MAX_PIECES)
    kings = [_is_king(rng, shape.kings) for _ in colors]
    if shape.kings and not any(kings):
        kings[rng.randrange(len(kings))] = True
    board: dict[Square, Piece] = {}
    anchors: list[Square] = []
    for color, king in zip(colors, kings, strict=True):
        piece = Piece(color, king)
        square = _near(rng, board, anchors, piece) if color is not turn else None
        if square is None and color is turn and anchors and rng.random() < 0.5:
            square = _near(rng, board, anchors, piece)
        if square is None:
            square = _anywhere(rng, board, piece)
        board[square] = piece
        if color is turn:
            anchors.append(square)
    return _position(turn, board)


def _is_king(rng: random.Random, kings: bool | None) -> bool:
    return False if kings is False else rng.random() < 0.35


def _allowed(square: Square, piece: Piece) -> bool:
    """A man never stands on its own crowning row."""
    if piece.king:
        return True
    crown = WHITE_CROWN_ROW if piece.color is Color.WHITE else BLACK_CROWN_ROW
    return not BIT[square] & crown


_ROOM = {
    piece: tuple(square for square in SQUARES if _allowed(square, piece))
    for piece in (Piece(color, king) for color in Color for king in (False, True))
}
"""The squares each kind of piece may stand on."""


def _near(
    rng: random.Random, board: dict[Square, Piece], anchors: list[Square], piece: Piece
) -> Square | None:
    """A square next to an anchor with room to land behind it; its landing becomes an anchor."""
    if not anchors or rng.random() < 0.15:
        return None
    anchor = rng.choice(anchors)
    rows, columns = rng.choice(DIAGONALS)
    over = offset(anchor, rows, columns)
    landing = offset(anchor, 2 * rows, 2 * columns)
    if over is None or over in board or not _allowed(over, piece):
        return None
    if landing is not None and landing not in board:
        anchors.append(landing)
    return over


def _anywhere(rng: random.Random, board: dict[Square, Piece], piece: Piece) -> Square:
    """A free square the piece may stand on; the board is never nearly full of its kind."""
    room = _ROOM[piece]
    while True:
        square = room[rng.randrange(len(room))]
        if square not in board:
            return square


def _position(turn: Color, board: dict[Square, Piece]) -> Position:
    """The position, built straight from bitboards: every square was checked when placed."""
    groups: dict[tuple[Color, bool], list[Square]] = {}
    for square, piece in board.items():
        groups.setdefault((piece.color, piece.king), []).append(square)
    return Position(
        turn,
        bitboard_of(groups.get((Color.WHITE, False), [])),
        bitboard_of(groups.get((Color.WHITE, True), [])),
        bitboard_of(groups.get((Color.BLACK, False), [])),
        bitboard_of(groups.get((Color.BLACK, True), [])),
    )


# == What a position shows ====================================================


@dataclass(frozen=True, slots=True)
class Proposal:
    """The keys of a diagram a position could make; the verifier has the last word."""

    move: Move | None = None
    moves: tuple[Move, ...] = ()
    rejected: tuple[Move, ...] = ()


Matcher = Callable[[Position], Proposal | None]


def _shortest(moves: list[Move]) -> Move | None:
    """The simplest of several moves: the fewest squares, a step before a jump, then in order."""
    return min(
        moves, key=lambda move: (len(move.squares), move.is_capture, move.squares), default=None
    )


def match_capture(min_captured: int) -> Matcher:
    def match(position: Position) -> Proposal | None:
        if not rules.has_capture(position.state):
            return None
        moves = [m for m in position.legal_moves() if len(m.captured) >= min_captured]
        move = _shortest(moves)
        return None if move is None else Proposal(move=move)

    return match


def match_priority(rule: PriorityRule) -> Matcher:
    """A clean example: ``rule`` alone rules captures out, and one capture is left."""

    def match(position: Position) -> Proposal | None:
        if not rules.has_capture(position.state):
            return None
        explanation = explain(position)
        legal = explanation.legal_moves
        if len(legal) != 1 or explanation.deciding_rules != (rule,):
            return None
        rejected = tuple(candidate.move for candidate in explanation.rejected)
        return Proposal(move=legal[0], rejected=rejected)

    return match


def match_free_choice(position: Position) -> Proposal | None:
    if not rules.has_capture(position.state):
        return None
    legal = explain(position).legal_moves
    return Proposal(moves=legal) if len(legal) >= 2 else None


def match_promotion(position: Position) -> Proposal | None:
    """A man's capture onto its crowning row (the verifier checks a king would go on)."""
    if not rules.has_capture(position.state):
        return None
    crown = WHITE_CROWN_ROW if position.turn is Color.WHITE else BLACK_CROWN_ROW
    men = position.squares(position.turn, king=False)
    moves = [
        move
        for move in position.legal_moves()
        if move.origin in men and BIT[move.destination] & crown
    ]
    move = _shortest(moves)
    return None if move is None else Proposal(move=move)


def match_game_over(reason: GameOverReason) -> Matcher:
    def match(position: Position) -> Proposal | None:
        outcome = position.outcome()
        return Proposal() if outcome is not None and outcome.reason is reason else None

    return match


def match_illegal(reason: IllegalReason) -> Matcher:
    """The simplest try that the engine refuses for ``reason``, and for no other."""
    tries = _TRIES.get(reason, plausible_moves)

    def match(position: Position) -> Proposal | None:
        if reason is IllegalReason.PRIORITY and not explain(position).rejected:
            return None
        found = []
        for attempt in tries(position):
            illegality = illegal_reason(position, attempt)
            if illegality is not None and illegality.reason is reason:
                found.append(attempt)
        move = _shortest(found)
        return None if move is None else Proposal(move=move)

    return match


# == Tries the rules name, beyond plausible_moves =============================


def _own(position: Position) -> dict[Square, Piece]:
    return {s: p for s, p in position.pieces().items() if p.color is position.turn}


def _forward(piece: Piece) -> tuple[tuple[int, int], ...]:
    """The directions a piece moves in: a man's two forward ones, a king's four."""
    if piece.king:
        return DIAGONALS
    rows = -1 if piece.color is Color.WHITE else 1
    return ((rows, -1), (rows, 1))


def _onto_occupied(position: Position) -> list[Move]:
    """Steps onto a piece, and jumps that land on one."""
    pieces = position.pieces()
    tries = []
    for origin, piece in _own(position).items():
        for rows, columns in _forward(piece):
            target = offset(origin, rows, columns)
            landing = offset(origin, 2 * rows, 2 * columns)
            if target in pieces:
                tries.append(Move((origin, target)))
                if landing in pieces:
                    tries.append(Move((origin, landing), is_capture=True))
    return tries


def _not_diagonal(position: Position) -> list[Move]:
    """Straight moves to empty squares: two rows ahead, or two columns aside."""
    pieces = position.pieces()
    tries = []
    for origin, piece in _own(position).items():
        ahead = -2 if piece.color is Color.WHITE else 2
        for rows, columns in ((ahead, 0), (0, -2), (0, 2)):
            target = offset(origin, rows, columns)
            if target is not None and target not in pieces:
                tries.append(Move((origin, target)))
    return tries


def _no_piece(position: Position) -> list[Move]:
    """The opponent's own steps: a move for the side that is not to move."""
    pieces = position.pieces()
    tries = []
    for origin, piece in pieces.items():
        if piece.color is position.turn:
            continue
        for rows, columns in _forward(piece):
            target = offset(origin, rows, columns)
            if target is not None and target not in pieces:
                tries.append(Move((origin, target)))
    return tries


def _nothing_to_capture(position: Position) -> list[Move]:
    """Jumps over an empty square or an own piece, to an empty square."""
    pieces = position.pieces()
    tries = []
    for origin, piece in _own(position).items():
        for rows, columns in _forward(piece):
            over = offset(origin, rows, columns)
            landing = offset(origin, 2 * rows, 2 * columns)
            if over is None or landing is None or landing in pieces:
                continue
            victim = pieces.get(over)
            if victim is None or victim.color is position.turn:
                tries.append(Move((origin, landing), is_capture=True))
    return tries


def _jumped_twice(position: Position) -> list[Move]:
    """Jump sequences that go back over a piece they already jumped."""
    pieces = position.pieces()
    tries = []
    for attempt in plausible_moves(position):
        if not attempt.is_capture:
            continue
        jumped = set(attempt.captured)
        here = attempt.destination
        for rows, columns in DIAGONALS:
            over = offset(here, rows, columns)
            landing = offset(here, 2 * rows, 2 * columns)
            back = landing is not None and (landing == attempt.origin or landing not in pieces)
            if over in jumped and back and landing is not None:
                tries.append(Move((*attempt.squares, landing), is_capture=True))
    return tries


_TRIES: dict[IllegalReason, Callable[[Position], list[Move]]] = {
    IllegalReason.OCCUPIED: _onto_occupied,
    IllegalReason.NOT_DIAGONAL: _not_diagonal,
    IllegalReason.NO_PIECE: _no_piece,
    IllegalReason.NOTHING_TO_CAPTURE: _nothing_to_capture,
    IllegalReason.JUMPED_TWICE: _jumped_twice,
}
