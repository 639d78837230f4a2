"""The lines of a PDN file, decoded as the software that wrote it meant them.

UTF-8 is expected, with or without a byte-order mark.  Latin-1 (common for PDN)
is read from the first line that is not UTF-8, with a notice.  UTF-16 with a
byte-order mark is read; UTF-16 without one is refused with a clear message,
never misread.  A line longer than :data:`MAX_LINE` is refused, so that no
single line is ever held whole, however large the file.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from .._files import open_project_file
from .pdn import PdnError

MAX_LINE = 1 << 20
"""1 MB: tournament software wraps movetext at 80 characters, or writes a game on a line."""

Notice = Callable[[str], None]


def read_lines(path: Path, shown: str, notice: Notice | None = None) -> Iterator[tuple[int, str]]:
    """The lines of a PDN file, numbered from 1, read as they are needed."""
    # the one door: a FIFO or a device is refused, never waited on; the caller checks links
    with open_project_file(path, shown, PdnError, links=False) as file:
        head = file.read(4)
        file.seek(0)
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            yield from _utf16_lines(file, shown)
            return
        if head.startswith(codecs.BOM_UTF8):
            file.seek(len(codecs.BOM_UTF8))
        elif b"\x00" in head:
            raise PdnError(
                "the file holds NUL bytes: it looks like UTF-16 without a byte-order mark; "
                "save it as UTF-8",
                path=shown,
                line=1,
            )
        yield from _byte_lines(file, shown, notice)


def _byte_lines(file: BinaryIO, shown: str, notice: Notice | None) -> Iterator[tuple[int, str]]:
    latin = False
    number = 0
    while raw := file.readline(MAX_LINE + 1):
        number += 1
        if len(raw) > MAX_LINE:
            raise _too_long(shown, number)
        if not latin:
            try:
                yield number, raw.decode("utf-8")
                continue
            except UnicodeDecodeError:
                latin = True
                if notice is not None:
                    notice(f"{shown}:{number}: not UTF-8: read as Latin-1 (ISO-8859-1)")
        yield number, raw.decode("latin-1")


def _utf16_lines(file: BinaryIO, shown: str) -> Iterator[tuple[int, str]]:
    text = io.TextIOWrapper(file, encoding="utf-16", newline="")
    number = 0
    try:
        while line := text.readline(MAX_LINE + 1):
            number += 1
            if len(line) > MAX_LINE:
                raise _too_long(shown, number)
            yield number, line
    except UnicodeDecodeError:
        raise PdnError(
            "not valid UTF-16 although the file starts with its byte-order mark; save it as UTF-8",
            path=shown,
            line=number + 1,
        ) from None
    finally:
        text.detach()


def _too_long(shown: str, number: int) -> PdnError:
    return PdnError(
        "the line is longer than 1 MB: a PDN file wraps its moves over lines; is this a PDN file?",
        path=shown,
        line=number,
    )
