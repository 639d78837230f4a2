"""Social cards: the 1200x630 PNG that a shared link shows (``og:image``).

A card is a page's main diagram beside the page's title and the site's name,
drawn locally (Material's social plugin would download fonts).  The board is
the same in every language, so it is drawn once per process; cards are cached
by the hash of what they show, so a warm build draws none.
"""

from __future__ import annotations

import functools
import hashlib
import io
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._files import write_atomically
from ..diagram import VerifiedDiagram
from ..render.figure import diagram_svg

CARD_WIDTH, CARD_HEIGHT = 1200, 630
CARD_CACHE = Path(".cache") / "dama-diagrams" / "cards"
"""Social cards by the hash of what they show: a warm build draws none."""

_CARD_REVISION = 5
"""Part of every card's cache key: raise it when the card's drawing changes."""

_CARD_BOARD, _CARD_MARGIN, _CARD_TEXT_X = 530, 50, 630
_CARD_FONT = "DejaVu Sans"
_CARD_COLORS = {"background": "#f6efe2", "accent": "#6e4d31", "title": "#2b1d12"}

# cairocffi ships no type hints, so its surfaces are typed Any below.


@dataclass(frozen=True)
class Card:
    """One card to draw: the page's main diagram, its title and the site's name."""

    verified: VerifiedDiagram
    title: str
    site_name: str


def draw_cards(cards: Mapping[str, Card], cache: Path | None = None) -> dict[str, bytes]:
    """The cards as PNG bytes, by the same keys; from ``cache`` (a folder) when drawn before."""
    return dict(iter_cards(cards, cache))


def iter_cards(cards: Mapping[str, Card], cache: Path | None = None) -> Iterator[tuple[str, bytes]]:
    """The cards one by one, so that a caller can do other work between them."""
    boards: dict[str, str] = {}  # each diagram's board is rendered once, whatever the language
    for key, card in cards.items():
        verified = card.verified
        if verified.id not in boards:
            boards[verified.id] = diagram_svg(verified, size=_CARD_BOARD).svg
        yield key, _card_png(boards[verified.id], card.title, card.site_name, cache)


def _card_png(board: str, title: str, site_name: str, cache: Path | None) -> bytes:
    key = repr((_CARD_REVISION, board, title, site_name))
    stored = None if cache is None else cache / f"{_digest(key)}.png"
    if stored is not None and stored.is_file():
        return stored.read_bytes()
    png = _png(_draw_card(_board_image(board), title, site_name))
    if stored is None:
        return png
    write_atomically(stored, png)  # a parallel build never reads half a card
    return png


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=32)
def _board_image(board_svg: str) -> Any:
    """The board drawn by cairosvg, once per process for every card that shows it.

    cairosvg draws onto a cairo surface of its own, which the cards paint from
    directly: no PNG to write and read back in between.
    """
    from cairosvg.parser import Tree  # type: ignore[import-untyped]
    from cairosvg.surface import PNGSurface  # type: ignore[import-untyped]

    tree = Tree(bytestring=board_svg.encode("utf-8"))
    drawn = PNGSurface(tree, None, 96, output_width=_CARD_BOARD, output_height=_CARD_BOARD)
    return drawn.cairo


def _draw_card(board: Any, title: str, site_name: str) -> Any:
    """A bar along the top, the board on the left, the site name and the title beside it."""
    import cairocffi as cairo  # type: ignore[import-untyped]

    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, CARD_WIDTH, CARD_HEIGHT)
    context = cairo.Context(surface)
    context.set_source_rgb(*_rgb(_CARD_COLORS["background"]))
    context.paint()
    context.set_source_rgb(*_rgb(_CARD_COLORS["accent"]))
    context.rectangle(0, 0, CARD_WIDTH, 14)
    context.fill()
    context.set_source_surface(board, _CARD_MARGIN, _CARD_MARGIN)
    context.paint()

    def write(text: str, y: float, size: int, color: str, weight: int) -> None:
        context.select_font_face(_CARD_FONT, cairo.FONT_SLANT_NORMAL, weight)
        context.set_font_size(size)
        context.set_source_rgb(*_rgb(_CARD_COLORS[color]))
        context.move_to(_CARD_TEXT_X, y)
        context.show_text(text)

    write(site_name, 110, 30, "accent", cairo.FONT_WEIGHT_NORMAL)
    context.select_font_face(_CARD_FONT, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)

    def width_at(size: int) -> Callable[[str], float]:
        context.set_font_size(size)
        return lambda text: float(context.text_extents(text)[4])  # x_advance

    lines, size = _wrap(title, CARD_WIDTH - _CARD_TEXT_X - 40, width_at)
    top = CARD_HEIGHT / 2 - (len(lines) - 1) * size * 0.6
    for index, line in enumerate(lines):
        write(line, round(top + index * size * 1.2), size, "title", cairo.FONT_WEIGHT_BOLD)
    surface.flush()
    return surface


def _rgb(color: str) -> tuple[float, float, float]:
    red, green, blue = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return red, green, blue


def _png(surface: Any) -> bytes:
    """An opaque cairo image as a PNG of 256 colours, written by Pillow with fast compression.

    A card is flat colours and their anti-aliased edges: 256 colours keep
    every pixel within 15 of 255 of its true value, and the file is a third
    of the RGB one's size and quicker to write.  cairo's own writer takes two
    to three times as long (libpng tries every row filter, at zlib level 6).
    """
    from PIL import Image

    # cairo stores one native-endian 0xXXRRGGBB word per pixel.
    layout = "BGRX" if sys.byteorder == "little" else "XRGB"
    size = (surface.get_width(), surface.get_height())
    image = Image.frombuffer(
        "RGB", size, bytes(surface.get_data()), "raw", layout, surface.get_stride(), 1
    )
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    palette.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _wrap(
    text: str, width: float, measure_at: Callable[[int], Callable[[str], float]]
) -> tuple[list[str], int]:
    """Split a title into at most four lines that fit ``width``; shrink it if needed."""
    for size in (60, 52, 44, 38, 32, 28):
        measure = measure_at(size)
        lines: list[str] = []
        for word in text.split():
            if lines and measure(f"{lines[-1]} {word}") <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        if len(lines) <= 4 and all(measure(line) <= width for line in lines):
            return lines, size
    return lines, size
