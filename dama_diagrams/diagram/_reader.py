"""Reading located YAML values: the shared checks, and positions, of a diagram file.

:class:`YamlReader` holds what every key needs (unknown or missing keys, text,
moves), and :class:`PositionReader` reads ``position:`` in its three forms: a
FEN, a mapping of pieces, or the moves from the starting position.  The schema
of the whole file is in :mod:`.schema`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from .._project import project_root
from ..engine.board import Color, Square
from ..engine.games import Game, game_at, move_label
from ..engine.move import Move
from ..engine.pdn import PdnError
from ..engine.position import Position
from ..errors import DamaError, DiagramError, shorten
from ._yaml import YamlValue


def _project_of(diagram: Path) -> Path:
    """The project a diagram file is in: the folder with mkdocs.yml, else its folder's parent."""
    here = diagram.resolve().parent
    return project_root(here) or here.parent


def suggest(word: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.7)
    return f"did you mean {close[0]!r}? " if close else ""


def listed(values: tuple[str, ...]) -> str:
    return ", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0]


class YamlReader:
    """The checks every key of a diagram file needs, each failing at its line."""

    def __init__(self, path: str):
        self.path = path
        self.lines: dict[str, int] = {}

    def refuse_unknown(
        self,
        entries: dict[str, YamlValue],
        allowed: Collection[str],
        explain: Callable[[str], str],
    ) -> None:
        """Fail at the first key not in ``allowed``: a typo must never pass silently."""
        for key, value in entries.items():
            if key not in allowed:
                raise self.fail(value.line, explain(key))

    def require(
        self,
        entries: dict[str, YamlValue],
        keys: Iterable[str],
        line: int,
        explain: Callable[[str], str],
    ) -> None:
        """Fail at ``line`` for the first of ``keys`` that ``entries`` lacks."""
        for key in keys:
            if key not in entries:
                raise self.fail(line, explain(key))

    def fail(self, line: int, message: str) -> DiagramError:
        return DiagramError(message, path=self.path, line=line)

    def text(self, value: YamlValue, what: str) -> str:
        if not isinstance(value.data, str):
            raise self.fail(value.line, f"{what}, not {value.type_name}")
        return value.data

    def move(self, value: YamlValue, key: str) -> Move:
        self.lines.setdefault(key, value.line)
        text = self.text(value, f"{key} must be a move in notation, such as 22-19 or 29x22x15")
        try:
            return Move.parse(text)
        except DamaError as error:
            raise error.located(self.path, value.line) from None


class PositionReader(YamlReader):
    """``position:``: a FEN, a mapping of pieces, the moves from the start, or a game's position."""

    base: Path | None = None
    """The folder a game's path is read from; None: the project the diagram file is in."""
    games: str | None = None
    """Why games cannot be read here at all (a text with no folder of its own), or None."""

    def from_game(
        self, entries: dict[str, YamlValue], line: int
    ) -> tuple[Position, tuple[Move, ...]]:
        """``{game: games/x.pdn, number: 1, after: "23..."}``: a position of a checked game.

        The path is relative to :attr:`base`, else to the project (the folder with
        mkdocs.yml, else the one above the diagram's folder), and may not leave it.
        Without ``after``, the game's final position.
        """
        keys = ("game", "number", "after")
        self.refuse_unknown(
            entries,
            keys,
            lambda key: (
                f"unknown key {key!r} in position: a game position takes game, number and after"
            ),
        )
        given = entries["game"]
        if self.games is not None:
            raise self.fail(given.line, self.games)
        name = self.text(given, "game must be the path of a PDN file, such as games/final.pdn")
        root = self.base.resolve() if self.base is not None else _project_of(Path(self.path))
        pdn = (root / name).resolve()
        if not pdn.is_relative_to(root):
            raise self.fail(given.line, f"game {name!r} is outside the project: keep it inside")
        number = entries.get("number")
        wanted = 1
        if number is not None:
            if not isinstance(number.data, int) or isinstance(number.data, bool) or number.data < 1:
                raise self.fail(number.line, "number must be a game's place in the file: 1, 2, ...")
            wanted = number.data
        after = entries.get("after")
        label = None if after is None else str(after.data)
        shown = pdn.relative_to(root).as_posix()
        if not pdn.is_file():
            raise self.fail(given.line, f"no game file {shown} in the project")
        try:
            game = game_at(pdn, wanted, shown=shown)
        except PdnError as error:
            raise self.fail(given.line, f"the game file does not read: {error}") from None
        except DamaError as error:
            raise self.fail(number.line if number else given.line, error.message) from None
        return self.position_in(game, label, after.line if after else line)

    def position_in(
        self, game: Game, label: str | None, line: int
    ) -> tuple[Position, tuple[Move, ...]]:
        try:
            played = len(game.moves) if label is None else game.played_by(label)
        except DamaError as error:
            raise self.fail(line, error.message) from None
        history = tuple(p.move for p in game.moves[:played])
        return game.positions[played], history if game.start == Position.initial() else ()

    def position(self, value: YamlValue) -> tuple[Position, tuple[Move, ...]]:
        """The position, and the moves from the start that lead to it (when given)."""
        if isinstance(value.data, str):
            try:
                return Position.from_fen(value.data), ()
            except DamaError as error:
                raise error.located(self.path, value.line) from None
        if isinstance(value.data, dict) and "moves" in value.data:
            return self.played(value.data, value.line)
        if isinstance(value.data, dict) and "game" in value.data:
            return self.from_game(value.data, value.line)
        if isinstance(value.data, dict):
            return self.position_mapping(value.data, value.line), ()
        raise self.fail(
            value.line,
            f'position must be a FEN such as "W:W21-32:B1-12" or a mapping '
            f"{{turn: white, white: [...], black: [...]}}, not {value.type_name}",
        )

    def played(self, entries: dict[str, YamlValue], line: int) -> tuple[Position, tuple[Move, ...]]:
        """``{moves: [22-18, 11-14]}``: the engine plays each move from the starting position."""
        for key, value in entries.items():
            if key != "moves":
                raise self.fail(
                    value.line,
                    f"position with moves: takes no other key, but has {key!r}: "
                    "give either the moves from the start or the pieces",
                )
        given = entries["moves"]
        if not isinstance(given.data, list) or not given.data:
            raise self.fail(
                given.line,
                "position: moves: must be a list of moves from the starting position, "
                "such as [22-18, 11-14]",
            )
        position = Position.initial()
        history: list[Move] = []
        for index, item in enumerate(given.data):
            move = self.move(item, f"position.moves[{index}]")
            if not position.is_legal(move):
                legal = " ".join(map(str, position.legal_moves())) or "none"
                number = move_label(index)
                raise self.fail(
                    item.line,
                    f"{move} (move {number}) is not legal after the moves before it; "
                    f"the legal moves there are: {legal}",
                )
            position = position.play(move)
            history.append(move)
        return position, tuple(history)

    def position_mapping(self, entries: dict[str, YamlValue], line: int) -> Position:
        keys = ("turn", "white", "black")
        self.refuse_unknown(
            entries,
            keys,
            lambda key: (
                f"unknown key {key!r} in position: {suggest(key, keys)}"
                "a position mapping takes turn, white and black"
            ),
        )
        self.require(
            entries,
            keys,
            line,
            lambda key: (
                f"the position mapping needs {key!r} "
                "(turn: white or black; white: and black: list squares, as [K21, 31, 32])"
            ),
        )
        turn = entries["turn"]
        if turn.data not in ("white", "black"):
            raise self.fail(turn.line, f"turn must be white or black, not {turn.data!r}")
        sides = {color: self.side(entries[color.value], color) for color in Color}
        return self.build(Color(turn.data), sides)

    def side(self, value: YamlValue, color: Color) -> list[tuple[Square, bool, int]]:
        """(square, is king, line) for each item of a side's list."""
        if not isinstance(value.data, list):
            raise self.fail(
                value.line,
                f"{color.value} must be a list of squares such as [K21, 31], "
                f"not {value.type_name} (write [] for no pieces)",
            )
        pieces = []
        for index, item in enumerate(value.data):
            self.lines[f"{color.value}[{index}]"] = item.line
            pieces.append((*self.square(item), item.line))
        return pieces

    def square(self, item: YamlValue) -> tuple[Square, bool]:
        data = item.data
        if isinstance(data, int) and not isinstance(data, bool):
            return data, False
        if isinstance(data, str) and re.fullmatch(r"K?[0-9]{1,12}", data.strip()):
            word = data.strip()
            return int(word.lstrip("K")), word.startswith("K")
        shown = "true/false" if isinstance(data, bool) else _quoted(data)
        raise self.fail(item.line, f"{shown} is not a square: write 21 for a man or K21 for a king")

    def build(self, turn: Color, sides: dict[Color, list[tuple[Square, bool, int]]]) -> Position:
        """The engine validates; on failure, the first item (in file order) that breaks it."""
        try:
            return _position(turn, sides)
        except DamaError as error:
            failure = error
        items = sorted(
            ((line, color, square, king) for color in Color for square, king, line in sides[color]),
            key=lambda item: item[0],
        )
        partial: dict[Color, list[tuple[Square, bool, int]]] = {color: [] for color in Color}
        for line, color, square, king in items:
            partial[color].append((square, king, line))
            try:
                _position(turn, partial)
            except DamaError as error:
                raise error.located(self.path, line) from None
        raise failure.located(self.path, None)


def _position(turn: Color, sides: dict[Color, list[tuple[Square, bool, int]]]) -> Position:
    white, black = sides[Color.WHITE], sides[Color.BLACK]
    return Position.from_squares(
        turn,
        white_men=[square for square, king, _ in white if not king],
        white_kings=[square for square, king, _ in white if king],
        black_men=[square for square, king, _ in black if not king],
        black_kings=[square for square, king, _ in black if king],
    )


def _quoted(data: object) -> str:
    """A value as the user wrote it, quoted; a huge one shortened."""
    return shorten(data) if isinstance(data, str) else repr(data)
