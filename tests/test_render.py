"""``dama-diagrams render``: verify first, then draw only what holds."""

import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.conftest import run_cli

DIAGRAMS = Path(__file__).parent.parent / "diagrams"


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_cli(*args)


def test_renders_every_diagram_as_svg(tmp_path: Path) -> None:
    result = run("render", DIAGRAMS, "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    ids = sorted(path.stem for path in DIAGRAMS.glob("*.yaml"))
    assert sorted(path.stem for path in tmp_path.glob("*.svg")) == ids
    root = ElementTree.parse(tmp_path / "multi-capture.svg").getroot()
    assert root.get("role") == "img"


def test_png_output_is_a_png_and_deterministic(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for out in (one, two):
        # each a new interpreter, with a hash seed of its own
        result = run_cli(
            "render", DIAGRAMS / "man-capture.yaml", "--out", out, "--format", "png", fresh=True
        )
        assert result.returncode == 0, result.stderr
    data = (one / "man-capture.png").read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert data == (two / "man-capture.png").read_bytes()


def test_a_refuted_claim_is_reported_and_not_drawn(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(DIAGRAMS / "man-capture.yaml", source)
    (source / "wrong.yaml").write_text(
        'position: "W:W22:B1"\nclaim: move\nmove: 22-17\n', encoding="utf-8"
    )
    out = tmp_path / "out"
    result = run("render", source, "--out", out)
    assert result.returncode == 1
    assert f"{source / 'wrong.yaml'}:3:" in result.stderr
    assert "Traceback" not in result.stderr
    assert (out / "man-capture.svg").exists()
    assert not (out / "wrong.svg").exists()


def test_missing_path_is_a_command_line_error(tmp_path: Path) -> None:
    result = run("render", tmp_path / "absent", "--out", tmp_path)
    assert result.returncode == 2


def test_render_files_reports_instead_of_printing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dama_diagrams.render import render_files

    broken = Path(__file__).parent / "broken" / "square-33.yaml"
    report = render_files([DIAGRAMS / "man-capture.yaml", broken], tmp_path)
    assert report.written == (tmp_path / "man-capture.svg",)
    assert [Path(failure.path) for failure in report.failures] == [broken]
    assert not report.ok and report.out_dir == tmp_path
    assert capsys.readouterr() == ("", "")
