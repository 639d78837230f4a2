"""A diagram being made in the editor: its fields, its file's text, the engine's verdict.

The page sends the fields of a diagram (position, claim, moves, title…) as
JSON.  They become a diagram file's text here, and that text is checked
exactly as ``dama-diagrams verify`` checks a file: the project's strict reader
(:func:`~dama_diagrams.diagram.parse_diagram`, what ``load_diagram`` does with
a file's bytes), then :func:`~dama_diagrams.diagram.verify`.  So nothing is
saved that ``verify`` would refuse, and the preview is the figure the site
will draw (:func:`~..fence.figure.inline_figure`).

Its file's text is written by :mod:`.yaml_text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...diagram.claims import VerifiedDiagram, verify
from ...diagram.options import SHOW_KEYS
from ...diagram.schema import KEYS, Diagram, parse_diagram
from ...errors import DamaError
from ...render.legend import LEGEND_KEYS
from ..fence.figure import inline_figure
from ..fence.words import fence_catalog
from ..pages.figure_html import legend_block
from .checks import EditorError, text_field
from .words import verdict

PREVIEW_ID = "draft"
"""The id a diagram is previewed under before it has a name."""

EDITED_KEYS = tuple(key for key in KEYS if key != "position")
"""The keys the editor sets besides the position (which :mod:`.yaml_text` writes)."""

CLAIM_KEYS = ("claim", "move", "moves", "rule", "rejected", "reason")
"""The keys that make the claim: the page sends them together, as one of the engine's claims."""

KEPT_KEYS = ("origin", "show", "title", "caption", "exercise")
"""The fields a request may leave out: the opened file's value then stays as written."""

_ORIGIN_KEYS = ("moves", "game", "number", "after", "turn", "white", "black")
_SHOW_VALUES = {"numbers": (True, False, "all", "marked", "none")}

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
    show: Mapping[str, object] | None = None
    """The display options (``{numbers: all}``); None: the defaults."""
    origin: Mapping[str, object] | None = None
    """The position as the file gives it when not as a FEN: ``{moves: [...]}``,
    ``{game: ..., after: ...}`` or ``{turn: ..., white: [...], black: [...]}``."""
    note: str | None = None
    """Where the position comes from: a new file's first comment line."""
    left_out: frozenset[str] = frozenset()
    """The fields the request did not send: see :data:`KEPT_KEYS` and :data:`CLAIM_KEYS`."""

    def entries(self) -> dict[str, object]:
        """The keys of the file but the position, in the order diagram files write them.

        Empty ones are left out, and so are those the request did not send.
        """
        values: dict[str, object] = {
            "claim": self.claim,
            "move": self.move,
            "moves": list(self.moves) or None,
            "rule": self.rule,
            "rejected": list(self.rejected) or None,
            "reason": self.reason,
            "show": dict(self.show) if self.show else None,
            "title": self.title,
            "caption": self.caption,
            "exercise": None
            if self.exercise is None
            else {"ask": self.exercise[0], "question": self.exercise[1]},
        }
        return {
            key: values[key]
            for key in EDITED_KEYS
            if values.get(key) is not None and key not in self.left_out
        }


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
    left_out = frozenset(key for key in (*KEPT_KEYS, *CLAIM_KEYS) if key not in fields)
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
        show=_show_field(fields.get("show")),
        origin=_origin_field(fields.get("origin")),
        note=_note_field(fields),
        left_out=left_out,
    )


def _note_field(fields: Mapping[str, Any]) -> str | None:
    """The source note: one line of printable text, for a comment line."""
    note = text_field(fields, "note", limit=300)
    if note is not None and not note.isprintable():
        raise EditorError(422, "the source note is one line of text: remove its line breaks")
    return note


def _show_field(value: object) -> dict[str, object] | None:
    """``show``: the display options, each a word or true/false (verify judges the rest)."""
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) > len(SHOW_KEYS):
        raise EditorError(400, 'show must be the display options, as {"numbers": "all"}, or null')
    for key, option in value.items():
        if key not in SHOW_KEYS:
            raise EditorError(400, f"show takes {', '.join(SHOW_KEYS)}, not {str(key)[:20]!r}")
        if option not in _SHOW_VALUES.get(key, (True, False)):
            raise EditorError(400, f"show: {key} cannot be {str(option)[:20]!r}")
    return dict(value)


def _origin_field(value: object) -> dict[str, object] | None:
    """``origin``: the position as moves from the start, a game's, or a mapping; null: a FEN."""
    if value is None:
        return None
    if not isinstance(value, dict) or not value or any(key not in _ORIGIN_KEYS for key in value):
        raise EditorError(
            400, 'origin must be {"moves": [...]}, {"game": ..., "after": ...} or null for a FEN'
        )
    origin: dict[str, object] = {}
    for key, item in value.items():
        if isinstance(item, list):
            if len(item) > _MOVE_LIMIT or not all(_short(each) for each in item):
                raise EditorError(400, f"origin: {key} must be a list of moves or squares")
            origin[key] = [each.strip() if isinstance(each, str) else each for each in item]
        elif _short(item):
            origin[key] = item
        else:
            raise EditorError(400, f"origin: {key} must be a word, a number or a list")
    return origin


def _short(item: object) -> bool:
    """A square, a move, a move number or a path: a short text or a number."""
    if isinstance(item, str):
        return 0 < len(item.strip()) <= _MOVE_LIMIT
    return isinstance(item, int) and not isinstance(item, bool) and abs(item) < 10**6


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


def checked(text: str, name: str, base: Path | None = None) -> VerifiedDiagram:
    """The file's text verified as ``diagrams/<name>.yaml``, or a 422 with verify's message.

    ``base`` is the project the games of ``position: {game: ...}`` are read from.
    """
    try:
        return verify(parse_diagram(text.encode("utf-8"), f"diagrams/{name}.yaml", base=base))
    except DamaError as error:
        raise EditorError(422, str(error)) from None


def read_diagram(text: str, name: str, base: Path | None = None) -> Diagram:
    """An opened file read by the project's reader (its claim not checked yet)."""
    try:
        return parse_diagram(text.encode("utf-8"), f"diagrams/{name}.yaml", base=base)
    except DamaError as error:
        raise EditorError(
            422, f"{error}; the editor opens only files the project can read: fix it by hand"
        ) from None


def preview(verified: VerifiedDiagram, *, lang: str = "en") -> dict[str, object]:
    """The figure as the site draws it in ``lang``, and the engine's line, for the page."""
    catalog = fence_catalog(lang)
    answer: dict[str, object] = {"figure": inline_figure(verified, catalog)}
    answer["summary"] = verdict(verified, lang)
    return answer


def full_legend() -> str:
    """Every entry of the site's legend, for the page's key to the board."""
    return legend_block(fence_catalog("en"), LEGEND_KEYS)
