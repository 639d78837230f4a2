"""The ``dama`` fence in sites this project did not build: real MkDocs and Zensical builds.

Each test makes a tiny site (one good page, and for the failing build one page
with a wrong claim), configured with the few lines the README gives, and runs
the real command in a subprocess: ``mkdocs build --strict`` with the default
``mkdocs`` theme and with Material, and ``zensical build``.  Each build shows
the figure; each fails on the wrong claim naming the page and its line.
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

FENCE_CONFIG = """\
markdown_extensions:
  - pymdownx.superfences:
      custom_fences:
        - name: dama
          class: dama
          format: !!python/name:dama_diagrams.fence.format
          validator: !!python/name:dama_diagrams.fence.validator_it
"""


def make_site(folder: Path, theme: str | None, pages: dict[str, str]) -> Path:
    site = folder / "club"
    (site / "docs").mkdir(parents=True)
    theme_line = f"theme:\n  name: {theme}\n" if theme else ""
    (site / "mkdocs.yml").write_text(f"site_name: Club\n{theme_line}{FENCE_CONFIG}")
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
    assert "Verificato dal motore:" in page  # validator_it: the engine line in Italian
    assert "data-steps=" in page  # the capture of two pieces can be stepped through
    assert page.count('<script src="data:text/javascript;base64,') == 1


BUILDS = {
    "mkdocs": (("mkdocs", "build", "--strict"), "mkdocs"),
    "material": (("mkdocs", "build", "--strict"), "material"),
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
    if name != "zensical":  # MkDocs prints it as one line; Zensical adds its own traceback
        assert "Traceback" not in output


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
