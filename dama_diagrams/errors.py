"""The exceptions of the library.

Every error message says what is wrong and how to fix it.  Errors tied to a file
carry its path and line, and print as ``path:line: message``; the CLI prints
them once, at the edge, without a traceback.
"""

from __future__ import annotations

import re

UNSEEN = re.compile(
    "[\x00-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\ud800-\udfff\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
"""What a terminal or a log would act on, or show as nothing: control characters (C0, DEL,
C1), the line and paragraph separators, Unicode's default-ignorable characters (the
direction and zero-width ones, the soft hyphen, variation selectors, tags, the byte-order
mark...), and lone surrogates (the bytes of a file name that are not UTF-8).  A reader
that compares text as a language would (.NET's culture-sensitive ``IndexOf`` and
``StartsWith``, with which CI agents look for their commands) skips an ignorable
character, so ``#\\u00ad#vso[`` is a command to it: shown escaped, it is none."""


def visible(text: str, keep: str = "") -> str:
    """``text`` with every character of :data:`UNSEEN` but those in ``keep`` escaped.

    The escapes are Python's (``\\n``, ``\\x1b``, ``\\u202e``, ``\\udcff``), so a file
    name chosen to clear a terminal, retitle it, reverse the text after it or start
    a new line of a CI log is shown as what it is, on its line.
    """
    return UNSEEN.sub(lambda found: found[0] if found[0] in keep else _escape(found[0]), text)


def _escape(char: str) -> str:
    """One character as Python writes it in a string: ``\\n``, ``\\x1b``, ``\\u202e``."""
    return char.encode("unicode_escape").decode("ascii")


def shorten(text: str, limit: int = 60) -> str:
    """Quote user input in a message without letting a huge input flood the terminal."""
    return repr(text if len(text) <= limit else f"{text[: limit - 3]}...")


def counted(number: int, noun: str) -> str:
    """``1 language``, ``2 languages``: a count in a message, with its noun agreeing."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


class DamaError(Exception):
    """Base class: any error that the CLI reports as a clear one-line message.

    ``column`` (counted from 1) is where on its line the fault is, when it is known
    (a PDN move, a translation's msgstr): the ``json`` and ``github`` formats carry it.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def located(self, path: str, line: int | None) -> DamaError:
        """A copy of this error that points at a place in a file."""
        return type(self)(self.message, path=path, line=line)

    def __str__(self) -> str:
        """``path:line: message``, on one line whatever names it holds.

        A file name can hold anything but "/" and NUL, and a message quotes
        names too (an ``--out`` folder, a file found): each shows its line
        feed, and any other character of :data:`UNSEEN`, escaped (``\\n``).
        """
        message = visible(self.message)
        if self.path is None:
            return message
        path = visible(self.path)
        if self.line is None:
            return f"{path}: {message}"
        return f"{path}:{self.line}: {message}"


class PositionError(DamaError, ValueError):
    """A FEN string or a set of squares does not describe a possible position."""


class MoveNotationError(DamaError, ValueError):
    """A move string is not in the notation ``22-19`` or ``29x22x15x6``."""


class IllegalMoveError(DamaError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class DiagramError(DamaError):
    """A diagram file is malformed, or its claim is not what the engine finds."""
