"""SVG serialization helpers shared by the board and the legend.

Everything is built as :mod:`xml.etree.ElementTree` elements, so text is escaped
by the serializer and never pasted in by hand; numbers go through :func:`fmt`
so that the output bytes never drift.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from typing import Final

SVG_NS: Final = "http://www.w3.org/2000/svg"
FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"

_ID: Final = re.compile(r"[a-z0-9-]+")
# Characters that XML 1.0 cannot carry at all, even escaped.
_XML_INVALID: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def fmt(value: float, decimals: int = 2) -> str:
    """A number with fixed rounding, so that the output bytes never drift."""
    rounded = round(value, decimals)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.{decimals}f}".rstrip("0")


def xml_text(value: str) -> str:
    """Text that XML can hold; escaping itself is the serializer's job."""
    return _XML_INVALID.sub("", value)


def escaped_text(value: str) -> str:
    """Element text as ElementTree writes it, for the parts written by hand (cached boards)."""
    return html.escape(xml_text(value), quote=False)


def tostring(element: ET.Element) -> str:
    return ET.tostring(element, encoding="unicode")


def check_id(diagram_id: str) -> None:
    """Ids prefix every ``id`` in the document, so two diagrams on a page never clash."""
    if not isinstance(diagram_id, str) or not _ID.fullmatch(diagram_id):
        raise ValueError(
            f"diagram id {diagram_id!r} may only use lowercase letters, digits and '-'"
        )
