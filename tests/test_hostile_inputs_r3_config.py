"""Round 3 of the hostile review, M01-M02: the types in ``mkdocs.yml`` are checked.

A palette or a plugin list of the wrong type is one line at its place in
``mkdocs.yml``, never a traceback; the one-scheme palette Material accepts builds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import copy_project, run_cli

PALETTE = re.compile(r"^  palette:\n(?:    .*\n)+", re.M)
PLUGINS = re.compile(r"^plugins:\n(?:  - .*\n)+", re.M)


def _edited(project: Path, pattern: re.Pattern[str], replacement: str) -> int:
    """``mkdocs.yml`` with the part ``pattern`` matches replaced; the line where it starts."""
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    match = pattern.search(text)
    assert match is not None
    config.write_text(text[: match.start()] + replacement + text[match.end() :], "utf-8")
    return text.count("\n", 0, match.start()) + 1


@pytest.mark.parametrize(
    "palette", ["palette: 3\n", "palette: slate\n", "palette: [3]\n", "palette: [{toggle: 3}]\n"]
)
def test_a_palette_of_the_wrong_type_is_one_line(tmp_path: Path, palette: str) -> None:
    project = copy_project(tmp_path)
    line = _edited(project, PALETTE, "  " + palette)
    result = run_cli("build", "--lang", "en", "--out", tmp_path / "site", cwd=project)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    (printed,) = result.stderr.strip().splitlines()
    assert printed.startswith(f"mkdocs.yml:{line}: theme.palette must be a list of color schemes")


@pytest.mark.parametrize("plugins", ["plugins:\n", "plugins: 3\n", "plugins: [3]\n"])
def test_plugins_of_the_wrong_type_are_one_line(tmp_path: Path, plugins: str) -> None:
    project = copy_project(tmp_path)
    line = _edited(project, PLUGINS, plugins)
    result = run_cli("build", "--lang", "en", "--out", tmp_path / "site", cwd=project)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    (printed,) = result.stderr.strip().splitlines()
    assert printed.startswith(f"mkdocs.yml:{line}: plugins must be a list of plugin names")


def test_a_palette_of_one_scheme_builds(tmp_path: Path) -> None:
    """``palette: {scheme: slate}``, a form Material accepts (before: a ValueError)."""
    project = copy_project(tmp_path)
    _edited(project, PALETTE, "  palette:\n    scheme: slate\n    primary: brown\n")
    site = tmp_path / "site"
    result = run_cli("build", "--lang", "en", "--out", site, cwd=project)
    assert result.returncode == 0, result.stderr
    assert 'data-md-color-scheme="slate"' in (site / "en" / "index.html").read_text("utf-8")
