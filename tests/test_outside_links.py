"""Diagram files reached through symbolic links stay inside the project, as game files do.

A link that leads outside is refused before the file is read: its content is
never verified, published, or quoted in a message (a first line of
``/etc/shadow`` once showed up as "unknown key").
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .conftest import copy_project, run_cli

SECRET = "password: hunter2-the-secret\n"
DIAGRAM = 'position: "W:W22:B4"\nclaim: move\nmoves: [22-18, 22-19]\ntitle: "Outside title"\n'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def test_a_diagram_linked_from_outside_the_project_is_refused_unread(
    project: Path, tmp_path: Path
) -> None:
    (tmp_path / "secret.yaml").write_text(SECRET)
    (project / "diagrams" / "zz-secret.yaml").symlink_to(tmp_path / "secret.yaml")
    result = run_cli("verify", cwd=project)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert (
        "diagrams/zz-secret.yaml: is a symbolic link to a file outside the project; keep "
        "diagram files inside the project (copy the file in)"
    ) in output
    assert "hunter2" not in output and "password" not in output


def test_a_linked_diagram_from_outside_is_never_published(project: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text(DIAGRAM)
    (project / "diagrams" / "zz-outside.yaml").symlink_to(tmp_path / "outside.yaml")
    result = run_cli("build", "--lang", "en", cwd=project)
    assert result.returncode == 1
    assert "diagrams/zz-outside.yaml: is a symbolic link to a file outside the project" in (
        result.stderr
    )
    assert not (project / "site").exists()


def test_a_link_that_stays_inside_the_project_is_read(project: Path) -> None:
    (project / "shared").mkdir()
    (project / "shared" / "inside.yaml").write_text(DIAGRAM)
    (project / "diagrams" / "zz-inside.yaml").symlink_to(Path("..") / "shared" / "inside.yaml")
    result = run_cli("verify", "diagrams/zz-inside.yaml", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "holds" in result.stdout


def test_outside_a_project_a_linked_diagram_stays_in_its_folder(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.yaml").write_text(DIAGRAM)
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "good.yaml").write_text(DIAGRAM)
    (loose / "linked.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    result = run_cli("verify", "loose", cwd=tmp_path)
    assert result.returncode == 1
    assert (
        "loose/linked.yaml: is a symbolic link to a file outside its folder; keep diagram "
        "files inside its folder (copy the file in)"
    ) in result.stdout + result.stderr
    assert "1 hold, 1 failed" in result.stdout


def linked_diagrams(project: Path, tmp_path: Path) -> Path:
    """Make ``diagrams/`` a link to a folder outside ``project``: a secret and a diagram."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret-one.yaml").write_text(SECRET)
    (outside / "outside.yaml").write_text(DIAGRAM)
    shutil.rmtree(project / "diagrams")
    (project / "diagrams").symlink_to(outside)
    return outside


FOLDER_REFUSED = (
    "diagrams: is a symbolic link to a folder outside the project; keep the diagram files "
    "inside the project (copy them in)"
)


def test_verify_refuses_a_diagrams_folder_that_leads_outside_in_one_line(
    project: Path, tmp_path: Path
) -> None:
    linked_diagrams(project, tmp_path)
    result = run_cli("verify", cwd=project)
    assert result.returncode == 1
    assert (result.stdout + result.stderr).splitlines() == [FOLDER_REFUSED]
    result = run_cli("verify", "--format", "github", cwd=project)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"::error file=diagrams,title=dama-diagrams::{FOLDER_REFUSED.partition(': ')[2]}"
    ]
    result = run_cli("render", "--out", "pictures", cwd=project)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [FOLDER_REFUSED] and not (project / "pictures").exists()


@pytest.mark.parametrize("named", ["diagrams", "."])
def test_a_linked_folder_named_or_found_is_refused_unread(
    project: Path, tmp_path: Path, named: str
) -> None:
    linked_diagrams(project, tmp_path)
    result = run_cli("verify", named, cwd=project)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert FOLDER_REFUSED in output.splitlines()
    for read in ("hunter2", "password", "secret-one", "outside", "Outside title"):
        assert read not in output.replace("outside the project", "")


@pytest.mark.parametrize("named", ["diagrams/secret-one.yaml", "diagrams/sub", "diagrams/sub/x.md"])
def test_a_path_named_through_a_linked_folder_is_refused_unread(
    project: Path, tmp_path: Path, named: str
) -> None:
    outside = linked_diagrams(project, tmp_path)
    (outside / "sub").mkdir()
    (outside / "sub" / "secret-two.yaml").write_text(SECRET)
    (outside / "sub" / "x.md").write_text(f"# Page\n\n```dama\n{SECRET}```\n")
    result = run_cli("verify", named, cwd=project)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "outside the project" in output
    for read in ("hunter2", "password", "secret-two"):
        assert read not in output.replace("outside the project", "")
