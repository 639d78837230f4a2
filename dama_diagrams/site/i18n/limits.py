"""What a catalog may hold: limits that keep every build bounded in time and memory.

A PO file comes from a translator's editor, so its text is input like any
other.  Each limit is far above what a real translation needs:

- ``MAX_PLURAL_FORMS``: gettext's own table of languages needs at most 6;
- a translation is at most ``LENGTH_FACTOR`` times its English, plus
  ``LENGTH_SLACK`` characters (German runs long; nothing runs 4 times long);
- a translation has no more ``[`` and ``<`` than its English: the links,
  images and HTML of a passage come from the English, and it is exactly those
  characters that make Python-Markdown quadratic (``<![CDATA[``, ``![``,
  ``[a](``, ``[``) when repeated;
- no line nests more than ``MAX_NESTING`` list or quote markers, which
  Python-Markdown would otherwise follow into a RecursionError.
"""

from __future__ import annotations

import re

MAX_PLURAL_FORMS = 6
LENGTH_FACTOR = 4
LENGTH_SLACK = 500
MAX_NESTING = 3
MAX_CATALOG_BYTES = 20_000_000
"""A PO file larger than this is refused before it is read (the project's are ~200 KB)."""

_MARKERS = ("[", "<")
_NESTED = re.compile(rf"^[ \t]*(?:(?:[-*+>]|\d{{1,9}}[.)])[ \t]+){{{MAX_NESTING + 1},}}", re.M)


def markup_problem(english: str, translation: str) -> str | None:
    """Why ``translation`` is refused as a translation of ``english``, or None."""
    longest = max(LENGTH_FACTOR * len(english), len(english) + LENGTH_SLACK)
    if len(translation) > longest:
        return (
            f"is {len(translation):,} characters long, against {len(english):,} in English "
            f"(at most {longest:,}); shorten it"
        )
    for marker in _MARKERS:
        if translation.count(marker) > english.count(marker):
            return (
                f"has {translation.count(marker)} '{marker}' where the English has "
                f"{english.count(marker)}; a translation keeps the English's links and markup "
                "and adds none"
            )
    if _NESTED.search(translation):
        return (
            f"nests more than {MAX_NESTING} list or quote markers on one line; write them as "
            "the English does"
        )
    return None
