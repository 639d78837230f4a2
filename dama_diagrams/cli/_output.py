"""The one door of every line a command prints: safe for a terminal and for a CI log.

A command prints names that anyone may have chosen: a file in a pull request,
a folder of a clone, a tag of a PDN file.  Git accepts a file name with an
escape sequence, a carriage return or a line feed in it, and one that starts
with ``::``.  So :func:`printing_safely` puts a :class:`SafeStream` in front of
stdout and stderr for the whole command, and every line that reaches them,
from the command, the library, MkDocs' log or a server's, keeps one rule:

- what a terminal or a log would act on, or show as nothing (control
  characters, carriage returns among them; direction and zero-width
  characters; bytes that are not UTF-8) is shown escaped, as ``\\x1b``,
  ``\\r``, ``\\u202e`` (:func:`~dama_diagrams.errors.visible`); only the line
  feed ends a line;
- no line starts, after blanks, with ``::``, which a GitHub Actions runner
  reads as a workflow command: the first colon is shown as ``\\x3a``;
- no line holds the opening of a service message that a CI system finds
  anywhere in a line: GitHub's ``##[`` (Azure Pipelines' formatting commands
  too), Azure Pipelines' ``##vso[``, TeamCity's ``##teamcity[``, in any case:
  the second ``#`` is shown as ``\\x23`` (:func:`no_service_messages`, the
  one rule, which the JSON lines and the annotations of :mod:`._findings` keep
  too, with their own escape for the ``#``).

The annotations of ``--format github`` are such commands on purpose: they go
through :func:`write_command`, escaped by the runner's own rules (see
:mod:`._findings`).  A progress line's ``\\r`` and erase sequence, which the
command writes itself, go through :func:`write_controls`.  Names are also shown
escaped where they are printed (``visible``), so that a line feed in a name
shows as ``\\n`` on its line rather than starting another.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import threading
from collections.abc import Iterator
from typing import TextIO, cast

from ..errors import visible

_COMMAND_START = re.compile(r"\s*:(?=:)")
"""A line the runner reads as a ``::command::``: it trims leading blanks first."""

SERVICE_MESSAGE_OPENINGS = ("##[", "##vso[", "##teamcity[")
"""What a CI system reads as the start of a command anywhere in a line: GitHub's older
``##[command]`` (and Azure Pipelines' ``##[group]``, ``##[section]``...), Azure Pipelines'
``##vso[area.action]`` and TeamCity's ``##teamcity[message]``."""

_NAMES = "|".join(re.escape(opening[2:-1]) for opening in SERVICE_MESSAGE_OPENINGS)
_SERVICE_MESSAGE = re.compile(rf"(?<=#)#(?=(?:{_NAMES})\[)", re.IGNORECASE)
"""The second ``#`` of any of :data:`SERVICE_MESSAGE_OPENINGS`, in any case."""

_BEGINNINGS = dict.fromkeys(  # every proper beginning of an opening, once
    re.escape(opening[:end])
    for opening in SERVICE_MESSAGE_OPENINGS
    for end in range(1, len(opening))
)
_UNDECIDED = re.compile(f"(?:{'|'.join(_BEGINNINGS)})\\Z", re.IGNORECASE)
"""The end of a part of a line that what follows could still make a service message's opening."""


def no_service_messages(text: str, hash_shown: str = "\\x23") -> str:
    """``text`` with the second ``#`` of every service message's opening shown as ``hash_shown``.

    ``v##vso[task.setvariable …]`` is shown ``v#\\x23vso[task.setvariable …]``, on its
    line; JSON writes the ``#`` as ``\\u0023``, which reads back as the same name.
    """
    return _SERVICE_MESSAGE.sub(lambda _: hash_shown, text)


def safe_line(line: str) -> str:
    """One line (no line feed in it) as it may be printed: see the module's docstring."""
    shown = visible(line)
    start = _COMMAND_START.match(shown)
    if start is not None:
        shown = f"{shown[: start.end() - 1]}\\x3a{shown[start.end() :]}"
    return no_service_messages(shown)


class SafeStream(io.TextIOBase):
    """A text stream that passes each line on to ``raw`` through :func:`safe_line`.

    A line is passed on when it ends; a part of one when the stream is
    flushed, unless what follows could still make it a command (blanks and
    one ``:`` at its start, the start of a service message's opening at its end).  Threads (the
    editor's, a server's) may write at once: a line is never split between them.
    """

    def __init__(self, raw: TextIO):
        super().__init__()
        self.raw = raw
        self._pending = ""
        """The current line, not passed on yet."""
        self._started = False
        """Whether the current line's start is passed on already (so it is no command)."""
        self._lock = threading.RLock()

    def write(self, text: str) -> int:
        with self._lock:
            *lines, self._pending = (self._pending + text).split("\n")
            for line in lines:
                self.raw.write(self._safe(line) + "\n")
                self._started = False
        return len(text)

    def flush(self) -> None:
        with self._lock:
            self._pass_on(final=False)
            self.raw.flush()

    def close_line(self) -> None:
        """Pass on whatever the current line holds: the command is over."""
        with self._lock:
            self._pass_on(final=True)
            self.raw.flush()

    def command(self, line: str) -> None:
        """A workflow command, on a line of its own; the caller escaped it."""
        with self._lock:
            self._end_line()
            self.raw.write(line + "\n")

    def controls(self, text: str) -> None:
        """Bytes for the terminal that the command writes itself (a progress line's ``\\r``)."""
        with self._lock:
            self._pass_on(final=True)
            self.raw.write(text)
            self.raw.flush()

    def _end_line(self) -> None:
        if self._pending or self._started:
            self.write("\n")

    def _pass_on(self, *, final: bool) -> None:
        text = self._pending
        if not final:
            undecided = not self._started and text.lstrip() in ("", ":")
            kept = len(text) if undecided else _undecided_end(text)
            text, self._pending = text[: len(text) - kept], text[len(text) - kept :]
        else:
            self._pending = ""
        if text:
            self.raw.write(self._safe(text))
            self._started = True

    def _safe(self, text: str) -> str:
        if self._started:  # the line's start is out already: no command can begin here
            return no_service_messages(visible(text))
        return safe_line(text)

    # What callers ask of a standard stream.
    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    def writable(self) -> bool:
        return True

    # io.TextIOBase has these as read-only properties; typeshed, as attributes.
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.raw.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.raw.errors


def _undecided_end(text: str) -> int:
    """How many characters at the end of ``text`` could open a service message with what follows."""
    found = _UNDECIDED.search(text)
    return 0 if found is None else len(found[0])


@contextlib.contextmanager
def printing_safely(out: TextIO | None) -> Iterator[TextIO]:
    """For one command: stdout and stderr behind :class:`SafeStream`; yields where ``out`` goes.

    ``out`` is the stream the command prints to (stdout when None, as the
    console script has it); it gets a :class:`SafeStream` of its own when it is
    another one (a test's).
    """
    saved = sys.stdout, sys.stderr
    opened: list[SafeStream] = []

    def safe(stream: TextIO) -> TextIO:
        if isinstance(stream, SafeStream):
            return stream
        opened.append(SafeStream(stream))
        return cast(TextIO, opened[-1])

    sys.stdout, sys.stderr = safe(saved[0]), safe(saved[1])
    chosen = sys.stdout if out is None or out is saved[0] else safe(out)
    try:
        yield chosen
    finally:
        sys.stdout, sys.stderr = saved
        for stream in opened:
            with contextlib.suppress(BrokenPipeError, ValueError):  # the reader went, or closed it
                stream.close_line()


def write_command(stream: TextIO, line: str) -> None:
    """A workflow command that the caller escaped (an annotation), on a line of its own."""
    if isinstance(stream, SafeStream):
        stream.command(line)
    else:
        print(line, file=stream)


def write_controls(stream: TextIO, text: str) -> None:
    """Control characters that the command writes itself: a progress line, and its erasing."""
    if isinstance(stream, SafeStream):
        stream.controls(text)
    else:
        stream.write(text)
        stream.flush()
