"""The site commands as a maintainer or a translator runs them, in a copy of the project."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import copy_project, run_cli

pytestmark = pytest.mark.slow


def run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=project)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def test_translator_adds_a_language_and_builds_it(project: Path) -> None:
    result = run(project, "new-language", "pt")
    assert result.returncode == 0, result.stderr
    assert (project / "docs" / "locales" / "pt.yml").is_file()

    status = run(project, "status")
    assert status.returncode == 0
    lines = {line.split()[0]: line for line in status.stdout.splitlines() if line.strip()}
    assert "100.0%" in lines["nl"]
    assert " 0.0%" in lines["pt"]

    build = run(project, "build", "--lang", "pt", "--lang", "en")
    assert build.returncode == 0, build.stderr
    page = (project / "site" / "pt" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="pt"' in page


def test_failed_build_is_one_line_and_keeps_the_old_site(project: Path) -> None:
    assert run(project, "build", "--lang", "en").returncode == 0
    old = (project / "site" / "en" / "index.html").read_bytes()

    diagram = project / "diagrams" / "priority-most-kings.yaml"
    diagram.write_text(diagram.read_text().replace("most-kings", "king-first"))
    result = run(project, "build", "--lang", "en")

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(f"{Path('diagrams') / 'priority-most-kings.yaml'}:")
    assert (project / "site" / "en" / "index.html").read_bytes() == old


def test_adding_an_existing_language_is_refused(project: Path) -> None:
    result = run(project, "new-language", "nl")
    assert result.returncode == 1
    assert "already exists" in result.stderr
