"""The verifier: every claim kind holds when the engine agrees, and is refused otherwise."""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dama_diagrams.cli import main
from dama_diagrams.diagram import (
    Failure,
    VerifiedDiagram,
    verify,
    verify_directory,
    verify_paths,
)
from dama_diagrams.diagram._fence_bytes import first_fence_line
from dama_diagrams.diagram.captions import caption_items
from dama_diagrams.diagram.markdown import dama_fences
from dama_diagrams.diagram.options import Claim
from dama_diagrams.diagram.report import check_markdown
from dama_diagrams.diagram.schema import Diagram, parse_diagram
from dama_diagrams.engine.board import (
    BIT,
    BLACK_CROWN_ROW,
    WHITE_CROWN_ROW,
    Color,
    square_at,
    square_column,
)
from dama_diagrams.engine.legality import IllegalReason
from dama_diagrams.engine.move import Move, jumped_square
from dama_diagrams.engine.position import GameOverReason, Piece, Position
from dama_diagrams.engine.priority import PriorityRule, explain, separating_rule
from dama_diagrams.errors import DamaError, DiagramError
from tests.conftest import copy_project, run_cli

ROOT = Path(__file__).parent.parent
DIAGRAMS = ROOT / "diagrams"

REQUIRED_IDS = {
    "initial-position", "board-numbers", "man-move", "man-capture",
    "man-no-backward-capture", "man-cannot-capture-king", "king-moves",
    "king-captures-backward", "capture-compulsory", "multi-capture",
    "king-revisits-square", "priority-most-pieces", "priority-with-king",
    "priority-most-kings", "priority-king-first", "free-choice",
    "promotion-ends-capture", "game-over-no-pieces", "game-over-blocked",
}  # fmt: skip


def diagram(text: str, name: str = "diagrams/example.yaml") -> Diagram:
    return parse_diagram(text.encode(), name)


def check(text: str) -> VerifiedDiagram:
    return verify(diagram(text))


def refusal(text: str) -> DiagramError:
    with pytest.raises(DiagramError) as caught:
        check(text)
    return caught.value


# -- every claim kind: a true example holds -------------------------------------

HOLDS = {
    "setup": ('position: "W:W21-32:B1-12"\nclaim: setup\n', "The initial position"),
    "move": ('position: "W:W22:B4"\nclaim: move\nmove: 22-18\n', "22-18 is a legal move"),
    "moves": (
        'position: "W:WK18:B4"\nclaim: move\nmoves: [18-13, 18-14, 18-21, 18-22]\n',
        "18-13, 18-14, 18-21 and 18-22 are legal moves",
    ),
    "capture": (
        'position: "W:W22,24:B18"\nclaim: capture\nmove: 22x13\nrejected: [24-20]\n',
        "22x13 captures, and capturing is compulsory",
    ),
    "multi-capture": (
        'position: "W:W31:B12,20,28"\nclaim: multi-capture\nmove: 31x24x15x8\n',
        "31x24x15x8 captures 3 pieces",
    ),
    "illegal": (
        'position: "W:W22:BK18"\nclaim: illegal\nmove: 22x13\nreason: man-takes-king\n',
        "22x13 is illegal (man-takes-king)",
    ),
    "priority": (
        'position: "W:WK21,31:B10,18,27"\nclaim: priority\nmove: 31x22x13x6\n'
        "rule: most-pieces\nrejected: [21x14x5]\n",
        "31x22x13x6 is the only legal move; rule 1 (most pieces) decides.",
    ),
    "free-choice": (
        'position: "W:WK31:B18,20,K27,K28"\nclaim: free-choice\nmoves: [31x22x13, 31x24x15]\n',
        "31x22x13 and 31x24x15 tie on all four rules",
    ),
    "promotion": (
        'position: "W:W11:B5,6"\nclaim: promotion\nmove: 11x2\n',
        "although a king would go on with 2x9",
    ),
    "black-promotion": (
        'position: "B:W27,28:B22"\nclaim: promotion\nmove: 22x31\n',
        "although a king would go on with 31x24",
    ),
    "game-over": (
        'position: "B:W28,31:B24"\nclaim: game-over\nreason: blocked\n',
        "Black is to move and has no legal move: White wins.",
    ),
}


@pytest.mark.parametrize("case", sorted(HOLDS))
def test_a_true_claim_holds(case: str) -> None:
    text, summary = HOLDS[case]
    assert summary in check(text).summary


# -- every claim kind: a false example is refused, saying what the engine found --

REFUSED = {
    "setup-with-move": (
        'position: "W:W22:B4"\nclaim: setup\nmove: 22-18\n',
        3,
        "'move' does not belong in a setup claim",
    ),
    "move-not-diagonal": (
        'position: "W:W22:B4"\nclaim: move\nmove: 22-17\n',
        3,
        "22-17 is not legal (not-diagonal): 17 is not one diagonal step from 22; "
        "the legal moves are 22-18 and 22-19",
    ),
    "move-backward-in-list": (
        'position: "W:W22:B4"\nclaim: move\nmoves:\n  - 22-18\n  - 22-26\n',
        5,
        "22-26 is not legal (backward): a man never moves backwards (22-26)",
    ),
    "move-while-capture": (
        'position: "W:W22,24:B18"\nclaim: move\nmove: 24-20\n',
        3,
        "24-20 is not legal (capture-compulsory): capturing is compulsory: "
        "the legal moves are 22x13",
    ),
    "move-is-capture": (
        'position: "W:W22:B18"\nclaim: move\nmove: 22x13\n',
        3,
        "22x13 is a capture; use claim: capture",
    ),
    "capture-is-a-step": (
        'position: "W:W22:B4"\nclaim: capture\nmove: 22-18\n',
        3,
        "22-18 is legal, but it is a step: no capture is possible here (use claim: move)",
    ),
    "capture-rejected-not-compulsory": (
        'position: "W:W22,24:B18"\nclaim: capture\nmove: 22x13\nrejected: [22-17]\n',
        4,
        "22-17 is illegal for another reason than compulsory capture (not-diagonal",
    ),
    "multi-capture-single": (
        'position: "W:W30:B27"\nclaim: multi-capture\nmove: 30x23\n',
        3,
        "30x23 captures only 1 piece; a multi-capture takes two or more",
    ),
    "multi-capture-unfinished": (
        'position: "W:W31:B12,20,28"\nclaim: multi-capture\nmove: 31x24x15\n',
        3,
        "31x24x15 is not legal (capture-compulsory): the capture is not finished: "
        "the piece must capture on; the legal moves are 31x24x15x8",
    ),
    "illegal-is-legal": (
        'position: "W:W22:B4"\nclaim: illegal\nmove: 22-18\nreason: backward\n',
        3,
        "22-18 is legal here; an illegal claim shows a move the rules forbid "
        "(the legal moves are 22-18 and 22-19)",
    ),
    "illegal-wrong-reason": (
        'position: "W:W22:BK18"\nclaim: illegal\nmove: 22x13\nreason: backward\n',
        4,
        "22x13 is illegal, but not because of backward: the engine finds man-takes-king: "
        "a man may not capture a king (the king on 18)",
    ),
    "priority-wrong-rule-earlier": (
        'position: "W:WK23,31:B19,26,27"\nclaim: priority\nmove: 23x30x21\n'
        "rule: most-kings\nrejected: [31x22x15]\n",
        4,
        "rule most-kings does not decide here: 23x30x21 and 31x22x15 both capture 2 pieces, "
        "and rule 2 (with-king) already separates them",
    ),
    "priority-wrong-rule-later": (
        'position: "W:WK23:B19,K28"\nclaim: priority\nmove: 23x32\n'
        "rule: most-pieces\nrejected: [23x14]\n",
        4,
        "rule most-pieces does not decide here: 23x32 and 23x14 both capture 1 piece and "
        "both capture with a king, and rule 3 (most-kings) separates them",
    ),
    "priority-rule-one-decides": (
        'position: "W:WK21,31:B10,18,27"\nclaim: priority\nmove: 31x22x13x6\n'
        "rule: with-king\nrejected: [21x14x5]\n",
        4,
        "rule with-king does not decide here: rule 1 (most-pieces) already separates "
        "31x22x13x6 and 21x14x5",
    ),
    "priority-move-not-legal": (
        'position: "W:WK23,31:B19,26,27"\nclaim: priority\nmove: 31x22x15\n'
        "rule: with-king\nrejected: [23x30x21]\n",
        3,
        "31x22x15 is not legal: rule 2 (with-king) rules it out; the only legal move is 23x30x21",
    ),
    "priority-rejected-is-legal": (
        'position: "W:WK31:B18,20,K27,K28"\nclaim: priority\nmove: 31x22x13\n'
        "rule: king-first\nrejected: [31x24x15]\n",
        5,
        "31x24x15 is legal too: it ties with 31x22x13 on all four rules",
    ),
    "priority-rejected-unfinished": (
        'position: "W:WK23,31:B19,26,27"\nclaim: priority\nmove: 23x30x21\n'
        "rule: with-king\nrejected:\n  - 31x22\n",
        6,
        "31x22 is not a complete capture here; "
        "the complete captures are 23x14, 23x30x21 and 31x22x15",
    ),
    "priority-rejected-bad-jump": (
        'position: "W:WK23,31:B19,26,27"\nclaim: priority\nmove: 23x30x21\n'
        "rule: with-king\nrejected: [23x16]\n",
        5,
        "23x16 is not a complete capture here (nothing-to-capture",
    ),
    "free-choice-missing-move": (
        'position: "W:WK31:B18,20,K27,K28"\nclaim: free-choice\nmoves: [31x22x13]\n',
        3,
        "31x24x15 is also legal; list every legal capture under moves",
    ),
    "free-choice-no-tie": (
        'position: "W:WK23:B19,K28"\nclaim: free-choice\nmoves: [23x32, 23x14]\n',
        3,
        "23x14 does not tie: rule 3 (most-kings) rules it out; the only legal move is 23x32",
    ),
    "free-choice-single": (
        'position: "W:WK23:B19,K28"\nclaim: free-choice\nmoves: [23x32]\n',
        3,
        "23x32 is the only legal move; free choice needs two captures",
    ),
    "promotion-king-cannot-go-on": (
        'position: "W:W11:B6"\nclaim: promotion\nmove: 11x2\n',
        3,
        "11x2 crowns the man, but a king on 2 could not capture on either",
    ),
    "promotion-not-crowned": (
        'position: "W:W31:B12,20,28"\nclaim: promotion\nmove: 31x24x15x8\n',
        3,
        "31x24x15x8 ends on 8, not on the crowning row (1-4), so the man is not crowned",
    ),
    "promotion-by-a-king": (
        'position: "W:WK11:B5,6"\nclaim: promotion\nmove: 11x2x9\n',
        3,
        "11x2x9 is a king's capture; a promotion shows a man's capture",
    ),
    "game-over-not-over": (
        'position: "W:W22:B4"\nclaim: game-over\nreason: blocked\n',
        2,
        "the game is not over: White is to move and has 2 legal moves (22-18 and 22-19)",
    ),
    "game-over-wrong-reason": (
        'position: "B:W28,31:B24"\nclaim: game-over\nreason: no-pieces\n',
        3,
        "the game is over, but Black is blocked: the reason is blocked",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_false_claim_is_refused_with_what_the_engine_found(case: str) -> None:
    text, line, gist = REFUSED[case]
    with pytest.raises(DamaError) as caught:
        check(text)
    error = caught.value
    assert (error.path, error.line) == ("diagrams/example.yaml", line)
    assert gist in error.message


def test_every_claim_kind_has_a_true_and_a_false_example() -> None:
    def kind(text: str) -> Claim:
        return diagram(text).claim

    held = {kind(text) for text, _ in HOLDS.values()}
    refused = set()
    for text, _, _ in REFUSED.values():
        try:
            refused.add(kind(text))
        except DamaError:
            refused.add(Claim(text.split("claim: ")[1].split("\n")[0]))
    assert held == refused == set(Claim)


def test_the_brief_example_message_word_for_word() -> None:
    error = refusal(
        'position: "W:WK23,31:B19,26,27"\nclaim: priority\nmove: 23x30x21\n'
        "rule: most-kings\nrejected: [31x22x15]\n"
    )
    assert str(error) == (
        "diagrams/example.yaml:4: rule most-kings does not decide here: 23x30x21 and "
        "31x22x15 both capture 2 pieces, and rule 2 (with-king) already separates them"
    )


# -- what a verified diagram carries --------------------------------------------


def test_a_verified_priority_diagram_carries_markers_and_the_explanation() -> None:
    verified = check(HOLDS["priority"][0])
    assert verified.move == Move.parse("31x22x13x6")
    assert verified.moves == (verified.move,)
    assert verified.rejected == (Move.parse("21x14x5"),)
    assert verified.rule is verified.deciding_rule is PriorityRule.MOST_PIECES
    assert verified.legal_moves == (Move.parse("31x22x13x6"),)
    assert [str(c.move) for c in verified.explanation.candidates] == ["21x14x5", "31x22x13x6"]
    assert verified.claim is Claim.PRIORITY


def test_an_illegal_move_is_drawn_as_rejected_not_as_played() -> None:
    verified = check(HOLDS["illegal"][0])
    assert verified.move is None
    assert verified.rejected == (Move.parse("22x13"),)
    assert verified.reason is IllegalReason.MAN_TAKES_KING
    assert verified.legal_moves == (Move.parse("22-19"),)


def test_findings_carry_the_data_the_site_translates() -> None:
    revisit = check(
        'position: "W:WK29:B10,11,18,19,26"\nclaim: multi-capture\nmove: 29x22x13x6x15x22\n'
    )
    assert (revisit.captured, revisit.revisited) == (5, (22,))
    promotion = check(HOLDS["promotion"][0])
    assert promotion.continuation == Move.parse("2x9")
    over = check(HOLDS["game-over"][0])
    assert (over.reason, over.winner) == (GameOverReason.BLOCKED, Color.WHITE)
    assert check(HOLDS["setup"][0]).initial is True
    free = check(HOLDS["free-choice"][0])
    assert free.moves == (Move.parse("31x22x13"), Move.parse("31x24x15"))


def test_the_explanation_is_there_for_every_claim_even_when_not_needed_to_verify() -> None:
    capture = check(HOLDS["capture"][0])
    assert [str(c.move) for c in capture.explanation.candidates] == ["22x13"]
    assert capture.deciding_rule is None
    assert check(HOLDS["move"][0]).explanation.candidates == ()
    with_king = check('position: "W:WK23,31:B19,26,27"\nclaim: capture\nmove: 23x30x21\n')
    assert with_king.deciding_rule is PriorityRule.WITH_KING


def test_a_file_given_twice_is_checked_once(tmp_path: Path) -> None:
    write(tmp_path, {"good.yaml": GOOD})
    assert len(verify_paths([tmp_path, tmp_path / "good.yaml"])) == 1


# -- the project's own diagrams ------------------------------------------------


def test_every_diagram_of_the_project_holds() -> None:
    report = verify_directory(DIAGRAMS)
    assert [str(failure.error) for failure in report.failures] == []
    assert report.ok
    assert {verified.id for verified in report.verified} >= REQUIRED_IDS


def test_the_diagram_set_covers_every_claim_rule_and_reason() -> None:
    verified = verify_directory(DIAGRAMS).verified
    assert {v.claim for v in verified} == set(Claim)
    assert {v.rule for v in verified if v.rule} == set(PriorityRule)
    reasons = {v.diagram.reason for v in verified if v.diagram.reason}
    assert reasons >= {
        IllegalReason.MAN_TAKES_KING,
        IllegalReason.BACKWARD,
        GameOverReason.NO_PIECES,
        GameOverReason.BLOCKED,
    }


@pytest.mark.parametrize(
    ("name", "fen"),
    [
        ("priority-with-king", "W:WK23,31:B19,26,27"),
        ("priority-most-kings", "W:WK23:B19,K28"),
        ("priority-king-first", "W:WK30:B10,12,18,K20,K26,27"),
        ("free-choice", "W:WK31:B18,20,K27,K28"),
    ],
)
def test_the_priority_diagrams_are_the_rulebook_examples(name: str, fen: str) -> None:
    verified = verify_paths([DIAGRAMS / f"{name}.yaml"]).verified[0]
    assert verified.diagram.position == Position.from_fen(fen)


def test_the_rule_1_diagram_shows_what_its_page_says() -> None:
    # The priority page: "a capture of three men beats a capture of two kings".
    # By hand: White's man on 31 jumps the men on 27, 18 and 10; White's king on
    # 28 jumps the kings on 23 and 15, landing on 19 and 12.
    verified = verify_paths([DIAGRAMS / "priority-most-pieces.yaml"]).verified[0]
    assert verified.diagram.position == Position.from_fen("W:W31,K28:B10,18,27,K15,K23")
    page = (DIAGRAMS.parent / "docs" / "pages" / "priority.md.j2").read_text(encoding="utf-8")
    assert "a capture of three men beats a capture of two kings" in " ".join(page.split())
    candidates = {str(c.move): c for c in verified.explanation.candidates}
    assert sorted(candidates) == ["28x19x12", "31x22x13x6"]
    men, kings = candidates["31x22x13x6"], candidates["28x19x12"]
    assert (men.pieces_captured, men.kings_captured, men.rejected_by) == (3, 0, None)
    assert (kings.pieces_captured, kings.kings_captured) == (2, 2)
    assert kings.rejected_by is PriorityRule.MOST_PIECES


# -- many files, and the command ----------------------------------------------

GOOD = 'position: "W:W22:B4"\nclaim: move\nmove: 22-18\n'
BAD = 'position: "W:W22:B4"\nclaim: move\nmove: 22-17\n'


def write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)


def test_verify_paths_reports_every_failure_in_order(tmp_path: Path) -> None:
    write(tmp_path, {"b-bad.yaml": BAD, "a-good.yaml": GOOD, "c-broken.yaml": "claim: [\n"})
    report = verify_paths([tmp_path])
    assert [result.id for result in report] == ["a-good", "b-bad", "c-broken"]
    assert [type(result) for result in report] == [VerifiedDiagram, Failure, Failure]
    assert [(f.error.line, f.claim) for f in report.failures] == [(3, "move"), (1, "?")]
    assert not report.ok


def test_a_yml_file_an_empty_folder_and_a_reused_id_are_failures(tmp_path: Path) -> None:
    write(tmp_path / "one", {"same.yaml": GOOD, "old.yml": GOOD})
    write(tmp_path / "two", {"same.yaml": GOOD})
    (tmp_path / "empty").mkdir()
    report = verify_paths([tmp_path / "one", tmp_path / "two", tmp_path / "empty"])
    messages = [failure.error.message for failure in report.failures]
    assert len(messages) == 3
    assert "diagram files end in .yaml" in messages[0]
    assert "the id 'same' is also the id of" in messages[1]
    assert "holds no diagram files" in messages[2]


def test_verify_command_prints_a_line_per_diagram_and_fails_with_exit_1(tmp_path: Path) -> None:
    write(tmp_path, {"good.yaml": GOOD, "bad.yaml": BAD})
    out = io.StringIO()
    assert main(["verify", str(tmp_path)], out) == 1
    lines = out.getvalue().splitlines()
    assert lines[0].split()[:3] == ["bad", "move", "FAILS"]
    assert lines[1] == f"{tmp_path / 'bad.yaml'}:3: 22-17 is not legal (not-diagonal): " + (
        "17 is not one diagonal step from 22; the legal moves are 22-18 and 22-19"
    )
    assert lines[2].split()[:3] == ["good", "move", "holds:"]
    assert lines[3] == "2 diagrams checked: 1 hold, 1 failed."


def test_verify_command_exits_0_when_all_hold(tmp_path: Path) -> None:
    write(tmp_path, {"good.yaml": GOOD})
    out = io.StringIO()
    assert main(["verify", str(tmp_path / "good.yaml")], out) == 0
    assert out.getvalue().splitlines()[-1] == "1 diagram checked: every claim holds."


@pytest.mark.parametrize(
    ("text", "legal"),
    [
        # By hand: White's king on 14 takes 10 (landing on 5) or 11 (landing on 7), one
        # man each, and nothing after; White's man on 32 takes 28, landing on 23, where
        # 19 and 20 are empty. All three take one piece, so rule 2 (with-king) leaves
        # the king's two captures and rules out the man's.
        (
            'position: "W:WK14,32:B10,11,28"\nclaim: illegal\nmove: 32x23\nreason: priority\n',
            ("14x5", "14x7"),
        ),
        # By hand: the man on 22 can take 18, landing on 13, so capturing is compulsory
        # and the step 24-20 is not allowed; 22x13 is the only legal move.
        (
            'position: "W:W22,24:B18"\nclaim: illegal\nmove: 24-20\nreason: capture-compulsory\n',
            ("22x13",),
        ),
    ],
    ids=["priority", "capture-compulsory"],
)
def test_a_holding_illegal_claim_names_the_legal_moves_once(
    tmp_path: Path, text: str, legal: tuple[str, ...]
) -> None:
    write(tmp_path, {"illegal.yaml": text})
    out = io.StringIO()
    assert main(["verify", str(tmp_path)], out) == 0
    [holds] = [line for line in out.getvalue().splitlines() if " holds: " in line]
    assert holds.count("legal move") == 1
    assert [holds.count(move) for move in legal] == [1] * len(legal)


def test_verify_command_exits_2_for_a_path_that_does_not_exist(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["verify", str(tmp_path / "nope")], out) == 2
    assert "no such file or folder" in out.getvalue()


def test_verify_command_defaults_to_the_diagrams_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    assert main(["verify"], out) == 0
    assert out.getvalue().splitlines()[-1].endswith("every claim holds.")


# -- verify FOLDER takes what the pre-commit hook takes, in a project's root too -----


def hook_pattern() -> re.Pattern[str]:
    """The ``files:`` pattern of the repository's own pre-commit hook."""
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return re.compile(hook["files"])


def hook_files(folder: Path) -> list[str]:
    """The files below ``folder`` that the hook's pattern takes (hidden folders left out)."""
    taken = []
    for where, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in files:
            relative = (Path(where) / name).relative_to(folder).as_posix()
            if hook_pattern().search(relative):
                taken.append(relative)
    return taken


def rows(output: str) -> list[str]:
    """The ids of verify's table: one row per diagram, before the totals."""
    return [
        line.split()[0] for line in output.splitlines() if "  holds: " in line or "FAILS" in line
    ]


def fence_rows(page: Path) -> list[str]:
    """The rows verify gives a page's dama fences, read by hand: ``file:`` names its file,
    else the page's name and the fence's number; a fence inside a longer fence is an example."""
    found, number, outer, lines = [], 0, "", page.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        if outer:
            outer = "" if line == outer else outer
        elif line.startswith("````"):
            outer = line.split("markdown")[0].rstrip()
        elif line == "```dama":
            first = lines[index + 1]
            if first.startswith("file: "):
                found.append(Path(first.removeprefix("file: ")).stem)
            else:
                number += 1
                found.append(f"{page.stem}-{number}")
    return found


def own_yaml(folder: Path) -> list[str]:
    """A folder's own YAML files, hidden ones left out, as ``ls`` would list them."""
    return sorted(
        name
        for name in os.listdir(folder)
        if name.endswith((".yaml", ".yml")) and not name.startswith(".")
    )


def test_verify_dot_in_the_project_root_checks_every_diagram_and_no_configuration() -> None:
    result = run_cli("verify", ".", cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    files = [name for name in hook_files(ROOT) if name.endswith(".yaml")]
    manual = sorted((ROOT / "manual" / "diagrams").glob("*.yaml"))
    assert len(files) == len(list(DIAGRAMS.glob("*.yaml"))) + len(manual)  # the hook takes all
    pages = sorted(name for name in hook_files(ROOT) if name.endswith(".md"))
    fences = [row for page in pages for row in fence_rows(ROOT / page)]
    assert len(fences) >= 10  # the manual's live examples
    assert sorted(rows(result.stdout)) == sorted([Path(name).stem for name in files] + fences)
    assert result.stderr == ""  # mkdocs.yml and .pre-commit-hooks.yaml are not diagrams
    # ... and the root's configuration (mkdocs.yml) is said to be left out, not skipped unsaid
    assert own_yaml(ROOT) == ["mkdocs.yml"]
    assert result.stdout.splitlines()[-2] == (
        ".: 1 YAML file left out, taken for configuration: the folder is a project's root (it "
        "holds mkdocs.yml or diagrams/); to verify a diagram file there, name it, or move it "
        "into a diagrams/ folder"
    )


def manual_ci_line() -> list[str]:
    """The command of the manual's CI example (``- run: dama-diagrams verify ...``), as words."""
    readme = (ROOT / "manual" / "docs" / "anywhere.md").read_text(encoding="utf-8")
    [line] = re.findall(r"^- run: (dama-diagrams verify .*)$", readme, re.M)
    return shlex.split(line)


def test_the_manuals_ci_line_passes_on_this_repository() -> None:
    """Run as written, by the console script: docs/terms.yaml is the glossary, no diagram."""
    words = manual_ci_line()
    assert words[:2] == ["dama-diagrams", "verify"] and "--format" in words
    script = Path(sys.executable).with_name(words[0])
    result = subprocess.run(
        [script, *words[1:]], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "::error" not in result.stdout and result.stderr == ""
    assert len(rows(result.stdout)) == len(list(DIAGRAMS.glob("*.yaml")))
    assert own_yaml(ROOT / "docs") == ["terms.yaml"]
    summary = result.stdout.splitlines()[-2]
    assert summary.startswith("docs: 1 YAML file left out, taken for configuration: the folder")


OPENAPI = "openapi: 3.0.0\ninfo: {title: Club API, version: '1'}\npaths: {}\n"
"""A club's API description beside its pages: YAML, and no diagram."""

GOOD_PAGE = '# Rules\n\n```dama\nposition: "W:W22:B4"\nclaim: move\nmove: 22-18\n```\n'


def test_a_folder_of_pages_leaves_its_yaml_out_and_says_so(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs, {"index.md": GOOD_PAGE, "api.yaml": OPENAPI, "nav.yml": "- index.md\n"})
    write(docs / "guide" / "diagrams", {"opening.yaml": GOOD})
    write(docs / "guide", {"schema.yaml": OPENAPI})  # below the folder, in no diagrams/: unlisted
    result = run_cli("verify", "docs", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    # the page's fence and the diagrams/ folder's file, which are what the hook takes
    assert sorted(rows(result.stdout)) == ["index-1", "opening"]  # a fence: its page, its rank
    assert [name for name in hook_files(tmp_path) if name.endswith(".yaml")] == [
        "docs/guide/diagrams/opening.yaml"
    ]
    assert result.stdout.splitlines()[-2:] == [
        "docs: 2 YAML files left out, taken for configuration: the folder holds Markdown pages; "
        "to verify a diagram file there, name it, or move it into a diagrams/ folder",
        "2 diagrams checked: every claim holds.",
    ]
    for style in ("json", "github"):  # the findings are none; the summary says the same
        styled = run_cli("verify", "--format", style, "docs", cwd=tmp_path)
        assert styled.returncode == 0
        assert "2 YAML files left out" in styled.stdout + styled.stderr
    # named, a YAML file is a diagram file, whatever folder it is in
    named = run_cli("verify", "docs/api.yaml", cwd=tmp_path)
    assert named.returncode == 1
    assert named.stderr.startswith("docs/api.yaml:1: unknown key 'openapi'")


def test_a_diagrams_folder_takes_its_yaml_beside_a_readme(tmp_path: Path) -> None:
    write(tmp_path / "diagrams", {"README.md": "# Our diagrams\n", "wrong.yaml": BAD})
    result = run_cli("verify", "diagrams", cwd=tmp_path)
    assert result.returncode == 1
    assert rows(result.stdout) == ["wrong"]
    assert "left out" not in result.stdout
    inside = run_cli("verify", ".", cwd=tmp_path / "diagrams")  # named "." where it stands
    assert (inside.returncode, rows(inside.stdout)) == (1, ["wrong"])


def test_verify_of_a_project_takes_its_diagrams_folders_and_its_pages(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    shutil.copy(ROOT / ".pre-commit-hooks.yaml", project)
    (project / "docker-compose.yaml").write_text("services: {}\n")
    write(project / "club" / "diagrams", {"wrong-step.yaml": BAD})
    write(project / "docs" / "guide", {"page.md": PAGE})
    write(project / ".hidden" / "diagrams", {"never.yaml": BAD})
    result = run_cli("verify", ".", cwd=project)
    assert result.returncode == 1
    failed = [line for line in result.stderr.splitlines() if line]
    assert failed == [
        "club/diagrams/wrong-step.yaml:3: 22-17 is not legal (not-diagonal): 17 is not one "
        "diagonal step from 22; the legal moves are 22-18 and 22-19",
        "docs/guide/page.md:6: 22-17 is not legal (not-diagonal): 17 is not one diagonal step "
        "from 22; the legal moves are 22-18 and 22-19",
    ]
    taken = [name for name in hook_files(project) if name.endswith(".yaml")]
    assert len(rows(result.stdout)) == len(taken) + 1  # and the page's one fence
    checked = f"{len(taken) + 1} diagrams checked: {len(taken) - 1} hold, 2 failed."
    assert result.stdout.splitlines()[-1] == checked


def test_a_folder_that_is_no_project_brings_its_own_diagram_files(tmp_path: Path) -> None:
    write(tmp_path / "found", {"good.yaml": GOOD, "misnamed.yml": GOOD, ".hidden.yaml": BAD})
    code, lines = verify_lines(tmp_path / "found")
    assert code == 1
    assert (
        f"{tmp_path / 'found' / 'misnamed.yml'}: diagram files end in .yaml; rename this file"
        in (lines)
    )
    assert lines[-1] == "2 diagrams checked: 1 hold, 1 failed."
    assert not any("left out" in line for line in lines)


# -- Markdown pages without a dama fence: the pre-commit hook is given every .md ----

PAGE = 'Caffè.\n\n```dama\nposition: "W:W22:B4"\nclaim: move\nmove: 22-17\n```\n'
"""A page whose one fence is wrong at line 6 (22-17 is no diagonal step), after an è."""


def verify_lines(*paths: Path, style: str = "text") -> tuple[int, list[str]]:
    out = io.StringIO()
    code = main(["verify", "--format", style, *map(str, paths)], out)
    return code, out.getvalue().splitlines()


def test_pages_without_a_dama_fence_pass_and_say_what_was_looked_at(tmp_path: Path) -> None:
    write(tmp_path, {"contatti.md": "# Contatti\n\nScriveteci.\n", "CHANGELOG.md": "# 0.1\n"})
    readme = tmp_path / "README.md"  # a fence nested in a ````markdown example is no diagram
    readme.write_text(f"# How to\n\n````markdown\n{PAGE}````\n", encoding="utf-8")
    pages = sorted(tmp_path.iterdir())
    assert verify_lines(*pages) == (
        0,
        ["3 Markdown pages looked at, none holds a dama fence: 0 diagrams checked, "
         "nothing to verify."],
    )  # fmt: skip
    assert verify_lines(readme)[1][-1].startswith("1 Markdown page looked at, it holds no dama")
    assert verify_lines(*pages, style="json")[0] == 0


@pytest.mark.parametrize(
    "data",
    [
        b"# Big\n\n" + b"Just prose, ```python and all. " * 170_000,  # 5 MB, over the 4 MB read
        "# Caffè\n\nÈ così, ```dama a metà riga.\n".encode("latin-1"),
        "# Caffè\n\n```python\nx = 1\n```\n".encode("utf-16"),
    ],
    ids=["5-MB", "Latin-1", "UTF-16"],
)
def test_a_page_without_a_fence_passes_however_large_and_whatever_its_encoding(
    tmp_path: Path, data: bytes
) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(data)
    code, lines = verify_lines(page)
    assert code == 0, lines
    assert lines == [
        "1 Markdown page looked at, it holds no dama fence: 0 diagrams checked, nothing to verify."
    ]


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_a_page_with_a_fence_that_is_not_utf8_fails_at_its_line(
    tmp_path: Path, encoding: str
) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(PAGE.encode(encoding))
    code, lines = verify_lines(page)
    assert code == 1
    assert f"{page}:1: the page is not UTF-8 text; save it as UTF-8" in lines
    assert verify_lines(page, style="github")[1][1] == (
        f"::error file={page},line=1,title=dama-diagrams::the page is not UTF-8 text; "
        "save it as UTF-8"
    )


def test_a_page_over_4_mb_with_a_fence_fails_at_the_fence(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(b"# Big\n" + b"Just prose.\n" * 400_000 + PAGE.encode())
    code, lines = verify_lines(page)
    assert code == 1
    expected = f"{page}:400004: a dama fence opens here, but the page is larger than 4 MB, "
    assert lines[1] == expected + "more than dama-diagrams reads; split it into smaller pages"


def test_a_wrong_fence_beside_pages_without_one_still_fails_at_its_line(tmp_path: Path) -> None:
    write(tmp_path, {"README.md": "# Read me\n", "rules.md": PAGE})
    code, lines = verify_lines(tmp_path / "README.md", tmp_path / "rules.md")
    assert code == 1
    assert f"{tmp_path / 'rules.md'}:6: 22-17 is not legal (not-diagonal)" in lines[1]
    assert lines[-1] == "1 diagram checked: 0 hold, 1 failed."


def test_nothing_looked_at_still_fails(tmp_path: Path) -> None:
    """A folder with no diagram (an empty one, a diagrams/ with only its README), or a page
    that was not read."""
    write(tmp_path / "diagrams", {"README.md": "# Diagrams\n", "nav.yml.bak": "x\n"})
    (tmp_path / "empty").mkdir()
    os.mkfifo(tmp_path / "pipe.md")
    assert not verify_paths([]).ok
    for path, message in [
        ("empty", "this folder holds no diagram files (*.yaml) and no page with a dama fence"),
        ("diagrams", "this folder holds no diagram files (*.yaml) and no page with a dama fence"),
        ("pipe.md", "is a FIFO (named pipe), not a regular file"),
    ]:
        code, lines = verify_lines(tmp_path / path)
        assert code == 1
        assert f"{tmp_path / path}: {message}" in lines[1]


TAILS = ["", " ", "}", " }", "-x", "#", "+", "_", "x", "é", "\u00a0", "\u2003", ' lang="it"', "`"]


@st.composite
def fence_like_lines(draw: st.DrawFn) -> str:
    """A line that is, or nearly is, a fence's opening (or any other line, now and then)."""
    parts = [
        draw(st.sampled_from(["", " ", "    ", "\ufeff", "\t", "x", "> ", ">", " > >\t", "\t> "])),
        draw(st.sampled_from(["```", "````", "~~~", "``", "~~"])),
        draw(st.sampled_from(["", " ", "\t"])),
        draw(st.sampled_from(["", "{", "{ .", "{.", "."])),
        draw(st.sampled_from(["dama", "DAMA", "Dama", "damage", "dam", "python"])),
        draw(st.sampled_from(TAILS)),
        draw(st.sampled_from(TAILS)),
    ]
    return "".join(parts) if draw(st.integers(0, 5)) else draw(st.text(max_size=12))


@settings(max_examples=500, deadline=None)
@example(["", "", "\u010a", "```dama"], "utf-16", "\n")  # U+010A holds a 0x0A byte
@example(["\u0a0a", "```dama"], "utf-16-be", "\r\n")
@example(["\u0a00\u0a00", "", "```dama"], "utf-32", "\n")
@given(
    st.lists(fence_like_lines(), max_size=6),
    st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-be", "utf-32", "latin-1"]),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_the_byte_scan_misses_no_fence_the_page_reader_finds(
    lines: list[str], encoding: str, line_end: str
) -> None:
    """A page the byte scan passes unread must hold no fence that verify would check."""
    text = line_end.join(lines)
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        return  # a character Latin-1 cannot write
    fences = dama_fences(text.removeprefix("\ufeff") if encoding == "utf-8" else text)
    found = first_fence_line(io.BytesIO(data))
    if fences:
        assert found is not None and found <= fences[0].line, (text, found)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-be", "utf-32", "utf-32-be"])
@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_the_byte_scan_names_the_fences_own_line_in_any_unicode_encoding(
    encoding: str, line_end: str
) -> None:
    """Line 4, counted in characters: U+010A and U+0A0A hold 0x0A bytes that end no line."""
    text = line_end.join(["\u010a", "\u0a0a text", "", "```dama", "position: x", "```"])
    assert first_fence_line(io.BytesIO(text.encode(encoding))) == 4


# -- properties: the verifier agrees with the engine on random positions ---------


@st.composite
def positions(draw: st.DrawFn, *, most: int = 12) -> Position:
    """Random legal positions; the side not to move has two pieces in three."""
    turn = draw(st.sampled_from(Color))
    squares = draw(st.lists(st.integers(1, 32), min_size=2, max_size=most, unique=True))
    pieces: dict[int, Piece] = {}
    for square in squares:
        color = draw(st.sampled_from((turn, turn.opponent, turn.opponent)))
        crown = WHITE_CROWN_ROW if color is Color.WHITE else BLACK_CROWN_ROW
        king = bool(BIT[square] & crown) or draw(st.booleans())
        if sum(piece.color is color for piece in pieces.values()) < 12:
            pieces[square] = Piece(color, king)
    return Position.from_pieces(turn, pieces)


@st.composite
def about_to_crown(draw: st.DrawFn) -> Position:
    """A random position where a man of the side to move can jump onto its crowning row,
    often with a piece that a king could take next."""
    base = draw(positions(most=9))
    turn = base.turn
    pieces = dict(base.pieces())
    start = draw(st.integers(9, 12) if turn is Color.WHITE else st.integers(21, 24))
    rows = (1, 0) if turn is Color.WHITE else (6, 7)
    step = draw(st.sampled_from((-1, 1)))
    over = square_at(rows[0], square_column(start) + step)
    land = square_at(rows[1], square_column(start) + 2 * step)
    if over is None or land is None:
        return base
    pieces[start] = Piece(turn)
    pieces[over] = Piece(turn.opponent)
    pieces.pop(land, None)
    if draw(st.booleans()):
        back = rows[0] + (rows[0] - rows[1])
        column = square_column(land) + draw(st.sampled_from((-1, 1)))
        next_over = square_at(rows[0], column)
        beyond = square_at(back, column + (column - square_column(land)))
        if next_over not in (None, over) and beyond is not None:
            pieces[next_over] = Piece(turn.opponent, draw(st.booleans()))
            if beyond != start:  # the start square is empty once the man has left it
                pieces.pop(beyond, None)
    return Position.from_pieces(turn, pieces)


@st.composite
def capture_choices(draw: st.DrawFn) -> Position:
    """Kings and men of the side to move among many opponents: captures to choose from."""
    turn = draw(st.sampled_from(Color))
    squares = draw(st.lists(st.integers(5, 28), min_size=5, max_size=12, unique=True))
    own = draw(st.integers(1, 4))
    pieces = {}
    for index, square in enumerate(squares):
        color = turn if index < own else turn.opponent
        pieces[square] = Piece(color, king=index < own - 1 or draw(st.booleans()))
    return Position.from_pieces(turn, pieces)


def fen_diagram(position: Position, body: str) -> Diagram:
    return diagram(f'position: "{position.to_fen()}"\n{body}')


@settings(max_examples=150, deadline=None)
@given(positions())
def test_every_legal_move_verifies_under_the_right_claim(position: Position) -> None:
    for move in position.legal_moves():
        kind = "capture" if move.is_capture else "move"
        verify(fen_diagram(position, f"claim: {kind}\nmove: {move}\n"))
    if not position.legal_moves():
        reason = (
            "no-pieces"
            if not position.squares(position.turn, king=False)
            and not (position.squares(position.turn, king=True))
            else "blocked"
        )
        verify(fen_diagram(position, f"claim: game-over\nreason: {reason}\n"))


@settings(max_examples=200, deadline=None)
@given(capture_choices())
def test_priority_claims_hold_exactly_for_the_separating_rule(position: Position) -> None:
    explanation = explain(position)
    legal = [c for c in explanation.candidates if c.legal]
    for chosen in legal[:1]:
        for other in explanation.rejected:
            real = separating_rule(chosen, other)
            assert real is not None
            for rule in PriorityRule:
                claim = fen_diagram(
                    position,
                    f"claim: priority\nmove: {chosen.move}\nrule: {rule.value}\n"
                    f"rejected: [{other.move}]\n",
                )
                if rule is real:
                    verify(claim)
                else:
                    with pytest.raises(DiagramError, match="does not decide here"):
                        verify(claim)


def king_could_go_on(position: Position, move: Move) -> bool:
    """An independent reading of the promotion rule, square by square."""
    mover = position.piece_at(move.origin)
    assert mover is not None
    captured = set(move.captured)
    occupied = set(position.pieces()) - {move.origin}
    at = move.destination
    for other in range(1, 33):
        over = jumped_square(at, other)
        if over is None or over in captured or other in occupied:
            continue
        victim = position.piece_at(over)
        if victim is not None and victim.color is not mover.color:
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(about_to_crown())
def test_promotion_holds_exactly_when_a_king_could_capture_on(position: Position) -> None:
    for move in position.legal_moves():
        mover = position.piece_at(move.origin)
        assert mover is not None
        crown = WHITE_CROWN_ROW if mover.color is Color.WHITE else BLACK_CROWN_ROW
        if not move.is_capture or mover.king or not BIT[move.destination] & crown:
            continue
        claim = fen_diagram(position, f"claim: promotion\nmove: {move}\n")
        if king_could_go_on(position, move):
            verify(claim)
        else:
            with pytest.raises(DiagramError, match="could not capture on"):
                verify(claim)


MIB = 1 << 20


@pytest.mark.parametrize(
    ("data", "line"),
    [
        # the opening across two blocks of the scan
        pytest.param(b"x" * (MIB - 4) + b"\n```dama\n", 2, id="across-blocks"),
        # after a long line, skipped unkept
        pytest.param(b"x" * 100_000 + b"\n\n```dama\n", 3, id="after-a-long-line"),
        pytest.param(b"```python" + b"y" * 3 * MIB + b"\n```dama", 2, id="after-3-blocks"),
        # `damayyy…` is no language; `dama yyy…` is dama with a header
        pytest.param(b"```dama" + b"y" * 100_000 + b"\n", None, id="no-language"),
        pytest.param(b"```dama " + b"y" * 100_000 + b"\n", 1, id="long-header"),
        pytest.param(b" " * 100_000 + b"```dama\n", 1, id="long-indent"),
        # a line within one block is scanned whole
        pytest.param(b" " * 100_000 + b"```python\n", None, id="long-indent-python"),
        # a line longer than a block, still undecided where the scan stops keeping it, counts
        # as an opening: the page is then read in full, and passes if it can
        pytest.param(b" " * (MIB + 1) + b"```python\n", 1, id="undecided"),
        pytest.param(b"\n".join([b"text"] * 300_000), None, id="many-lines"),
    ],
)
def test_the_byte_scan_reads_blocks_and_long_lines(data: bytes, line: int | None) -> None:
    assert first_fence_line(io.BytesIO(data)) == line


# -- a caption's placeholders: each one the diagram can fill, or refused at the caption ----


def test_a_placeholder_the_claim_cannot_fill_is_refused_at_the_caption() -> None:
    # A quiet move 22-18 captures nothing: {captured} would print "After 22-18, takes ."
    error = refusal(
        'position: "W:W22:B4"\nclaim: move\nmove: 22-18\ntitle: "A step"\n'
        'caption: "After {move}, White takes {captured}."\n'
    )
    assert error.line == 5
    assert str(error) == (
        "diagrams/example.yaml:5: the caption's {captured} would print nothing: a move claim "
        "has no value for {captured}; this diagram can fill {move}, {start}, {end}; "
        "remove {captured} or write its text"
    )


def test_a_setup_without_moves_has_no_sequence_and_an_unknown_name_is_refused() -> None:
    error = refusal('position: "W:W21-32:B1-12"\nclaim: setup\ncaption: "After {sequence}."\n')
    assert error.line == 3 and "a setup claim has no value for {sequence}" in str(error)
    assert "this diagram can fill none" in str(error)
    unknown = refusal('position: "W:W22:B4"\nclaim: move\nmove: 22-18\ncaption: "{rule} decides"\n')
    assert "a caption knows no placeholder {rule}" in str(unknown) and unknown.line == 4


def test_every_placeholder_the_diagram_fills_holds() -> None:
    # 22x13 takes the man on 18: one piece; 24-20 is the quiet move ruled out
    verified = check(
        'position: "W:W22,24:B18"\nclaim: capture\nmove: 22x13\nrejected: [24-20]\n'
        'caption: "{move} ({start} to {end}) takes {captured}, {count} piece; not {rejected}."\n'
    )
    assert verified.ok
    assert caption_items(verified.diagram) == {
        "move": ("22x13",), "moves": (), "start": ("22",), "end": ("13",),
        "captured": ("18",), "count": ("18",), "rejected": ("24-20",), "sequence": (),
    }  # fmt: skip


def test_an_empty_board_is_no_game_over() -> None:
    # Neither side has a piece: the side to move has "no pieces left", yet nobody wins
    error = refusal('position: "W:W:B"\nclaim: game-over\nreason: no-pieces\n')
    assert error.line == 1 and "the board is empty: neither side has a piece" in str(error)
    assert check('position: "W:W:B"\nclaim: setup\n').summary == "An empty board."


def test_a_priority_claim_for_an_earlier_rule_says_which_rule_decides() -> None:
    # The review's position (E2): 19x12 takes 1 piece (rule 1), 22x13x6 takes 2 with a man
    # (rule 2), 27x20x11 takes 2 with the king: rule 2 makes the final choice
    fen = "W:W19,22,K27,29,31,32:B10,15,18,23"
    earlier = check(
        f'position: "{fen}"\nclaim: priority\nmove: 27x20x11\nrule: most-pieces\n'
        "rejected: [19x12]\n"
    )
    assert earlier.summary == (
        "27x20x11 is the only legal move; rule 1 (most pieces) rules out 19x12; "
        "rule 2 (capture with a king) decides among the rest."
    )
    deciding = check(
        f'position: "{fen}"\nclaim: priority\nmove: 27x20x11\nrule: with-king\n'
        "rejected: [22x13x6]\n"
    )
    assert deciding.summary.endswith("; rule 2 (capture with a king) decides.")


def test_a_fence_caption_placeholder_with_no_value_fails_at_its_page_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Captures\n\n```dama\nposition: {turn: white, white: [22], black: [18]}\n"
        'claim: capture\nmove: 22x13\ncaption: "After {sequence}, 22 takes {captured}."\n```\n',
        encoding="utf-8",
    )
    [failure] = check_markdown(page)
    assert isinstance(failure, Failure) and failure.error is not None
    assert failure.error.line == 7  # the caption's line in the page
    assert failure.error.message.startswith("the caption's {sequence} would print nothing")
