"""``--format text|json|github`` of ``verify``, ``game`` and ``status``, and ``verify`` on Markdown.

The expected lines and columns come from the files the tests write: the line
a wrong move is on, the column a PDN move starts at.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dama_diagrams.cli import main
from dama_diagrams.cli._findings import Finding
from dama_diagrams.diagram.markdown import dama_fences
from dama_diagrams.site.messages import MESSAGES
from tests.conftest import copy_project, run_cli
from tests.po_files import translate

PAGE = """\
# A page

Text.

```dama
position: "W:W22:B10"
claim: move
move: 22-17
```

An example of the syntax, which is not a diagram of the page:

````markdown
```dama
position: "W:W22:B10"
claim: move
move: 22-16
```
````

```dama
position: "W:W22:B10"
claim: move
moves: [22-18, 22-19]
```
"""

WRONG = "move: 22-17"
MESSAGE = "22-17 is not legal (not-diagonal): 17 is not one diagonal step from 22"


def line_of(text: str, needle: str) -> int:
    return text.split("\n").index(needle) + 1


def verify(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["verify", *args], out)
    return code, out.getvalue()


def test_verify_checks_the_fences_of_a_markdown_page_at_their_line(tmp_path: Path) -> None:
    page = tmp_path / "docs" / "guide" / "page.md"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE, encoding="utf-8")
    code, out = verify(str(tmp_path / "docs"))
    assert code == 1
    assert f"{page}:{line_of(PAGE, WRONG)}: {MESSAGE}" in out
    assert "22-16" not in out  # the example inside a ````markdown block is no diagram
    assert out.splitlines()[-1] == "2 diagrams checked: 1 hold, 1 failed."


def test_a_folder_with_pages_but_no_fence_is_empty(tmp_path: Path) -> None:
    (tmp_path / "page.md").write_text("# Nothing\n\n```python\nx = 1\n```\n")
    code, out = verify(str(tmp_path))
    assert code == 1
    assert "holds no diagram files (*.yaml) and no page with a dama fence" in out


def test_github_format_puts_each_error_on_its_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    code, out = verify("--format", "github", str(page))
    assert code == 1
    [annotation] = [line for line in out.splitlines() if line.startswith("::")]
    line = line_of(PAGE, WRONG)
    assert annotation.startswith(f"::error file={page},line={line},title=dama-diagrams::{MESSAGE}")


def test_json_format_is_one_object_per_finding(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    result = run_cli("verify", "--format", "json", page)
    assert result.returncode == 1
    [line] = result.stdout.splitlines()  # only the findings: the totals go to stderr
    finding = json.loads(line)
    assert list(finding) == ["path", "line", "col", "severity", "message"]
    assert finding["path"] == str(page) and finding["line"] == line_of(PAGE, WRONG)
    assert finding["col"] is None and finding["severity"] == "error"
    assert finding["message"].startswith(MESSAGE)
    assert "1 failed" in result.stderr


def test_text_format_is_the_default_and_unchanged(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    assert verify(str(page)) == verify("--format", "text", str(page))


def test_github_escapes_what_would_end_a_property_or_a_message() -> None:
    finding = Finding("50% done\nnext line", "a,b:c.md", 3, 4)
    assert finding.github() == (
        "::error file=a%2Cb%3Ac.md,line=3,col=4,title=dama-diagrams::50%25 done%0Anext line"
    )


PDN = '[GameType "22"]\n\n1. 22-18 11-14 2. 18-14 *\n'


@pytest.mark.slow
def test_game_findings_carry_the_column_of_the_refused_move(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text(PDN, encoding="utf-8")
    column = PDN.split("\n")[2].index("18-14") + 1
    out = io.StringIO()
    assert main(["game", "--format", "github", str(path)], out) == 1
    expected = f"::error file={path},line=3,col={column},title=dama-diagrams::game 1: move 2."
    assert expected in out.getvalue()
    out = io.StringIO()
    assert main(["game", "--format", "json", str(path), str(path), "--jobs", "2"], out) == 1
    lines = out.getvalue().splitlines()
    findings = [json.loads(line) for line in lines if line.startswith("{")]
    assert [(f["line"], f["col"]) for f in findings] == [(3, column), (3, column)]


@pytest.mark.slow
def test_status_findings_in_json_and_github(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    key = ("engine.capture_only", MESSAGES["engine.capture_only"])
    po = translate(project, "it", {key: "{moves} è l'unica mossa"})
    result = run_cli("status", "--lang", "it", "--format", "json", cwd=project)
    assert result.returncode == 1
    [finding] = [json.loads(line) for line in result.stdout.splitlines()]
    assert finding["path"] == po.relative_to(project).as_posix()
    po_lines = po.read_text(encoding="utf-8").split("\n")
    assert po_lines[finding["line"] - 1].startswith(("msgid", "msgctxt", "msgstr"))
    assert "{moves}" in finding["message"]
    result = run_cli("status", "--lang", "it", "--format", "github", cwd=project)
    assert re.search(
        rf"^::error file={re.escape(finding['path'])},line={finding['line']},", result.stdout, re.M
    )


prose = st.lists(
    st.text(alphabet=st.characters(blacklist_characters="`~\r\n"), max_size=30), max_size=8
)


@given(before=prose, after=prose, indent=st.sampled_from(["", "  ", "    "]))
@settings(max_examples=60, deadline=None)
def test_a_fence_is_found_at_its_line_whatever_surrounds_it(
    before: list[str], after: list[str], indent: str
) -> None:
    body = ['position: "W:W22:B10"', "claim: move", "move: 22-18"]
    lines = [*before, f"{indent}```dama", *(f"{indent}{line}" for line in body), f"{indent}```"]
    [fence] = dama_fences("\n".join([*lines, *after]))
    assert fence.line == len(before) + 1
    assert fence.body == "\n".join(body) + "\n"


@given(st.text(max_size=300))
@settings(max_examples=100, deadline=None)
def test_any_text_reads_without_an_exception(text: str) -> None:
    for fence in dama_fences(text):
        assert 1 <= fence.line <= text.count("\n") + 1
