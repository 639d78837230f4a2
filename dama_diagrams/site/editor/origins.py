"""Where a board comes from when a diagram file does not give it as a FEN.

A diagram's ``position:`` may be the moves from the start (``{moves: [...]}``)
or a game's position (``{game: games/x.pdn, after: "5..."}``).  The editor
makes both: :func:`play` plays the chosen move on the board and, while the
board is reached from the start, keeps the moves played as its origin;
:func:`game_moves` lists a game's moves to choose the one after which the
board stands.  The position an origin gives is always the project's reader's
(:func:`~dama_diagrams.diagram.parse_diagram`), the very one ``verify`` uses.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..._project import link_outside
from ...diagram.schema import parse_diagram
from ...engine.game_check import move_label, ply_of
from ...engine.games import game_at
from ...engine.pdn import PdnError
from ...engine.position import Position
from ...errors import DamaError
from .checks import EditorError

GAMES_DIR = "games"
"""Where the editor looks for PDN files, inside the project."""

_GAME_LIMIT = 200
"""At most so many PDN files are offered."""


def game_files(root: Path) -> list[str]:
    """The project's ``games/**/*.pdn``, as paths from it, sorted; none through a link out."""
    folder = root / GAMES_DIR
    if not folder.is_dir() or link_outside(folder) is not None:
        return []
    found = [
        path.relative_to(root).as_posix()
        for path in sorted(folder.rglob("*.pdn"))
        if path.is_file() and link_outside(path) is None
    ]
    return found[:_GAME_LIMIT]


def origin_position(root: Path, origin: Mapping[str, object]) -> tuple[Position, list[str]]:
    """The board ``position: <origin>`` gives in a diagram file, and the moves that lead to it.

    Read by the project's own reader, so the editor's board is verify's; its
    refusal is a 422 with the reader's message.
    """
    text = json.dumps({"position": dict(origin), "claim": "setup"})  # JSON is YAML
    try:
        diagram = parse_diagram(text.encode("utf-8"), "diagrams/draft.yaml", base=root)
    except DamaError as error:
        raise EditorError(422, error.message) from None
    return diagram.position, [str(move) for move in diagram.history]


def game_moves(root: Path, data: Mapping[str, Any]) -> dict[str, object]:
    """A game's main line to choose from, and the board after the move ``after`` (if given).

    ``data``: ``game`` (one of :func:`game_files`), ``number`` (from 1) and
    ``after`` (``5.`` or ``5...``; none: the game's final position).
    """
    name = data.get("game")
    offered = game_files(root)
    if not isinstance(name, str) or name not in offered:
        listed = ", ".join(offered) or f"none: put PDN files in {GAMES_DIR}/"
        raise EditorError(422, f"choose one of the project's game files ({listed})")
    number = data.get("number", 1)
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10_000:
        raise EditorError(422, "number must be a game's place in its file: 1, 2, ...")
    try:
        game = game_at(root / name, number, shown=name)
    except PdnError as error:
        raise EditorError(422, f"the game does not read: {error}") from None
    except DamaError as error:
        raise EditorError(422, error.message) from None
    first = ply_of(1, game.start.turn)
    moves = [
        {"after": move_label(first + index), "move": str(played.move)}
        for index, played in enumerate(game.moves)
    ]
    origin: dict[str, object] = {"game": name}
    if number != 1:
        origin["number"] = number
    after = data.get("after")
    if after is not None:
        if not isinstance(after, str) or after not in {each["after"] for each in moves}:
            raise EditorError(422, "after must be one of the game's move numbers, as 5. or 5...")
        origin["after"] = after
    position, sequence = origin_position(root, origin)
    return {
        "game": name,
        "number": number,
        "white": game.player("White"),
        "black": game.player("Black"),
        "moves": moves,
        "origin": origin,
        "position": position.to_fen(),
        "sequence": sequence,
    }


def play(root: Path, data: Mapping[str, Any]) -> dict[str, object]:
    """The board after the chosen move, and where it now comes from.

    ``data``: ``position`` (a FEN), ``move`` (legal there) and ``origin`` (the
    board's origin, or null).  Played on a board reached from the start (the
    start itself, or ``{moves: [...]}``), the move joins the moves; played on
    any other board, the new board is a FEN (``origin`` null): a game's
    position with moves after it is no origin a file can give.
    """
    from .analysis import read_move, read_position

    position = read_position(data.get("position"))
    move = read_move(data.get("move"))
    if move is None or not position.is_legal(move):
        raise EditorError(422, "choose a legal move to play it on the board")
    origin = data.get("origin")
    played: list[str] | None = None
    if origin is None and position.to_fen() == Position.initial().to_fen():
        played = []
    elif isinstance(origin, dict) and set(origin) == {"moves"}:
        given, sequence = origin_position(root, origin)
        if given.to_fen() == position.to_fen():
            played = sequence
    after = position.play(move)
    new_origin = None if played is None else {"moves": [*played, str(move)]}
    return {"position": after.to_fen(), "origin": new_origin}
