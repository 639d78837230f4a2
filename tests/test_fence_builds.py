"""The ``dama`` fence in sites this project did not build: real MkDocs and Zensical builds.

Each test makes a tiny site (one good page, and for the failing build one page
with a wrong claim), configured with the few lines the manual gives, and runs
the real command in a subprocess: ``mkdocs build --strict`` with the default
``mkdocs`` theme and with Material, ``properdocs build --strict`` and
``zensical build``.  Each build shows the figure; each fails on the wrong
claim naming the page and its line, however the fence's options are written;
Zensical never keeps the figure of a diagram file that turned false.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GOOD = """\
---
title: Captures
---

# Captures

```dama
position: {turn: white, white: [22, 30], black: [18, 11]}
claim: capture
move: 22x13
caption: "The man on 22 takes {captured}."
```

```dama
position: "W:W31:B27,19,10"
claim: multi-capture
move: 31x22x15
show: {steps: true}
```
"""

WRONG_LINE = "move: 22x14"
WRONG = GOOD.replace("move: 22x13", WRONG_LINE)

MANUAL = (Path(__file__).resolve().parent.parent / "manual" / "docs" / "anywhere.md").read_text(
    encoding="utf-8"
)
FENCE_CONFIG = re.search(
    r"```yaml\n(markdown_extensions:\n.*?dama_diagrams\.fence.*?)```", MANUAL, re.S
)[1]  # type: ignore[index]
"""The ``mkdocs.yml`` lines the manual gives a club, as it gives them."""
CUSTOM_FENCES_CONFIG = """\
markdown_extensions:
  - pymdownx.superfences:
      custom_fences:
        - name: dama
          class: dama
          format: !!python/name:dama_diagrams.fence.format
          validator: !!python/name:dama_diagrams.fence.validator_it
"""
"""The fence in superfences' own ``custom_fences``, as sites set it before the extension."""


def make_site(
    folder: Path, theme: str | None, pages: dict[str, str], config: str | None = None
) -> Path:
    site = folder / "club"
    (site / "docs").mkdir(parents=True)
    theme_line = f"theme:\n  name: {theme}\n  language: it\n" if theme else ""
    if config is None:
        theme_line = theme_line or "theme:\n  language: it\n"
    written = FENCE_CONFIG if config is None else config
    (site / "mkdocs.yml").write_text(f"site_name: Club\n{theme_line}{written}")
    for name, text in pages.items():
        (site / "docs" / name).write_text(text, encoding="utf-8")
    return site


def run(site: Path, *command: str) -> subprocess.CompletedProcess[str]:
    bin_dir = Path(sys.executable).parent
    environment = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(
        [str(bin_dir / command[0]), *command[1:]],
        cwd=site,
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
        check=False,
    )


def wrong_place() -> str:
    """``docs/rules.md:N``, N counted in the page as written, front matter and all."""
    return f"docs/rules.md:{WRONG.split(chr(10)).index(WRONG_LINE) + 1}:"


def assert_shows_figures(page: str) -> None:
    assert page.count('class="dama-figure"') == 2
    assert page.count('src="data:image/svg+xml;base64,') >= 2
    assert "Verificato dal motore:" in page  # theme.language or validator_it: Italian
    assert "data-steps=" in page  # the capture of two pieces can be stepped through
    assert page.count('<script src="data:text/javascript;base64,') == 1


BUILDS = {
    "mkdocs": (("mkdocs", "build", "--strict"), "mkdocs"),
    "material": (("mkdocs", "build", "--strict"), "material"),
    "properdocs": (("properdocs", "build", "--strict"), "material"),  # "mkdocs" is a plugin there
    "zensical": (("zensical", "build"), None),
}


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=[pytest.mark.slow] if name == "material" else []) for name in BUILDS],
)
def test_a_site_of_another_theme_shows_verified_figures(tmp_path: Path, name: str) -> None:
    command, theme = BUILDS[name]
    site = make_site(tmp_path, theme, {"index.md": GOOD})
    result = run(site, *command)
    assert result.returncode == 0, result.stderr[-3000:]
    assert_shows_figures((site / "site" / "index.html").read_text(encoding="utf-8"))
    index = site / "site" / "search" / "search_index.json"
    if index.is_file():  # MkDocs' own search: the figure's words, not its style or script
        text = index.read_text(encoding="utf-8")
        assert "Verificato dal motore" in text
        assert "dama-fence" not in text and "function" not in text


@pytest.mark.parametrize("name", list(BUILDS))
def test_a_wrong_claim_fails_the_build_at_page_and_line(tmp_path: Path, name: str) -> None:
    command, theme = BUILDS[name]
    site = make_site(tmp_path, theme, {"index.md": GOOD, "rules.md": WRONG})
    result = run(site, *command)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert f"{wrong_place()} 22x14 is not legal" in output, output[-3000:]
    assert "Traceback" not in output


@pytest.mark.parametrize("name", ["mkdocs", "properdocs", "zensical"])
def test_the_custom_fences_setting_still_draws_and_checks(tmp_path: Path, name: str) -> None:
    command, theme = BUILDS[name]
    pages = {"index.md": GOOD}
    site = make_site(tmp_path, theme, pages, CUSTOM_FENCES_CONFIG)
    result = run(site, *command)
    assert result.returncode == 0, result.stderr[-3000:]
    assert_shows_figures((site / "site" / "index.html").read_text(encoding="utf-8"))
    (site / "docs" / "rules.md").write_text(WRONG, encoding="utf-8")
    result = run(site, *command)
    assert result.returncode != 0
    assert f"{wrong_place()} 22x14 is not legal" in result.stdout + result.stderr


HIDDEN = {
    "dama lang=fr": "write the option 'lang=fr' with quotes",
    'dama  lang = "fr"': "superfences cannot read the options",
    "DAMA": "write the fence's language as dama, in lower case",
    'dama id=x lang="fr"': "write the option 'id=x' with quotes",
}
"""Fence headers superfences does not read (it would show the fence as code), and the answer."""


@pytest.mark.parametrize("name", ["mkdocs", "properdocs", "zensical"])
@pytest.mark.parametrize("header", list(HIDDEN))
def test_a_fence_superfences_would_not_read_fails_the_build(
    tmp_path: Path, name: str, header: str
) -> None:
    command, theme = BUILDS[name]
    page = WRONG.replace("```dama\nposition: {turn", f"```{header}\nposition: {{turn", 1)
    assert page != WRONG
    site = make_site(tmp_path, theme, {"index.md": GOOD, "rules.md": page})
    result = run(site, *command)
    output = result.stdout + result.stderr
    assert result.returncode != 0, f"a false claim went out unchecked: {output[-2000:]}"
    line = page.split("\n").index(f"```{header}") + 1
    assert f"docs/rules.md:{line}: {HIDDEN[header]}" in output, output[-3000:]
    assert "Traceback" not in output


FILE_PAGE = "# Captures\n\n```dama\nfile: diagrams/capture.yaml\n```\n"
GOOD_FILE = (
    "position: {turn: white, white: [22, 30], black: [18, 11]}\nclaim: capture\nmove: 22x13\n"
)


def test_zensical_never_keeps_the_figure_of_a_diagram_file_that_turned_false(
    tmp_path: Path,
) -> None:
    site = make_site(tmp_path, None, {"index.md": FILE_PAGE})
    (site / "diagrams").mkdir()
    diagram = site / "diagrams" / "capture.yaml"
    diagram.write_text(GOOD_FILE, encoding="utf-8")
    # Without watch:, Zensical's cache would not see the file change: file: is refused.
    refused = run(site, "zensical", "build")
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0
    assert "docs/index.md:4: Zensical rebuilds a page only when a file it watches changes" in output
    assert "watch: [diagrams]" in output and "Traceback" not in output
    # With the diagrams watched, as the message says: drawn, then refused once false.
    config = site / "mkdocs.yml"
    config.write_text(config.read_text() + "watch:\n  - diagrams\n", encoding="utf-8")
    # An author's script: the file turned false right after each build, in the same
    # second as often as not (Zensical knows a file's time only to the second).
    for _ in range(3):
        diagram.write_text(GOOD_FILE, encoding="utf-8")
        first = run(site, "zensical", "build")
        assert first.returncode == 0, first.stderr[-3000:]
        page = (site / "site" / "index.html").read_text(encoding="utf-8")
        assert "Verificato dal motore:" in page
        diagram.write_text(GOOD_FILE.replace("22x13", "22x14"), encoding="utf-8")
        second = run(site, "zensical", "build")
        output = second.stdout + second.stderr
        assert second.returncode != 0, "Zensical published the old figure of a false claim"
        assert "diagrams/capture.yaml:3: 22x14 is not legal" in output, output[-3000:]
        assert "Traceback" not in output


@pytest.mark.parametrize("name", ["mkdocs", "zensical"])
def test_the_figures_speak_the_sites_language_where_the_fence_chooses_none(
    tmp_path: Path, name: str
) -> None:
    command, theme = BUILDS[name]
    config = CUSTOM_FENCES_CONFIG.replace("validator_it", "validator")
    site = make_site(tmp_path, theme, {"index.md": GOOD}, config)
    mkdocs_yml = site / "mkdocs.yml"
    language = "theme:\n  name: material\n  language: nl\n"
    mkdocs_yml.write_text(re.sub(r"theme:\n(  .*\n)*", "", mkdocs_yml.read_text()) + language)
    result = run(site, *command)
    assert result.returncode == 0, result.stderr[-3000:]
    page = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert 'class="dama-fence" lang="nl"' in page and "Gecontroleerd door de engine" in page


@pytest.mark.slow
def test_the_built_page_is_the_same_bytes_each_time(tmp_path: Path) -> None:
    site = make_site(tmp_path, "mkdocs", {"index.md": GOOD})
    pages = []
    for _ in range(2):
        assert run(site, "mkdocs", "build", "--strict").returncode == 0
        page = (site / "site" / "index.html").read_text(encoding="utf-8")
        pages.append(re.sub(r"<!--.*?-->", "", page, flags=re.DOTALL))  # MkDocs' build date
        shutil.rmtree(site / "site")
    assert pages[0] == pages[1]
