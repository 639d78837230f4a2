"""What a catalog may hold: limits that keep every build bounded, and its markup the English's.

A PO file comes from a translator's editor, so its text is input like any
other.  Each limit is far above what a real translation needs:

- ``MAX_PLURAL_FORMS``: gettext's own table of languages needs at most 6
  (checked on the header as Babel reads it, see :mod:`._po`);
- a translation is at most ``LENGTH_FACTOR`` times its English, plus
  ``LENGTH_SLACK`` characters (German runs long; nothing runs 4 times long);
- a translation has no more ``[`` than its English: the links and images of
  a passage come from the English, and ``[`` is the character that makes
  Python-Markdown quadratic when repeated (``<![CDATA[``, ``![``, ``[a](``,
  ``[``: 4,500 characters of ``[`` took 4.6 s, of ``<b>`` 0.05 s);
- no line nests more than ``MAX_NESTING`` list or quote markers, nor is
  indented deeper than ``MAX_DEPTH`` list levels, which Python-Markdown would
  otherwise follow into a RecursionError before any structure is measured;
- what Python-Markdown builds from it (:func:`.._markdown.catalog_markdown`)
  nests at most ``MAX_DEPTH`` elements: the site and the book walk that tree
  recursively, however the nesting was spelled (``>>>``, ``<ul><li>``, ``<em>``).

A translation also adds nothing to the English: no link target, no kind of
HTML element the English lacks (nh3 would publish an ``<a>`` to any https
address), and no control character (an ESC, a bidi override), which would
be published raw in the page titles and break the book's fonts.  Emphasis is
the one exception (``EMPHASIS``): translators mark a term of their language,
as the Italian catalog does for *cantone* and *presa*, and it links nowhere.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from ...errors import shorten
from .._html_tree import VOID, html_tree
from .safe_text import catalog_markdown, is_paragraph

MAX_PLURAL_FORMS = 6
LENGTH_FACTOR = 4
LENGTH_SLACK = 500
MAX_NESTING = 3
MAX_DEPTH = 20
"""Elements nested in one translation's HTML; the project's deepest text nests 3."""
MAX_CATALOG_BYTES = 20_000_000
"""A PO file larger than this is refused before it is read (the project's are ~200 KB)."""

_NESTED = re.compile(
    rf"^[ \t]*(?:(?:>|(?:[-*+]|\d{{1,9}}[.)])(?=[ \t]))[ \t]*){{{MAX_NESTING + 1},}}", re.M
)
"""A line that opens more than ``MAX_NESTING`` quotes or lists (``>`` needs no blank after it)."""
_INDENT = re.compile(r"^[ \t]+", re.M)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""C0 but tab and newline, DEL, C1, and the bidi embeddings, overrides and isolates."""
EMPHASIS = frozenset({"em", "strong"})
"""Elements a translation may have where the English has none: they only mark words."""


def markup_problem(english: str, translation: str) -> str | None:
    """Why ``translation`` is refused as a translation of ``english``, or None."""
    control = _CONTROL.search(translation)
    if control is not None:
        return (
            f"holds the control character U+{ord(control[0]):04X} at character "
            f"{control.start() + 1:,}, which no page or book shows as text; delete it"
        )
    longest = max(LENGTH_FACTOR * len(english), len(english) + LENGTH_SLACK)
    if len(translation) > longest:
        return (
            f"is {len(translation):,} characters long, against {len(english):,} in English "
            f"(at most {longest:,}); shorten it"
        )
    if translation.count("[") > english.count("["):
        return (
            f"has {translation.count('[')} '[' where the English has {english.count('[')}; a "
            "translation keeps the English's links and adds none"
        )
    if _NESTED.search(translation):
        return (
            f"nests more than {MAX_NESTING} list or quote markers on one line; write them as "
            "the English does"
        )
    indent = max((len(m[0].expandtabs(4)) for m in _INDENT.finditer(translation)), default=0)
    if indent > 4 * MAX_DEPTH:
        return (
            f"indents a line by {indent:,} columns, deeper than {MAX_DEPTH} nested lists; "
            "write it as the English does"
        )
    return _structure_problem(english, translation)


def _structure_problem(english: str, translation: str) -> str | None:
    """What the translation's HTML adds to the English's: depth, elements or links."""
    inline = is_paragraph(english)
    mine = text_shape(translation, inline)
    if mine is None or mine.depth > MAX_DEPTH:
        depth = "too deep to measure" if mine is None else f"{mine.depth} deep"
        return (
            f"nests its lists, quotes, emphasis or HTML elements {depth} (at most {MAX_DEPTH}); "
            "write them as the English does"
        )
    theirs = text_shape(english, inline) or Shape(0, frozenset(), frozenset())
    extra = sorted(mine.tags - theirs.tags - EMPHASIS)
    if extra:
        return (
            f"has a <{extra[0]}> element, which the English lacks; a translation keeps the "
            "English's markup and adds none (write the words without it)"
        )
    links = sorted(mine.links - theirs.links)
    if links:
        return (
            f"links to {shorten(links[0], 60)}, which the English does not; a translation "
            "keeps the English's links and adds none"
        )
    return None


@dataclass(frozen=True)
class Shape:
    """What the HTML that the site makes of some catalog text holds, read from one parse.

    The limits here measure its depth, kinds and links; the quality checks
    (:mod:`.typography`) compare its links, code spans and emphases with the English's.
    """

    depth: int
    tags: frozenset[str]
    links: frozenset[str]
    link_counts: Counter[str] = field(default_factory=Counter)
    code: Counter[str] = field(default_factory=Counter)
    emphases: int = 0


@lru_cache(maxsize=8192)
def text_shape(text: str, inline: bool) -> Shape | None:
    """The shape of the HTML that the site makes of catalog text; None if too deep to build."""
    try:
        converted = catalog_markdown(text, inline=inline)
    except RecursionError:
        return None
    tree = html_tree(converted)  # read as the book reads a page, nested as a browser nests it
    elements = list(tree.iter())[1:]  # past the root that holds the fragment
    link_counts: Counter[str] = Counter()
    code: Counter[str] = Counter()
    for element in elements:
        for key in ("href", "src"):
            if element.get(key) is not None:
                link_counts[str(element.get(key))] += 1
        if element.tag == "code":
            code["".join(element.itertext())] += 1
    return Shape(
        _depth(tree),
        frozenset(e.tag for e in elements),
        frozenset(link_counts),
        link_counts,
        code,
        sum(e.tag in ("em", "strong") for e in elements),
    )


def _depth(root: ET.Element) -> int:
    """How many elements are open at the deepest point; counted without recursion."""
    deepest = 0
    waiting = [(child, 1) for child in root]
    while waiting:
        element, level = waiting.pop()
        if element.tag not in VOID:  # a void element opens nothing
            deepest = max(deepest, level)
            waiting.extend((child, level + 1) for child in element)
    return deepest
