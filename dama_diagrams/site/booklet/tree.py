"""One page as an element tree: Python-Markdown's output, read back with the standard library.

Python-Markdown keeps the raw HTML of a page (the figures, the exercises) as
text until it serializes, so the book reads its output, once, into
:mod:`xml.etree.ElementTree` elements and walks those.  This is the HTML that
Python-Markdown makes of the generated page, never the site's published HTML.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from html.parser import HTMLParser

import markdown

EXTENSIONS = (
    "admonition",
    "attr_list",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.highlight",
    "pymdownx.superfences",
)
"""The ``markdown_extensions`` of the project's ``mkdocs.yml``; ``toc`` without permalinks."""
VOID = frozenset(  # HTML's void elements, which have no end tag
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    | {"track", "wbr"}
)
ROOT = "page"
"""The tag of the element that holds a page's top-level blocks."""


def page_tree(text: str) -> ET.Element:
    """One page's Markdown, front matter left out, as a tree under one ``page`` element."""
    renderer = _renderer()
    renderer.reset()
    return html_tree(renderer.convert(_without_front_matter(text)))


@cache
def _renderer() -> markdown.Markdown:
    """One Python-Markdown per process: its extensions load once, it is reset for each page."""
    return markdown.Markdown(
        extensions=list(EXTENSIONS), extension_configs={"toc": {"permalink": False}}
    )


def html_tree(html: str) -> ET.Element:
    """A fragment of HTML as elements: text in ``.text`` and ``.tail``, as ElementTree keeps it."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def _without_front_matter(text: str) -> str:
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            return text[end + 5 :]
    return text


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
