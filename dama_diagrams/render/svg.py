"""The board as SVG: :func:`render_picture` and :func:`render_svg`.

The SVG uses only what cairosvg draws like a browser does: presentation
attributes with a colour and a separate opacity, no CSS, no filters, no
``#rrggbbaa`` and no opacity on ``<use>``, so the PNG and the page agree.

The parts that do not depend on the position (piece shapes, frame, squares,
square numbers) are serialized once per options and cached as strings: a site
draws many positions with the same options.  The whole board is cached too,
apart from its title and description: a site draws it again in every language.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, TypedDict, Unpack

from ..engine.board import SQUARES, Color, Square
from ..engine.position import Piece, Position
from ._describe import default_description, default_title
from ._geometry import BOARD_SIZE, FRAME, SQUARE, Layout, centre, corner
from ._marks import (
    arrow,
    captured_marks,
    landing_badges,
    landing_rings,
    rejected_ends,
    start_marker,
    turn_disc,
)
from ._pieces import piece_id, piece_shape
from ._xml import SVG_NS, check_id, escaped_text, fmt, tostring
from .markers import NO_MARKERS, Markers
from .theme import DEFAULT_THEME, Theme, clear_paint_cache, paint

__all__ = [
    "NUMBER_MODES",
    "SvgOptions",
    "SvgPicture",
    "clear_cache",
    "render_picture",
    "render_svg",
]

NUMBER_MODES: Final = ("all", "marked", "none")
"""Which squares get their number: every one, the marked ones, or none."""


@dataclass(frozen=True, slots=True)
class SvgPicture:
    """An SVG document with its pixel size, so nobody parses the SVG to lay it out."""

    svg: str
    width: int
    height: int


class SvgOptions(TypedDict, total=False):
    """The keyword options of :func:`render_picture`, for functions that pass them on."""

    diagram_id: str
    markers: Markers | None
    title: str | None
    description: str | None
    numbers: str
    flipped: bool
    size: int
    frame: bool
    arrows: bool
    side_to_move: bool
    theme: Theme | None
    shared_shapes: bool


def render_picture(
    position: Position,
    *,
    diagram_id: str = "board",
    markers: Markers | None = None,
    title: str | None = None,
    description: str | None = None,
    numbers: str = "marked",
    flipped: bool = False,
    size: int = 400,
    frame: bool = True,
    arrows: bool = True,
    side_to_move: bool = False,
    theme: Theme | None = None,
    shared_shapes: bool = True,
) -> SvgPicture:
    """The position as a standalone, accessible SVG document, with its pixel size.

    ``title`` and ``description`` are the caller's (translated) text; they
    default to English built from the position and the markers.  ``numbers``
    is ``"all"``, ``"marked"`` (the squares the markers touch) or ``"none"``; a number
    sits in its square's top-left corner, except on a numbered board (``"all"`` and no
    markers: the board of the numbers, an exercise's), where it spans the square's top
    above a smaller piece, large enough to read on paper, and no piece covers it.
    ``shared_shapes`` defines each piece's shape once and places it with
    ``<use>``, for small files; without, each piece is drawn in full, for
    cairosvg, which reads the whole document again for every ``<use>``.
    """
    _check_options(diagram_id, numbers, size)
    markers = markers or NO_MARKERS
    theme = theme or DEFAULT_THEME
    layout = Layout.of(frame, side_to_move)
    if title is None:
        title = default_title(markers)
    if description is None:
        description = default_description(position, markers)
    width, height = size, round(size * layout.height / layout.width)

    head = (
        f'<svg xmlns="{SVG_NS}" class="dama-diagram" viewBox="0 0 {layout.width} {layout.height}" '
        f'width="{width}" height="{height}" role="img" '
        f'aria-labelledby="{diagram_id}-title {diagram_id}-desc">'
        f'<title id="{diagram_id}-title">{escaped_text(title)}</title>'
        f'<desc id="{diagram_id}-desc">{escaped_text(description)}</desc>'
    )  # by hand: it changes with the language, the board after it is cached
    body = _board(
        position,
        diagram_id,
        markers,
        numbers,
        flipped,
        frame,
        arrows,
        side_to_move,
        theme,
        shared_shapes,
    )
    return SvgPicture(f"{head}{body}</svg>", width, height)


@lru_cache(maxsize=1024)
def _board(
    position: Position,
    diagram_id: str,
    markers: Markers,
    numbers: str,
    flipped: bool,
    frame: bool,
    arrows: bool,
    side_to_move: bool,
    theme: Theme,
    shared_shapes: bool,
) -> str:
    """Everything inside the SVG but its title and description: the same in every language.

    A site draws each board once per language, with only the words changed;
    this is drawn once.
    """
    layout = Layout.of(frame, side_to_move)
    margin = layout.margin
    background = _background(theme, flipped, frame, side_to_move, shared_shapes)
    parts = [background.replace(_ID_SLOT, diagram_id)]

    if markers.start is not None:
        parts.append(tostring(start_marker(theme, markers.start, flipped, margin)))
    sequences = markers.landing_sequences
    if sequences:
        landed = tuple(square for landings in sequences for square in landings)
        parts.append(tostring(landing_rings(theme, landed, flipped, margin)))
    if arrows:
        parts.extend(_arrows(theme, markers, flipped, margin))
    # A board that numbers every square and marks nothing is a numbered board: its numbers
    # go above the pieces, large, and the pieces below them (see _NUMBERED).
    numbered_board = numbers == "all" and markers == NO_MARKERS
    # Pieces cover the lines under them: a move's line never hides a crown.
    parts.append('<g class="pieces">')
    for square, piece in position.pieces().items():
        if shared_shapes:
            parts.append(_piece_use(diagram_id, square, piece, flipped, margin, numbered_board))
        else:
            parts.append(_piece_drawn(theme, square, piece, flipped, margin, numbered_board))
    parts.append("</g>")
    if markers.rejected:  # outside the crown: it shows even where a piece stands (occupied)
        parts.append(tostring(rejected_ends(theme, markers.rejected, flipped, margin)))
    numbered = [landings for landings in sequences if len(landings) > 1]
    if markers.captured:
        parts.append(tostring(captured_marks(theme, markers.captured, flipped, margin)))
    if numbers != "none":
        shown = frozenset(SQUARES) if numbers == "all" else markers.squares
        if shown:
            parts.append(_numbers(shown, theme, flipped, margin, numbered_board))
    if numbered:
        parts.append(tostring(landing_badges(theme, numbered, flipped, margin)))
    if side_to_move:
        parts.append(tostring(_side_indicator(theme, position, layout, flipped)))
    return "".join(parts)


def _arrows(theme: Theme, markers: Markers, flipped: bool, margin: int) -> Iterator[str]:
    """The rejected moves' dashed arrows, then the solid ones, each head just past the centre."""
    for path in markers.rejected:
        yield tostring(arrow(theme, path, flipped, margin, rejected=True, tip_gap=12))
    for path in (markers.path, *markers.alternatives):
        if len(path) >= 2:
            yield tostring(arrow(theme, path, flipped, margin, rejected=False, tip_gap=8))


def render_svg(position: Position, **options: Unpack[SvgOptions]) -> str:
    """The SVG text alone, for callers that do not lay the picture out.

    The options are those of :func:`render_picture`.
    """
    return render_picture(position, **options).svg


def clear_cache(*, keep_backgrounds: bool = False) -> None:
    """Forget the cached boards, backgrounds and fragments: for benchmarks and tests.

    With ``keep_backgrounds``, only whole boards are forgotten: what drawing a
    new position costs once the options are warm.
    """
    _board.cache_clear()
    if keep_backgrounds:
        return
    for cached in (_background, _numbers, _piece_use, _piece_drawn):
        cached.cache_clear()
    clear_paint_cache()


def _check_options(diagram_id: str, numbers: str, size: int) -> None:
    check_id(diagram_id)
    if numbers not in NUMBER_MODES:
        raise ValueError(f"numbers={numbers!r}; choose one of {', '.join(NUMBER_MODES)}")
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ValueError(f"size={size!r}; the size is a positive number of pixels")


_ID_SLOT: Final = "\x00id\x00"
"""Where the diagram's id goes in a cached background (a character no id or SVG holds)."""


@lru_cache(maxsize=256)
def _background(
    theme: Theme, flipped: bool, frame: bool, side_to_move: bool, shared_shapes: bool
) -> str:
    """Piece shapes, frame and squares: everything that only depends on the options.

    The piece shapes' ids start with the diagram's id: :data:`_ID_SLOT` stands for it.
    """
    layout = Layout.of(frame, side_to_move)
    parts = []
    if shared_shapes:
        defs = ET.Element("defs")
        for color in Color:
            for king in (False, True):
                shape = piece_shape(theme, color, king)
                shape.set("id", piece_id(_ID_SLOT, Piece(color, king)))
                defs.append(shape)
        parts.append(tostring(defs))
    m = layout.margin
    if frame:
        outer = ET.Element(
            "rect",
            {
                "class": "frame",
                "width": str(layout.width),
                "height": str(layout.height),
                "rx": "6",
                **paint(theme, "frame", "fill"),
            },
        )
        parts.append(tostring(outer))
    squares = ET.Element("g", {"class": "squares"})
    ET.SubElement(
        squares,
        "rect",
        {
            "class": "square light",
            "x": str(m),
            "y": str(m),
            "width": str(BOARD_SIZE),
            "height": str(BOARD_SIZE),
            **paint(theme, "square light", "fill"),
        },
    )
    dark = ET.SubElement(squares, "g", paint(theme, "square dark", "fill"))
    for square in SQUARES:
        x, y = corner(square, flipped, m)
        ET.SubElement(
            dark,
            "rect",
            {
                "class": "square dark",
                "data-square": str(square),
                "x": str(x),
                "y": str(y),
                "width": str(SQUARE),
                "height": str(SQUARE),
            },
        )
    parts.append(tostring(squares))
    if frame:
        line = ET.Element(
            "rect",
            {
                "class": "frame line",
                "x": fmt(m - 1.5),
                "y": fmt(m - 1.5),
                "width": str(BOARD_SIZE + 3),
                "height": str(BOARD_SIZE + 3),
                "fill": "none",
                **paint(theme, "frame line", "stroke"),
                "stroke-width": "3",
            },
        )
        parts.append(tostring(line))
    return "".join(parts)


_NUMBER_FONT: Final = "DejaVu Sans, Verdana, Arial, DejaVu Sans Mono, sans-serif"
"""The site's face for the square numbers, then the one a printed book has: of the fonts
Typst embeds, DejaVu Sans Mono has figures as tall as DejaVu Sans's, where its fallback
(Libertinus Serif) has figures a fifth shorter."""
_NUMBER_SIZE: Final = 24
"""Font size of the square numbers in a square's corner, in user units (a square is 100).

A site figure is 358 CSS px wide on a 390 px phone (860 user units), so the
numbers are 10 CSS px there and 13 on a desktop.
"""
_NUMBER_HALO: Final = 6
"""Stroke width of the halo: 3 units (1.25 CSS px on a phone) around every glyph."""
_NUMBER_AT: Final = (5, 22)
"""Where a number's baseline starts, from its square's top-left corner."""


@dataclass(frozen=True, slots=True)
class _NumberedBoard:
    """How a numbered board shares each square: its number above, its piece below.

    A board that numbers all 32 squares and marks no move (the numbered board, an
    exercise's board) is read for its numbers, on paper as well as on a screen, and no
    corner beside a piece has room for a number that size.  So the number takes the top
    of its square, and the piece, a little smaller, the rest: no piece covers a number.
    """

    size: int = 47
    """Font size: 7 pt on the smallest board a book prints with every number (an
    exercise's, 46 mm wide on A5: 47 units of the board's 860), 20 CSS px on a phone."""
    baseline: int = 39
    """From the square's top: the digits' top 4 units below it (DejaVu Sans Bold's figures
    are 0.742 em tall), the halo's top still inside the square."""
    scale: float = 0.62
    """Of a piece's size: a king, the tallest piece (89 units), fits in the 55 units
    between the halo's foot (43) and the square's foot."""
    centre: int = 70
    """From the square's top: where a piece's centre goes (the king's foot at 99)."""


_NUMBERED: Final = _NumberedBoard()


@lru_cache(maxsize=1024)
def _numbers(
    squares: frozenset[Square], theme: Theme, flipped: bool, margin: int, numbered_board: bool
) -> str:
    """Square numbers in the top-left corner of their square, or across its top on a
    numbered board (:class:`_NumberedBoard`).

    Dark bold digits on a halo of the square's colour: the halo keeps them
    apart from the arrows, crosses and pieces that cross that corner, so the
    digits always sit on the colour they were chosen to contrast with.
    """
    size = _NUMBERED.size if numbered_board else _NUMBER_SIZE
    group = ET.Element(
        "g",
        {
            "class": "numbers",
            "font-family": _NUMBER_FONT,
            "font-size": str(size),
            "font-weight": "bold",
        },
    )
    if numbered_board:
        group.set("text-anchor", "middle")
    halo = ET.SubElement(
        group,
        "g",
        {
            "class": "number halo",
            **paint(theme, "number halo", "fill"),
            **paint(theme, "number halo", "stroke"),
            "stroke-width": str(_NUMBER_HALO),
            "stroke-linejoin": "round",
        },
    )
    front = ET.SubElement(group, "g", {"class": "number", **paint(theme, "number", "fill")})
    dx, dy = (SQUARE // 2, _NUMBERED.baseline) if numbered_board else _NUMBER_AT
    for square in sorted(squares):
        x, y = corner(square, flipped, margin)
        for layer in (halo, front):
            label = ET.SubElement(layer, "text", {"x": str(x + dx), "y": str(y + dy)})
            label.text = str(square)
    return tostring(group)


def _smaller(cx: int, cy: int, numbered_board: bool) -> dict[str, str]:
    """On a numbered board, the transform that draws a piece made for the centre (cx, cy)
    smaller, below its square's number; elsewhere nothing."""
    if not numbered_board:
        return {}
    scale = _NUMBERED.scale
    x = cx - scale * cx
    y = _lowered(cy) - scale * cy
    return {"transform": f"translate({fmt(x)} {fmt(y)}) scale({fmt(scale)})"}


def _lowered(cy: int) -> int:
    """On a numbered board, where the centre of the piece of the square centred at ``cy``
    goes: below the square's number."""
    return cy - SQUARE // 2 + _NUMBERED.centre


@lru_cache(maxsize=4096)
def _piece_use(
    diagram_id: str,
    square: Square,
    piece: Piece,
    flipped: bool,
    margin: int,
    numbered_board: bool,
) -> str:
    """One piece placed on its square: a ``<use>`` of the shared shape."""
    cx, cy = centre(square, flipped, margin)
    kind = "king" if piece.king else "man"
    use = ET.Element(
        "use",
        {
            "href": f"#{piece_id(diagram_id, piece)}",
            "class": f"piece {piece.color.value} {kind}",
            "data-square": str(square),
            "x": str(cx),
            "y": str(cy),
            **_smaller(cx, cy, numbered_board),
        },
    )
    return tostring(use)


@lru_cache(maxsize=4096)
def _piece_drawn(
    theme: Theme,
    square: Square,
    piece: Piece,
    flipped: bool,
    margin: int,
    numbered_board: bool,
) -> str:
    """One piece drawn in full on its square: what a ``<use>`` of its shape shows."""
    cx, cy = centre(square, flipped, margin)
    shape = piece_shape(theme, piece.color, piece.king)
    shape.set("data-square", str(square))
    if numbered_board:
        shape.set("transform", f"translate({cx} {_lowered(cy)}) scale({fmt(_NUMBERED.scale)})")
    else:
        shape.set("transform", f"translate({cx} {cy})")
    return tostring(shape)


def _side_indicator(theme: Theme, position: Position, layout: Layout, flipped: bool) -> ET.Element:
    """A small piece in the right margin, on the side of the player to move."""
    at_bottom = (position.turn is Color.WHITE) != flipped
    y = layout.margin + (BOARD_SIZE - SQUARE // 2 if at_bottom else SQUARE // 2)
    return turn_disc(theme, position.turn, layout.width - FRAME // 2, y)
