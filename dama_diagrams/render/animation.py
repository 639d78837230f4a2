"""Captures step by step: one frame per landing, as an animated GIF or WebP.

A multi-capture is hard to follow in one picture.  The frames show the start,
the piece on each landing in turn (the pieces it jumped stay on the board,
marked, because in Italian draughts they come off only when the move is
complete), and the final position with the captured pieces gone and a
crowned man shown as a king.  The same diagram gives the same bytes on every
run.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..diagram import VerifiedDiagram
from ..engine.move import Move
from ..engine.position import Piece, Position
from ..errors import PositionError
from .figure import diagram_svg
from .markers import NO_MARKERS, Markers
from .png import svg_to_png
from .svg import SvgPicture

__all__ = ["AnimationFormat", "CaptureStep", "Frame", "animate", "capture_frames", "capture_steps"]

AnimationFormat = Literal["gif", "webp"]

STEP_MS = 900
"""How long each landing shows: time to see where the piece went and what it jumped."""
START_MS = 1200
FINAL_MS = 2500
"""The final position holds longer, before the animation starts again."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of an animation and how long it shows."""

    picture: SvgPicture
    milliseconds: int


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


def capture_frames(verified: VerifiedDiagram, *, size: int = 400) -> list[Frame]:
    """The frames of a verified diagram's capture; one frame if it shows no capture."""
    steps = capture_steps(verified)
    if not steps:
        return [Frame(diagram_svg(verified, size=size), FINAL_MS)]
    return [
        Frame(
            diagram_svg(verified, position=step.position, markers=step.markers, size=size),
            step.milliseconds,
        )
        for step in steps
    ]


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


def animate(
    frames: Sequence[Frame], *, image_format: AnimationFormat = "gif", scale: float = 1.0
) -> bytes:
    """The frames as one animated image that loops forever."""
    from PIL import Image

    images = [
        Image.open(io.BytesIO(svg_to_png(frame.picture.svg, scale=scale))).convert("RGB")
        for frame in frames
    ]
    buffer = io.BytesIO()
    first, *rest = images
    options: dict[str, object] = {"lossless": True, "method": 4} if image_format == "webp" else {}
    first.save(
        buffer,
        format=image_format.upper(),
        save_all=True,
        append_images=rest,
        duration=[frame.milliseconds for frame in frames],
        loop=0,
        **options,
    )
    return buffer.getvalue()
