"""Findings: each problem a command reports, printed as text, JSON or GitHub annotations.

Every check of the command line ends in the same few facts: a file, a line, a
column perhaps, and what is wrong.  ``--format`` chooses how they are printed,
and this module is the one place that knows how:

- ``text`` (the default): ``path:line: message``, one line each, as always;
- ``json``: one JSON object per line (JSON Lines), with exactly the keys
  ``path``, ``line``, ``col``, ``severity`` and ``message`` (``path``, ``line``
  and ``col`` may be ``null``; ``severity`` is ``error`` or ``warning``); the
  keys and their meaning are stable, so tools may rely on them;
- ``github``: ``::error file=…,line=…,col=…::message`` workflow commands, which
  GitHub Actions shows on the line of the pull request's diff.

Each is safe whoever chose the file name (see :mod:`._output`): a text line
shows its control characters escaped; a JSON line writes them, and the ``#``
that would open a CI system's service message (``##[``, ``##vso[``,
``##teamcity[``), as JSON escapes (``\u001b``, ``\u202e``, ``#\u0023vso[``),
the same string to a JSON reader; an annotation escapes what the runner
unescapes (``%``, CR, LF, and ``:`` and ``,`` in a property) and shows any other
control character, and that ``#``, escaped as a text line does, so that its line
is one command and the one it means.

A command builds :class:`Finding` objects (:meth:`Finding.of` turns any
:class:`~dama_diagrams.errors.DamaError` into one) and hands them to
:func:`print_findings`; :func:`add_format_option` gives it the option.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TextIO

from ..errors import UNSEEN, DamaError, visible
from ._output import no_service_messages, write_command

Format = Literal["text", "json", "github"]
Severity = Literal["error", "warning"]
FORMATS: tuple[Format, ...] = ("text", "json", "github")


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem at one place: what every output format is made from."""

    message: str
    path: str | None = None
    line: int | None = None
    col: int | None = None
    severity: Severity = "error"

    @classmethod
    def of(cls, error: DamaError, severity: Severity = "error") -> Finding:
        """The finding an error describes, with its column when the error knows it."""
        return cls(error.message, error.path, error.line, error.column, severity)

    def text(self) -> str:
        """``path:line: message``, as :class:`~dama_diagrams.errors.DamaError` prints itself."""
        shown = str(DamaError(self.message, path=self.path, line=self.line))
        return f"warning: {shown}" if self.severity == "warning" else shown

    def json(self) -> str:
        """One line of JSON, its keys always the same five, in the same order."""
        data = {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "message": self.message,
        }
        return _json_safe(json.dumps(data, ensure_ascii=False))

    def github(self) -> str:
        """A GitHub Actions workflow command: the pull request shows it on the line."""
        properties = []
        if self.path is not None:
            properties.append(f"file={_property(self.path)}")
            if self.line is not None:
                properties.append(f"line={self.line}")
                if self.col is not None:
                    properties.append(f"col={self.col}")
        properties.append("title=dama-diagrams")
        return f"::{self.severity} {','.join(properties)}::{_data(self.message)}"

    def formatted(self, style: Format) -> str:
        if style == "json":
            return self.json()
        if style == "github":
            return self.github()
        return self.text()


def _json_safe(line: str) -> str:
    """A JSON line with :data:`~dama_diagrams.errors.UNSEEN`'s characters and service messages
    escaped.

    ``json.dumps`` escapes C0 itself; the rest, and the ``#`` that would open a
    service message, only ever stand inside a JSON string, where ``\\u…`` (a
    surrogate pair beyond U+FFFF) reads back as the same character.
    """
    escaped = UNSEEN.sub(lambda found: _json_escape(found[0]), line)
    return no_service_messages(escaped, "\\u0023")


def _json_escape(char: str) -> str:
    """One character as a JSON escape: ``\\u202e``, or two for one beyond U+FFFF."""
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped, as GitHub documents.

    Any other control character is shown escaped (``\\x1b``), as is the ``#`` that would
    open another CI system's service message (``#\\x23vso[``): the runner would pass them on.
    """
    shown = no_service_messages(visible(text, keep="\r\n"))
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: also ``:`` and ``,`` escaped."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def print_findings(
    findings: Iterable[Finding], style: Format, *, out: TextIO, errors: TextIO
) -> int:
    """Print each finding in ``style``; returns how many were errors.

    Text goes where errors always went (``errors``, usually stderr); JSON and
    GitHub annotations go to ``out``, where a tool or the Actions runner reads them.
    """
    count = 0
    stream = errors if style == "text" else out
    for finding in findings:
        if style == "github":  # a workflow command on purpose, escaped by the runner's rules
            write_command(stream, finding.github())
        else:
            print(finding.formatted(style), file=stream)
        count += finding.severity == "error"
    return count


def add_format_option(parser: argparse.ArgumentParser) -> None:
    """``--format text|json|github``, with the same help for every command that has it."""
    parser.add_argument(
        "--format",
        dest="output_format",
        choices=FORMATS,
        default="text",
        help="how problems are printed: text (path:line: message), json (one object per "
        "line: path, line, col, severity, message) or github (annotations on the line)",
    )


def summary_stream(style: Format, out: TextIO, errors: TextIO) -> TextIO:
    """Where the command's own lines go: stdout, except under JSON, which keeps stdout for data."""
    return errors if style == "json" else out
