"""Catalog text made safe: Markdown that can only ever be text, never markup.

Catalogs may hold Markdown but never markup: :func:`safe_markdown` escapes raw
HTML, braces (an attribute list could add ``onclick``) and links to anything
but http(s), mailto and relative addresses, so a translator's text can never
inject a script into the site.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

import markdown
import yaml

from .translations import PLACEHOLDER

_INLINE = markdown.Markdown()


def inline_html(text: str) -> str:
    """Catalog Markdown as inline HTML, for text that sits inside an HTML element.

    MkDocs does not look into raw HTML, so figure captions are converted here;
    raw HTML in the catalog is escaped, not passed through.
    """
    _INLINE.reset()
    converted = _INLINE.convert(safe_markdown(one_line(text)))
    return converted.removeprefix("<p>").removesuffix("</p>")


# --- catalog text made safe -------------------------------------------------

_CODE_SPAN = re.compile(r"(?<![\\`])(`+)(?!`)((?:[^\n]|\n(?![ \t]*\n))+?)(?<!`)\1(?!`)")
"""A code span (not across a blank line).  Where this and Markdown disagree, the
text is only escaped once too often: shown with an entity, never unsafe."""
_ENTITY = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
_TEXT_SPECIAL = re.compile(
    rf"(?P<entity>{_ENTITY})|(?P<quote>^[ ]{{0,3}}(?:>[ ]?)+)|(?P<char>[&<>{{}}])",
    re.MULTILINE,
)
_HTML_SPECIAL = re.compile(rf"(?P<entity>{_ENTITY})|(?P<char>[&<>{{}}])")
_CODE_SPECIAL = re.compile(r"[&<>\\`*_\[\](){}|!]")
_SLOT = re.compile("\x00([cp])([0-9]+)\x00")
_LINK_TARGET = re.compile(r"\](?:\(\s*|:[ \t]*\n?[ \t]*)")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def safe_markdown(text: str, params: Mapping[str, str] | None = None) -> str:
    """Catalog Markdown that can only ever be text, emphasis, lists, code and safe links.

    Raw HTML (``<``, ``>`` and a bare ``&``) is escaped, as are braces, which
    would otherwise be Markdown attribute lists (``*x*{ onclick=... }``).  Code
    spans become ``<code>`` with their text escaped, so they still show ``<id>``.
    A link or reference to anything but http(s), mailto or a relative address
    (``javascript:``) is left as plain text.  ``params`` fill the ``{name}``
    placeholders afterwards, as they are: they come from templates and helpers.
    """
    slots: list[str] = []

    def slot(kind: str, value: str) -> str:
        slots.append(value)
        return f"\x00{kind}{len(slots) - 1}\x00"

    text = text.replace("\x00", "")
    if params:
        text = PLACEHOLDER.sub(
            lambda m: slot("p", str(params[m[1]])) if m[1] in params else m[0], text
        )

    def code(match: re.Match[str]) -> str:
        content = _SLOT.sub(lambda m: slots[int(m[2])], " ".join(match[2].split()))
        escaped = _CODE_SPECIAL.sub(lambda m: f"&#{ord(m[0])};", content)
        return slot("c", f"<code>{escaped}</code>")

    text = _CODE_SPAN.sub(code, text)
    text = _TEXT_SPECIAL.sub(_escape_special, text)
    text = _SLOT.sub(lambda m: slots[int(m[2])] if m[1] == "c" else m[0], text)
    text = _neutralize_links(text)
    return _SLOT.sub(lambda m: slots[int(m[2])], text)


def _escape_special(match: re.Match[str]) -> str:
    char = match.groupdict().get("char")
    if char is None:
        return match[0]  # an entity, or the > of a blockquote
    return {"&": "&amp;", "<": "&lt;", ">": "&gt;"}.get(char) or f"&#{ord(char)};"


def _neutralize_links(text: str) -> str:
    """``[x](javascript:...)`` and ``[x]: javascript:...`` lose their ``]``: they are text."""
    starts = [m.start() for m in _LINK_TARGET.finditer(text) if _unsafe_target(text[m.end() :])]
    for start in reversed(starts):
        text = f"{text[:start]}&#93;{text[start + 1 :]}"
    return text


def _unsafe_target(rest: str) -> bool:
    """Whether the link target at the start of ``rest`` has a scheme other than the safe ones.

    Decoded as a browser would (entities, tabs and newlines dropped), and cut
    generously, so that a doubtful target counts as unsafe.
    """
    rest = rest[:2000]
    if rest.startswith("&lt;"):
        target = rest[4:].split("&gt;", 1)[0]
    else:
        target = re.split(r"[)\"']", rest, maxsplit=1)[0]
    decoded = re.sub(r"[\x00-\x20\x7f]+", "", html.unescape(target)).lstrip("<")
    scheme = _SCHEME.match(decoded)
    return scheme is not None and scheme[1].lower() not in SAFE_SCHEMES


def escape_html(text: str) -> str:
    """Text with raw HTML and braces escaped, entities kept (for an image's alt text)."""
    return _HTML_SPECIAL.sub(_escape_special, text)


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


def one_line(text: str) -> str:
    return " ".join(text.split())


def escape_link_text(text: str) -> str:
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def table_cell(text: str) -> str:
    return one_line(text).replace("|", "\\|")
