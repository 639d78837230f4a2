"""Games of Italian draughts from PDN, every move checked by the engine.

:func:`load_games` reads a PDN file (:mod:`.pdn`) and plays each game from its
start (the initial position, or its ``FEN`` tag): a capture written short, start
and end only (``29x6``), becomes its full path; an ambiguous or illegal move is
a :class:`~.pdn.PdnError` at its line and column that says why, with the
reasons of :mod:`.legality`.  Variations are checked and kept.  :func:`write_game`
writes a game back with full capture paths.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..errors import DamaError
from .board import Color
from .legality import illegal_reason
from .move import Move
from .pdn import PdnError, RawGame, WrittenMove, read_games, read_lines, wrap, write_tags
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


@dataclass
class Game:
    """A game whose every move, variations included, the engine has checked."""

    path: str
    number: int
    """Its place in the file, from 1."""
    line: int
    tags: dict[str, str]
    start: Position
    moves: tuple[PlayedMove, ...]
    positions: tuple[Position, ...]
    """The start, then the position after each move of the main line, as checked."""
    result: str | None
    intro: tuple[str, ...] = ()
    warnings: list[str] = field(default_factory=list)

    @property
    def final(self) -> Position:
        return self.positions[-1]

    def after(self, label: str) -> Position:
        """The position after move ``12`` (White's twelfth) or ``12...`` (Black's)."""
        return self.positions[self.played_by(label)]

    def played_by(self, label: str) -> int:
        """How many main-line moves are played once move ``12`` (``12.``) or ``12...`` is."""
        match = re.fullmatch(r"(\d+)(\.\.\.|\.)?", label.strip())
        if match is None:
            raise DamaError(
                f"{label!r} is not a move number: write 12 for White's, 12... for Black's"
            )
        black = match.group(2) == "..."
        ply = _ply(int(match.group(1)), Color.BLACK if black else Color.WHITE)
        ply -= _ply(1, self.start.turn)
        if not 0 <= ply < len(self.moves):
            raise DamaError(
                f"game {self.number} has no move {label}: it has {len(self.moves)} moves"
            )
        return ply + 1


def _ply(number: int, color: Color) -> int:
    return 2 * (number - 1) + (color is Color.BLACK)


def move_label(ply: int) -> str:
    """The number written before half-move ``ply`` (0 is White's first): ``1.``, ``1...``."""
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"


def load_games(
    path: Path,
    *,
    shown: str | None = None,
    italian: bool = False,
    notices: list[str] | None = None,
) -> Iterator[Game | PdnError]:
    """Each game of a PDN file, checked, or the error that stops it; read as needed.

    A game without ``GameType`` is taken as Italian only with ``italian``.  A file
    that cannot be read at all (an unclosed comment) ends with its error.
    """
    shown = shown or str(path)
    notices = notices if notices is not None else []
    try:
        if path.stat().st_size == 0:
            yield PdnError("the file is empty: a PDN file holds one game or more", path=shown)
            return
        number = 0
        for raw in read_games(read_lines(path, shown, notices.append), shown):
            number += 1
            try:
                yield check_game(raw, shown, number, italian=italian)
            except PdnError as error:
                yield error
        if number == 0:
            yield PdnError("the file holds no game: no tags, moves or result", path=shown)
    except PdnError as error:
        yield error
    except OSError as error:
        yield PdnError(f"cannot read the file: {error.strerror}", path=shown)


def game_at(path: Path, number: int, *, shown: str | None = None) -> Game:
    """Game ``number`` (from 1) of a PDN file, checked; the games before it must read too.

    A game that does not read is its :class:`~.pdn.PdnError`; a file with fewer
    games is a :class:`DamaError` that says so.
    """
    shown = shown or str(path)
    for index, item in enumerate(load_games(path, shown=shown), 1):
        if isinstance(item, PdnError):
            raise item
        if index == number:
            return item
    raise DamaError(f"{shown} has no game {number}")


def check_game(raw: RawGame, path: str, number: int, *, italian: bool = False) -> Game:
    """The game's moves played by the engine from its start; a :class:`PdnError` if one fails."""

    def error(line: int | None, message: str, column: int | None = None) -> PdnError:
        return PdnError(f"game {number}: {message}", path=path, line=line, column=column)

    game_type = raw.tags.get("GameType")
    if game_type is None and not italian:
        raise error(
            raw.line,
            'no GameType tag: add [GameType "22"] for Italian draughts, or read it as '
            "Italian on purpose (--italian)",
        )
    if game_type is not None and game_type.split(",")[0].strip() != ITALIAN:
        code = game_type.split(",")[0].strip()
        name = GAME_TYPES.get(code, "not Italian draughts")
        raise error(
            raw.tag_lines["GameType"],
            f"GameType {code!r} is {name}; only Italian draughts, GameType 22, is read",
        )
    start = Position.initial()
    if "FEN" in raw.tags:
        try:
            start = Position.from_fen(raw.tags["FEN"])
        except DamaError as exc:
            raise error(raw.tag_lines["FEN"], f"the FEN tag: {exc.message}") from None
    moves, positions = _play_line(raw.moves, start, error, _ply(1, start.turn))
    game = Game(
        path,
        number,
        raw.line,
        dict(raw.tags),
        start,
        moves,
        positions,
        raw.result,
        tuple(raw.intro),
    )
    _check_result(game)
    return game


def _play_line(
    written: Sequence[WrittenMove], start: Position, error: _Error, ply: int
) -> tuple[tuple[PlayedMove, ...], tuple[Position, ...]]:
    """A line of moves from ``start``, whose first move is half-move ``ply`` (0: White's 1.).

    Also the positions it passes through, the start first.
    """
    played: list[PlayedMove] = []
    positions = [start]
    for item in written:
        position = positions[-1]
        label = move_label(ply)
        if item.number is not None and not _number_fits(item.number, ply):
            line, column = item.number_at or (item.line, item.column)
            message = f"move number {item.number} is out of order: this is move {label}"
            raise error(line, message, column)
        move = _checked(position, item, label, error)
        variations = tuple(_play_line(line, position, error, ply)[0] for line in item.variations)
        played.append(
            PlayedMove(
                move,
                item.text,
                item.line,
                item.column,
                tuple(item.nags),
                tuple(item.comments),
                variations,
            )
        )
        positions.append(position.play(move))
        ply += 1
    return tuple(played), tuple(positions)


class _Error(Protocol):
    def __call__(self, line: int | None, message: str, column: int | None = None) -> PdnError: ...


def _number_fits(number: str, ply: int) -> bool:
    """``12.`` must come before White's twelfth move, ``12...`` before Black's."""
    color = Color.BLACK if number.endswith("...") else Color.WHITE
    return _ply(int(number.rstrip(".")), color) == ply


def _checked(position: Position, item: WrittenMove, label: str, error: _Error) -> Move:
    """The full move that ``item`` writes, or the error that says why it is not legal."""
    try:
        written = Move.parse(item.text)
    except DamaError as exc:
        raise error(item.line, f"move {label} {exc.message}", item.column) from None
    legal = position.legal_moves()
    if written in legal:
        return written
    if written.is_capture and len(written.squares) == 2:
        paths = [
            move
            for move in legal
            if move.is_capture
            and move.origin == written.origin
            and move.destination == written.destination
        ]
        if len(paths) == 1:
            return paths[0]
        if len(paths) > 1:
            raise error(
                item.line,
                f"move {label} {item.text} is ambiguous: it can be "
                + " or ".join(map(str, paths))
                + "; write the whole capture",
                item.column,
            )
    problem = illegal_reason(position, written)
    detail = problem.detail if problem else "the rules do not allow it"
    raise error(item.line, f"move {label} {item.text} is not legal: {detail}", item.column)


def _check_result(game: Game) -> None:
    """A result that the final position contradicts is a warning, not an error."""
    outcome = game.final.outcome()
    if outcome is None or game.result in (None, "*"):
        return
    expected = "2-0" if outcome.winner is Color.WHITE else "0-2"
    if game.result not in (expected, "1-0" if expected == "2-0" else "0-1"):
        game.warnings.append(
            f"{game.path}:{game.line}: game {game.number}: the result is {game.result}, "
            f"but {outcome.winner.value} has won the final position ({outcome.reason.value})"
        )


# --- writing back ---------------------------------------------------------------------------


def write_game(game: Game) -> str:
    """The game as PDN, with every capture written in full."""
    words = [f"{{{comment}}}" for comment in game.intro]
    words += _line_words(game.moves, _ply(1, game.start.turn))
    words.append(game.result or "*")
    tags = write_tags(game.tags)
    return f"{tags}\n\n{wrap(words)}\n" if tags else f"{wrap(words)}\n"


def _line_words(moves: Sequence[PlayedMove], ply: int) -> list[str]:
    words: list[str] = []
    fresh = True  # a black move needs its number after a comment or a variation
    for played in moves:
        if ply % 2 == 0 or fresh:
            words.append(move_label(ply))
        words.append(str(played.move) + "".join(n for n in played.nags if not n.startswith("$")))
        words += [n for n in played.nags if n.startswith("$")]
        words += [f"{{{comment}}}" for comment in played.comments]
        for variation in played.variations:
            inner = _line_words(variation, ply)
            inner[0], inner[-1] = f"({inner[0]}", f"{inner[-1]})"
            words += inner
        fresh = bool(played.comments or played.variations)
        ply += 1
    return words
