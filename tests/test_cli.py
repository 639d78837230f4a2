"""The command line, run as users run it."""

import subprocess
from pathlib import Path

import pytest

from dama_diagrams.cli import main
from tests.conftest import copy_project, fails_cleanly, run_cli


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args)


def test_moves_prints_one_line_per_fen() -> None:
    result = run("moves", "W:W21-32:B1-12", "W:W31:B12,20,28")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "21-17 21-18 22-18 22-19 23-19 23-20 24-20",
        "31x24x15x8",
    ]


def test_perft_prints_the_count_last() -> None:
    result = run("perft", "W:W21-32:B1-12", "5")
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "7361"


def test_perft_divide() -> None:
    result = run("perft", "--divide", "W:W21-32:B1-12", "3")
    lines = result.stdout.splitlines()
    assert lines[-1] == "302"
    assert len(lines) == 8
    assert sum(int(line.split()[1]) for line in lines[:-1]) == 302


def test_explain_names_the_deciding_rule() -> None:
    result = run("explain", "W:WK23,31:B19,26,27")
    assert result.returncode == 0
    assert "rule 2 (capture with a king) decides" in result.stdout
    assert "31x22x15" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("moves", "W:W33:B1"), "square 33 is off the board"),
        (("moves", "nonsense"), "is not of the form"),
        (("perft", "W:W21:B20,20", "2"), "given twice"),
        (("explain", "W:W3:B20"), "cannot stand on 3"),
        (("play", "W:W21-32:B1-12", "22-1x"), "'22-1x' is not a move"),
        (("play", "W:W21-32:B1-12", "24-19"), "24-19 is not legal"),
        (("play", "W:W21-32:B1-12", "22-19", "22-18"), "22-18 is not legal"),
    ],
)
def test_bad_input_is_one_clear_line(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.returncode == 1
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_play_prints_each_position() -> None:
    result = run("play", "W:W21-32:B1-12", "22-19", "11-15")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "B:W19,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:W19,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
    ]


def test_unwritable_output_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run("render", "--out", str(blocker / "sub"))
    assert result.returncode == 1
    assert "Not a directory" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_absurd_perft_depth_is_refused() -> None:
    result = run("perft", "W:W21-32:B1-12", "1000")
    assert result.returncode == 2
    assert "would never finish" in result.stderr


def test_huge_number_in_a_fen_is_a_clear_error() -> None:
    result = run("moves", "W:W" + "1" * 5000 + ":B1")
    assert result.returncode == 1
    assert "is not a square" in result.stderr
    assert len(result.stderr) < 400


def test_bad_command_line_exits_2() -> None:
    result = run("perft", "W:W21:B1", "deep")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("render", "--scale", "big"), "argument --scale: 'big' is not a number"),
        (("render", "--scale", "٣"), "argument --scale: '٣' is not a number"),  # Arabic three
        (("render", "--scale", "0.05"), "the scale must be between 0.1 and 10"),
        (("render", "--scale", "nan"), "the scale must be between 0.1 and 10"),
        (("find", "--claim", "capture", "--time", "soon"), "'soon' is not a number of seconds"),
        (("find", "--claim", "capture", "--time", "0"), "more than 0 and at most 3600 s"),
        (("find", "--claim", "capture", "--time", "3601"), "more than 0 and at most 3600 s"),
    ],
)
def test_decimal_arguments_are_refused_with_their_range(
    args: tuple[str, ...], message: str
) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert message in result.stderr.splitlines()[-1]


def test_main_returns_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "W:W22:B1"]) == 0
    assert capsys.readouterr().out == "22-18 22-19\n"


def test_version_prints_the_version_the_changelog_names_last() -> None:
    """``--version``: the newest version of CHANGELOG.md, which pyproject.toml gives too."""
    import re
    import tomllib

    root = Path(__file__).resolve().parent.parent
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, re.M)[0]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == newest
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout == f"dama-diagrams {newest}\n"
    assert result.stderr == ""


# ------------------------------------------------------------------------------
# Round 3 of the hostile review, L01: ``new-language`` accepts what the build accepts.
#
# ``pt_BR`` (Material knows ``pt-BR``) is refused at once, with the codes to use.
# ``ja`` is accepted: the build makes its site and leaves its book out with a
# warning, since the book's fonts have no Japanese, and the other books are made.


@pytest.mark.parametrize("code", ["pt_BR", "ku", "zh-CN"])
def test_a_code_the_build_refuses_is_refused_at_once(tmp_path: Path, code: str) -> None:
    project = copy_project(tmp_path)
    result = run_cli("new-language", code, cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    (printed,) = result.stderr.strip().splitlines()
    assert printed.startswith(
        f"dama-diagrams: language '{code}': Material for MkDocs has no translation for it"
    )
    assert "use a code Material knows" in printed
    assert not (project / "docs" / "locales" / code).exists()


def test_pt_br_is_shown_the_code_to_use(tmp_path: Path) -> None:
    result = run_cli("new-language", "pt_BR", cwd=copy_project(tmp_path))
    assert "(for example pt, pt-BR)" in result.stderr


@pytest.mark.slow
def test_a_language_the_book_fonts_lack_is_built_without_its_book(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    assert run_cli("new-language", "ja", cwd=project).returncode == 0
    catalog = project / "docs" / "locales" / "ja" / "LC_MESSAGES" / "messages.po"
    text = catalog.read_text(encoding="utf-8")
    name = 'msgctxt "site.name"\nmsgid "Italian draughts rules"\nmsgstr ""'
    assert name in text
    catalog.write_text(text.replace(name, name[:-2] + '"イタリアのダマ"'), "utf-8")
    site = tmp_path / "site"
    result = run_cli(
        "build",
        "--lang",
        "ja",
        "--lang",
        "en",
        "--out",
        site,
        cwd=project,
        env={"DAMA_DIAGRAMS_BOOKS": "1"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert (
        "dama-diagrams: warning: ja: no printed book: its script (Jpan) is not in the book's "
        "fonts, which cover Latin, Greek, Cyrillic only; its site is published without it"
    ) in result.stderr.splitlines()
    assert (site / "en" / "rules-en.pdf").is_file()
    assert not list((site / "ja").glob("*.pdf"))
    page = (site / "ja" / "index.html").read_text(encoding="utf-8")
    assert ".pdf" not in page and 'lang="ja"' in page and "イタリアのダマ" in page
    # The booklet command: ja asked for by name is refused in one line; with every
    # language, ja is left out and named, and the others' books are written.
    asked = run_cli("booklet", "--lang", "ja", "--out", tmp_path / "books", cwd=project)
    assert asked.returncode == 1 and "Traceback" not in asked.stderr
    assert "ja: no printed book can be made: its script (Jpan)" in asked.stderr
    every = run_cli("booklet", "--drafts", "--out", tmp_path / "all", cwd=project)
    assert every.returncode == 0, every.stderr[-2000:]
    assert "ja: no printed book: its script (Jpan)" in every.stderr
    assert sorted(path.name for path in (tmp_path / "all").iterdir()) == [
        f"{code}.pdf" for code in sorted(("de", "en", "es", "fr", "it", "nl"))
    ]


# ------------------------------------------------------------------------------
# Command-line arguments that once gave a traceback.
#
# From a hostile review (issue 9, items 7-12 and 14; issue 25): each input once gave a
# traceback, and is now one ``path:line: message`` and exit 1, run as a user runs the command.


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


# --- 11. a language code with a trailing newline ---------------------------------------


@pytest.mark.slow
def test_a_language_code_with_a_newline_is_refused(project: Path) -> None:
    locales = project / "docs" / "locales"
    before = sorted(path.relative_to(locales) for path in locales.rglob("*"))
    message = fails_cleanly(run_cli("new-language", "pt\n", cwd=project), "not a language code")
    assert "'pt\\n'" in message
    assert sorted(path.relative_to(locales) for path in locales.rglob("*")) == before


# --- 14. numbers on the command line -----------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("depth", ["1_0", "\u0661\u0660", "\uff11\uff10", "9" * 5000])
def test_perft_depth_is_plain_ascii_digits_and_never_echoed_whole(depth: str) -> None:
    result = run_cli("perft", "W:W31:B12", depth)
    message = fails_cleanly(result, "DEPTH")
    assert len(message) < 400


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "argument"),
    [
        ("moves", "W:W\u0662\u0661:B1"),  # Arabic-Indic 21
        ("play", "\uff12\uff12-\uff11\uff19"),  # full-width 22-19
        ("moves", "W:W\uff12\uff11:B1"),
    ],
)
def test_non_ascii_digits_are_refused_in_fens_and_moves(command: str, argument: str) -> None:
    args = ["play", "W:W22:B1", argument] if command == "play" else [command, argument]
    message = fails_cleanly(run_cli(*args), "is not a")
    assert argument in message
