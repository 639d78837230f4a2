"""Whether a Markdown page holds a ```` ```dama ```` fence, told from its bytes alone.

``verify`` reads a page as UTF-8 text of at most 4 MB (:func:`.markdown.read_page`).
A page with no ``dama`` fence (a README, a changelog in Latin-1, a 5 MB export)
holds nothing for it to check, and need not be UTF-8 or small; this module
tells such a page from the others without decoding it, in bounded memory.

It looks for a line that opens a ``dama`` fence as :func:`.markdown.dama_fences`
reads one, in any encoding that writes ASCII as ASCII (UTF-8, Latin-1, cp1252)
or as ASCII with NUL bytes beside it (UTF-16, UTF-32), with or without a
byte-order mark.  It errs on one side only: a line it takes for an opening may
be none (the page is then read and checked in full, as ever), but it misses no
opening that the page's text holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO

_OPENING = re.compile(
    rb"""(?imx) (?: ^ | \r ) N (?: (?:\xef\xbb\xbf|\xff\xfe|\xfe\xff) N )?  # a line, a BOM
    (?: [\x20\t>] N )*                                   # the indent, block quotes
    (?: (?: ` N ){3,} | (?: ~ N ){3,} ) (?: [\x20\t] N )*   # the fence
    (?: \{ N (?: [\x20\t] N )* (?: \. N )? d N a N m N a N (?! \x00* [A-Za-z0-9_] )
      | (?: \. N )? d N a N m N a N (?! \x00* [A-Za-z0-9_-] ) )
    """.replace(b"N", rb"\x00*")  # between any two characters, the NULs of UTF-16 and UTF-32
)
"""The start of a fence's opening line: ```` ```dama ````, ```` ``` { .dama } ```` or
```` ```DAMA ```` (which ``verify`` refuses, as superfences would show it as code).

A superset of what :data:`.markdown._OPENING` matches, so that no opening is
missed: its lookaheads refuse only ASCII letters, digits, ``_`` and ``-``,
which that pattern refuses too (``tests/test_verify.py`` checks the two agree)."""
_UNDECIDED = re.compile(rb"[\x00 \t>`~{.\xef\xbb\xbf\xfe\xffdamDAM]*")
"""Bytes that may all still belong to an opening: a line made of them alone is undecided."""

_LINE_END = re.compile(rb"[\r\n]")
"""A line ends at LF or at CR alone, as Python-Markdown reads a page."""
_BLOCK = 1 << 20
_LONG_LINE = 1 << 16
"""A line longer than this is decided on its start, and the rest of it is skipped unkept."""


def first_fence_line(stream: BinaryIO) -> int | None:
    """The line (1-based) of the first ``dama`` fence opening of ``stream``, or None.

    Reads the stream to its end unless it finds one, a block at a time, keeping
    at most one block and the start of one line in memory.
    """
    line = 1  # the line that ``carry`` starts
    carry = b""  # the start of a line whose end is not read yet
    at = 0  # where ``carry`` starts in the stream
    skipping = False  # inside a long line already decided on
    newline: _Newline | None = None
    while block := stream.read(_BLOCK):
        newline = newline or _Newline.of(block)
        if skipping:
            end = _LINE_END.search(block)
            if end is None:
                at += len(block)
                continue
            at, block, line, skipping = at + end.end(), block[end.end() :], line + 1, False
        data = carry + block
        whole = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1  # the complete lines end here
        found = _OPENING.search(data, 0, whole)
        if found is not None:
            return line + newline.count(data, at, found.start())
        line += newline.count(data, at, whole)
        at += whole
        carry = data[whole:]
        if len(carry) > _LONG_LINE:
            head = carry[:_LONG_LINE]
            if _UNDECIDED.fullmatch(head) or _OPENING.match(head):
                return line  # an opening, or a line that may yet be one
            carry, skipping = b"", True
    if carry and _OPENING.match(carry):  # the last line, which no newline ends
        return line
    return None


@dataclass(frozen=True, slots=True)
class _Newline:
    """How the page writes a line feed: a byte, or a code unit of UTF-16 or UTF-32.

    Counted as a byte in a UTF-16 page, 0x0A would also count the half of a
    character such as U+010A: lines are counted in whole code units.
    """

    unit: bytes = b"\n"

    @classmethod
    def of(cls, head: bytes) -> _Newline:
        """Told from the page's first bytes: its byte-order mark, else where its NULs fall."""
        for mark, unit in _MARKS:
            if head.startswith(mark):
                return cls(unit)
        sample = head[:4096]
        nuls = [sum(1 for i in range(r, len(sample), 4) if sample[i] == 0) for r in range(4)]
        if not any(nuls):
            return cls()
        if nuls[0] and nuls[1] and nuls[2] and not nuls[3]:
            return cls(b"\x00\x00\x00\n")  # UTF-32 big-endian: ASCII as 00 00 00 xx
        if nuls[1] and nuls[2] and nuls[3] and not nuls[0]:
            return cls(b"\n\x00\x00\x00")
        even, odd = nuls[0] + nuls[2], nuls[1] + nuls[3]
        return cls(b"\x00\n" if even > odd else b"\n\x00")

    def count(self, data: bytes, at: int, end: int) -> int:
        """The line feeds that start before ``end`` in ``data``, ``at`` bytes into the page.

        An opening found just after a line feed's 0x0A byte is on the next line.
        """
        width = len(self.unit)
        if width == 1:
            return data.count(b"\n", 0, end)
        first = -at % width  # the first whole code unit of ``data``
        return sum(1 for i in range(first, end, width) if data[i : i + width] == self.unit)


_MARKS = (
    (b"\xff\xfe\x00\x00", b"\n\x00\x00\x00"),  # UTF-32 little-endian, before UTF-16's mark
    (b"\x00\x00\xfe\xff", b"\x00\x00\x00\n"),
    (b"\xff\xfe", b"\n\x00"),
    (b"\xfe\xff", b"\x00\n"),
)


def reads_past(stream: BinaryIO, limit: int) -> bool:
    """Whether the stream holds more than ``limit`` bytes in all (some are read already)."""
    while (done := stream.tell()) <= limit:
        if not stream.read(min(_BLOCK, limit + 1 - done)):
            return False
    return True
