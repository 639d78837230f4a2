"""The piece shapes, centred on the origin: drawn once per diagram and reused.

The board defines each shape once and places it with ``<use>``; the legend
draws the same shapes, so its icons always match the board.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..engine.board import Color
from ..engine.position import Piece
from ._geometry import KING_FACE, MAN_FACE, PIECE_RADIUS
from .theme import Theme, paint


def _disc(theme: Theme, color: Color, cy: int) -> list[ET.Element]:
    """One disc seen from above and a little in front: its edge, face and grooves."""
    side = color.value
    rim = paint(theme, f"{side} rim", "fill")
    edge = ET.Element(
        "circle", {"class": f"{side} rim", "cy": str(cy + 6), "r": str(PIECE_RADIUS), **rim}
    )
    face = ET.Element(
        "circle",
        {
            "class": f"{side} piece",
            "cy": str(cy),
            "r": str(PIECE_RADIUS),
            **paint(theme, f"{side} piece", "fill"),
            **paint(theme, f"{side} rim", "stroke"),
            "stroke-width": "2.5",
        },
    )
    grooves = [
        ET.Element(
            "circle",
            {
                "class": f"{side} rim",
                "cy": str(cy),
                "r": str(radius),
                "fill": "none",
                **paint(theme, f"{side} rim", "stroke"),
                "stroke-width": width,
                "stroke-opacity": "0.55",
            },
        )
        for radius, width in ((27, "1.6"), (22, "1"))
    ]
    return [edge, face, *grooves]


def _crown(theme: Theme, cy: int) -> ET.Element:
    """A three-pointed crown with pearls: the sign of a king even in grayscale."""
    crown = ET.Element(
        "g",
        {
            "class": "crown",
            **paint(theme, "crown", "fill"),
            **paint(theme, "crown line", "stroke"),
            "stroke-width": "2.2",
            "stroke-linejoin": "round",
            "transform": f"translate(0 {cy})",
        },
    )
    ET.SubElement(crown, "path", {"d": "M-15 9L-18-8-8 0 0-12 8 0 18-8 15 9Z"})
    ET.SubElement(crown, "path", {"d": "M-15 4H15", "fill": "none"})
    for x, y in ((-18, -8), (0, -12), (18, -8)):
        ET.SubElement(crown, "circle", {"cx": str(x), "cy": str(y), "r": "3.2"})
    return crown


def piece_shape(theme: Theme, color: Color, king: bool) -> ET.Element:
    """A piece centred on the origin.  A king is two stacked discs and a crown."""
    kind = "king" if king else "man"
    group = ET.Element("g", {"class": f"piece {color.value} {kind}"})
    if king:
        group.extend(_disc(theme, color, 5))
        group.extend(_disc(theme, color, KING_FACE))
        group.append(_crown(theme, KING_FACE))
    else:
        group.extend(_disc(theme, color, MAN_FACE))
    return group


def piece_id(diagram_id: str, piece: Piece) -> str:
    """The ``id`` of a piece's shape, prefixed so that diagrams on one page never clash."""
    return f"{diagram_id}-{piece.color.value}-{'king' if piece.king else 'man'}"
