"""PDN 3.0 text: games read as they are written, and written back.

:func:`read_games` streams a file game by game (a 50 MB file is never held
whole): tags, move numbers, moves as written, comments ``{…}``, variations
``(…)``, NAGs and strength marks, and the result.  It knows nothing of the
rules; :mod:`.games` checks each move with the engine.  Every error carries
its line and column, as ``path:line:column: message``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DamaError

RESULTS = ("2-0", "0-2", "1-1", "1-0", "0-1", "0-0", "*")

_TOKEN = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<tag>\[)
    | (?P<comment>\{)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<rest>[;%].*)
    | (?P<result>(?:2-0|0-2|1-1|1-0|0-1|0-0|\*)(?=[\s()]|$))
    | (?P<number>\d+\.(?:\.\.)?)
    | (?P<move>\d+(?:[-x]\d+)+)
    | (?P<nag>\$\d+|[!?]{1,2})
    | (?P<other>[^\s(){}\[\]]+)
    """,
    re.VERBOSE,
)
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')


class PdnError(DamaError):
    """A PDN file that cannot be read, or a game whose moves the rules refuse."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ):
        super().__init__(message, path=path, line=line)
        self.column = column

    def __str__(self) -> str:
        if self.path is not None and self.line is not None and self.column is not None:
            return f"{self.path}:{self.line}:{self.column}: {self.message}"
        return super().__str__()


@dataclass
class WrittenMove:
    """One move as the file writes it, with what the file says about it."""

    text: str
    line: int
    column: int
    number: str | None = None
    """The move number written just before it (``12.`` or ``12...``), if any."""
    number_at: tuple[int, int] | None = None
    """The line and column of that number."""
    nags: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    variations: list[list[WrittenMove]] = field(default_factory=list)
    """Alternatives to this move, each a line of moves from the position before it."""


@dataclass
class RawGame:
    """One game of a PDN file, before the rules look at it."""

    line: int
    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    intro: list[str] = field(default_factory=list)
    """Comments before the first move."""
    moves: list[WrittenMove] = field(default_factory=list)
    result: str | None = None

    @property
    def empty(self) -> bool:
        return not self.tags and not self.moves and self.result is None and not self.intro


Notice = Callable[[str], None]


def read_lines(path: Path, shown: str, notice: Notice | None = None) -> Iterator[tuple[int, str]]:
    """The lines of a PDN file, numbered from 1, read as they are needed.

    UTF-8 is expected; a file in Latin-1 (common for PDN) is read as such from
    its first line that is not UTF-8, and ``notice`` hears of it once.
    """
    latin = False
    with path.open("rb") as file:
        for number, raw in enumerate(file, 1):
            if not latin:
                try:
                    yield number, raw.decode("utf-8")
                    continue
                except UnicodeDecodeError:
                    latin = True
                    if notice is not None:
                        notice(f"{shown}:{number}: not UTF-8: read as Latin-1 (ISO-8859-1)")
            yield number, raw.decode("latin-1")


def read_games(lines: Iterable[tuple[int, str]], path: str) -> Iterator[RawGame]:
    """The games of numbered lines, one at a time; a malformed file is a :class:`PdnError`."""
    return _Reader(path).games(iter(lines))


class _Reader:
    def __init__(self, path: str):
        self.path = path

    def error(self, line: int, column: int, message: str) -> PdnError:
        return PdnError(message, path=self.path, line=line, column=column)

    def games(self, lines: Iterator[tuple[int, str]]) -> Iterator[RawGame]:
        game = RawGame(line=1)
        stack: list[list[WrittenMove]] = [game.moves]
        openings: list[tuple[int, int]] = []
        number: tuple[str, int, int] | None = None
        for line, text in lines:
            position = 0
            while position < len(text):
                match = _TOKEN.match(text, position)
                assert match is not None  # every character belongs to some token
                kind, token, column = match.lastgroup, match.group(), position + 1
                position = match.end()
                if kind in ("space", "rest"):
                    continue
                if kind == "tag":
                    if game.moves or game.result is not None:
                        if openings:
                            raise self.error(*openings[-1], "variation ( is never closed with )")
                        yield game
                        game, number = RawGame(line=line), None
                        stack = [game.moves]
                    elif game.empty:
                        game.line = line
                    position = self.tag(game, text, position - 1, line)
                elif kind == "comment":
                    comment, line, text, position = self.comment(lines, line, text, position)
                    self.attach_comment(game, stack, comment)
                elif kind == "open":
                    current = stack[-1]
                    if not current:
                        raise self.error(
                            line, column, "a variation ( must follow the move it replaces"
                        )
                    variation: list[WrittenMove] = []
                    current[-1].variations.append(variation)
                    stack.append(variation)
                    openings.append((line, column))
                    number = None
                elif kind == "close":
                    if len(stack) == 1:
                        raise self.error(line, column, ") closes no variation")
                    stack.pop()
                    openings.pop()
                    number = None
                elif kind == "number":
                    number = (token, line, column)
                elif kind == "move":
                    written = WrittenMove(token, line, column)
                    if number is not None:
                        written.number, written.number_at = number[0], number[1:]
                    stack[-1].append(written)
                    number = None
                elif kind == "nag":
                    if not stack[-1]:
                        raise self.error(line, column, f"{token} follows no move")
                    stack[-1][-1].nags.append(token)
                elif kind == "result":
                    if openings:
                        raise self.error(
                            *openings[-1], f"variation ( is never closed with ) before {token}"
                        )
                    game.result = token
                    yield game
                    game, number = RawGame(line=line), None
                    stack = [game.moves]
                else:
                    raise self.error(
                        line,
                        column,
                        f"{token!r} is not PDN: expected a move (22-18, 29x22x15), a move "
                        "number (12.), a comment {…}, a variation (…) or a result (2-0)",
                    )
        if openings:
            raise self.error(*openings[-1], "variation ( is never closed with )")
        if not game.empty:
            yield game

    def tag(self, game: RawGame, text: str, start: int, line: int) -> int:
        match = _TAG.match(text, start)
        if match is None:
            raise self.error(line, start + 1, 'a tag is written [Name "value"] on one line')
        name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
        game.tags[name] = value
        game.tag_lines[name] = line
        return match.end()

    def comment(
        self, lines: Iterator[tuple[int, str]], line: int, text: str, position: int
    ) -> tuple[str, int, str, int]:
        """The comment that starts before ``position``, however many lines it takes."""
        start = (line, position)
        parts = []
        while True:
            end = text.find("}", position)
            if end >= 0:
                parts.append(text[position:end])
                return " ".join(" ".join(parts).split()), line, text, end + 1
            parts.append(text[position:])
            following = next(lines, None)
            if following is None:
                raise self.error(*start, "comment { is never closed with }")
            line, text = following
            position = 0

    @staticmethod
    def attach_comment(game: RawGame, stack: list[list[WrittenMove]], comment: str) -> None:
        current = stack[-1]
        if current:
            current[-1].comments.append(comment)
        elif len(stack) == 1:
            game.intro.append(comment)


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
