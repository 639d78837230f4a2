"""Captures step by step as an animated GIF or WebP: one frame per step.

A multi-capture is hard to follow in one picture.  The frames are the steps
of :mod:`.steps`: the start, the piece on each landing in turn, and the final
position with the captured pieces gone and a crowned man shown as a king.
The same diagram gives the same bytes on every run.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..diagram import VerifiedDiagram
from ..engine.games import Game
from .figure import diagram_svg
from .markers import Markers
from .png import svg_to_png
from .steps import FINAL_MS, START_MS, STEP_MS, capture_steps
from .svg import SvgPicture, render_picture

__all__ = ["AnimationFormat", "Frame", "animate", "capture_frames", "game_frames"]

AnimationFormat = Literal["gif", "webp"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of an animation and how long it shows."""

    picture: SvgPicture
    milliseconds: int


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


def game_frames(
    game: Game, *, first: int = 0, last: int | None = None, size: int = 400
) -> list[Frame]:
    """A game move by move: the position before move ``first`` (0: the start), then
    the position after each move up to ``last`` (default: the end), its start and
    landing squares marked.  The last frame stays longer."""
    positions = game.positions
    last = len(game.moves) if last is None else last
    frames = [Frame(render_picture(positions[first], size=size, side_to_move=True), START_MS)]
    for index in range(first, last):
        markers = dataclasses.replace(Markers.from_move(game.moves[index].move), captured=())
        picture = render_picture(
            positions[index + 1], markers=markers, size=size, side_to_move=True
        )
        frames.append(Frame(picture, FINAL_MS if index == last - 1 else STEP_MS))
    return frames


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
