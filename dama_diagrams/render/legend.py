"""The legend: what each marker means, drawn with the board's own shapes.

The icons come from the same functions as the board, so a legend can never
show a marker that the board draws differently.
"""

from __future__ import annotations

import html
import math
import xml.etree.ElementTree as ET
from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from typing import Final

from ..engine.board import Color
from ._geometry import SQUARE
from ._marks import (
    captured_marks,
    landing_badges,
    landing_rings,
    rejected_ends,
    start_marker,
    turn_disc,
)
from ._pieces import piece_shape
from ._xml import FONT, SVG_NS, check_id, escaped_text, fmt, tostring, xml_text
from .theme import DEFAULT_THEME, Theme, paint

__all__ = ["LEGEND_KEYS", "legend_html", "legend_icon_svg", "legend_svg"]

LEGEND_KEYS: Final = (
    "start",
    "landing",
    "order",
    "captured",
    "king",
    "rejected",
    "white_to_move",
    "black_to_move",
)
"""Every legend entry, in the order a legend shows them.

``order`` is the numbered landings of a capture of two or more pieces; the
side to move has one entry per colour, so a legend names it in words.
"""


def legend_svg(
    labels: Mapping[str, str],
    *,
    keys: Iterable[str] = LEGEND_KEYS,
    diagram_id: str = "legend",
    theme: Theme | None = None,
) -> str:
    """The markers with the caller's (translated) labels, as one SVG.

    ``keys`` picks the entries (in the order of :data:`LEGEND_KEYS`), and
    ``labels`` has exactly those keys; their text is also the SVG's title.
    Label widths are estimated, since SVG cannot measure text.
    """
    shown = _shown(labels, keys)
    check_id(diagram_id)
    theme = theme or DEFAULT_THEME
    row, icon, font = 44, 36, 16
    longest = max(len(labels[key]) for key in shown)
    width = icon + 12 + math.ceil(longest * font * 0.62) + 4
    height = row * len(shown) - (row - icon)
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "dama-legend",
            "viewBox": f"0 0 {width} {height}",
            "width": str(width),
            "height": str(height),
            "role": "img",
            "aria-labelledby": f"{diagram_id}-title",
        },
    )
    title = ET.SubElement(root, "title", {"id": f"{diagram_id}-title"})
    title.text = "; ".join(labels[k] for k in shown)
    for index, key in enumerate(shown):
        y = index * row
        item = ET.SubElement(root, "g", {"class": f"legend {key}"})
        holder = ET.SubElement(
            item, "g", {"transform": f"translate(0 {y}) scale({fmt(icon / SQUARE)})"}
        )
        holder.extend(_legend_icon(theme, key))
        label = ET.SubElement(
            item,
            "text",
            {
                "class": "legend text",
                "x": str(icon + 12),
                "y": str(y + icon // 2 + font * 7 // 20),
                "font-family": FONT,
                "font-size": str(font),
                **paint(theme, "legend text", "fill"),
            },
        )
        label.text = xml_text(labels[key])
    return tostring(root)


def legend_html(
    labels: Mapping[str, str],
    *,
    keys: Iterable[str] = LEGEND_KEYS,
    theme: Theme | None = None,
    hidden: Collection[str] = (),
    icons: bool = True,
    icon_folder: str | None = None,
) -> str:
    """The legend as an HTML list with small icons; the text takes the page's colours.

    ``keys`` picks the entries a figure needs (they keep the order of
    :data:`LEGEND_KEYS`); ``labels`` has a label for each of them.  The
    entries in ``hidden`` get the ``hidden`` attribute: they belong to
    another picture of the figure (a step), which a script may show.
    Without ``icons`` each entry is its words alone, for a reader (print)
    that draws the icon itself from the entry's key.

    The icons are inline SVG, unless ``icon_folder`` gives the address (from
    the page) of the files :func:`legend_icon_svg` draws, named ``<key>.svg``:
    then every figure of every page shares one picture per entry, and a page
    is smaller by a third for the reader, the browser and the search index.
    """
    shown = _shown(labels, keys)
    theme = theme or DEFAULT_THEME

    def icon(key: str) -> str:
        if not icons:
            return ""
        if icon_folder is None:
            return _icon_html(theme, key)
        address = html.escape(f"{icon_folder}/{key}.svg")
        return f'<img src="{address}" alt="" width="24" height="24">'

    items = (
        f'<li class="dama-legend-{key}"{" hidden" if key in hidden else ""}>'
        f"{icon(key)}<span>{escaped_text(labels[key])}</span></li>"
        for key in shown
    )
    return f'<ul class="dama-legend">{"".join(items)}</ul>'


def legend_icon_svg(key: str, theme: Theme | None = None) -> str:
    """One legend entry's icon as a standalone SVG: print draws it beside the entry's words."""
    if key not in LEGEND_KEYS:
        raise ValueError(f"no legend entry '{key}': choose among {', '.join(LEGEND_KEYS)}")
    return _icon_html(theme or DEFAULT_THEME, key)


@lru_cache(maxsize=64)
def _icon_html(theme: Theme, key: str) -> str:
    """A legend entry's icon, the same on every page and in every language: serialized once."""
    icon = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "viewBox": f"0 0 {SQUARE} {SQUARE}",
            "width": "24",
            "height": "24",
            "aria-hidden": "true",
            "focusable": "false",
        },
    )
    icon.extend(_legend_icon(theme, key))
    return ET.tostring(icon, encoding="unicode", short_empty_elements=False)


def _shown(labels: Mapping[str, str], keys: Iterable[str]) -> tuple[str, ...]:
    """The entries to draw, in legend order; every one needs a label, no label is unknown."""
    wanted = frozenset(keys)
    unknown = sorted((wanted | set(labels)) - set(LEGEND_KEYS))
    missing = [key for key in LEGEND_KEYS if key in wanted and key not in labels]
    if missing or unknown:
        raise ValueError(
            f"legend keys and labels must be among {', '.join(LEGEND_KEYS)}, with a label "
            f"for each key shown; missing: {', '.join(missing) or 'none'}; "
            f"unknown: {', '.join(unknown) or 'none'}"
        )
    return tuple(key for key in LEGEND_KEYS if key in wanted)


def _legend_icon(theme: Theme, key: str) -> list[ET.Element]:
    """One marker drawn on a single dark square of 100 units."""
    square = ET.Element(
        "rect", {"class": "square dark", "width": str(SQUARE), "height": str(SQUARE)}
    )
    square.attrib.update(paint(theme, "square dark", "fill"))
    elements = [square]
    if key == "start":
        elements.append(start_marker(theme, 1, False, 0))
        elements.append(_placed(piece_shape(theme, Color.WHITE, False)))
    elif key == "landing":
        elements.append(landing_rings(theme, (1,), False, 0))
    elif key == "captured":
        elements.append(_placed(piece_shape(theme, Color.BLACK, False)))
        elements.append(captured_marks(theme, (1,), False, 0))
    elif key == "order":  # the board's first number, twice as big: readable at icon size
        badges = landing_badges(theme, ((1,),), False, 0)
        (disc,) = badges.iter("circle")
        x, y = disc.get("cx"), disc.get("cy")
        elements.append(
            ET.Element("g", {"transform": f"translate(50 50) scale(2) translate(-{x} -{y})"})
        )
        elements[-1].append(badges)
    elif key == "rejected":  # the board's dashed ring, its strokes doubled to read at icon size
        ends = rejected_ends(theme, ((1,),), False, 0)
        halo, ring = ends
        halo.set("stroke-width", "18")
        ring.attrib.update({"stroke-width": "10", "stroke-dasharray": "17 11"})
        elements.append(ends)
    elif key in ("white_to_move", "black_to_move"):  # the disc on the frame, as beside the board
        square.attrib.update({"class": "frame", **paint(theme, "frame", "fill")})
        color = Color.WHITE if key == "white_to_move" else Color.BLACK
        elements.append(turn_disc(theme, color, SQUARE // 2, SQUARE // 2, radius=24))
    else:
        elements.append(_placed(piece_shape(theme, Color.WHITE, True)))
    return elements


def _placed(shape: ET.Element) -> ET.Element:
    shape.set("transform", f"translate({SQUARE // 2} {SQUARE // 2})")
    return shape
