"""HTML read back into an element tree with the standard library, nested as a browser nests it.

Stage-neutral, like :mod:`.errors`.  Both the book (which walks each page's
elements) and the limits of :mod:`._markdown_text` (which measure what a
caption's or a translation's HTML holds) read HTML this one way: an
element left open stays open, an end tag closes up to its element, and the
void elements (``<img>``, ``<br>``) hold nothing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser

VOID = frozenset(  # HTML's void elements, which have no end tag
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    | {"track", "wbr"}
)
ROOT = "page"
"""The tag of the element that holds the fragment's top-level elements."""


def html_tree(html: str) -> ET.Element:
    """A fragment of HTML as elements: text in ``.text`` and ``.tail``, as ElementTree keeps it."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


class _TreeBuilder(HTMLParser):
    """html.parser's events as ElementTree elements; entities already decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = ET.Element(ROOT)
        self._open: list[ET.Element] = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = ET.SubElement(self._open[-1], tag, {k: v or "" for k, v in attrs})
        if tag not in VOID:
            self._open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ET.SubElement(self._open[-1], tag, {k: v or "" for k, v in attrs})

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._open) - 1, 0, -1):  # close up to the matching tag
            if self._open[depth].tag == tag:
                del self._open[depth:]
                return

    def handle_data(self, data: str) -> None:
        parent = self._open[-1]
        if len(parent):
            last = parent[-1]
            last.tail = (last.tail or "") + data
        else:
            parent.text = (parent.text or "") + data
