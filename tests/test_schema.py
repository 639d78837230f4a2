"""The JSON Schema of diagram files, checked by ``jsonschema`` against the files ``verify`` judges.

Every diagram of the project is valid; every file of the broken corpus
(``tests/broken/``) that ``verify`` refuses for its *shape* is refused by the
schema too.  What only the engine or the strict YAML reader can judge is
listed apart, and the schema is shown to let it through: that is its
documented limit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from dama_diagrams.cli import main
from dama_diagrams.diagram import load_diagram, verify
from dama_diagrams.diagram.json_schema import diagram_schema, schema_text, shipped_schema
from dama_diagrams.errors import DamaError

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken"

SHAPE = {
    "bad-fen.yaml",
    "bad-flag.yaml",
    "bad-move-in-list.yaml",
    "bad-move-string.yaml",
    "bad-numbers.yaml",
    "bad-square-item.yaml",
    "bad-turn.yaml",
    "bool-square-item.yaml",
    "empty-moves.yaml",
    "empty.yaml",
    "key-not-for-claim.yaml",
    "list-not-mapping.yaml",
    "missing-claim.yaml",
    "missing-position.yaml",
    "move-and-moves.yaml",
    "move-listed-twice.yaml",
    "move-off-board.yaml",
    "null-document.yaml",
    "only-comments.yaml",
    "played-not-a-list.yaml",
    "played-with-pieces.yaml",
    "position-missing-black.yaml",
    "position-unknown-key.yaml",
    "priority-missing-rejected.yaml",
    "priority-missing-rule.yaml",
    "square-0-fen.yaml",
    "square-33.yaml",
    "text-not-mapping.yaml",
    "unknown-claim.yaml",
    "unknown-key.yaml",
    "unknown-reason.yaml",
    "unknown-rule.yaml",
    "unknown-show-option.yaml",
    "wrong-type-move.yaml",
    "wrong-type-position.yaml",
    "wrong-type-rejected.yaml",
}
"""Refused by verify for their keys, types, squares or moves: the schema refuses them too."""

BEYOND = {
    "Bad_Id.yaml": "the id is the file's name, which the file does not hold",
    "duplicate-square.yaml": "two pieces on one square: the engine builds the position",
    "man-on-crowning-row.yaml": "a man on its crowning row: a rule of the game",
    "played-illegal-move.yaml": "a move from the start that is not legal there",
    "too-many-pieces.yaml": "more than 12 pieces a side, counted in a FEN",
    "too-many-pieces-mapping.yaml": "more than 12 pieces a side: a rule of the game",
}
"""Well-shaped files that only the engine refuses: beyond the schema, which accepts them."""

YAML_LEVEL = {
    "alias-bomb.yaml",
    "alias.yaml",
    "bad-indentation.yaml",
    "broken-yaml.yaml",
    "control-character.yaml",
    "deep-nesting.yaml",
    "duplicate-key.yaml",
    "list-key.yaml",
    "local-tag.yaml",
    "merge-key.yaml",
    "non-text-key.yaml",
    "not-utf8.yaml",
    "python-name-tag.yaml",
    "python-tag-file.yaml",
    "python-tag.yaml",
    "tab-indent.yaml",
    "two-documents.yaml",
    "unclosed-list.yaml",
}
"""What the strict YAML reader refuses before any schema sees data (an editor's YAML server
reports most of these itself)."""


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(shipped_schema())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def data_of(path: Path) -> Any:
    """The file as an editor's YAML server reads it: plain data."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_shipped_schema_is_the_one_the_code_makes() -> None:
    assert shipped_schema() == schema_text(), "run: dama-diagrams schema > " + (
        "dama_diagrams/diagram/diagram.schema.json"
    )


def test_the_schema_command_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == diagram_schema()


@pytest.mark.parametrize("path", sorted((ROOT / "diagrams").glob("*.yaml")), ids=lambda p: p.name)
def test_every_diagram_of_the_project_is_valid(
    validator: jsonschema.Draft202012Validator, path: Path
) -> None:
    errors = [error.message for error in validator.iter_errors(data_of(path))]
    assert not errors, errors


def test_every_broken_file_is_classified() -> None:
    names = {path.name for path in BROKEN.iterdir()}
    assert names == SHAPE | set(BEYOND) | YAML_LEVEL
    assert not SHAPE & set(BEYOND) and not SHAPE & YAML_LEVEL and not set(BEYOND) & YAML_LEVEL


@pytest.mark.parametrize("name", sorted(SHAPE))
def test_a_shape_error_is_refused_by_verify_and_the_schema(
    validator: jsonschema.Draft202012Validator, name: str
) -> None:
    with pytest.raises(DamaError):
        verify(load_diagram(BROKEN / name))
    assert not validator.is_valid(data_of(BROKEN / name)), name


@pytest.mark.parametrize("name", sorted(BEYOND))
def test_what_only_the_engine_judges_is_beyond_the_schema(
    validator: jsonschema.Draft202012Validator, name: str
) -> None:
    with pytest.raises(DamaError):
        verify(load_diagram(BROKEN / name))
    assert validator.is_valid(data_of(BROKEN / name)), BEYOND[name]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('position: "W:W22:B10"\nclaim: move\n', "a move claim needs move or moves"),
        ('position: "W:W22:B10"\nclaim: capture\n', "a capture claim needs its move"),
        ('position: "W:W22:B10"\nclaim: setup\nmove: 22-18\n', "a setup claim takes no move"),
        ('position: "W:W22:B10"\nclaim: setup\nshow: {arrows: true}\n', "nothing to draw"),
        ('position: "W:W22:B10"\nclaim: game-over\nreason: backward\n', "an illegal's reason"),
        ("position: {turn: white, white: [0], black: [10]}\nclaim: setup\n", "square 0"),
        ('position: "W:W22,33:B10"\nclaim: setup\n', "square 33 in a FEN"),
        ('position: "W:W22:B10"\nclaim: move\nmove: 22-18\ntitle: ""\n', "an empty title"),
    ],
)
def test_more_shape_errors_are_refused_by_both(
    validator: jsonschema.Draft202012Validator, tmp_path: Path, text: str, why: str
) -> None:
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DamaError):
        verify(load_diagram(path))
    assert not validator.is_valid(yaml.safe_load(text)), why


def test_a_refuted_claim_is_beyond_the_schema(
    validator: jsonschema.Draft202012Validator, tmp_path: Path
) -> None:
    """22-17 is written well; that it is no legal move only the engine knows."""
    text = 'position: "W:W22:B10"\nclaim: move\nmove: 22-17\n'
    path = tmp_path / "refuted.yaml"
    path.write_text(text, encoding="utf-8")
    assert validator.is_valid(yaml.safe_load(text))
    with pytest.raises(DamaError, match="22-17 is not legal"):
        verify(load_diagram(path))
