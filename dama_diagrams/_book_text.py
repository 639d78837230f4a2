"""What the printed book can set, and what shows nothing: one answer for every check.

Stage-neutral, like :mod:`.errors`: ``verify`` reads a diagram's title,
caption and question (:mod:`.diagram.schema`, without the site extra), ``status``
a catalog's translations (:mod:`.site.i18n.quality`), and the book writes
them for Typst (:mod:`.site.booklet.markup`); all three ask here.

- :func:`unsettable`: the characters that none of the fonts Typst embeds can
  show (an emoji, ⛀, a Thai letter, U+FFFF).  The table of those it can is
  :mod:`._book_glyph_table`, which ``scripts/book_glyphs.py`` makes by asking
  Typst itself; ``tests/test_booklet.py`` asks again and compares.  The book
  shows :data:`REPLACEMENT` in their place, and the checks warn at their line.
- :func:`is_blank`: a text that shows nothing (only spaces, line separators,
  zero-width and other invisible characters, written as themselves or as HTML
  references such as ``&#8203;`` and ``&nbsp;``).  A heading so translated would
  be an empty heading in the page and in the book, which PDF/UA refuses.

Both judge Markdown as its page shows it, its character references decoded
(:func:`._markdown_text.shown_text`), as the control checks do.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache

from ._book_glyph_table import SETTABLE
from ._markdown_text import REFERENCE, shown_text

Ranges = tuple[tuple[int, int], ...]
"""Code points as sorted, disjoint, inclusive ``(first, last)`` ranges."""
REPLACEMENT = "\ufffd"
"""What the book shows for a character its fonts lack: the replacement character, ``�``."""

_IGNORABLE: Ranges = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's default-ignorable code points (which draw nothing), and the braille blank."""


def code_point_ranges(code_points: Iterable[int]) -> Ranges:
    """Code points as sorted ``(first, last)`` ranges."""
    ranges: list[list[int]] = []
    for code in sorted(set(code_points)):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return tuple((first, last) for first, last in ranges)


def _within(code: int, ranges: Sequence[tuple[int, int]], firsts: Sequence[int]) -> bool:
    index = bisect.bisect_right(firsts, code) - 1
    return index >= 0 and code <= ranges[index][1]


@cache
def _unsettable_pattern() -> re.Pattern[str]:
    """Any one character outside :data:`SETTABLE`, as a regular expression's class."""
    ranges = "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in SETTABLE)
    return re.compile(f"[^{ranges}]")


_IGNORABLE_FIRSTS = tuple(first for first, _ in _IGNORABLE)


def unsettable(text: str) -> list[str]:
    """Each character of ``text`` that the book's fonts cannot show, once, in order."""
    return list(dict.fromkeys(_unsettable_pattern().findall(text)))


def book_text(text: str) -> str:
    """``text`` as the book sets it: each character its fonts lack as :data:`REPLACEMENT`."""
    return _unsettable_pattern().sub(REPLACEMENT, text)


def is_blank(text: str) -> bool:
    """Whether Markdown ``text`` shows nothing: white space, controls, invisible characters only.

    A character written as a reference (``&#8203;``) counts as the character.
    """
    return shows_nothing(shown_text(text))


def shows_nothing(shown: str) -> bool:
    """Whether text already decoded (a page's, the book's) is all white space or invisible."""
    return all(_shows_nothing(character) for character in shown)


def _shows_nothing(character: str) -> bool:
    if character.isspace() or unicodedata.category(character) in {"Cc", "Cf", "Zs", "Zl", "Zp"}:
        return True
    return _within(ord(character), _IGNORABLE, _IGNORABLE_FIRSTS)


def describe(character: str) -> str:
    """A character as a message names it: ``😀 (U+1F600 GRINNING FACE)``.

    Only a character that shows as itself is quoted: a control, a format or
    an unassigned character is named only, so a message never acts on a terminal.
    """
    code = f"U+{ord(character):04X}"
    name = unicodedata.name(character, "")
    category = unicodedata.category(character)
    if not name:
        kind = "a noncharacter" if _noncharacter(ord(character)) else "unassigned"
        name = "a control character" if category == "Cc" else kind
        return f"{code} ({name})"
    if category[0] in "LMNPS" and not _shows_nothing(character):
        return f"{character} ({code} {name})"
    return f"{code} ({name})"


def _noncharacter(code: int) -> bool:
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def described(characters: Sequence[str], limit: int = 3) -> str:
    """The first ``limit`` characters described, and how many more there are."""
    shown = ", ".join(describe(character) for character in characters[:limit])
    rest = len(characters) - limit
    return f"{shown} and {rest} more" if rest > 0 else shown


def glyph_problem(text: str) -> str | None:
    """What a check says of a text with characters the book cannot show, or None.

    The text is Markdown: a character written as an HTML reference (``&#x26C0;``) counts.
    """
    missing = unsettable(shown_text(text))
    if not missing:
        return None
    return (
        f"has {described(missing)}, which the printed book's fonts lack: the book shows "
        f"{REPLACEMENT} in its place"
    )


def blank_problem(text: str) -> str:
    """What a check says of a blank text: which invisible characters it holds, and how written."""
    found = list(dict.fromkeys(shown_text(text)))
    verb = "shows" if len(found) == 1 else "show"
    references = list(dict.fromkeys(REFERENCE.findall(text)))
    written = f", written {', '.join(references[:3])}" if references else ""
    return f"is blank: it holds only {described(found)}{written}, which {verb} nothing"
