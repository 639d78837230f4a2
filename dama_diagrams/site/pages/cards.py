"""Social cards: the 1200x630 PNG that a shared link shows (``og:image``).

A card is the page's main diagram, centred on the site's colours, drawn
locally (Material's social plugin would download fonts).  It holds no words:
the page's title and description travel beside it (``og:title``,
``og:description``) in the reader's language, so one card serves every
language and is drawn once per diagram.  Cards are cached by the hash of what
they show, so a warm build draws none.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..._files import read_cache_entry, write_cache_entry
from ...diagram import VerifiedDiagram
from ...render.figure import diagram_svg
from ...render.png import svg_to_png

if TYPE_CHECKING:
    from PIL import Image

CARD_WIDTH, CARD_HEIGHT = 1200, 630
CARD_CACHE = Path(".cache") / "dama-diagrams" / "cards"
"""Social cards by the hash of what they show: a warm build draws none."""

_CARD_REVISION = 8
"""Part of every card's cache key: raise it when the card's drawing changes."""

_CARD_BOARD, _CARD_BAR = 530, 14
_CARD_COLORS = {"background": "#f6efe2", "accent": "#6e4d31"}


@dataclass(frozen=True)
class Card:
    """One card to draw: the page's main diagram."""

    verified: VerifiedDiagram


def draw_cards(cards: Mapping[str, Card], cache: Path | None = None) -> dict[str, bytes]:
    """The cards as PNG bytes, by the same keys; from ``cache`` (a folder) when drawn before."""
    return dict(iter_cards(cards, cache))


def iter_cards(cards: Mapping[str, Card], cache: Path | None = None) -> Iterator[tuple[str, bytes]]:
    """The cards one by one, so that a caller can do other work between them.

    A diagram's card is drawn once, however many pages and languages show it.
    """
    drawn: dict[str, bytes] = {}
    for key, card in cards.items():
        verified = card.verified
        if verified.id not in drawn:
            board = diagram_svg(verified, size=_CARD_BOARD, shared_shapes=False).svg
            drawn[verified.id] = _card_png(board, cache)
        yield key, drawn[verified.id]


def _card_png(board: str, cache: Path | None) -> bytes:
    key, depth = _digest(repr((_CARD_REVISION, board))), len(CARD_CACHE.parts)
    if cache is not None:
        # an entry is trusted only if this machine wrote it: its seal, a regular file, a PNG
        cached = read_cache_entry(cache, key, ".png", _PNG_SIGNATURE, depth=depth)
        if cached is not None:
            return cached
    png = _png(_draw_board(board))
    if cache is not None:
        write_cache_entry(cache, key, ".png", png, depth=depth)  # atomic: never half a card
    return png


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _draw_board(board_svg: str) -> Image.Image:
    """The board drawn by cairosvg onto the card's background: the only part that varies.

    Through cairosvg's public ``svg2png`` (its surfaces are not its API): the
    PNG it writes is read straight back, which costs a few milliseconds per
    card, once per diagram and never on a warm build.
    """
    from PIL import Image

    png = svg_to_png(
        board_svg,
        output_width=_CARD_BOARD,
        output_height=_CARD_BOARD,
        background_color=_CARD_COLORS["background"],  # under the frame's rounded corners
    )
    with Image.open(io.BytesIO(png)) as drawn:
        return drawn.convert("RGB")


def _png(board: Image.Image) -> bytes:
    """The card as a PNG of 256 colours: the board's 255, and the bar's.

    A card is flat colours and their anti-aliased edges: 255 colours keep
    every pixel within 15 of 255 of its true value, and the file is a third
    of the RGB one's size.  Only the board is quantized; the background
    around it takes the colour of the board's corner, which is background.
    Pillow writes it with fast compression: cairo's own writer takes three
    times as long (libpng tries every row filter, at zlib level 6).
    """
    from PIL import Image

    colours = board.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = (colours.getpalette() or [])[: 3 * 255]
    palette += [0] * (3 * 255 - len(palette))
    bar = 255
    accent = _CARD_COLORS["accent"]
    card = Image.new("P", (CARD_WIDTH, CARD_HEIGHT), colours.getpixel((0, 0)))
    card.putpalette(palette + [int(accent[i : i + 2], 16) for i in (1, 3, 5)])
    card.paste(bar, (0, 0, CARD_WIDTH, _CARD_BAR))
    top = _CARD_BAR + (CARD_HEIGHT - _CARD_BAR - _CARD_BOARD) // 2
    card.paste(colours, ((CARD_WIDTH - _CARD_BOARD) // 2, top))
    buffer = io.BytesIO()
    card.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
