"""The package as a club installs it: the wheel, from the package index, beside the club's tools.

Each test makes a fresh virtual environment and installs this project's wheel
with pip, as ``pip install dama-diagrams`` would, so it needs the package index
and is slow.  A light install brings none of the site's weight; a club that has
pinned an older Material keeps it, and builds with the fence under MkDocs and
ProperDocs, which refuse a fence whose claim would otherwise go out unchecked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import made_once

ROOT = Path(__file__).resolve().parent.parent
CLUB_MATERIAL = "9.5.50"
"""A Material release older than the rules site's own (9.8): what a club may have pinned."""
SITE_MODULES = ("typst", "cairosvg", "cairocffi", "mkdocs", "material", "PIL")

pytestmark = [pytest.mark.slow, pytest.mark.long]

TRUE = """\
# Catture

```dama
position: {turn: white, white: [22, 30], black: [18, 11]}
claim: capture
move: 22x13
caption: "Il pezzo su 22 prende {captured}."
```
"""
UNQUOTED_FALSE = TRUE.replace("```dama\n", "```dama lang=fr\n").replace("22x13", "22x14")


def run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env={**environment, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        check=False,
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This project's wheel, built once per run, as ``pip install`` would build it.

    From a copy of what the wheel is made of, so that no build folder is left in
    the checkout.
    """

    def build(folder: Path) -> None:
        source = folder / "source"
        source.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, source / name)
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(ROOT / "dama_diagrams", source / "dama_diagrams", ignore=ignore)
        command = (sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", folder, source)
        built = run(*command, cwd=folder)
        assert built.returncode == 0, built.stderr[-3000:]

    [found] = made_once(tmp_path_factory, "wheel", build).glob("*.whl")
    return found


def venv(folder: Path, *packages: str | Path) -> Path:
    """A fresh virtual environment with ``packages`` installed by pip; its ``bin`` folder."""
    made = run(sys.executable, "-m", "venv", folder, cwd=folder.parent)
    assert made.returncode == 0, made.stderr
    installed = run(folder / "bin" / "pip", "install", "-q", *packages, cwd=folder.parent)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return folder / "bin"


def club_site(folder: Path, pages: dict[str, str]) -> Path:
    (folder / "docs").mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(
        "site_name: Circolo\ntheme:\n  name: material\n  language: it\n"
        "markdown_extensions:\n  - admonition\n  - pymdownx.superfences\n  - dama_diagrams.fence\n",
        encoding="utf-8",
    )
    for name, text in pages.items():
        (folder / "docs" / name).write_text(text, encoding="utf-8")
    return folder


def test_the_light_install_checks_pages_without_the_sites_weight(
    tmp_path: Path, wheel: Path
) -> None:
    bin_dir = venv(tmp_path / "venv", wheel)
    probe = f"import importlib.util as u; print([m for m in {SITE_MODULES!r} if u.find_spec(m)])"
    found = run(bin_dir / "python", "-c", probe, cwd=tmp_path)
    assert found.stdout.strip() == "[]", found.stdout + found.stderr
    site = club_site(tmp_path / "club", {"index.md": TRUE, "contatti.md": "# Contatti\n"})
    checked = run(bin_dir / "dama-diagrams", "verify", "docs", cwd=site)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (site / "docs" / "regole.md").write_text(UNQUOTED_FALSE, encoding="utf-8")
    refused = run(bin_dir / "dama-diagrams", "verify", "docs", cwd=site)
    assert refused.returncode == 1
    assert "docs/regole.md:3: write the option 'lang=fr' with quotes" in refused.stderr
    build = run(bin_dir / "dama-diagrams", "build", cwd=site)
    assert build.returncode == 1 and "Traceback" not in build.stderr
    assert build.stderr.strip() == (
        "dama-diagrams: build needs MkDocs, which is not installed; it comes with the site "
        "extra: pip install 'dama-diagrams[site]'"
    )
    (site / "diagrams").mkdir()
    diagram = TRUE.split("```dama\n")[1].split("```", maxsplit=1)[0]
    (site / "diagrams" / "presa.yaml").write_text(diagram, encoding="utf-8")
    png = ("render", "diagrams", "--out", "out", "--format", "png")
    needs = run(bin_dir / "dama-diagrams", *png, cwd=site)
    assert needs.returncode == 1 and "Traceback" not in needs.stderr
    assert needs.stderr.strip().endswith("pip install 'dama-diagrams[site]'"), needs.stderr
    assert not (site / "out").exists()  # nothing half-made


def test_a_club_keeps_its_material_and_builds_with_mkdocs_and_properdocs(
    tmp_path: Path, wheel: Path
) -> None:
    bin_dir = venv(tmp_path / "venv", f"mkdocs-material=={CLUB_MATERIAL}", "properdocs")
    added = run(bin_dir / "pip", "install", "-q", wheel, cwd=tmp_path)
    assert added.returncode == 0, added.stderr[-3000:]
    version = "import importlib.metadata as m; print(m.version('mkdocs-material'))"
    assert run(bin_dir / "python", "-c", version, cwd=tmp_path).stdout.strip() == CLUB_MATERIAL
    site = club_site(tmp_path / "club", {"index.md": TRUE})
    for command in ("mkdocs", "properdocs"):
        built = run(bin_dir / command, "build", "--strict", cwd=site)
        assert built.returncode == 0, built.stderr[-3000:]
        page = (site / "site" / "index.html").read_text(encoding="utf-8")
        assert '<figure class="dama-figure"' in page and "Verificato dal motore:" in page
    (site / "docs" / "regole.md").write_text(UNQUOTED_FALSE, encoding="utf-8")
    for command in ("mkdocs", "properdocs"):
        refused = run(bin_dir / command, "build", "--strict", cwd=site)
        output = refused.stdout + refused.stderr
        assert refused.returncode != 0, f"{command} published an unchecked claim"
        assert "docs/regole.md:3: write the option 'lang=fr' with quotes" in output, output
