"""Games of Italian draughts from PDN, every move checked by the engine.

:func:`load_games` reads a PDN file (:mod:`.pdn`) and plays each game from its
start (the initial position, or its ``FEN`` tag) as its moves stream past
(:mod:`.game_check`): a capture written short (``29x6``, or ``23x23`` for a
king that comes back) becomes its full path; an ambiguous or illegal move is a
:class:`~.pdn.PdnError` at its line and column that says why.  Each game gets
its own verdict: a broken one never hides those after it.  :func:`write_game`
writes a game back with full capture paths.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DamaError
from .game_check import (
    GAME_TYPES,
    ITALIAN,
    GameChecker,
    PlayedMove,
    move_label,
    parse_label,
    ply_of,
)
from .pdn import PdnError, PdnReader, wrap, write_tags
from .pdn_lines import read_lines
from .pdn_tags import printable
from .position import Position

__all__ = [
    "GAME_TYPES",
    "ITALIAN",
    "Game",
    "PlayedMove",
    "game_at",
    "load_games",
    "move_label",
    "parse_label",
    "write_game",
]


@dataclass
class Game:
    """A game whose every move, variations included, the engine has checked."""

    path: str
    number: int
    """Its place in the file, from 1."""
    line: int
    tags: dict[str, str]
    """The tags as the file writes them, whatever their language."""
    start: Position
    final: Position
    length: int
    """How many moves its main line has."""
    moves: tuple[PlayedMove, ...] = ()
    """The main line, when the moves were kept (``keep=True``)."""
    positions: tuple[Position, ...] = ()
    """The start, then the position after each move of the main line, when kept."""
    result: str | None = None
    intro: tuple[str, ...] = ()
    warnings: list[str] = field(default_factory=list)
    found: Position | None = None
    """The position after the move asked for (``wanted``), if the game has it."""
    standard: dict[str, str] = field(default_factory=dict)
    """The tags under their PDN 3.0 names (``Bianco`` read as ``White``)."""

    def player(self, side: str) -> str:
        """``White`` or ``Black``'s name, safe to print; ``?`` when the file names nobody."""
        return printable(self.standard.get(side, "?").strip() or "?", 40)

    def after(self, label: str) -> Position:
        """The position after move ``12`` (White's twelfth) or ``12...`` (Black's)."""
        return self.positions[self.played_by(label)]

    def played_by(self, label: str) -> int:
        """How many main-line moves are played once move ``12`` (``12.``) or ``12...`` is."""
        ply = parse_label(label) - ply_of(1, self.start.turn)
        if not 0 <= ply < self.length:
            raise DamaError(f"game {self.number} has no move {label}: it has {self.length} moves")
        return ply + 1


def load_games(
    path: Path,
    *,
    shown: str | None = None,
    italian: bool = False,
    notices: list[str] | None = None,
    keep: bool = True,
    wanted: str | None = None,
    only: int | None = None,
) -> Iterator[Game | PdnError]:
    """Each game of a PDN file, checked, or the error that refuses it; read as needed.

    A game without ``GameType`` is taken as Italian only with ``italian``.
    ``keep=False`` keeps no moves or positions, only the final one (and the one
    after the move ``wanted``), so a game of any length takes little memory.
    ``only`` checks that game alone (numbered from 1) and skips the others.
    A refused game's error comes as soon as it is found.
    """
    shown = shown or str(path)
    notices = notices if notices is not None else []
    wanted_ply = None if wanted is None else parse_label(wanted)
    try:
        if (
            stat.S_ISREG(path.stat().st_mode) and path.stat().st_size == 0
        ):  # a FIFO: its reader says
            yield PdnError("the file is empty: a PDN file holds one game or more", path=shown)
            return
        number = 0
        checker: GameChecker | None = None
        in_game = False
        reader = PdnReader(read_lines(path, shown, notices.append), shown)
        for event in reader:
            if event.kind == "start":
                number, in_game = number + 1, True
                checker = None
                if only is None or number == only:
                    checker = GameChecker(
                        shown, number, event.line, italian=italian, keep=keep, wanted=wanted_ply
                    )
                else:
                    reader.skip_game()
            elif event.kind == "end":
                if checker is not None:
                    yield _finished(checker)
                checker, in_game = None, False
                if only is not None and number >= only:
                    return
            elif checker is not None:
                refused = checker.feed(event)
                if refused is not None:
                    yield refused
                    checker = None
                    reader.skip_game()
            elif not in_game and event.error is not None:
                yield event.error
                return
        if number == 0:
            yield PdnError("the file holds no game: no tags, moves or result", path=shown)
    except OSError as error:
        yield PdnError(f"cannot read the file: {error.strerror}", path=shown)


def _finished(checker: GameChecker) -> Game | PdnError:
    try:
        checked = checker.finish()
    except PdnError as error:
        return error
    return Game(
        checker.path,
        checker.number,
        checker.line,
        checked.tags,
        checked.start,
        checked.final,
        checked.length,
        checked.moves,
        checked.positions,
        checked.result,
        checked.intro,
        checked.warnings,
        checked.found,
        checked.standard,
    )


def game_at(path: Path, number: int, *, shown: str | None = None) -> Game:
    """Game ``number`` (from 1) of a PDN file, checked with its moves kept.

    A game that does not read is its :class:`~.pdn.PdnError`; a file with fewer
    games is a :class:`DamaError` that says so.
    """
    shown = shown or str(path)
    for item in load_games(path, shown=shown, only=number):
        if isinstance(item, PdnError):
            raise item
        return item
    raise DamaError(f"{shown} has no game {number}")


# --- writing back ---------------------------------------------------------------------------


def write_game(game: Game) -> str:
    """The game as PDN, with every capture written in full (its moves must be kept)."""
    words = [f"{{{comment}}}" for comment in game.intro]
    words += _line_words(game.moves, ply_of(1, game.start.turn))
    words.append(game.result or "*")
    tags = write_tags(game.tags)
    return f"{tags}\n\n{wrap(words)}\n" if tags else f"{wrap(words)}\n"


def _line_words(moves: Sequence[PlayedMove], ply: int) -> list[str]:
    """The words of a line and its variations, without recursion (they may nest deep)."""
    words: list[str] = []
    # Each frame: the moves left; the next ply, whether the next move needs its
    # number (after a comment or a variation) and whether its "(" is written;
    # whether it is a variation.
    stack: list[tuple[Iterator[PlayedMove], list[int], bool]] = [(iter(moves), [ply, 1, 1], False)]
    while stack:
        left, state, variation = stack[-1]
        if not state[2]:
            words.append("(")
            state[2] = 1
        played = next(left, None)
        if played is None:
            stack.pop()
            if variation:
                words.append(")")
            continue
        ply, fresh = state[0], state[1]
        if ply % 2 == 0 or fresh:
            words.append(move_label(ply))
        words.append(str(played.move) + "".join(n for n in played.nags if not n.startswith("$")))
        words += [n for n in played.nags if n.startswith("$")]
        words += [f"{{{comment}}}" for comment in played.comments]
        state[0], state[1] = ply + 1, int(bool(played.comments or played.variations))
        for variation_moves in reversed(played.variations):
            stack.append((iter(variation_moves), [ply, 1, 0], True))
    return _joined(words)


def _joined(words: list[str]) -> list[str]:
    """``(`` glued to the word after it, ``)`` to the word before."""
    out: list[str] = []
    opening = ""
    for word in words:
        if word == "(":
            opening += "("
        elif word == ")" and out:
            out[-1] += ")"
        else:
            out.append(opening + word)
            opening = ""
    return out
