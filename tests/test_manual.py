"""The manual (manual/mkdocs.yml): built as its readers build it, its examples checked.

Its reference pages are written from the code (``dama_diagrams.cli.reference``,
mkdocstrings); these tests hold them against what the installed command and
package say of themselves, and plant a wrong claim to see the build stop at its line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

import dama_diagrams
from dama_diagrams.cli.reference import ReferenceExtension, with_sources
from dama_diagrams.errors import DamaError
from tests.conftest import made_once, run_cli

ROOT = Path(__file__).resolve().parent.parent
MANUAL = ROOT / "manual"
PAGES = MANUAL / "docs"
MKDOCS = Path(sys.executable).with_name("mkdocs")


def build_manual(project: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict -f manual/mkdocs.yml`` in ``project``, as the manual says."""
    return subprocess.run(
        [str(MKDOCS), "build", "--strict", "-f", "manual/mkdocs.yml"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def copy_manual(folder: Path) -> Path:
    """The manual's sources and the changelog it includes, without a built site."""
    shutil.copytree(MANUAL, folder / "manual", ignore=shutil.ignore_patterns("site"))
    shutil.copy(ROOT / "CHANGELOG.md", folder / "CHANGELOG.md")
    return folder


def _build_once(folder: Path) -> None:
    result = build_manual(copy_manual(folder))
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def built_manual(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, "manual", _build_once) / "manual" / "site"


def page_text(site: Path, page: str) -> str:
    return (site / page / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_every_command_of_the_help_has_its_reference_entry(built_manual: Path) -> None:
    """The commands ``dama-diagrams --help`` lists, each a heading of the reference page."""
    shown = run_cli("--help").stdout
    listed = re.findall(r"^    ([a-z-]+)", shown, re.M)  # the list under "COMMAND"
    assert {"verify", "build", "find", "editor", "schema"} <= set(listed)
    html = page_text(built_manual, "commands")
    for command in listed:
        assert f'<h2 id="{command}">{command}' in html, command
        usage = f"usage: dama-diagrams {command}"
        assert usage in html, command
    for option in ("--format", "--max-pieces", "--seed", "--strict-translations", "--port"):
        assert f"<code>{option}</code>" in html, option
    assert "<code>--version</code>" in html
    assert "the rules as a printed book: DIR/&lt;lang&gt;.pdf for each language" in html


@pytest.mark.slow
def test_the_api_reference_lists_every_public_name(built_manual: Path) -> None:
    html = page_text(built_manual, "api")
    for name in dama_diagrams.__all__:
        assert f'id="dama_diagrams.{name}"' in html, name
    assert ":mod:" not in html and ":func:" not in html  # the docstrings' Sphinx roles


@pytest.mark.slow
def test_the_file_format_and_configuration_pages_name_what_the_reader_takes(
    built_manual: Path,
) -> None:
    """Claims and keys as diagrams/README.md lists them by hand; the plugin's keys in mkdocs.yml."""
    readme = (ROOT / "diagrams" / "README.md").read_text(encoding="utf-8")
    claims = re.findall(
        r"^\| `([a-z-]+)` \|", readme.split("## Claims", 1)[1].split("\n## ", 1)[0], re.M
    )
    assert len(claims) == 9
    html = page_text(built_manual, "diagram-format")
    for claim in claims:
        assert f"<td><code>{claim}</code></td>" in html, claim
    for key in ("position", "claim", "rejected", "show", "exercise", "numbers", "steps", "ask"):
        assert f"<code>{key}</code>" in html, key
    configuration = page_text(built_manual, "configuration")
    for key in ("lang", "project_root", "root", "page"):
        assert f"<td><code>{key}</code></td>" in configuration, key


@pytest.mark.slow
def test_each_claim_kind_has_a_live_example_checked_by_the_engine(built_manual: Path) -> None:
    """Every example of "Writing claims" is drawn as a figure, with the engine's line."""
    source = (PAGES / "claims.md").read_text(encoding="utf-8")
    kinds = set(re.findall(r"^claim: ([a-z-]+)$", source, re.M))
    assert kinds == {
        "setup",
        "move",
        "capture",
        "multi-capture",
        "priority",
        "free-choice",
        "promotion",
        "illegal",
        "game-over",
    }
    html = page_text(built_manual, "claims")
    fences = source.count("```dama\n") - source.count("````")
    assert html.count("<figure") == fences
    assert html.count("Checked by the engine:") == fences


@pytest.mark.slow
def test_a_wrong_claim_in_the_manual_fails_its_build_at_page_and_line(tmp_path: Path) -> None:
    project = copy_manual(tmp_path)
    page = project / "manual" / "docs" / "claims.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    line = lines.index("move: 22x13") + 1  # the capture example: 22x13 is the one legal capture
    lines[line - 1] = "move: 22x14"
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = build_manual(project)
    assert result.returncode == 1
    expected = (
        f"manual/docs/claims.md:{line}: 22x14 is not legal (not-diagonal): 22x14 is not a "
        "diagonal jump over one square; the only legal move is 22x13"
    )
    assert expected in result.stderr
    assert "Traceback" not in result.stderr
    assert expected in "\n".join(lines), "claims.md shows another message than the build's"


def test_the_first_diagram_of_getting_started_is_what_verify_prints(tmp_path: Path) -> None:
    """The page's file, then its console blocks: what ``verify`` says of it, right and wrong."""
    text = (PAGES / "getting-started.md").read_text(encoding="utf-8")
    yaml = re.search(r"`diagrams/first.yaml`:\n\n```yaml\n(.*?)```", text, re.S)
    assert yaml is not None
    runs = re.findall(r"```console\n\$ dama-diagrams verify\n(.*?)```", text, re.S)
    assert len(runs) == 2
    (tmp_path / "diagrams").mkdir()
    diagram = tmp_path / "diagrams" / "first.yaml"
    diagram.write_text(yaml[1], encoding="utf-8")
    good = run_cli("verify", cwd=tmp_path)
    assert good.returncode == 0
    assert good.stdout + good.stderr == runs[0]
    diagram.write_text(yaml[1].replace("31x24x15x8", "31x24x15"), encoding="utf-8")
    bad = run_cli("verify", cwd=tmp_path)
    assert bad.returncode == 1
    assert sorted((bad.stdout + bad.stderr).splitlines()) == sorted(runs[1].splitlines())


def test_an_unknown_reference_is_refused_at_its_line() -> None:
    text = "# Reference\n\n[[reference: comands]]\n"
    with pytest.raises(DamaError, match=r":3: no reference named 'comands'; write one of commands"):
        markdown.markdown(text, extensions=[ReferenceExtension()])


def test_a_dama_fence_shows_its_text_and_a_markdown_example_stays_as_written() -> None:
    page = [
        "```dama",
        "claim: setup",
        "```",
        "````markdown",
        "```dama",
        "claim: move",
        "```",
        "````",
    ]
    assert with_sources(page) == [
        '```yaml title="dama"',
        "claim: setup",
        "```",
        *page,
    ]


def test_every_page_of_the_manual_is_in_its_navigation() -> None:
    config = (MANUAL / "mkdocs.yml").read_text(encoding="utf-8")
    named = set(re.findall(r": ([a-z-]+\.md)$", config, re.M))
    assert named == {page.name for page in PAGES.glob("*.md")}


def test_a_sphinx_role_of_a_docstring_shows_as_its_code() -> None:
    text = "The rules are in :mod:`.engine`; :func:`verify` checks a claim."
    assert markdown.markdown(text, extensions=[ReferenceExtension()]) == (
        "<p>The rules are in <code>.engine</code>; <code>verify</code> checks a claim.</p>"
    )
