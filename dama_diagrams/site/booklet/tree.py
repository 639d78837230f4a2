"""One page as an element tree: Python-Markdown's output, read back with the standard library.

Python-Markdown keeps the raw HTML of a page (the figures, the exercises) as
text until it serializes, so the book reads its output, once, into
:mod:`xml.etree.ElementTree` elements and walks those.  This is the HTML that
Python-Markdown makes of the generated page, never the site's published HTML.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache

import markdown

from ..._html_tree import html_tree

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


def _without_front_matter(text: str) -> str:
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            return text[end + 5 :]
    return text
