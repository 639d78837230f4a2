"""The rules' markers drawn on the board: start, landings, captures, arrows.

Each function returns one element for the caller to serialize; ``margin`` is
where the board starts inside the picture, so the legend can draw the same
markers on a lone square at the origin.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Final

from ..engine.board import Color, Square
from ._geometry import MAN_FACE, SQUARE, centre, corner
from ._xml import FONT, fmt
from .theme import Theme, paint

_ARROW_START_GAP: Final = 20.0


_START_LINE: Final = 8
"""The start square's outline, inside its edge: a shape that a greyscale print keeps."""


def start_marker(theme: Theme, square: Square, flipped: bool, margin: int) -> ET.Element:
    """The square the move starts from, filled and outlined inside its edge."""
    x, y = corner(square, flipped, margin)
    inset = _START_LINE / 2
    return ET.Element(
        "rect",
        {
            "class": "marker start",
            "x": _number(x + inset),
            "y": _number(y + inset),
            "width": _number(SQUARE - _START_LINE),
            "height": _number(SQUARE - _START_LINE),
            **paint(theme, "marker start", "fill"),
            **paint(theme, "marker start line", "stroke"),
            "stroke-width": str(_START_LINE),
        },
    )


def _number(value: float) -> str:
    """A coordinate as SVG writes it: no trailing ``.0``."""
    return str(int(value)) if float(value).is_integer() else str(value)


def landing_rings(
    theme: Theme, landings: tuple[Square, ...], flipped: bool, margin: int
) -> ET.Element:
    """A ring where the piece lands: the shape of the piece that will be there."""
    group = ET.Element(
        "g",
        {
            "class": "marker landing",
            **paint(theme, "marker landing", "fill"),
            "fill-opacity": "0.12",
            **paint(theme, "marker landing", "stroke"),
            "stroke-width": "5",
        },
    )
    for square in dict.fromkeys(landings):
        cx, cy = centre(square, flipped, margin)
        ET.SubElement(group, "circle", {"cx": str(cx), "cy": str(cy + MAN_FACE), "r": "36"})
    return group


BADGE_RADIUS: Final = 18
"""Radius of a landing-order disc, with a margin around its bold digit."""
_BADGE_FONT: Final = 24
"""Font size of a badge's digits: 10 CSS px on a phone, like the square numbers."""
_BADGE_CORNERS: Final = ((1, 1), (-1, 1), (1, -1), (-1, -1))
"""Where a square's badges go, in turn: its bottom corners, then its top ones.

A badge sits in a corner, beside the piece and never on it, so a king that
lands where it started (or where it stood before) keeps its crown in view.
The square's number keeps the top-left corner unless four badges need it.
"""


def landing_badges(
    theme: Theme, sequences: Iterable[tuple[Square, ...]], flipped: bool, margin: int
) -> ET.Element:
    """The order of the landings of each multi-capture, as numbered discs in the corners.

    A number of two digits gets a pill instead of a disc, wide enough for both.
    """
    group = ET.Element("g", {"class": "marker landing order"})
    discs = ET.SubElement(group, "g", paint(theme, "marker landing", "fill"))
    labels = ET.SubElement(
        group,
        "g",
        {
            "class": "marker landing text",
            "font-family": FONT,
            "font-size": str(_BADGE_FONT),
            "font-weight": "bold",
            "text-anchor": "middle",
            **paint(theme, "marker landing text", "fill"),
        },
    )
    seen: dict[Square, int] = {}
    r = BADGE_RADIUS
    for landings in sequences:
        for index, square in enumerate(landings, start=1):
            cx, cy = centre(square, flipped, margin)
            dx, dy = _BADGE_CORNERS[seen.get(square, 0) % len(_BADGE_CORNERS)]
            seen[square] = seen.get(square, 0) + 1
            half = r if index < 10 else r + 6  # a pill is 12 units wider than a disc
            # One unit inside the square's edge, so a badge never reaches the next square.
            x, y = cx + dx * (SQUARE // 2 - half - 1), cy + dy * (SQUARE // 2 - r - 1)
            if index < 10:
                disc = {"cx": str(x), "cy": str(y), "r": str(r)}
                ET.SubElement(discs, "circle", {**disc, "stroke": "none"})
            else:
                pill = {"x": str(x - half), "y": str(y - r), "width": str(2 * half)}
                ET.SubElement(
                    discs, "rect", {**pill, "height": str(2 * r), "rx": str(r), "stroke": "none"}
                )
            # Digits are 0.73 em tall: the baseline sits half of that below the middle.
            label = ET.SubElement(labels, "text", {"x": str(x), "y": str(y + 9)})
            label.text = str(index)
    return group


def rejected_ends(
    theme: Theme, paths: tuple[tuple[Square, ...], ...], flipped: bool, margin: int
) -> ET.Element:
    """A dashed ring where a rejected move would have ended, on a light halo.

    The halo, in the light squares' colour, makes the grey dashes stand out
    on the dark square and on a piece alike.
    """
    group = ET.Element("g", {"class": "marker rejected", "fill": "none"})
    halo = ET.SubElement(
        group,
        "g",
        {
            "class": "marker rejected halo",
            **paint(theme, "square light", "stroke"),
            "stroke-width": "9",
        },
    )
    ring = ET.SubElement(
        group,
        "g",
        {
            "class": "marker rejected ring",
            **paint(theme, "arrow rejected", "stroke"),
            "stroke-width": "5",
            "stroke-dasharray": "9 7",
        },
    )
    for square in dict.fromkeys(path[-1] for path in paths):
        cx, cy = centre(square, flipped, margin)
        circle = {"cx": str(cx), "cy": str(cy + MAN_FACE), "r": "30"}
        ET.SubElement(halo, "circle", circle)
        ET.SubElement(ring, "circle", circle)
    return group


_RING: Final = 42
"""Just outside a piece (radius 36): the ring marks it and hides nothing of it."""
_BADGE_OFFSET: Final = 33
_BADGE: Final = 11


def captured_marks(
    theme: Theme, captured: tuple[Square, ...], flipped: bool, margin: int
) -> ET.Element:
    """A ring around each captured piece and a small cross in its square's corner.

    The piece itself stays uncovered, so a captured king is still plainly a
    king: its crown is what a reader must see.  A halo makes the marks read on
    light and dark squares and pieces alike.
    """
    group = ET.Element("g", {"class": "marker captured"})
    halo = paint(theme, "marker captured halo", "stroke")
    red = paint(theme, "marker captured", "stroke")
    for square in dict.fromkeys(captured):
        cx, cy = centre(square, flipped, margin)
        ring = {"cx": str(cx), "cy": str(cy + 2), "r": str(_RING), "fill": "none"}
        ET.SubElement(
            group, "circle", {"class": "marker captured halo", **ring, **halo, "stroke-width": "9"}
        )
        ET.SubElement(
            group, "circle", {"class": "marker captured ring", **ring, **red, "stroke-width": "5"}
        )
        bx, by = cx + _BADGE_OFFSET, cy - _BADGE_OFFSET
        ET.SubElement(
            group,
            "circle",
            {
                "class": "marker captured badge",
                "cx": str(bx),
                "cy": str(by),
                "r": str(_BADGE),
                **paint(theme, "marker captured", "fill"),
                **halo,
                "stroke-width": "3",
            },
        )
        d = f"M{bx - 5} {by - 5}L{bx + 5} {by + 5}M{bx + 5} {by - 5}L{bx - 5} {by + 5}"
        ET.SubElement(
            group,
            "path",
            {
                "class": "marker captured cross",
                "d": d,
                **halo,
                "stroke-width": "3",
                "stroke-linecap": "round",
            },
        )
    return group


def arrow(
    theme: Theme,
    path: tuple[Square, ...],
    flipped: bool,
    margin: int,
    *,
    rejected: bool,
    tip_gap: float,
) -> ET.Element:
    """A line through the centres of a move's squares, ending in an arrowhead.

    The line stops where the head begins, so that a translucent arrow is not
    darker where the two overlap.
    """
    points: list[tuple[float, float]] = [centre(square, flipped, margin) for square in path]
    points = [(x, y + MAN_FACE) for x, y in points]
    # Start beside the centre, so the moving piece (and a king's crown) stays visible.
    (sx, sy), (nx, ny) = points[0], points[1]
    start_length = math.hypot(nx - sx, ny - sy)
    points[0] = (
        sx + (nx - sx) * _ARROW_START_GAP / start_length,
        sy + (ny - sy) * _ARROW_START_GAP / start_length,
    )
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head_length, head_width = (24.0, 15.0) if rejected else (28.0, 18.0)
    tip = (x1 - ux * tip_gap, y1 - uy * tip_gap)
    base = (tip[0] - ux * head_length, tip[1] - uy * head_length)
    left = (base[0] - uy * head_width, base[1] + ux * head_width)
    right = (base[0] + uy * head_width, base[1] - ux * head_width)
    key = "arrow rejected" if rejected else "arrow"
    group = ET.Element("g", {"class": key})
    line_end = base if not rejected else (base[0] + ux * 6, base[1] + uy * 6)
    line = [*points[:-1], line_end]
    d = "M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in line)
    ET.SubElement(
        group,
        "path",
        {
            "d": d,
            "fill": "none",
            **paint(theme, key, "stroke"),
            "stroke-width": "6" if rejected else "9",
            "stroke-linejoin": "round",
            "stroke-linecap": "butt",
            **({"stroke-dasharray": "14 9"} if rejected else {}),
        },
    )
    head = "M{}L{}L{}".format(*(f"{fmt(x)} {fmt(y)}" for x, y in (left, tip, right)))
    if rejected:
        ET.SubElement(
            group,
            "path",
            {
                "d": head,
                "fill": "none",
                **paint(theme, key, "stroke"),
                "stroke-width": "6",
                "stroke-linejoin": "round",
                "stroke-linecap": "round",
            },
        )
    else:
        ET.SubElement(group, "path", {"d": head + "Z", **paint(theme, key, "fill")})
    return group


def turn_disc(theme: Theme, color: Color, cx: int, cy: int, radius: int = 11) -> ET.Element:
    """The side-to-move indicator: a small piece of the colour to move.

    It sits on the dark frame, so its outline is the light square's colour: a
    black disc stays visible there.
    """
    side = color.value
    return ET.Element(
        "circle",
        {
            "class": f"side-to-move {side} piece",
            "cx": str(cx),
            "cy": str(cy),
            "r": str(radius),
            **paint(theme, f"{side} piece", "fill"),
            **paint(theme, "square light", "stroke"),
            "stroke-width": "3",
        },
    )
