"""One PDN game played by the engine as its events stream past.

:class:`GameChecker` takes the events of :class:`.pdn.PdnReader` for one game
and plays each move, variations included, from the game's start.  It holds
the current position of the main line and of each open variation, nothing
more, unless asked to keep the moves (``keep``) for a diagram, an animation
or writing the game back.  The first move that does not play is the game's
:class:`~.pdn.PdnError`, at its line and column, with the reason.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from ..errors import DamaError, counted, shorten
from .board import Color
from .legality import illegal_reason
from .move import Move, jumped_square
from .pdn import Event, PdnError, WrittenMove
from .pdn_tags import RESULTS, Verdict, printable, standard_tags
from .position import Position

ITALIAN = "22"
"""PDN's GameType for Italian draughts (``22``, or ``22,W,8,8,N2,1`` with its details)."""

GAME_TYPES = {
    "20": "international draughts",
    "21": "English draughts (checkers)",
    "23": "Russian draughts",
    "24": "Brazilian draughts",
    "25": "Canadian draughts",
    "26": "Portuguese draughts",
    "27": "Czech draughts",
    "28": "Turkish draughts",
    "29": "Thai draughts",
    "30": "frisian draughts",
    "31": "Spanish draughts",
}

MAX_NUMBER_DIGITS = 6
"""No game has a millionth move: a longer number is refused before it is converted."""

_LABEL = re.compile(rf"([0-9]{{1,{MAX_NUMBER_DIGITS}}})(\.\.\.|\.)?")
_SHORT = re.compile(r"([0-9]{1,2})x([0-9]{1,2}(?:x[0-9]{1,2})*)")


@dataclass
class PlayedMove:
    """A move of a game, checked: its full path, and what the file says about it."""

    move: Move
    written: str
    line: int
    column: int
    nags: tuple[str, ...] = ()
    comments: tuple[str, ...] = ()
    variations: tuple[tuple[PlayedMove, ...], ...] = ()


def ply_of(number: int, color: Color) -> int:
    """Half-move ``number`` of ``color``, counted from 0 (White's first)."""
    return 2 * (number - 1) + (color is Color.BLACK)


def moves_and_plies(start: Color, plies: int) -> str:
    """``6 moves (11 plies)``: ``plies`` half-moves from a start with ``start`` to move.

    Players count White's move and Black's reply as one move, numbered as the
    game numbers them: ``1. 23-19 10-14 ... 6. 26x1`` is 6 moves, 11 plies; a
    game that opens with ``1...`` has that half move as its first move.
    """
    first = ply_of(1, start)
    moves = (first + plies - 1) // 2 - first // 2 + 1 if plies else 0
    return f"{counted(moves, 'move')} ({plies} {'ply' if plies == 1 else 'plies'})"


def move_label(ply: int) -> str:
    """The number written before half-move ``ply`` (0 is White's first): ``1.``, ``1...``."""
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"


def parse_label(label: str) -> int:
    """The half-move of ``12`` or ``12.`` (White's twelfth move) or ``12...`` (Black's)."""
    match = _LABEL.fullmatch(label.strip())
    if match is None or int(match.group(1)) == 0:
        raise DamaError(
            f"{shorten(label)} is not a move number: write 12 for White's twelfth move, "
            "12... for Black's"
        )
    black = match.group(2) == "..."
    return ply_of(int(match.group(1)), Color.BLACK if black else Color.WHITE)


class RefusedGameError(PdnError):
    """A game that the rules or the syntax refuse, as far as it was played.

    ``found`` is the position after the move asked for (``--fen-after``) when
    that move came before the one refused: it is known, and worth printing.
    """

    found: Position | None = None
    first_line: int | None = None
    """The game's first line, where its verdict points."""


@dataclass
class _Line:
    """The main line or a variation being played: where it is, and what it keeps."""

    position: Position
    ply: int
    before: Position | None = None
    """The position before its last move: where a variation of that move starts."""
    moves: list[PlayedMove] = field(default_factory=list)


class GameChecker:
    """Plays the events of one game; :meth:`feed` returns the error that refuses it."""

    def __init__(
        self, path: str, number: int, line: int, *, italian: bool, keep: bool, wanted: int | None
    ):
        self.path, self.number, self.line = path, number, line
        self.italian, self.keep, self.wanted = italian, keep, wanted
        self.tags: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        self.intro: list[str] = []
        self.lines: list[_Line] = []
        self.start: Position | None = None
        self.positions: list[Position] = []
        self.found: Position | None = None
        self.length = 0
        self.result: str | None = None
        self.warnings: list[str] = []

    def error(self, line: int | None, message: str, column: int | None = None) -> PdnError:
        refused = RefusedGameError(
            f"game {self.number}: {message}",
            path=self.path,
            line=line,
            column=column,
            game=self.number,
        )
        refused.found, refused.first_line = self.found, self.line
        return refused

    def feed(self, event: Event) -> PdnError | None:
        """Take one event; the error that refuses the game, if it does."""
        try:
            self._take(event)
        except PdnError as error:
            return error
        return None

    def _take(self, event: Event) -> None:
        kind = event.kind
        if kind == "error":
            assert event.error is not None
            error = event.error
            raise self.error(error.line, error.message, error.column)
        if kind == "tag":
            self._tag(event)
            return
        if self.start is None and kind != "comment":
            self._begin()
        if kind == "move":
            assert event.move is not None
            self._move(event.move)
        elif kind == "nag":
            self._annotate(event.text, comment=False)
        elif kind == "comment":
            self._annotate(event.text, comment=True)
        elif kind == "open":
            parent = self.lines[-1]
            assert parent.before is not None
            self.lines.append(_Line(parent.before, parent.ply - 1))
        elif kind == "close":
            child = self.lines.pop()
            if self.keep:
                last = self.lines[-1].moves[-1]
                last.variations = (*last.variations, tuple(child.moves))
        elif kind == "result" and self.result is None:
            self.result = event.text

    def _tag(self, event: Event) -> None:
        name, value = event.text, event.value
        if name in ("GameType", "FEN") and self.tags.get(name, value) != value:
            raise self.error(
                event.line,
                f"a second {name} tag says {printable(value)!r}, the first "
                f"{printable(self.tags[name])!r} (line {self.tag_lines[name]}): keep one",
            )
        self.tags[name] = value
        self.tag_lines.setdefault(name, event.line)

    def _begin(self) -> None:
        """The game's start: its GameType checked, its FEN read."""
        game_type = self.tags.get("GameType")
        if game_type is None and not self.italian:
            raise self.error(
                self.line,
                'no GameType tag: add [GameType "22"] for Italian draughts, or read it as '
                "Italian on purpose (--italian)",
            )
        if game_type is not None and game_type.split(",")[0].strip() != ITALIAN:
            code = printable(game_type.split(",")[0].strip())
            name = GAME_TYPES.get(code, "not Italian draughts")
            raise self.error(
                self.tag_lines["GameType"],
                f"GameType {code!r} is {name}; only Italian draughts, GameType 22, is read",
            )
        start = Position.initial()
        if "FEN" in self.tags:
            try:
                start = Position.from_fen(self.tags["FEN"])
            except DamaError as exc:
                raise self.error(self.tag_lines["FEN"], f"the FEN tag: {exc.message}") from None
        self.start = start
        self.lines = [_Line(start, ply_of(1, start.turn))]
        self.positions = [start] if self.keep else []
        if self.wanted is not None and self.wanted == self.lines[0].ply - 1:
            self.found = start  # "after" the move before the first: the start

    def _move(self, written: WrittenMove) -> None:
        line = self.lines[-1]
        label = move_label(line.ply)
        if written.number is not None and not _number_fits(written.number, line.ply):
            at_line, at_column = written.number_at or (written.line, written.column)
            raise self.error(
                at_line,
                f"move number {_shown(written.number)} is out of order: this is move {label}",
                at_column,
            )
        played = _played(line.position, written.text)
        if played is None:
            move = self._checked(line.position, written, label)
            played = move, line.position.play(move)
        move, after = played
        line.before, line.position = line.position, after
        if self.keep:
            line.moves.append(PlayedMove(move, written.text, written.line, written.column))
        if len(self.lines) == 1:
            self.length += 1
            if self.keep:
                self.positions.append(line.position)
            if line.ply == self.wanted:
                self.found = line.position
        line.ply += 1

    def _annotate(self, text: str, *, comment: bool) -> None:
        if not self.keep:
            return
        if not self.lines or not self.lines[-1].moves:
            if comment and len(self.lines) <= 1:
                self.intro.append(text)
            return
        last = self.lines[-1].moves[-1]
        if comment:
            last.comments = (*last.comments, text)
        else:
            last.nags = (*last.nags, text)

    def _checked(self, position: Position, item: WrittenMove, label: str) -> Move:
        """The full move that ``item`` writes, or the error that says why it is not legal."""
        legal = position.legal_moves()
        short = _SHORT.fullmatch(item.text)
        if short is not None:
            squares = [int(short.group(1)), *map(int, short.group(2).split("x"))]
            paths = [move for move in legal if move.is_capture and _follows(move, squares)]
            if len(paths) == 1:
                return paths[0]
            if len(paths) > 1:
                named = ", ".join(map(str, paths[:-1])) + f" or {paths[-1]}"
                raise self.error(
                    item.line,
                    f"move {label} {item.text} is ambiguous: it can be {named}; "
                    "write the whole capture",
                    item.column,
                )
            partial = any(jumped_square(a, b) is None for a, b in itertools.pairwise(squares))
            if partial or squares[0] == squares[-1]:
                by = "".join(f" by {s}" for s in squares[1:-1][:1]) + "".join(
                    f", {s}" for s in squares[2:-1]
                )
                legal_text = " ".join(map(str, legal)) or "none"
                raise self.error(
                    item.line,
                    f"move {label} {item.text} is not legal: no capture goes from "
                    f"{squares[0]} to {squares[-1]}{by}; the legal moves are {legal_text}",
                    item.column,
                )
        try:
            written = Move.parse(item.text)
        except DamaError as exc:
            raise self.error(item.line, f"move {label} {exc.message}", item.column) from None
        if written in legal:
            return written
        problem = illegal_reason(position, written)
        detail = problem.detail if problem else "the rules do not allow it"
        raise self.error(item.line, f"move {label} {item.text} is not legal: {detail}", item.column)

    def finish(self) -> CheckedGame:
        """What the game's events gave, its result and the warnings about it."""
        if self.start is None:
            self._begin()
        assert self.start is not None
        final = self.lines[0].position
        standard = standard_tags(self.tags)
        tagged = standard.get("Result")
        result = self.result
        if tagged is not None:
            tagged = tagged.strip()
            if tagged not in RESULTS:
                self._warn(
                    f"the Result tag {printable(tagged)!r} is no PDN result "
                    "(2-0, 1-1, 0-2, 1-0, 1/2-1/2, 0-1, 0-0, *)"
                )
            elif result in (None, "*"):
                result = tagged
            elif Verdict.UNKNOWN not in (RESULTS[tagged], RESULTS[result]) and (
                RESULTS[tagged] is not RESULTS[result]
            ):
                self._warn(
                    f"the Result tag says {tagged} ({RESULTS[tagged].value}), "
                    f"the moves end with {result} ({RESULTS[result].value})"
                )
        if result is not None:
            self._check_result(final, result)
        return CheckedGame(
            tags=self.tags,
            standard=standard,
            start=self.start,
            final=final,
            length=self.length,
            moves=tuple(self.lines[0].moves),
            positions=tuple(self.positions),
            found=self.found,
            result=result,
            intro=tuple(self.intro),
            warnings=self.warnings,
        )

    def _warn(self, message: str) -> None:
        self.warnings.append(f"{self.path}:{self.line}: game {self.number}: {message}")

    def _check_result(self, final: Position, result: str) -> None:
        """A result that the final position contradicts is a warning, not an error."""
        winner = _winner(final)
        verdict = RESULTS[result]
        if winner is None or verdict in (Verdict.UNKNOWN, Verdict.NONE):
            return
        expected = Verdict.WHITE if winner is Color.WHITE else Verdict.BLACK
        if verdict is not expected:
            self._warn(
                f"the result is {result} ({verdict.value}), but {winner.value} has won "
                "the final position"
            )


@dataclass
class CheckedGame:
    """What :class:`GameChecker` found: the parts of a :class:`~.games.Game`."""

    tags: dict[str, str]
    standard: dict[str, str]
    start: Position
    final: Position
    length: int
    moves: tuple[PlayedMove, ...]
    positions: tuple[Position, ...]
    found: Position | None
    result: str | None
    intro: tuple[str, ...]
    warnings: list[str]


def _winner(position: Position) -> Color | None:
    """Who has won ``position``: the side to move cannot move, or the other has no piece."""
    outcome = position.outcome()
    if outcome is not None:
        return outcome.winner
    other = position.turn.opponent
    if not position.squares(other, king=False) and not position.squares(other, king=True):
        return position.turn
    return None


def _played(position: Position, text: str) -> tuple[Move, Position] | None:
    """The move as written and the position after it, when it is legal as written.

    The common case, and the fast one: the legal moves are listed only when the
    move is short or wrong.
    """
    try:
        move = Move.parse(text)
        return move, position.play(move)
    except DamaError:
        return None


def _follows(move: Move, squares: list[int]) -> bool:
    """Whether ``move`` starts and ends as ``squares`` do and visits them in order."""
    if move.origin != squares[0] or move.destination != squares[-1]:
        return False
    visits = iter(move.squares[1:-1])
    return all(any(s == v for v in visits) for s in squares[1:-1])


def _shown(number: str) -> str:
    """A move number as the file writes it, cut short if it is absurdly long."""
    digits = len(number.rstrip("."))
    return number if digits <= 10 else f"{number[:6]}… ({digits} digits)"


def _number_fits(number: str, ply: int) -> bool:
    """``12.`` must come before White's twelfth move, ``12...`` before Black's."""
    digits = number.rstrip(".")
    if len(digits) > MAX_NUMBER_DIGITS:
        return False
    color = Color.BLACK if number.endswith("...") else Color.WHITE
    return ply_of(int(digits), color) == ply
