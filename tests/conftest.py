"""Shared fixtures: the system Chromium, for every browser test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def copy_project(folder: Path) -> Path:
    """A copy of the project's inputs (diagrams, pages, catalogs, config) that a test may break."""
    copy = folder / "project"
    copy.mkdir()
    for name in ("diagrams", "docs"):
        shutil.copytree(ROOT / name, copy / name)
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    return copy


def run_cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``dama-diagrams`` as a user does: a new process, its exit code and its output."""
    return subprocess.run(
        [sys.executable, "-m", "dama_diagrams", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        timeout=300,
    )


CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")
"""Debian's chromium; Playwright never downloads a browser of its own here."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    # This machine has no internet: keep Chromium from trying to reach it.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session; in CI a missing browser fails, never skips."""
    if not CHROMIUM.exists() and not os.environ.get("CI"):
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
