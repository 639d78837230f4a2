"""A diagram being made in the editor: its fields, its file's text, the engine's verdict.

The page sends the fields of a diagram (position, claim, moves, title…) as
JSON.  They become a diagram file's text here, and that text is checked
exactly as ``dama-diagrams verify`` checks a file: the project's strict reader
(:func:`~dama_diagrams.diagram.parse_diagram`, what ``load_diagram`` does with
a file's bytes), then :func:`~dama_diagrams.diagram.verify`.  So nothing is
saved that ``verify`` would refuse, and the preview is the figure the site
will draw (:func:`~..fence.figure.inline_figure`).

An opened file is edited, not rewritten: ruamel.yaml's round-trip mode keeps
its comments, key order and quoting, only the keys whose meaning changed are
set, and a file whose fields did not change keeps its bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...diagram.claims import VerifiedDiagram, verify
from ...diagram.schema import KEYS, Diagram, parse_diagram
from ...errors import DamaError
from ...render.legend import LEGEND_KEYS
from ..fence.figure import inline_figure
from ..fence.words import fence_catalog
from ..pages.figure_html import legend_block
from .checks import EditorError, text_field

PREVIEW_ID = "draft"
"""The id a diagram is previewed under before it has a name."""

EDITED_KEYS = tuple(key for key in KEYS if key != "show")
"""The keys the editor sets; ``show`` and anything else of an opened file stay as written."""

_MOVE_LIMIT = 200
_LIST_LIMIT = 40


@dataclass(frozen=True, slots=True)
class Draft:
    """The fields of a diagram as the page sends them: text, not yet checked."""

    position: str
    claim: str
    move: str | None = None
    moves: tuple[str, ...] = ()
    rule: str | None = None
    rejected: tuple[str, ...] = ()
    reason: str | None = None
    title: str | None = None
    caption: str | None = None
    exercise: tuple[str, str] | None = None
    """(ask, question) when the diagram is an exercise."""

    def entries(self) -> dict[str, object]:
        """The keys of the file, in the order diagram files write them; empty ones left out."""
        values: dict[str, object] = {
            "position": self.position,
            "claim": self.claim,
            "move": self.move,
            "moves": list(self.moves) or None,
            "rule": self.rule,
            "rejected": list(self.rejected) or None,
            "reason": self.reason,
            "title": self.title,
            "caption": self.caption,
            "exercise": None
            if self.exercise is None
            else {"ask": self.exercise[0], "question": self.exercise[1]},
        }
        return {key: values[key] for key in EDITED_KEYS if values.get(key) is not None}


def draft_from_json(data: Mapping[str, Any]) -> Draft:
    """The fields of a request, each checked for its type and size (400 otherwise)."""
    fields = data.get("diagram")
    if not isinstance(fields, dict):
        raise EditorError(400, 'the request needs "diagram": {"position": ..., "claim": ...}')
    position = text_field(fields, "position", limit=_MOVE_LIMIT)
    claim = text_field(fields, "claim", limit=40)
    if position is None or claim is None:
        raise EditorError(400, "a diagram needs a position and a claim: set up the board first")
    exercise = fields.get("exercise")
    asked: tuple[str, str] | None = None
    if exercise is not None:
        if not isinstance(exercise, dict):
            raise EditorError(400, 'exercise must be {"ask": ..., "question": ...} or null')
        ask = text_field(exercise, "ask", limit=40)
        question = text_field(exercise, "question")
        if ask is None or question is None:
            raise EditorError(
                422, "an exercise needs what it asks and its question: write the question"
            )
        asked = (ask, question)
    return Draft(
        position=position,
        claim=claim,
        move=text_field(fields, "move", limit=_MOVE_LIMIT),
        moves=_move_list(fields, "moves"),
        rule=text_field(fields, "rule", limit=40),
        rejected=_move_list(fields, "rejected"),
        reason=text_field(fields, "reason", limit=40),
        title=text_field(fields, "title", limit=300),
        caption=text_field(fields, "caption"),
        exercise=asked,
    )


def _move_list(fields: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = fields.get(key) or []
    if not isinstance(value, list) or len(value) > _LIST_LIMIT:
        raise EditorError(400, f"{key} must be a list of at most {_LIST_LIMIT} moves")
    moves = []
    for item in value:
        if not isinstance(item, str) or not item.strip() or len(item) > _MOVE_LIMIT:
            raise EditorError(400, f"{key} must be a list of moves such as 22-19")
        moves.append(item.strip())
    return tuple(moves)


# == Checking =================================================================


def checked(text: str, name: str) -> VerifiedDiagram:
    """The file's text verified as ``diagrams/<name>.yaml``, or a 422 with verify's message."""
    try:
        return verify(parse_diagram(text.encode("utf-8"), f"diagrams/{name}.yaml"))
    except DamaError as error:
        raise EditorError(422, str(error)) from None


def read_diagram(text: str, name: str) -> Diagram:
    """An opened file read by the project's reader (its claim not checked yet)."""
    try:
        return parse_diagram(text.encode("utf-8"), f"diagrams/{name}.yaml")
    except DamaError as error:
        raise EditorError(
            422, f"{error}; the editor opens only files the project can read: fix it by hand"
        ) from None


def draft_of(diagram: Diagram) -> dict[str, object]:
    """A read file's fields, as the page shows them (the inverse of :func:`draft_from_json`)."""
    exercise = diagram.exercise
    return {
        "position": diagram.position.to_fen(),
        "claim": diagram.claim.value,
        "move": None if diagram.move is None else str(diagram.move),
        "moves": [str(move) for move in diagram.moves],
        "rule": None if diagram.rule is None else diagram.rule.value,
        "rejected": [str(move) for move in diagram.rejected],
        "reason": None if diagram.reason is None else diagram.reason.value,
        "title": diagram.title,
        "caption": diagram.caption,
        "exercise": None
        if exercise is None
        else {"ask": exercise.ask.value, "question": exercise.question},
    }


def preview(verified: VerifiedDiagram) -> dict[str, object]:
    """The figure as the site draws it, and the engine's English line, for the page."""
    catalog = fence_catalog("en")
    answer: dict[str, object] = {"figure": inline_figure(verified, catalog)}
    answer["summary"] = verified.summary
    return answer


def full_legend() -> str:
    """Every entry of the site's legend, for the page's key to the board."""
    return legend_block(fence_catalog("en"), LEGEND_KEYS)


# == Writing the text =========================================================


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


def file_text(draft: Draft, original: str | None = None) -> str:
    """The text of the file for ``draft``: new, or ``original`` with only what changed.

    A key whose meaning is unchanged keeps its node (a position written as a
    mapping stays one); when nothing changed, ``original`` comes back as it
    was, byte for byte.
    """
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    yaml = _yaml()
    try:
        document = yaml.load(original) if original else None
    except YAMLError as error:  # what the project's reader took, ruamel.yaml may still refuse
        message = f"the opened file cannot be edited here ({error}); edit it by hand"
        raise EditorError(422, message) from None
    if document is None:
        document = CommentedMap()
    if not isinstance(document, CommentedMap):
        raise EditorError(422, "the opened file is not a mapping of keys; fix it by hand")
    old = _old_values(original)
    wanted = draft.entries()
    changed = False
    for key in EDITED_KEYS:
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
        return original
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


def _old_values(original: str | None) -> dict[str, object]:
    """What each key of the opened file means, as the project's reader reads it."""
    if not original:
        return {}
    try:
        diagram = parse_diagram(original.encode("utf-8"), f"diagrams/{PREVIEW_ID}.yaml")
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
    if isinstance(value, list | tuple) and not value:
        return None
    return value


def _move_text(move: object) -> object:
    from ...engine.move import Move

    try:
        return str(Move.parse(str(move)))
    except DamaError:
        return move


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
        for name, text in value.items():
            if styled.get(name) != text:
                styled[name] = DoubleQuotedScalarString(text) if name == "question" else text
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
