"""``--format text|json|github`` of ``verify``, ``game`` and ``status``, and ``verify`` on Markdown.

The expected lines and columns come from the files the tests write: the line
a wrong move is on, the column a PDN move starts at.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata
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


def test_a_folder_of_pages_without_a_fence_passes_as_its_pages_do(tmp_path: Path) -> None:
    (tmp_path / "page.md").write_text("# Nothing\n\n```python\nx = 1\n```\n")
    code, out = verify(str(tmp_path))
    assert (code, out.splitlines()) == (
        0,
        ["1 Markdown page looked at, it holds no dama fence: 0 diagrams checked, "
         "nothing to verify."],
    )  # fmt: skip
    assert verify(str(tmp_path)) == verify(str(tmp_path / "page.md"))


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


# -- Every line is safe for where it goes, whoever chose the file names ------------

RUNNER_COMMANDS = {
    "add-mask", "add-matcher", "add-path", "debug", "echo", "endgroup", "error", "group",
    "notice", "remove-matcher", "save-state", "set-env", "set-output", "stop-commands",
    "warning",
}  # fmt: skip
"""The commands a GitHub Actions runner registers (actions/runner, ActionCommandManager)."""


def runner_commands(output: str) -> list[tuple[str, dict[str, str]]]:
    """The workflow commands a runner finds in ``output``, by its own parsing rules.

    From actions/runner's ActionCommand.cs: a line ends at CR, LF or CRLF; ``::name
    props::data`` counts after leading blanks are trimmed (TryParseV2), and the older
    ``##[name props]data`` anywhere in a line (TryParse). A property value is
    unescaped from ``%0D``, ``%0A``, ``%3A``, ``%2C`` and ``%25``.
    """
    found = []
    for line in re.split(r"\r\n|\r|\n", output):
        trimmed = line.lstrip()
        if trimmed.startswith("::") and "::" in trimmed[2:]:
            info = trimmed[2 : trimmed.index("::", 2)]
            name, _, properties = info.partition(" ")
            if name in RUNNER_COMMANDS:
                pairs = (pair.split("=", 1) for pair in properties.split(",") if "=" in pair)
                found.append((name, {key: _unescape(value) for key, value in pairs}))
                continue
        start = line.find("##[")
        if start >= 0 and "]" in line[start:]:
            name = line[start + 3 : line.index("]", start)].split(" ")[0]
            if name in RUNNER_COMMANDS:
                found.append((name, {}))
    return found


def _unescape(value: str) -> str:
    for escaped, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(escaped, char)
    return value


RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""What must never reach a terminal or a log raw: C0 but the line feed (and the tab), DEL,
C1, and the direction controls of Unicode's bidirectional algorithm."""

HOSTILE = {
    "x\n::stop-commands::pause1": "x\\n::stop-commands::pause1",
    "cr2\r::error::X": "cr2\\r::error::X",
    "::warning file=README.md,line=1::FORGED": "::warning file=README.md,line=1::FORGED",
    "  ::error::indented": "  ::error::indented",
    "a##[error]b": "a#\\x23[error]b",
    "t\x1b]0;PWNED-TITLE\x07\x1b[2J\u202eab": "t\\x1b]0;PWNED-TITLE\\x07\\x1b[2J\\u202eab",
    "v##vso[task.logissue type=error]FORGED": "v#\\x23vso[task.logissue type=error]FORGED",
    "t##teamcity[buildProblem description='FORGED']": (
        "t#\\x23teamcity[buildProblem description='FORGED']"
    ),
    "c##VSO[task.complete result=Failed]": "c#\\x23VSO[task.complete result=Failed]",
    "s#\u00ad#vso[task.prependpath]evil": "s#\\xad#vso[task.prependpath]evil",
}
"""File names (without their suffix) from the reviews, each forging a command or driving a
terminal when printed raw (Git accepts every one), and each as a line shows it inside: its
controls escaped as Python writes them, and the second "#" of "##[" (GitHub), "##vso["
(Azure Pipelines, in any case) and "##teamcity[" (TeamCity), which those find anywhere in a
line. A soft hyphen between the two "#" is shown escaped: a culture-sensitive comparison,
as .NET's IndexOf makes by default, skips it. At the start of a line, "::" shows as "\\x3a:"
too."""

HOSTILE_NAMES = list(HOSTILE)


SETUP = 'position: "W:W21:B10"\nclaim: setup\n'
GAME = '[GameType "22"]\n1. 22-18 10-14 *\n'
REFUSED_GAME = '[GameType "22"]\n1. 22-18 10-14 2. 18-14 *\n'


def assert_safe(output: str) -> None:
    """No raw control or direction character: a terminal shows every line as it is; and no
    service message that another CI system would act on."""
    assert RAW_CONTROLS.search(output) is None, RAW_CONTROLS.findall(output)
    assert service_messages(output) == []


SERVICE_MESSAGES = re.compile(r"##(?:vso|teamcity)?\[", re.IGNORECASE)
"""Azure Pipelines' agent finds "##vso[" anywhere in a line (Command.TryParse), TeamCity
"##teamcity[", GitHub's runner (and Azure's formatting commands) "##["."""


def _ignorable(char: str) -> bool:
    """What a culture-sensitive comparison skips: format characters, variation selectors
    and fillers (Unicode's default-ignorable characters, near enough)."""
    name = unicodedata.name(char, "")
    return unicodedata.category(char) == "Cf" or "VARIATION SELECTOR" in name or "FILLER" in name


def service_messages(output: str) -> list[str]:
    """The openings of CI service messages in ``output``, line by line (CR, LF or CRLF), as a
    case-blind, culture-sensitive reader finds them: ignorable characters skipped."""
    found = []
    for line in re.split(r"\r\n|\r|\n", output):
        seen = "".join(char for char in line if not _ignorable(char))
        found += SERVICE_MESSAGES.findall(seen)
    return found


@pytest.mark.parametrize("style", ["text", "json", "github"])
def test_diagram_file_names_start_no_workflow_command(tmp_path: Path, style: str) -> None:
    folder = tmp_path / "diagrams"
    folder.mkdir()
    for name in HOSTILE_NAMES:
        (folder / f"{name}.yaml").write_text(SETUP)
    result = run_cli("verify", "--format", style, "diagrams", cwd=tmp_path)
    assert result.returncode == 1  # none of these names is a diagram id
    output = result.stdout + result.stderr
    assert_safe(output)
    commands = runner_commands(output)
    if style != "github":
        assert commands == []
        return
    # exactly one annotation per file, each on the file it names, and nothing else
    assert [name for name, _ in commands] == ["error"] * len(HOSTILE_NAMES)
    # a property keeps CR and LF, which the runner unescapes; the rest shows as on a line
    kept = [shown.replace("\\n", "\n").replace("\\r", "\r") for shown in HOSTILE.values()]
    named = sorted(properties["file"] for _, properties in commands)
    assert named == sorted(f"diagrams/{name}.yaml" for name in kept)


@pytest.mark.parametrize("style", ["text", "json", "github"])
def test_game_file_names_start_no_workflow_command(tmp_path: Path, style: str) -> None:
    for name in HOSTILE_NAMES:
        (tmp_path / f"{name}.pdn").write_text(GAME)
    (tmp_path / "::error::refused.pdn").write_text(REFUSED_GAME)
    result = run_cli("game", "--format", style, tmp_path)
    assert result.returncode == 1  # the refused game
    output = result.stdout + result.stderr
    assert_safe(output)
    commands = runner_commands(output)
    if style == "github":
        [(name, properties)] = commands  # the refused game's annotation, and no other
        assert (name, properties["file"]) == ("error", str(tmp_path / "::error::refused.pdn"))
    else:
        assert commands == []
    assert f"{len(HOSTILE_NAMES)} checked, 1 refused" in output


def test_names_show_escaped_on_their_own_line(tmp_path: Path) -> None:
    folder = tmp_path / "diagrams"
    folder.mkdir()
    for name in HOSTILE_NAMES:
        (folder / f"{name}.yaml").write_text(SETUP)
        (tmp_path / f"{name}.pdn").write_text(GAME)
    verified = run_cli("verify", "diagrams", cwd=tmp_path)
    lines = verified.stdout.splitlines() + verified.stderr.splitlines()
    assert len(verified.stdout.splitlines()) == len(HOSTILE_NAMES) + 1  # a row each, the totals
    assert any(line.startswith("x\\n::stop-commands::pause1 ") for line in lines)
    assert any(
        line.startswith("diagrams/t\\x1b]0;PWNED-TITLE\\x07\\x1b[2J\\u202eab.yaml:1: ")
        for line in lines
    )
    assert any(line.startswith("diagrams/cr2\\r::error::X.yaml:1: ") for line in lines)
    games = run_cli("game", *sorted(p.name for p in tmp_path.glob("*.pdn")), cwd=tmp_path)
    assert games.returncode == 0
    rows = games.stdout.splitlines()
    assert len(rows) == len(HOSTILE_NAMES) + 1
    # a name that starts with "::" shows its first colon escaped; "##[" its second "#"
    assert "\\x3a:warning file=README.md,line=1::FORGED.pdn:1: game 1 (" in games.stdout
    assert "  \\x3a:error::indented.pdn:1: game 1 (" in games.stdout
    assert "a#\\x23[error]b.pdn:1: game 1 (" in games.stdout
    assert "v#\\x23vso[task.logissue type=error]FORGED.pdn:1: game 1 (" in games.stdout
    assert "s#\\xad#vso[task.prependpath]evil.pdn:1: game 1 (" in games.stdout


def test_json_findings_keep_the_exact_names(tmp_path: Path) -> None:
    folder = tmp_path / "diagrams"
    folder.mkdir()
    for name in HOSTILE_NAMES:
        (folder / f"{name}.yaml").write_text(SETUP)
    result = run_cli("verify", "--format", "json", "diagrams", cwd=tmp_path)
    paths = sorted(json.loads(line)["path"] for line in result.stdout.splitlines())
    assert paths == sorted(f"diagrams/{name}.yaml" for name in HOSTILE_NAMES)


@pytest.mark.parametrize(
    "command",
    [
        ("verify", "{name}.yaml"),  # no such file
        ("game", "{name}"),  # a folder without PDN files
        ("render", "--out", "{name}", "good.yaml"),
        ("render-game", "game.pdn", "--out", "{name}.gif"),
        ("find", "--claim", "capture", "--time", "5", "--yaml", "{name}"),
    ],
    ids=["verify", "game", "render", "render-game", "find"],
)
def test_every_command_prints_names_safely(tmp_path: Path, command: tuple[str, ...]) -> None:
    (tmp_path / "good.yaml").write_text(SETUP)
    (tmp_path / "game.pdn").write_text(GAME)
    for name in HOSTILE_NAMES:
        if command[0] == "game":
            (tmp_path / name).mkdir()
        args = [part.format(name=name) for part in command]
        result = run_cli(*args, cwd=tmp_path)
        output = result.stdout + result.stderr
        assert_safe(output)
        assert runner_commands(output) == []
        assert HOSTILE[name] in output.replace("\\x3a:", "::")


def test_a_safe_stream_lets_no_command_form_across_writes() -> None:
    from dama_diagrams.cli._output import SafeStream, write_command

    raw = io.StringIO()
    stream = SafeStream(raw)
    pieces = (" ", ":", "", ":error::forged\n", "text #", "#", "[error]forged\n", "a##v", "S",
              "o[task.complete]x ##teamc", "ity[m] #", "#tEaMcItY", "[n]\n", "tail")  # fmt: skip
    for piece in pieces:
        stream.write(piece)
        stream.flush()
    write_command(stream, "::error file=a.md,line=1::meant")
    stream.close_line()
    assert runner_commands(raw.getvalue()) == [("error", {"file": "a.md", "line": "1"})]
    assert service_messages(raw.getvalue()) == []
    assert raw.getvalue() == (
        " \\x3a:error::forged\ntext #\\x23[error]forged\n"
        "a#\\x23vSo[task.complete]x #\\x23teamcity[m] #\\x23tEaMcItY[n]\n"
        "tail\n::error file=a.md,line=1::meant\n"
    )


def test_findings_escape_controls_and_keep_json_exact() -> None:
    name = "t\x1b[2J\u202e##[error]\x85.md"
    finding = Finding(f"bad {name}", name, 2)
    # one line: the name the message quotes shows as the path does ("##[" is the stream's)
    assert finding.text() == "t\\x1b[2J\\u202e##[error]\\x85.md:2: bad " + (
        "t\\x1b[2J\\u202e##[error]\\x85.md"
    )
    assert runner_commands(finding.github()) == [
        (
            "error",
            {
                "file": "t\\x1b[2J\\u202e#\\x23[error]\\x85.md",
                "line": "2",
                "title": "dama-diagrams",
            },
        )
    ]
    assert_safe(finding.github())
    line = finding.json()
    assert_safe(line)
    assert "##[" not in line and json.loads(line)["path"] == name


@pytest.mark.parametrize(
    "text",
    [
        "##vso[task.setvariable variable=DEPLOY_TOKEN]stolen",
        "x ##teamcity[setParameter name='env.PATH' value='/tmp/evil-bin']",
        "##Vso[task.prependpath]/tmp/evil-bin \U0001f600 \U000e0041",  # and beyond U+FFFF
    ],
)
def test_a_finding_carries_no_service_message_in_any_format(text: str) -> None:
    finding = Finding(f"unknown claim {text!r}", f"d/{text}.yaml", 2)
    assert_safe(finding.github())
    assert "#\\x23" in finding.github()  # shown, in the message and the file, as on a line
    line = finding.json()
    assert_safe(line)
    assert json.loads(line)["path"] == f"d/{text}.yaml"  # JSON reads back the exact name
    assert json.loads(line)["message"] == f"unknown claim {text!r}"


CLAIM = 'position: "W:W21:B10"\nclaim: "##vso[task.prependpath]/tmp/evil-bin"\n'
TAGGED_GAME = (
    '[White "##vso[task.setvariable variable=DEPLOY_TOKEN]stolen"]\n'
    '[Black "##teamcity[buildStatus text=\'FORGED\']"]\n[GameType "22"]\n1. 22-18 10-14 *\n'
)


@pytest.mark.parametrize("style", ["text", "json", "github"])
def test_file_contents_print_no_service_message(tmp_path: Path, style: str) -> None:
    """A claim's value in verify's refusal, a PDN tag in game's line: what the file says."""
    (tmp_path / "diagrams").mkdir()
    (tmp_path / "diagrams" / "evil-claim.yaml").write_text(CLAIM)
    (tmp_path / "tagged.pdn").write_text(TAGGED_GAME)
    verified = run_cli("verify", "--format", style, "diagrams", cwd=tmp_path)
    assert verified.returncode == 1
    games = run_cli("game", "--format", style, "tagged.pdn", cwd=tmp_path)
    assert games.returncode == 0
    for output in (verified.stdout + verified.stderr, games.stdout + games.stderr):
        assert_safe(output)
    assert runner_commands(games.stdout + games.stderr) == []
    if style == "json":
        [finding] = [json.loads(line) for line in verified.stdout.splitlines()]
        assert "'##vso[task.prependpath]/tmp/evil-bin'" in finding["message"]
    elif style == "github":
        [(name, _)] = runner_commands(verified.stdout)
        assert name == "error"
        assert "unknown claim '#\\x23vso[task.prependpath]/tmp/evil-bin'" in verified.stdout
    else:
        assert "unknown claim '#\\x23vso[task.prependpath]/tmp/evil-bin'" in verified.stderr
        assert "game 1 (#\\x23vso[task.setvariable variable=DEPLOY_" in games.stdout


# -- A name never starts a line of its own: --out, a file found, a folder cloned into ----

FORGED_NAME = "out\n::error file=README.md,line=1::FORGED ##vso[task.complete result=Failed]"
"""A folder name from the review (``build --out``), with an Azure Pipelines command too."""

FORGED_SHOWN = "out\\n::error file=README.md,line=1::FORGED #\\x23vso[task.complete result=Failed]"
"""The same as every line shows it: its line feed escaped, on the line that names it."""


def assert_named_on_its_line(output: str, shown: str = FORGED_SHOWN) -> None:
    """The name shows whole on one line, and no line starts with what followed its line feed."""
    assert_safe(output)
    assert runner_commands(output) == []
    assert shown in output
    assert not any(line.lstrip().startswith(("::", "\\x3a:")) for line in output.splitlines())


def test_an_error_shows_the_names_it_quotes_on_its_line(tmp_path: Path) -> None:
    project = copy_project(tmp_path, cards=False)
    (project / FORGED_NAME).write_text("not a folder\n")  # build and booklet want a folder
    for command in (
        ("build", "--lang", "en", "--out", FORGED_NAME),
        ("booklet", "--lang", "en", "--out", FORGED_NAME),
        ("preview", "--site", f"{FORGED_NAME}-missing"),
    ):
        result = run_cli(*command, cwd=project)
        assert result.returncode == 1
        [line] = result.stderr.splitlines()  # one line, and the name whole on it
        assert line.startswith("dama-diagrams: ")
        assert_named_on_its_line(result.stderr)


def test_a_refused_game_is_one_line_whatever_its_file_is_named(tmp_path: Path) -> None:
    (tmp_path / f"{FORGED_NAME}.pdn").write_text(REFUSED_GAME)
    result = run_cli("game", f"{FORGED_NAME}.pdn", cwd=tmp_path)
    assert result.returncode == 1
    [refusal] = result.stderr.splitlines()
    assert refusal.startswith(f"{FORGED_SHOWN}.pdn:2:")  # the column of the refused move, too
    assert_named_on_its_line(result.stdout + result.stderr)


@pytest.mark.slow
def test_the_build_and_booklet_summaries_name_their_folder_on_its_line(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    built = run_cli("build", "--lang", "en", "--out", FORGED_NAME, cwd=project)
    assert built.returncode == 0, built.stderr
    assert (project / FORGED_NAME / "en" / "index.html").is_file()  # the folder as named
    first = built.stdout.splitlines()[0]
    assert first.startswith("built 1 language (en), ")
    assert first.endswith(f"into {project}/{FORGED_SHOWN}")
    assert_named_on_its_line(built.stdout + built.stderr)
    books = run_cli("booklet", "--lang", "en", "--out", FORGED_NAME + "-books", cwd=project)
    assert books.returncode == 0, books.stderr
    assert books.stdout.splitlines()[0] == f"wrote 1 book: {FORGED_SHOWN}-books/en.pdf"
    assert_named_on_its_line(books.stdout + books.stderr)
