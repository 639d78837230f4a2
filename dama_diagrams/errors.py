"""The exceptions of the library.

Every error message says what is wrong and how to fix it.  Errors tied to a file
carry its path and line, and print as ``path:line: message``; the CLI prints
them once, at the edge, without a traceback.
"""

from __future__ import annotations


def shorten(text: str, limit: int = 60) -> str:
    """Quote user input in a message without letting a huge input flood the terminal."""
    return repr(text if len(text) <= limit else f"{text[: limit - 3]}...")


def counted(number: int, noun: str) -> str:
    """``1 language``, ``2 languages``: a count in a message, with its noun agreeing."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


class DamaError(Exception):
    """Base class: any error that the CLI reports as a clear one-line message."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def located(self, path: str, line: int | None) -> DamaError:
        """A copy of this error that points at a place in a file."""
        return type(self)(self.message, path=path, line=line)

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class PositionError(DamaError, ValueError):
    """A FEN string or a set of squares does not describe a possible position."""


class MoveNotationError(DamaError, ValueError):
    """A move string is not in the notation ``22-19`` or ``29x22x15x6``."""


class IllegalMoveError(DamaError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class DiagramError(DamaError):
    """A diagram file is malformed, or its claim is not what the engine finds."""
