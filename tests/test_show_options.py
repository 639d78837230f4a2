"""The display options: turn and steps, and the options that do not apply to a claim."""

from __future__ import annotations

from pathlib import Path

import pytest

from dama_diagrams.diagram.options import Claim, Show, show_options
from dama_diagrams.diagram.schema import load_diagram
from dama_diagrams.engine.move import Move
from dama_diagrams.errors import DamaError, DiagramError
from tests.conftest import ROOT, run_cli

# One well-formed file for each claim, to which a show: line is added.
BODIES: dict[str, str] = {
    "setup": 'position: "W:W22:B4"\nclaim: setup\n',
    "game-over": 'position: "B:W28,31:B24"\nclaim: game-over\nreason: blocked\n',
    "move": 'position: "W:W22:B4"\nclaim: move\nmove: 22-18\n',
    "moves": 'position: "W:WK22:B4"\nclaim: move\nmoves: [22-18, 22-17]\n',
    "illegal": 'position: "W:W31:B12,20,28"\nclaim: illegal\nmove: 31x24x15x8\nreason: occupied\n',
    "free-choice": 'position: "W:W31:B12,20,28"\nclaim: free-choice\nmoves: [31x24x15x8]\n',
    "capture-one": 'position: "W:W22:B18"\nclaim: capture\nmove: 22x13\n',
    "capture-step": 'position: "W:W22:B4"\nclaim: capture\nmove: 22-18\n',
    "capture": 'position: "W:W31:B12,20,28"\nclaim: capture\nmove: 31x24x15x8\n',
    "multi-capture": 'position: "W:W31:B12,20,28"\nclaim: multi-capture\nmove: 31x24x15x8\n',
    "priority": 'position: "W:WK21,31:B10,18,27"\nclaim: priority\nmove: 31x22x13x6\n'
    "rule: most-pieces\nrejected: [21x14x5]\n",
    "promotion": 'position: "W:W22:B18,10"\nclaim: promotion\nmove: 22x13x6\n',
}


def load(tmp_path: Path, text: str, name: str = "example.yaml") -> Show:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_diagram(path).show


def refusal(tmp_path: Path, text: str, name: str = "example.yaml") -> DamaError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DiagramError) as caught:
        load_diagram(path)
    error = caught.value
    assert error.path == str(path)
    assert str(error) == f"{path}:{error.line}: {error.message}"
    assert "\n" not in str(error)
    return error


# -- turn and steps --------------------------------------------------------------


def test_turn_and_steps_are_on_by_default(tmp_path: Path) -> None:
    assert (Show().turn, Show().steps) == (True, True)
    show = load(tmp_path, BODIES["multi-capture"])
    assert (show.turn, show.steps) == (True, True)
    assert load(tmp_path, BODIES["setup"] + "show: {flip: true}\n").turn is True


def test_turn_and_steps_can_be_turned_off(tmp_path: Path) -> None:
    show = load(tmp_path, BODIES["multi-capture"] + "show: {turn: false, steps: false}\n")
    assert show == Show(turn=False, steps=False)
    assert load(tmp_path, BODIES["setup"] + "show: {turn: false}\n") == Show(turn=False)
    assert load(tmp_path, BODIES["multi-capture"] + "show: {steps: true}\n") == Show()


@pytest.mark.parametrize("key", ["turn", "steps"])
def test_turn_and_steps_are_true_or_false(tmp_path: Path, key: str) -> None:
    error = refusal(tmp_path, BODIES["multi-capture"] + f"show:\n  {key}: sometimes\n")
    assert (error.line, error.message) == (5, f"{key} must be true or false, not 'sometimes'")


def test_an_unknown_option_lists_turn_and_steps(tmp_path: Path) -> None:
    error = refusal(tmp_path, BODIES["multi-capture"] + "show: {stpes: true}\n")
    assert error.line == 4
    assert error.message == (
        "unknown display option 'stpes': did you mean 'steps'? "
        "show takes numbers, arrows, flip, turn or steps"
    )


# -- options that do not apply -----------------------------------------------------


@pytest.mark.parametrize("claim", ["setup", "game-over"])
@pytest.mark.parametrize("value", ["true", "false"])
def test_arrows_on_a_claim_without_a_move_is_refused_at_its_line(
    tmp_path: Path, claim: str, value: str
) -> None:
    text = BODIES[claim] + f"show:\n  flip: true\n  arrows: {value}\n"
    error = refusal(tmp_path, text)
    assert error.line == text.count("\n")
    assert error.message == (
        f"show.arrows does not apply to a {claim} claim: it draws no move. "
        f"Remove it; a {claim} claim takes show: numbers, flip, turn"
    )


@pytest.mark.parametrize("claim", ["setup", "game-over"])
def test_numbers_marked_on_a_claim_without_a_move_is_refused(tmp_path: Path, claim: str) -> None:
    text = BODIES[claim] + "show:\n  numbers: marked\n"
    error = refusal(tmp_path, text)
    assert error.line == text.count("\n")
    assert error.message == (
        f"show.numbers: marked does not apply to a {claim} claim: it shows no move, "
        "so no square is marked. Use numbers: all for the 32 numbers, or numbers: none"
    )


@pytest.mark.parametrize("claim", ["setup", "game-over"])
@pytest.mark.parametrize(
    ("numbers", "expected"), [("all", "all"), ("none", "none"), ("true", "all")]
)
def test_all_or_no_numbers_suit_a_claim_without_a_move(
    tmp_path: Path, claim: str, numbers: str, expected: str
) -> None:
    show = load(tmp_path, BODIES[claim] + f"show: {{numbers: {numbers}, turn: false}}\n")
    assert (show.numbers, show.turn) == (expected, False)


@pytest.mark.parametrize(
    ("body", "takes"),
    [
        ("setup", "numbers, flip, turn"),
        ("game-over", "numbers, flip, turn"),
        ("move", "numbers, arrows, flip, turn"),
        ("moves", "numbers, arrows, flip, turn"),
        ("illegal", "numbers, arrows, flip, turn"),
        ("free-choice", "numbers, arrows, flip, turn"),
    ],
)
def test_steps_on_a_claim_that_shows_no_capture_to_step_is_refused(
    tmp_path: Path, body: str, takes: str
) -> None:
    claim = Claim(BODIES[body].split("claim: ")[1].split("\n")[0])
    article = "an" if claim is Claim.ILLEGAL else "a"
    text = BODIES[body] + "show:\n  numbers: all\n  steps: false\n"
    error = refusal(tmp_path, text)
    assert error.line == text.count("\n")
    assert error.message == (
        f"show.steps does not apply to {article} {claim.value} claim: steps go through a "
        "capture of two or more pieces (as 31x24x15x8) that a capture, multi-capture, "
        f"priority or promotion claim shows. Remove it; {article} {claim.value} claim "
        f"takes show: {takes}"
    )


@pytest.mark.parametrize(
    ("body", "move", "what"),
    [
        ("capture-one", "22x13", "captures only one piece"),
        ("capture-step", "22-18", "is not a capture"),
    ],
)
def test_steps_on_a_move_that_captures_fewer_than_two_pieces_is_refused(
    tmp_path: Path, body: str, move: str, what: str
) -> None:
    text = BODIES[body] + "show: {steps: true}\n"
    error = refusal(tmp_path, text)
    assert error.line == 4
    assert error.message == (
        f"show.steps does not apply to {move}: it {what}, and steps go through a capture "
        "of two or more pieces (as 31x24x15x8). Remove it; with "
        f"{move}, a capture claim takes show: numbers, arrows, flip, turn"
    )


@pytest.mark.parametrize("body", ["capture", "multi-capture", "priority", "promotion"])
def test_steps_and_every_option_apply_to_a_capture_of_two_or_more_pieces(
    tmp_path: Path, body: str
) -> None:
    text = (
        BODIES[body]
        + "show: {numbers: marked, arrows: false, flip: true, turn: false, steps: false}\n"
    )
    assert load(tmp_path, text) == Show("marked", arrows=False, flip=True, turn=False, steps=False)


def test_show_is_checked_against_a_move_and_claim_that_come_after_it(tmp_path: Path) -> None:
    text = (
        'show:\n  flip: true\n  steps: true\nposition: "W:W22:B18"\nmove: 22x13\nclaim: capture\n'
    )
    error = refusal(tmp_path, text)
    assert error.line == 3
    assert error.message.startswith("show.steps does not apply to 22x13: it captures only one")
    good = "show: {steps: false}\nmove: 31x24x15x8\nclaim: multi-capture\n"
    assert load(tmp_path, good + 'position: "W:W31:B12,20,28"\n').steps is False


def test_the_first_option_in_the_file_that_does_not_apply_is_reported(tmp_path: Path) -> None:
    text = BODIES["setup"] + "show:\n  steps: true\n  arrows: true\n"
    assert refusal(tmp_path, text).message.startswith("show.steps does not apply")
    text = BODIES["setup"] + "show:\n  arrows: true\n  steps: true\n"
    error = refusal(tmp_path, text)
    assert (error.line, error.message.split(":")[0]) == (
        4,
        "show.arrows does not apply to a setup claim",
    )


def test_show_options_names_what_applies() -> None:
    two = Move.parse("31x24x15x8")
    every = ("numbers", "arrows", "flip", "turn", "steps")
    assert show_options(Claim.SETUP) == ("numbers", "flip", "turn")
    assert show_options(Claim.GAME_OVER) == ("numbers", "flip", "turn")
    assert show_options(Claim.MOVE, Move.parse("22-18")) == every[:4]
    assert show_options(Claim.CAPTURE, Move.parse("22x13")) == every[:4]
    assert show_options(Claim.ILLEGAL, two) == every[:4]
    for claim in (Claim.CAPTURE, Claim.MULTI_CAPTURE, Claim.PRIORITY, Claim.PROMOTION):
        assert show_options(claim, two) == every


# -- the project's own diagrams and the command line ----------------------------


def test_every_project_diagram_still_loads() -> None:
    paths = sorted((ROOT / "diagrams").glob("*.yaml"))
    assert len(paths) >= 19
    for path in paths:
        diagram = load_diagram(path)
        assert set(show_options(diagram.claim, diagram.move)) >= {"numbers", "flip", "turn"}


def test_verify_prints_an_option_that_does_not_apply_as_one_line(tmp_path: Path) -> None:
    path = tmp_path / "setup-arrows.yaml"
    path.write_text(BODIES["setup"] + "show: {arrows: false}\n", encoding="utf-8")
    result = run_cli("verify", path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"{path}:3: show.arrows does not apply to a setup claim: it draws no move. "
        "Remove it; a setup claim takes show: numbers, flip, turn"
    ]
