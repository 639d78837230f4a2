"""What a catalog may hold: limits that keep every build bounded, and its markup the English's.

A PO file comes from a translator's editor, so its text is input like any
other.  The limits that bind every text on its way into Markdown, whoever
wrote it (:mod:`dama_diagrams._markdown_text`: no control or bidi character,
nesting and depth), bind a translation too; beside them, a translation is
bounded by its English, as an English caption is bounded by fixed numbers:

- ``MAX_PLURAL_FORMS``: gettext's own table of languages needs at most 6
  (checked on the header as Babel reads it, see :mod:`._po`);
- a translation is at most ``LENGTH_FACTOR`` times its English, plus
  ``LENGTH_SLACK`` characters (German runs long; nothing runs 4 times long);
- a translation has no more ``[`` than its English: the links and images of
  a passage come from the English, and ``[`` is the character that makes
  Python-Markdown quadratic when repeated (``<![CDATA[``, ``![``, ``[a](``,
  ``[``: 4,500 characters of ``[`` took 4.6 s, of ``<b>`` 0.05 s).

A translation also adds nothing to the English: no link target, and no kind
of HTML element the English lacks (nh3 would publish an ``<a>`` to any https
address).  Emphasis is the one exception (``EMPHASIS``): translators mark a
term of their language, as the Italian catalog does for *cantone* and
*presa*, and it links nowhere.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from ..._html_tree import html_tree
from ..._markdown_text import (
    catalog_markdown,
    control_problem,
    depth_problem,
    html_depth,
    is_paragraph,
    nesting_problem,
)
from ...errors import shorten

MAX_PLURAL_FORMS = 6
LENGTH_FACTOR = 4
LENGTH_SLACK = 500
MAX_CATALOG_BYTES = 20_000_000
"""A PO file larger than this is refused before it is read (the project's are ~200 KB)."""

_AS_THE_ENGLISH = "write them as the English does"
EMPHASIS = frozenset({"em", "strong"})
"""Elements a translation may have where the English has none: they only mark words."""


def markup_problem(english: str, translation: str) -> str | None:
    """Why ``translation`` is refused as a translation of ``english``, or None."""
    control = control_problem(translation)
    if control is not None:
        return control
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
    return nesting_problem(translation, _AS_THE_ENGLISH) or _structure_problem(english, translation)


def _structure_problem(english: str, translation: str) -> str | None:
    """What the translation's HTML adds to the English's: depth, elements or links."""
    inline = is_paragraph(english)
    mine = text_shape(translation, inline)
    deep = depth_problem(None if mine is None else mine.depth, _AS_THE_ENGLISH)
    if mine is None or deep is not None:
        return deep
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
    literal: Counter[str] = field(default_factory=Counter)
    """Markdown's own marks left as text outside code (brackets, parentheses, backticks, and
    a ``*`` or ``_`` that could open an emphasis): each is shown as it is, so more of them
    than in the English is Markdown that did not close."""


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
    literal = _marks(tree.text)
    for element in elements:
        for key in ("href", "src"):
            if element.get(key) is not None:
                link_counts[str(element.get(key))] += 1
        if element.tag == "code":
            code["".join(element.itertext())] += 1
        else:
            literal += _marks(element.text)
        literal += _marks(element.tail)
    return Shape(
        html_depth(tree),
        frozenset(e.tag for e in elements),
        frozenset(link_counts),
        link_counts,
        code,
        sum(e.tag in ("em", "strong") for e in elements),
        literal,
    )


_MARK = re.compile(r"[\[\]()`]|\*+(?=[^\s*])|(?<![\w_])_+(?=[^\s_])")
"""Markdown's marks of links and code spans, and a ``*`` or ``_`` that could open an emphasis
(``*`` before a word, ``_`` at a word's start: ``3 * 4`` and ``snake_case`` open none)."""


def _marks(text: str | None) -> Counter[str]:
    """The marks of :data:`_MARK` in a text of the HTML, each counted by its character."""
    return Counter(found[0][0] for found in _MARK.finditer(text or ""))
