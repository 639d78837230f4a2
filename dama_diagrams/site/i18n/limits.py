"""What a catalog may hold: limits that keep every build bounded in time and memory.

A PO file comes from a translator's editor, so its text is input like any
other.  Each limit is far above what a real translation needs:

- ``MAX_PLURAL_FORMS``: gettext's own table of languages needs at most 6;
- a translation is at most ``LENGTH_FACTOR`` times its English, plus
  ``LENGTH_SLACK`` characters (German runs long; nothing runs 4 times long);
- a translation has no more ``[`` than its English: the links and images of
  a passage come from the English, and ``[`` is the character that makes
  Python-Markdown quadratic when repeated (``<![CDATA[``, ``![``, ``[a](``,
  ``[``: 4,500 characters of ``[`` took 4.6 s, of ``<b>`` 0.05 s).  Raw HTML
  costs no such time; nh3 drops it (see :mod:`.._markdown`);
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

_NESTED = re.compile(rf"^[ \t]*(?:(?:[-*+>]|\d{{1,9}}[.)])[ \t]+){{{MAX_NESTING + 1},}}", re.M)


def markup_problem(english: str, translation: str) -> str | None:
    """Why ``translation`` is refused as a translation of ``english``, or None."""
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
    return None
