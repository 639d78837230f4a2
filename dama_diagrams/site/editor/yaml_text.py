"""A diagram's file text, written from the editor's draft: new, or an opened file edited.

An opened file is edited, not rewritten: ruamel.yaml's round-trip mode keeps
its comments, key order and quoting, only the keys whose meaning changed are
set, and a file whose fields did not change keeps its bytes.

Nothing of an opened file is lost because the page cannot show it yet:

- a key the request leaves out (``show``, ``title``, ``caption``,
  ``exercise``, ``origin``) stays as the file writes it;
- a position the file gives as moves from the start (``{moves: [...]}``) or
  from a game (``{game: ...}``) stays so while the board is the one those
  moves give; a request that changes the board of such a file is refused
  unless it says what becomes of them (``origin``: new moves, or ``null``
  for a FEN);
- a claim's lists (``moves``, ``rejected``) and its ``rule`` or ``reason``:
  a request for the file's own claim (the same claim and move) that leaves
  one of them out is refused, never saved without it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...diagram.options import SHOW_KEYS, Show
from ...diagram.schema import KEYS, Diagram, parse_diagram
from ...errors import DamaError
from .checks import EditorError
from .drafts import CLAIM_KEYS, EDITED_KEYS, PREVIEW_ID, Draft


def draft_of(diagram: Diagram, text: str | None = None) -> dict[str, object]:
    """A read file's fields, as the page shows them (the inverse of :func:`draft_from_json`).

    ``position`` is the board as a FEN; ``show`` the display options that
    differ from the defaults.  ``origin``, given ``text`` (the file as
    written), is how the file gives the position when not as a FEN; without
    ``text`` it is left out, and a save then keeps it as the file writes it.
    """
    exercise = diagram.exercise
    defaults = Show()
    show = {
        key: getattr(diagram.show, key)
        for key in SHOW_KEYS
        if getattr(diagram.show, key) != getattr(defaults, key)
    }
    fields: dict[str, object] = {
        "position": diagram.position.to_fen(),
        "claim": diagram.claim.value,
        "move": None if diagram.move is None else str(diagram.move),
        "moves": [str(move) for move in diagram.moves],
        "rule": None if diagram.rule is None else diagram.rule.value,
        "rejected": [str(move) for move in diagram.rejected],
        "reason": None if diagram.reason is None else diagram.reason.value,
        "show": show or None,
        "title": diagram.title,
        "caption": diagram.caption,
        "exercise": None
        if exercise is None
        else {"ask": exercise.ask.value, "question": exercise.question},
    }
    if text is not None:
        written = _written(_load(text))
        origin = written.get("position")
        fields["origin"] = origin if isinstance(origin, dict) else None
    return fields


def _yaml() -> Any:
    """ruamel.yaml in round-trip mode: comments, key order and quotes kept.

    The project reads YAML only with its safe reader (:mod:`...diagram._yaml`);
    this round-trip loader is safe too: it builds only plain maps, lists and
    strings (no tags that make objects), and every text it writes is read
    back and verified by the project's own reader before it is saved.
    """
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long caption onto several lines
    return yaml


def file_text(draft: Draft, original: str | None = None, base: Path | None = None) -> str:
    """The text of the file for ``draft``: new, or ``original`` with only what changed.

    A key whose meaning is unchanged keeps its node (a position written as
    moves stays so); a field the request left out keeps the file's; when
    nothing changed, ``original`` comes back as it was, byte for byte.  ``base``
    is the project its games are read from.  An
    edit that would lose what the file says and the request did not touch is
    refused (422), and nothing is written.
    """
    document = _load(original)
    old = _old_values(original, base)
    _refuse_dropped_claim_keys(draft, old)
    wanted = draft.entries()
    changed = _position_node(document, draft, old)
    for key in EDITED_KEYS:
        if key in draft.left_out and key not in CLAIM_KEYS:
            continue  # the page did not send it: the file's stays as written
        if key not in wanted:
            if key in document:
                del document[key]
                changed = True
            continue
        if key in document and old.get(key) == _meaning(key, wanted[key]):
            continue
        _set(document, key, wanted[key])
        changed = True
    if original and not changed:
        text = original
    else:
        out = io.StringIO()
        _yaml().dump(document, out)
        text = out.getvalue()
    if draft.origin is not None and "origin" not in draft.left_out:
        _check_origin(draft, text, base)
    return text


def with_comment(text: str, verdict: str, note: str | None) -> str:
    """A new file's text after its leading comment: the source note, then the engine's verdict.

    As ``find --yaml`` writes its files: the first thing a reader of the file
    sees is why it holds.
    """
    lines = [line for line in (note, verdict) if line]
    return "".join(f"# {' '.join(line.split())}\n" for line in lines) + text


def _load(original: str | None) -> Any:
    """The opened file's round-trip document (an empty one for a new file), or a 422."""
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    try:
        document = _yaml().load(original) if original else None
    except YAMLError as error:  # what the project's reader took, ruamel.yaml may still refuse
        message = f"the opened file cannot be edited here ({error}); edit it by hand"
        raise EditorError(422, message) from None
    if document is None:
        document = CommentedMap()
    if not isinstance(document, CommentedMap):
        raise EditorError(422, "the opened file is not a mapping of keys; fix it by hand")
    return document


def _written(document: Any) -> dict[str, object]:
    """The document's keys as plain data: maps, lists, texts and numbers, as written."""
    plain = _plain(document)
    return plain if isinstance(plain, dict) else {}


def _plain(node: object) -> object:
    from ruamel.yaml.scalarbool import ScalarBoolean

    if isinstance(node, Mapping):
        return {str(key): _plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_plain(item) for item in node]
    if isinstance(node, ScalarBoolean):
        return bool(node)
    if isinstance(node, bool):
        return node
    if isinstance(node, int):
        return int(node)
    return None if node is None else str(node)


def _refuse_dropped_claim_keys(draft: Draft, old: Mapping[str, object]) -> None:
    """A request for the file's own claim that leaves out one of its keys loses nothing."""
    same_claim = old.get("claim") == draft.claim and old.get("move") == _meaning("move", draft.move)
    if not same_claim:
        return  # another claim: its keys replace the file's
    for key in CLAIM_KEYS:
        if key in draft.left_out and old.get(key) is not None:
            shown = old[key]
            words = f"[{', '.join(map(str, shown))}]" if isinstance(shown, list) else shown
            empty = "[]" if isinstance(shown, list) else "null"
            raise EditorError(
                422,
                f"the opened file's {key}: {words} would be lost, though the claim is the file's "
                f"own ({draft.claim}): send it with the diagram, or {key}: {empty} to remove it",
            )


def _position_node(document: Any, draft: Draft, old: Mapping[str, object]) -> bool:
    """Set ``position:`` for the draft; whether it changed.

    The file's node stays while it gives the draft's board (and the request
    names no other origin).  A board that moves or a game no longer give is
    refused unless the request says what becomes of them.
    """
    written = _written(document).get("position")
    same_board = "position" in document and old.get("position") == _meaning(
        "position", draft.position
    )
    if "origin" in draft.left_out:
        if same_board:
            return False
        if isinstance(written, dict) and ("moves" in written or "game" in written):
            kind = "the moves from the start" if "moves" in written else "a game's position"
            raise EditorError(
                422,
                f"the opened file gives its position as {kind} ({_flow(written)}); this board "
                "differs, and saving it would replace them by a FEN and lose them (and what "
                "{sequence} says in the caption): set the board back, or save under a new name",
            )
        if isinstance(written, dict):  # {turn, white, black}: the new board written alike
            return _put(document, "position", _as_mapping(draft.position))
        return _put(document, "position", draft.position)
    if draft.origin is None:
        if same_board and isinstance(written, str):
            return False
        return _put(document, "position", draft.position)
    origin = _meaning("origin", dict(draft.origin))
    if "position" in document and _meaning("origin", written) == origin:
        return False
    return _put(document, "position", dict(draft.origin))


def _put(document: Any, key: str, value: object) -> bool:
    _set(document, key, value)
    return True


def _flow(value: object) -> str:
    """A value as one line of YAML flow style, for a message."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return str(value)


def _as_mapping(fen: str) -> dict[str, object]:
    """A FEN as the mapping ``{turn, white, black}`` (kings as K21), as diagram files write it."""
    from ...engine.board import Color
    from ...engine.position import Position

    position = Position.from_fen(fen)
    mapping: dict[str, object] = {"turn": position.turn.value}
    for color in Color:
        kings = {square: f"K{square}" for square in position.squares(color, king=True)}
        men = {square: square for square in position.squares(color, king=False)}
        mapping[color.value] = [{**kings, **men}[square] for square in sorted({**kings, **men})]
    return mapping


def _check_origin(draft: Draft, text: str, base: Path | None) -> None:
    """The position an origin gives must be the board the draft shows."""
    try:
        given = parse_diagram(text.encode("utf-8"), f"diagrams/{PREVIEW_ID}.yaml", base=base)
    except DamaError:
        return  # refused by the check that follows, with verify's message at its line
    if given.position.to_fen() != _meaning("position", draft.position):
        raise EditorError(
            422,
            f"origin gives the position {given.position.to_fen()}, not the board "
            f"{draft.position}: set up that board, or change the moves",
        )


def _old_values(original: str | None, base: Path | None) -> dict[str, object]:
    """What each key of the opened file means, as the project's reader reads it."""
    if not original:
        return {}
    try:
        diagram = parse_diagram(original.encode("utf-8"), f"diagrams/{PREVIEW_ID}.yaml", base=base)
    except DamaError:
        return {}
    return {key: _meaning(key, value) for key, value in draft_of(diagram).items()}


def _meaning(key: str, value: object) -> object:
    """A value in a form that compares by meaning: a position as its canonical FEN."""
    if key == "position" and isinstance(value, str):
        from ...engine.position import Position

        try:
            return Position.from_fen(value).to_fen()
        except DamaError:
            return value
    if key in ("moves", "rejected") and isinstance(value, list | tuple):
        return [_move_text(move) for move in value]
    if key == "move" and isinstance(value, str):
        return _move_text(value)
    if key == "origin" and isinstance(value, dict):
        return {
            name: [_move_text(move) for move in item]
            if name == "moves" and isinstance(item, list)
            else item
            for name, item in value.items()
        }
    if key == "show" and isinstance(value, dict):
        return _show_meaning(value) or None
    if isinstance(value, list | tuple) and not value:
        return None
    return value


def _show_meaning(options: Mapping[str, object]) -> dict[str, object]:
    """Display options as the options that differ from the defaults (true numbers: all)."""
    defaults = Show()
    meant = {}
    for key, value in options.items():
        if key == "numbers" and isinstance(value, bool):
            value = "all" if value else "none"
        if key not in SHOW_KEYS or value != getattr(defaults, key):
            meant[key] = value
    return meant


def _set(document: Any, key: str, value: object) -> None:
    """Set ``key`` in its place among the file's keys, styled as diagram files write it."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    styled: object
    if isinstance(value, list):
        styled = CommentedSeq(value)
        styled.fa.set_flow_style()
    elif isinstance(value, dict):
        inner = document.get(key)
        styled = inner if isinstance(inner, CommentedMap) else CommentedMap()
        if not isinstance(inner, CommentedMap) and key in ("position", "show"):
            styled.fa.set_flow_style()  # position: {moves: [...]}, show: {numbers: all}
        for name, text in value.items():
            if _plain(styled.get(name)) != text:
                styled[name] = _styled_item(name, text)
        for name in [name for name in styled if name not in value]:
            del styled[name]
    elif key in ("position", "title", "caption"):
        styled = DoubleQuotedScalarString(str(value))
    else:
        styled = value
    if key in document:
        document[key] = styled
        return
    later = KEYS[KEYS.index(key) + 1 :]  # a new key goes before the first key that follows it
    place = next((i for i, each in enumerate(document) if each in later), len(document))
    document.insert(place, key, styled)


def _styled_item(name: str, value: object) -> object:
    """A value inside a mapping: lists in flow style, a question and a game's path quoted."""
    from ruamel.yaml.comments import CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    if isinstance(value, list):
        items = CommentedSeq(value)
        items.fa.set_flow_style()
        return items
    if name == "question" and isinstance(value, str):
        return DoubleQuotedScalarString(value)
    return value


def _move_text(move: object) -> object:
    from ...engine.move import Move

    try:
        return str(Move.parse(str(move)))
    except DamaError:
        return move
