"""The command line, run as users run it."""

import subprocess
from pathlib import Path

import pytest

from dama_diagrams.cli import main
from tests.conftest import run_cli


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
