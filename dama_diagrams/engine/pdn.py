"""PDN 3.0 text read as a stream of events, one game after another.

:class:`PdnReader` turns numbered lines (:func:`.pdn_lines.read_lines`) into
events: a game starts, a tag, a move as written, a NAG, a comment, a variation
opens or closes, the result, the game ends.  It keeps nothing of a game but the
open variations, so one game of any length streams; it never recurses, so
variations may nest deep.  A malformed game is an ``error`` event at its line
and column, after which the reader skips to that game's end (its result, or
the next game's tags) and goes on: one bad game never hides the others.  It
knows nothing of the rules; :mod:`.game_check` plays the moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from ..errors import DamaError, shorten, visible
from .pdn_tags import RESULT_PATTERN

MAX_DEPTH = 10_000
"""Variations nested deeper than this are refused: real files nest a few levels."""

MAX_COMMENT = 1 << 20
"""A comment longer than this (1 MB) is refused: its ``}`` is surely missing."""

_TOKEN = re.compile(
    rf"""
      (?P<space>\s+)
    | (?P<tag>\[)
    | (?P<comment>\{{)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<rest>[;%].*)
    | (?P<result>{RESULT_PATTERN}(?=[\s()]|$))
    | (?P<number>[0-9]+\.(?:\.\.)?)
    | (?P<ellipsis>\.\.\.)
    | (?P<move>[0-9]+(?:[-x][0-9]+)+)
    | (?P<nag>\$[0-9]+|[!?]{{1,2}})
    | (?P<stray>[}}\]])
    | (?P<other>[^\s(){{}}\[\]]+)
    """,
    re.VERBOSE,
)
# While a broken game is skipped, only what can end it matters: a comment (which
# may hide anything), a tag, a result.
_SKIP = re.compile(
    rf"(?P<comment>\{{)|(?P<tag>\[)|(?<![^\s()])(?P<result>{RESULT_PATTERN})(?=[\s()]|$)"
)
_TAG = re.compile(r'\[\s*([^\W\d]\w*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_STRAY = {"}": "} closes no comment {", "]": "] closes no tag ["}


class PdnError(DamaError):
    """A PDN file that cannot be read, or a game whose moves the rules refuse."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        game: int | None = None,
    ):
        super().__init__(message, path=path, line=line, column=column)
        self.game = game
        """The game it refuses (numbered from 1), or ``None`` for the whole file."""

    def __str__(self) -> str:
        if self.path is not None and self.line is not None and self.column is not None:
            where = f"{visible(self.path)}:{self.line}:{self.column}"
            return f"{where}: {visible(self.message)}"  # on one line, as DamaError's
        return super().__str__()


@dataclass
class WrittenMove:
    """One move as the file writes it."""

    text: str
    line: int
    column: int
    number: str | None = None
    """The move number written just before it (``12.`` or ``12...``), if any."""
    number_at: tuple[int, int] | None = None
    """The line and column of that number."""


EventKind = Literal[
    "start", "tag", "move", "nag", "comment", "open", "close", "result", "error", "end"
]


@dataclass(slots=True)
class Event:
    """One thing the file says, where it says it."""

    kind: EventKind
    line: int
    column: int = 0
    text: str = ""
    """The tag's name, the NAG, the comment, the result."""
    value: str = ""
    """The tag's value."""
    move: WrittenMove | None = None
    error: PdnError | None = None


@dataclass
class _State:
    """What the reader knows of the game it is in."""

    started: bool = False
    movetext: bool = False
    openings: list[tuple[int, int]] = field(default_factory=list)
    moved: list[bool] = field(default_factory=lambda: [False])
    """For the main line and each open variation: has it a move yet?"""
    number: tuple[str, int, int] | None = None


class PdnReader:
    """The events of numbered lines; call :meth:`skip_game` to skip the rest of a game."""

    def __init__(self, lines: Iterable[tuple[int, str]], path: str):
        self.path = path
        self._lines = iter(lines)
        self._skipping = False

    def skip_game(self) -> None:
        """Read no more of the current game than is needed to find its end."""
        self._skipping = True

    def error(self, line: int, column: int | None, message: str) -> PdnError:
        return PdnError(message, path=self.path, line=line, column=column)

    def _next_line(self) -> tuple[int, str] | PdnError | None:
        try:
            return next(self._lines, None)
        except PdnError as error:
            return error

    def __iter__(self) -> Iterator[Event]:
        state = _State()
        last = 0
        while True:
            fetched = self._next_line()
            if isinstance(fetched, PdnError):
                yield Event("error", fetched.line or last, error=fetched)
                break
            if fetched is None:
                break
            line, text = fetched
            last = line
            if self._skipping and text.strip() and not text.lstrip().startswith("["):
                state.movetext = True
            position = 0
            while position < len(text):
                if self._skipping:
                    found = _SKIP.search(text, position)
                    if found is None:
                        break
                    kind, position = found.lastgroup, found.end()
                    if kind == "comment":
                        ended = self._comment(line, text, position, keep=False)
                        if isinstance(ended, PdnError):
                            break
                        _, line, text, position = ended
                    elif kind == "result" or state.movetext:
                        if kind == "tag":
                            position -= 1
                        yield Event("end", line)
                        state, self._skipping = _State(), False
                    continue
                match = _TOKEN.match(text, position)
                if match is None:  # pragma: no cover - the last alternative takes any rest
                    break
                kind, token, column = match.lastgroup, match.group(), position + 1
                position = match.end()
                if kind in ("space", "rest"):
                    continue
                if kind == "tag" and state.movetext:
                    if state.openings:
                        opened = state.openings[-1]
                        yield self._problem(*opened, "variation ( is never closed with )")
                    yield Event("end", line)
                    state, self._skipping = _State(), False
                if not state.started:
                    state.started = True
                    yield Event("start", line, column)
                if kind == "tag":
                    tag = _TAG.match(text, position - 1)
                    if tag is None:
                        yield self._problem(
                            line, column, 'a tag is written [Name "value"] on one line'
                        )
                        self._skipping = True
                        continue
                    position = tag.end()
                    value = re.sub(r"\\(.)", r"\1", tag.group(2))
                    yield Event("tag", line, column, tag.group(1), value)
                    continue
                state.movetext = True
                if kind == "comment":
                    ended = self._comment(line, text, position, keep=True)
                    if isinstance(ended, PdnError):
                        yield Event("error", ended.line or line, error=ended)
                        self._skipping = True
                        break
                    comment, line, text, position = ended
                    yield Event("comment", line, column, comment)
                    continue
                event = self._movetext(state, kind, token, line, column)
                if event is not None:
                    yield event
                    if event.kind == "error":
                        self._skipping = True
                    elif event.kind == "result":
                        yield Event("end", line)
                        state = _State()
        if state.openings and not self._skipping:
            yield self._problem(*state.openings[-1], "variation ( is never closed with )")
        if state.started:
            yield Event("end", last)

    def _problem(self, line: int, column: int, message: str) -> Event:
        return Event("error", line, column, error=self.error(line, column, message))

    def _movetext(
        self, state: _State, kind: str | None, token: str, line: int, column: int
    ) -> Event | None:
        """The event of one movetext token, or ``None`` for a move number."""
        if kind == "number":
            state.number = (token, line, column)
            return None
        if kind == "ellipsis":  # "12. ... 11-15", as some software writes Black's move
            if state.number is not None and not state.number[0].endswith("..."):
                state.number = (state.number[0] + "..", *state.number[1:])
            return None
        number, state.number = state.number, None
        if kind == "move":
            written = WrittenMove(token, line, column)
            if number is not None:
                written.number, written.number_at = number[0], number[1:]
            state.moved[-1] = True
            return Event("move", line, column, move=written)
        if kind == "nag":
            if not state.moved[-1]:
                return self._problem(line, column, f"{token} follows no move")
            return Event("nag", line, column, token)
        if kind == "open":
            if not state.moved[-1]:
                return self._problem(line, column, "a variation ( must follow the move it replaces")
            if len(state.openings) >= MAX_DEPTH:
                return self._problem(
                    line, column, f"variations nest more than {MAX_DEPTH} deep: is a ) missing?"
                )
            state.openings.append((line, column))
            state.moved.append(False)
            return Event("open", line, column)
        if kind == "close":
            if not state.openings:
                return self._problem(line, column, ") closes no variation")
            state.openings.pop()
            state.moved.pop()
            return Event("close", line, column)
        if kind == "result":
            if state.openings:
                opened = state.openings[-1]
                return self._problem(*opened, f"variation ( is never closed with ) before {token}")
            return Event("result", line, column, token)
        if kind == "stray":
            return self._problem(line, column, _STRAY[token])
        return self._problem(
            line,
            column,
            f"{shorten(token)} is not PDN: expected a move (22-18, 29x22x15), a move "
            "number (12.), a comment {…}, a variation (…) or a result (2-0, 1-1, 0-2)",
        )

    def _comment(
        self, line: int, text: str, position: int, *, keep: bool
    ) -> tuple[str, int, str, int] | PdnError:
        """The comment that starts before ``position``, however many lines it takes.

        Also where the reader is once past its ``}``.  ``keep=False`` skips it
        without holding its text.
        """
        start = (line, position)
        parts: list[str] = []
        size = 0
        while True:
            end = text.find("}", position)
            piece = text[position:] if end < 0 else text[position:end]
            if keep:
                size += len(piece)
                if size > MAX_COMMENT:
                    return self.error(*start, "comment { runs over 1 MB: is its } missing?")
                parts.append(piece)
            if end >= 0:
                return " ".join(" ".join(parts).split()), line, text, end + 1
            following = self._next_line()
            if following is None or isinstance(following, PdnError):
                return self.error(*start, "comment { is never closed with }")
            line, text = following
            position = 0


# --- writing ---------------------------------------------------------------------------------


def write_tags(tags: dict[str, str]) -> str:
    lines = []
    for name, value in tags.items():
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{name} "{escaped}"]')
    return "\n".join(lines)


def wrap(words: Iterable[str], width: int = 79) -> str:
    """Movetext as lines of at most ``width`` characters (a long comment stays whole)."""
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return "\n".join(lines)
