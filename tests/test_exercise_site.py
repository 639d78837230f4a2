"""Exercises in the built site: the page's data in every language, and builds that must fail.

The browser tests (``test_browser_exercises.py``) play the exercises; these
read what the build wrote, and break a copy of the project the way an author
might.
"""

from __future__ import annotations

import json
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.diagram import load_diagram, verify
from tests.conftest import copy_project, run_cli
from tests.test_browser_site import LANGUAGES

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


class _Blocks(HTMLParser):
    """Each exercise block's id and data, however the attributes are ordered."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, dict[str, Any]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "div" and "data-exercise" in named:
            self.found[str(named["data-exercise-id"])] = json.loads(str(named["data-exercise"]))


def _exercises(site_url: str, language: str) -> tuple[str, dict[str, dict[str, Any]]]:
    with urllib.request.urlopen(f"{site_url}/{language}/exercises/") as response:
        page = response.read().decode()
    blocks = _Blocks()
    blocks.feed(page)
    return page, blocks.found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_exercise_carries_its_verdicts_in_the_pages_language(
    site_url: str, language: str
) -> None:
    page, found = _exercises(site_url, language)
    files = sorted(path.stem for path in (ROOT / "diagrams").glob("exercise-*.yaml"))
    assert sorted(found) == files
    _, english = _exercises(site_url, "en")
    for name, data in found.items():
        key = verify(load_diagram(ROOT / "diagrams" / f"{name}.yaml")).exercise
        assert key is not None
        # The page holds exactly the engine's verdicts: same tries, same right answers.
        assert [(tuple(each["path"]), each["right"]) for each in data["tries"]] == [
            (attempt.move.squares, attempt.right) for attempt in key.attempts
        ]
        assert len(data["squares"]) == 32
        for each in data["tries"]:
            assert each["text"].strip()
            assert "{" not in each["text"]  # every blank filled in
        if language != "en":
            ours = [each["text"] for each in data["tries"]]
            theirs = [each["text"] for each in english[name]["tries"]]
            assert not set(ours) & set(theirs), f"{name}: English verdicts on the {language} page"
    # Without JavaScript: each question, each picture, and an answer to open.
    assert page.count('class="dama-exercise-question"') == len(files)
    assert page.count('<details class="dama-answer">') == len(files)
    assert page.count("dama-exercise-board") == len(files)


def test_rule_pages_link_to_their_exercises(site_url: str) -> None:
    with urllib.request.urlopen(f"{site_url}/en/priority/") as response:
        page = response.read().decode()
    for rule in ("most-pieces", "with-king", "most-kings", "king-first"):
        assert f'href="../exercises/#exercise-rule-{rule}"' in page
    with urllib.request.urlopen(f"{site_url}/en/exercises/") as response:
        exercises = response.read().decode()
    assert 'id="exercise-rule-king-first"' in exercises


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def _build_fails(project: Path, path: str, line: int, words: str) -> None:
    result = run_cli("build", "--lang", "en", cwd=project)
    assert result.returncode == 1, result.stdout
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"{path}:{line}: "), result.stderr
    assert words in result.stderr


def test_an_exercise_with_two_answers_fails_the_build_at_its_ask_line(project: Path) -> None:
    # A white man on 22 instead of 29 (and Black's 12 on 4): 22x15 takes 19 too, a tie.
    diagram = project / "diagrams" / "exercise-capture-compulsory.yaml"
    diagram.write_text(diagram.read_text().replace("W:W23,29,30:B12,19", "W:W22,23,30:B4,19"))
    line = diagram.read_text().splitlines().index("  ask: move") + 1
    _build_fails(
        project,
        str(Path("diagrams") / "exercise-capture-compulsory.yaml"),
        line,
        "the rules allow 22x15 and 23x14",
    )


def test_a_page_asking_for_an_exercise_that_is_none_fails_at_its_line(project: Path) -> None:
    page = project / "docs" / "pages" / "exercises.md.j2"
    page.write_text(page.read_text() + '\n{{ exercise("man-capture") }}\n')
    line = len(page.read_text().splitlines())
    _build_fails(
        project,
        str(Path("docs") / "pages" / "exercises.md.j2"),
        line,
        "diagram 'man-capture' is no exercise",
    )


def test_a_question_cannot_inject_markup(project: Path) -> None:
    diagram = project / "diagrams" / "exercise-capture-compulsory.yaml"
    hostile = 'question: "<img src=x onerror=alert(1)> Which </div><script>alert(2)</script>?"'
    text = diagram.read_text()
    diagram.write_text(
        text.replace('question: "White to play. Which move must White make?"', hostile)
    )
    result = run_cli("build", "--lang", "en", cwd=project)
    assert result.returncode == 0, result.stderr
    page = (project / "site" / "en" / "exercises" / "index.html").read_text()
    assert "onerror" not in page
    assert "<script>alert" not in page
    board = (
        project / "site" / "en" / "assets" / "diagrams" / "exercise-capture-compulsory.exercise.svg"
    )
    assert "<script" not in board.read_text()
