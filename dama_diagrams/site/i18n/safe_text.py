"""Catalog text made safe: Markdown that can only ever be text, never markup.

A translator's text may hold Markdown (emphasis, code, lists, links) but never
markup.  :func:`catalog_html` renders it with Python-Markdown and lets nh3
(Ammonia) keep only a short list of tags, one attribute and three link
schemes, so no catalog can put a script, a style or an event handler on the
site.  The clean HTML then goes into the page's Markdown, where its text must
not be read as Markdown, a template or an attribute list a second time.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

import nh3
import yaml

from ..._markdown_text import LINE_START, catalog_markdown, one_line

INLINE_TAGS = frozenset({"a", "code", "em", "strong"})
BLOCK_TAGS = INLINE_TAGS | {"blockquote", "br", "li", "ol", "p", "pre", "ul"}
ATTRIBUTES = {"a": {"href"}, "ol": {"start"}}
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})

_TAG = re.compile(r'(<(?:[^>"]|"[^"]*")*>)')
"""A tag as nh3 writes it: attribute values in double quotes, ``<`` and ``>`` escaped."""
_MARKDOWN_SPECIAL = re.compile(r"[\\`*_\[\]{}|#!~^]")
_PLAIN_PARAGRAPH = re.compile(r"<p>[^<>&\x00-\x09\x0b-\x1f\x7f]*</p>")


@lru_cache(maxsize=4096)
def catalog_html(text: str, *, inline: bool) -> str:
    """Catalog Markdown as clean HTML, which the page's Markdown leaves as it is.

    Placeholders are filled first (:meth:`.Catalog.message`), so that what they
    bring (a link from a template, a move) is cleaned with the rest.  ``inline``
    text goes in a paragraph, a heading, a list item, a table cell or a caption:
    it keeps only inline tags, on one line.  Otherwise the result is blocks
    (paragraphs, lists), which must start on a line of their own.
    """
    clean = clean_html(catalog_markdown(text, inline=inline), inline=inline)
    return _markdown_proof(one_line(clean) if inline else clean.strip())


def clean_html(converted: str, *, inline: bool) -> str:
    """nh3 keeps the allowed tags, attribute and schemes; a paragraph of bare text skips it.

    Bare text (no tag, no entity) can carry no markup: nh3 would only drop the
    ``<p>`` of inline text and write U+00A0 as ``&nbsp;``, as done here.
    """
    if _PLAIN_PARAGRAPH.fullmatch(converted):
        words = converted[3:-4].replace("\xa0", "&nbsp;")
        return words if inline else f"<p>{words}</p>"
    return sanitized(converted, inline=inline)


def sanitized(converted: str, *, inline: bool) -> str:
    """nh3 with the site's tags, attribute, schemes and link filter."""
    return nh3.clean(
        converted,
        tags=set(INLINE_TAGS if inline else BLOCK_TAGS),
        attributes={tag: set(names) for tag, names in ATTRIBUTES.items()},
        url_schemes=set(SAFE_SCHEMES),
        link_rel=None,
        attribute_filter=_no_spaced_links,
    )


def text_of(clean: str) -> str:
    """The text that clean HTML shows, for places that take no markup (a social card)."""
    return html.unescape(_TAG.sub("", clean))


def _no_spaced_links(tag: str, attribute: str, value: str) -> str | None:
    """No link target with spaces or control characters (``java<tab>script:``): never right."""
    if tag == "a" and attribute == "href" and any(c.isspace() or ord(c) < 32 for c in value):
        return None
    return value


def _markdown_proof(clean: str) -> str:
    """Clean HTML whose text Markdown, Jinja and attribute lists read as plain text.

    Characters that mean something to Markdown become character references,
    as do braces in attribute values: the browser shows the same characters.
    """
    parts = _TAG.split(clean)
    for index, part in enumerate(parts):
        if index % 2:
            parts[index] = braces_escaped(part)
        else:
            escaped = _MARKDOWN_SPECIAL.sub(_reference, part)
            parts[index] = LINE_START.sub(_reference, escaped) if index == 0 else escaped
    return "".join(parts)


def _reference(match: re.Match[str]) -> str:
    """``&#42;`` for ``*``; in ``12.``, only the dot."""
    text = match[0]
    return f"{text[:-1]}&#{ord(text[-1])};"


def plain_html(text: str) -> str:
    """Plain text for raw HTML on a page, with braces escaped too (they are no template)."""
    return braces_escaped(html.escape(text, quote=False))


def attribute_html(text: str) -> str:
    """Plain text for a quoted HTML attribute, braces escaped as in :func:`plain_html`."""
    return braces_escaped(html.escape(text))


def braces_escaped(markup: str) -> str:
    """Markup whose braces no Markdown extension or template reads as syntax."""
    return markup.replace("{", "&#123;").replace("}", "&#125;")


def printable(text: str) -> str:
    """Without the characters YAML refuses (front matter must stay readable)."""
    return str(yaml.reader.Reader.NON_PRINTABLE.sub("", text))


def escape_link_text(text: str) -> str:
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def board_image(alt: str, path: str, width: int, height: int, *, css: str = ".dama-board") -> str:
    """A board picture in Markdown, with its size, so the page does not jump as it loads."""
    shown = escape_link_text(one_line(plain_html(alt)))
    return f'![{shown}]({path}){{ {css} width="{width}" height="{height}" }}'


def table_cell(text: str) -> str:
    return one_line(text).replace("|", "\\|")
