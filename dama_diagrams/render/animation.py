"""Captures step by step as an animated GIF or WebP: one frame per step.

A multi-capture is hard to follow in one picture.  The frames are the steps
of :mod:`.steps`: the start, the piece on each landing in turn, and the final
position with the captured pieces gone and a crowned man shown as a king.
The same diagram gives the same bytes on every run.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import itertools
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Literal

from .._files import atomic_file
from ..diagram import VerifiedDiagram
from ..engine.games import Game
from .figure import diagram_svg
from .markers import Markers
from .png import svg_to_png
from .steps import FINAL_MS, START_MS, STEP_MS, capture_steps
from .svg import SvgPicture, render_picture

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "AnimationFormat",
    "Frame",
    "animate",
    "capture_frames",
    "game_frames",
    "write_animation",
]

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
        return [Frame(diagram_svg(verified, size=size, shared_shapes=False), FINAL_MS)]
    return [
        Frame(
            diagram_svg(
                verified,
                position=step.position,
                markers=step.markers,
                size=size,
                shared_shapes=False,
            ),
            step.milliseconds,
        )
        for step in steps
    ]


def game_frames(
    game: Game, *, first: int = 0, last: int | None = None, size: int = 400
) -> Iterator[Frame]:
    """A game move by move, one frame at a time: the position before move ``first``
    (0: the start), then the position after each move up to ``last`` (default: the
    end), its start and landing squares marked.  The last frame stays longer."""
    positions = game.positions
    last = len(game.moves) if last is None else last
    drawn = functools.partial(render_picture, size=size, side_to_move=True, shared_shapes=False)
    yield Frame(drawn(positions[first]), START_MS)
    for index in range(first, last):
        markers = dataclasses.replace(Markers.from_move(game.moves[index].move), captured=())
        yield Frame(
            drawn(positions[index + 1], markers=markers), FINAL_MS if index == last - 1 else STEP_MS
        )


def write_animation(
    frames: Iterable[Frame],
    target: Path,
    *,
    image_format: AnimationFormat = "gif",
    scale: float = 1.0,
) -> int:
    """The frames as one looping animation in ``target``; how many frames it shows.

    A GIF is written as the frames come, so a game of any length takes the memory
    of two frames; a WebP is made whole (its encoder holds every frame).  The
    file is whole or not there (:func:`..._files.atomic_file`): a failure never
    leaves half an image in its place.
    """
    with atomic_file(target) as file:
        if image_format == "webp":
            kept = list(frames)
            file.write(animate(kept, image_format="webp", scale=scale))
            count = len(kept)
        else:
            count = _stream_gif(frames, file, scale)
    return count


def _stream_gif(frames: Iterable[Frame], file: BinaryIO, scale: float) -> int:
    """Write a looping GIF frame by frame, each only where it differs from the one before.

    One palette, taken from the first two frames (the board, and a move's marks),
    serves every frame, without dithering: the same frames give the same bytes.
    A frame identical to the one before lengthens it instead.
    """
    from PIL import GifImagePlugin, Image, ImageChops

    pictures = (_rgb(frame, scale) for frame in frames)
    first = next(pictures, None)
    if first is None:
        raise ValueError("an animation needs one frame or more")
    image, duration = first
    second = next(pictures, None)
    sample = Image.new("RGB", (image.width * 2, image.height), "white")
    sample.paste(image, (0, 0))
    if second is not None:
        sample.paste(second[0], (image.width, 0))
    palette = sample.quantize(256, method=Image.Quantize.MEDIANCUT)
    colours = bytes(palette.getpalette() or [])
    colours = (colours + bytes(768))[:768]
    file.write(b"GIF89a" + struct.pack("<HHBBB", image.width, image.height, 0xF7, 0, 0))
    file.write(colours + b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")

    def indexed(rgb: Image.Image) -> Image.Image:
        return rgb.quantize(palette=palette, dither=Image.Dither.NONE)

    previous = indexed(image)
    pending: tuple[Image.Image, tuple[int, int], int] = (previous, (0, 0), duration)
    count = 1
    rest = itertools.chain([second] if second is not None else [], pictures)
    for rgb, milliseconds in rest:
        count += 1
        current = indexed(rgb)
        box = ImageChops.difference(previous, current).getbbox()
        if box is None:
            pending = (pending[0], pending[1], pending[2] + milliseconds)
            continue
        for chunk in GifImagePlugin.getdata(pending[0], offset=pending[1], duration=pending[2]):
            file.write(chunk)
        pending = (current.crop(box), (box[0], box[1]), milliseconds)
        previous = current
    for chunk in GifImagePlugin.getdata(pending[0], offset=pending[1], duration=pending[2]):
        file.write(chunk)
    file.write(b";")
    return count


def _rgb(frame: Frame, scale: float) -> tuple[Image.Image, int]:
    from PIL import Image

    png = svg_to_png(frame.picture.svg, scale=scale)
    return Image.open(io.BytesIO(png)).convert("RGB"), frame.milliseconds


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
