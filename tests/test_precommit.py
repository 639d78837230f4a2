"""The pre-commit hook, run by the real ``pre-commit`` on a temporary git repository.

``pre-commit try-repo`` installs this repository's hook (``.pre-commit-hooks.yaml``)
in an environment of its own, from the package index, as a user's
``.pre-commit-config.yaml`` would; so the test is slow, and needs the index.  The
test extra brings ``pre-commit-uv``, with which pre-commit makes that environment
with uv rather than pip: the same hook from the same index, in 20 s rather than 50.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PAGE = """\
# Captures

```dama
position: {turn: white, white: [22, 30], black: [18, 11]}
claim: capture
move: 22x13
```
"""
WRONG_LINE = "move: 22x14"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pre-commit's own folder, shared by the module's tests: the hook's environment, once."""
    return tmp_path_factory.mktemp("pre-commit-home")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).parent / "pre-commit"), "try-repo", str(ROOT)]
    return subprocess.run(
        [*command, "dama-diagrams-verify", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PRE_COMMIT_HOME": str(home)},
        check=False,
    )


@pytest.mark.slow
def test_the_hook_passes_good_files_and_fails_a_wrong_claim_at_its_line(
    tmp_path: Path, home: Path
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    (repo / "diagrams").mkdir(parents=True)
    shutil.copy(ROOT / "diagrams" / "man-move.yaml", repo / "diagrams" / "man-move.yaml")
    (repo / "rules.md").write_text(PAGE, encoding="utf-8")
    (repo / "mkdocs.yml").write_text("site_name: not a diagram, and not checked\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "first")

    good = pre_commit(repo, home, "--all-files")
    assert good.returncode == 0, good.stdout[-3000:] + good.stderr[-3000:]
    assert "Passed" in good.stdout

    wrong = PAGE.replace("move: 22x13", WRONG_LINE)
    (repo / "rules.md").write_text(wrong, encoding="utf-8")
    git(repo, "add", "rules.md")
    bad = pre_commit(repo, home)
    assert bad.returncode == 1
    line = wrong.split("\n").index(WRONG_LINE) + 1
    assert f"rules.md:{line}: 22x14 is not legal" in bad.stdout, bad.stdout[-3000:]
    assert "Failed" in bad.stdout


@pytest.mark.slow
def test_the_hook_passes_a_commit_of_pages_without_a_fence_and_fails_a_wrong_one(
    tmp_path: Path, home: Path
) -> None:
    """A commit that touches only a contact page, a README, a changelog: none holds a diagram.

    The hook's ``files:`` takes every ``.md``; verify passes a page with no ``dama`` fence,
    whatever its size or encoding, and still fails a wrong fence at its line.
    """
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "README.md").write_text("# My project\n\nJust prose.\n", encoding="utf-8")
    example = f"# Contatti\n\nA diagram is written so:\n\n````markdown\n{PAGE}````\n"
    (repo / "docs" / "contatti.md").write_text(example, encoding="utf-8")
    (repo / "CHANGELOG.md").write_bytes("# Novità\n\nÈ così.\n".encode("latin-1"))
    (repo / "docs" / "export.md").write_bytes(b"# Export\n\n" + b"Just prose.\n" * 450_000)
    git(repo, "init", "-q")
    git(repo, "add", ".")

    passed = pre_commit(repo, home, "--verbose")  # the staged files, as at a commit
    assert passed.returncode == 0, passed.stdout[-3000:] + passed.stderr[-3000:]
    assert "Passed" in passed.stdout
    assert "4 Markdown pages looked at, none holds a dama fence" in passed.stdout

    wrong = PAGE.replace("move: 22x13", WRONG_LINE)
    (repo / "docs" / "regole.md").write_text(wrong, encoding="utf-8")
    git(repo, "add", "docs/regole.md")
    failed = pre_commit(repo, home)
    assert failed.returncode == 1
    line = wrong.split("\n").index(WRONG_LINE) + 1
    assert f"docs/regole.md:{line}: 22x14 is not legal" in failed.stdout, failed.stdout[-3000:]
    assert "Failed" in failed.stdout
