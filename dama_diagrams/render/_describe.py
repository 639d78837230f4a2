"""The default title and ``<desc>`` of a diagram, in English.

A picture needs words for screen readers even when the caller gives none; the
site passes its own translated text instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.board import Color
from ..engine.move import Move
from ..engine.position import Position
from .markers import Markers, path_move


def _and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _side_words(position: Position, color: Color) -> str:
    groups = []
    for king, one, many in ((False, "man", "men"), (True, "king", "kings")):
        squares = position.squares(color, king=king)
        if squares:
            noun = one if len(squares) == 1 else many
            groups.append(f"{noun} on {', '.join(map(str, squares))}")
    name = color.value.capitalize()
    return f"{name}: {'; '.join(groups) if groups else 'no pieces'}."


def _move_words(position: Position, move: Move) -> str:
    piece = position.piece_at(move.origin)
    if piece is None:
        who = f"The piece on {move.origin}"
    else:
        kind = "king" if piece.king else "man"
        who = f"{piece.color.value.capitalize()}'s {kind} on {move.origin}"
    captured = move.captured
    if move.is_capture and captured:
        landings = _and_list([str(s) for s in move.landings])
        taken = _and_list([str(s) for s in captured])
        return f"{who} captures {taken}, landing on {landings} ({move})."
    if move.is_capture:
        return f"{who} plays {move}."
    return f"{who} moves to {move.destination} ({move})."


def describe_position(
    position: Position,
    move: Move | str | None = None,
    *,
    rejected: Iterable[Move | str] = (),
    alternatives: Iterable[Move | str] = (),
) -> str:
    """The position (and move) read aloud in English.

    For example "White: men on 22, 23; king on 27. Black: men on 11, 18, 19.
    White to move."
    """
    parts = [
        _side_words(position, Color.WHITE),
        _side_words(position, Color.BLACK),
        f"{position.turn.value.capitalize()} to move.",
    ]
    if move is not None:
        parts.append(_move_words(position, Move.parse(move) if isinstance(move, str) else move))
    also = [str(m) for m in alternatives]
    if also:
        parts.append(f"Also legal: {_and_list(also)}.")
    not_allowed = [str(m) for m in rejected]
    if not_allowed:
        parts.append(f"Not allowed: {_and_list(not_allowed)}.")
    return " ".join(parts)


def default_title(markers: Markers) -> str:
    move = path_move(markers.path, captures=bool(markers.captured))
    if move is not None:
        return f"Italian draughts diagram: {move}"
    return "Italian draughts diagram"


def default_description(position: Position, markers: Markers) -> str:
    """The position and every marked move, the main one first."""
    move = path_move(markers.path, captures=bool(markers.captured))
    rejected = [m for m in (path_move(p) for p in markers.rejected) if m is not None]
    also = [m for m in (path_move(p) for p in markers.alternatives) if m is not None]
    return describe_position(position, move, rejected=rejected, alternatives=also)
