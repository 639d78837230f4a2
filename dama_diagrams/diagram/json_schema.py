"""A JSON Schema of diagram files, made from the tables the reader itself checks against.

Editors read it (through the YAML language server's ``# yaml-language-server:
$schema=…`` line) to complete keys and underline mistakes as an author types.
It is built from the same names the reader of :mod:`.schema` refuses or
accepts (its keys, the keys each claim takes, the claims, rules, reasons,
display options and exercise keys), and from the engine's squares, so it
cannot drift from them; ``dama-diagrams schema`` prints it, and the package
ships it as ``diagram.schema.json`` (a test keeps the two equal).

The schema checks a file's *shape*: its keys, their types, squares from 1 to
32, moves in notation, the keys each claim needs.  What only the engine can
judge is beyond it: whether a move is legal, whether a claim holds, whether a
position can happen.  ``dama-diagrams verify`` checks those.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .._markdown_text import MAX_TEXT_CHARS
from ..engine.board import SQUARES
from .options import _NO_MOVE_CLAIMS, EXERCISE_KEYS, SHOW_KEYS, Claim
from .schema import (
    _ASKS,
    _CLAIM_KEYS,
    _CLAIM_NAMES,
    _GAME_OVER_REASONS,
    _ILLEGAL_REASONS,
    _RULE_NAMES,
    KEYS,
)

SCHEMA_FILE = "diagram.schema.json"
"""The schema as the package ships it, beside this module."""

JSON = dict[str, Any]


def _number_pattern(last: int) -> str:
    """A regular expression for the whole numbers 1 to ``last`` (``last`` below 100)."""
    tens, units = divmod(last, 10)
    parts = ["[1-9]"]
    if tens > 1:
        parts.append(f"[1-{tens - 1}][0-9]")
    if tens >= 1:
        parts.append(f"{tens}[0-{units}]")
    return "(?:" + "|".join(parts) + ")"


def _patterns() -> tuple[str, str, str]:
    """The square, the move and the FEN, as the reader takes them, squares within the board."""
    square = _number_pattern(max(SQUARES))
    move = rf"{square}(?:-{square}|(?:x{square})+)"
    item = rf"K?{square}(?:-{square})?"
    field = rf"(?:\s*{item}\s*(?:,\s*{item}\s*)*)?"
    fen = rf"^\s*[WBwb]:(?:[Ww]{field}:[Bb]{field}|[Bb]{field}:[Ww]{field})\.?\s*$"
    return square, rf"^\s*{move}\s*$", fen


def diagram_schema() -> JSON:
    """The JSON Schema (draft 2020-12) of a diagram file."""
    square, move, fen = _patterns()
    move_schema: JSON = {
        "type": "string",
        "pattern": move,
        "description": "a move in notation: 22-19, or a capture with every landing, 29x22x15",
    }
    moves: JSON = {"type": "array", "items": move_schema, "minItems": 1, "uniqueItems": True}
    piece: JSON = {
        "oneOf": [
            {"type": "integer", "minimum": min(SQUARES), "maximum": max(SQUARES)},
            {"type": "string", "pattern": rf"^\s*K?{square}\s*$"},
        ],
        "description": "a square: 21 for a man, K21 for a king",
    }
    text: JSON = {"type": "string", "pattern": r"\S"}
    words: JSON = {**text, "maxLength": MAX_TEXT_CHARS}  # a title, caption or question
    position: JSON = {
        "description": "a FEN, a mapping of pieces, the moves from the start, or a game's position",
        "oneOf": [
            {"type": "string", "pattern": fen},
            _closed(
                {
                    "turn": {"enum": ["white", "black"]},
                    "white": {"type": "array", "items": piece},
                    "black": {"type": "array", "items": piece},
                },
                required=("turn", "white", "black"),
            ),
            _closed({"moves": moves}, required=("moves",)),
            _closed(
                {
                    "game": text,
                    "number": {"type": "integer", "minimum": 1},
                    "after": {"type": ["string", "integer"]},
                },
                required=("game",),
            ),
        ],
    }
    flag: JSON = {"type": "boolean"}
    show = _closed(
        {
            name: {"enum": ["all", "marked", "none", True, False]} if name == "numbers" else flag
            for name in SHOW_KEYS
        },
        required=(),
    )
    exercise = _closed(
        {name: {"enum": list(_ASKS)} if name == "ask" else words for name in EXERCISE_KEYS},
        required=EXERCISE_KEYS,
    )
    properties: JSON = {
        "position": position,
        "claim": {"enum": list(_CLAIM_NAMES)},
        "move": move_schema,
        "moves": moves,
        "rule": {"enum": list(_RULE_NAMES)},
        "rejected": moves,
        "reason": {"enum": sorted({*_ILLEGAL_REASONS, *_GAME_OVER_REASONS})},
        "show": show,
        "title": words,
        "caption": words,
        "exercise": exercise,
    }
    assert tuple(properties) == KEYS, "every key the reader takes, in its order"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "dama-diagrams diagram file",
        "description": "An Italian draughts diagram whose claim dama-diagrams verify checks. "
        "The schema checks the file's shape; whether the claim holds only the engine can say.",
        "type": "object",
        "properties": properties,
        "required": ["position", "claim"],
        "additionalProperties": False,
        "allOf": [_claim_rule(claim) for claim in Claim],
    }


def _closed(properties: JSON, *, required: tuple[str, ...]) -> JSON:
    """An object with exactly these keys, as every mapping of a diagram file is."""
    schema: JSON = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


def _claim_rule(claim: Claim) -> JSON:
    """What one claim needs and refuses: its keys, its reasons, its display options."""
    needed, optional = _CLAIM_KEYS[claim]
    common = ("position", "claim", "show", "title", "caption", "exercise")
    refused = [key for key in KEYS if key not in (*common, *needed, *optional)]
    then: JSON = {"properties": dict.fromkeys(refused, False)}
    if needed:
        then["required"] = list(needed)
    if claim is Claim.MOVE:  # one move, or several: exactly one of the two
        then["oneOf"] = [{"required": ["move"]}, {"required": ["moves"]}]
    if "reason" in needed:
        reasons = _GAME_OVER_REASONS if claim is Claim.GAME_OVER else _ILLEGAL_REASONS
        then["properties"]["reason"] = {"enum": list(reasons)}
    if claim in _NO_MOVE_CLAIMS:  # nothing drawn as an arrow, no square marked
        then["properties"]["show"] = {
            "properties": {"arrows": False, "numbers": {"not": {"const": "marked"}}}
        }
    return {
        "if": {"properties": {"claim": {"const": claim.value}}, "required": ["claim"]},
        "then": then,
    }


def schema_text() -> str:
    """The schema as its file holds it: indented JSON, keys in a fixed order, a final newline."""
    return json.dumps(diagram_schema(), indent=2, ensure_ascii=False) + "\n"


def shipped_schema() -> str:
    """The schema file the package ships (``dama_diagrams/diagram/diagram.schema.json``)."""
    return resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
