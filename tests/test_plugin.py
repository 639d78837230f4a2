"""MkDocs' own commands with the dama-diagrams plugin, and the live preview."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from dama_diagrams.site import SITE_MARKER
from tests.conftest import copy_project, free_port, run_cli, running_cli

pytestmark = pytest.mark.slow


def _fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            text: str = response.read().decode("utf-8")
            return text
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def _wait_for(url: str, needle: str, seconds: float = 90) -> str:
    deadline = time.monotonic() + seconds
    page = None
    while time.monotonic() < deadline:
        page = _fetch(url)
        if page is not None and needle in page:
            return page
        time.sleep(0.5)
    raise AssertionError(f"{needle!r} never appeared at {url}; last page: {(page or '')[:300]}")


def test_mkdocs_build_generates_the_default_language(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    home = (project / "site" / "en" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in home
    assert 'property="og:image"' in home  # the package's theme overrides are in use
    assert (project / "site" / "en" / "assets" / "diagrams" / "man-capture.svg").is_file()
    # The templates and catalogs are sources: they are never published.
    assert not list((project / "site" / "en").rglob("*.j2"))
    assert not list((project / "site").rglob("*.po")) and not list(
        (project / "site").rglob("*.pot")
    )
    assert not (project / "site" / "en" / "locales").exists()
    # site/ holds only this build: marked, so that `dama-diagrams build` may replace it,
    # and sealed as built on this machine, so that a build of another language keeps it.
    assert (project / "site" / SITE_MARKER).is_file()
    other = run_cli("build", "--lang", "it", cwd=project)
    assert other.returncode == 0, other.stderr
    assert "kept 1 language (en)" in other.stdout


@contextlib.contextmanager
def _serving(project: Path, language: str) -> Iterator[str]:
    """``dama-diagrams serve --lang <language>``, until its first page answers: its address."""
    port = free_port()
    with running_cli("serve", "--lang", language, "--dev-addr", f"127.0.0.1:{port}", cwd=project):
        url = f"http://127.0.0.1:{port}/"
        _wait_for(url, f'<html lang="{language}"')
        yield url


def test_serve_reloads_after_a_catalog_edit(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    with _serving(project, "nl") as url:
        catalog = project / "docs" / "locales" / "nl" / "LC_MESSAGES" / "messages.po"
        text = catalog.read_text(encoding="utf-8")
        edited = text.replace(
            'msgstr "Regels van het Italiaanse dammen"',
            'msgstr "Proefversie van de damregels"',
            1,
        )
        assert edited != text
        catalog.write_text(edited, encoding="utf-8")  # as a PO editor saves it
        _wait_for(url, "Proefversie van de damregels")


def test_serve_reloads_after_an_english_edit(tmp_path: Path) -> None:
    """The English lives in the templates: an edit there is a new, untranslated message."""
    project = copy_project(tmp_path)
    with _serving(project, "nl") as root:
        url = f"{root}king/"
        template = project / "docs" / "pages" / "king.md.j2"
        template.write_text(
            template.read_text(encoding="utf-8") + '\n{{ _("A sentence not yet translated.") }}\n'
        )
        page = _wait_for(url, "A sentence not yet translated.")
        assert "omdat hun vertaling ontbreekt" in page  # the notice of untranslated text


def test_serve_previews_a_language_that_is_still_a_draft(tmp_path: Path) -> None:
    """The live preview is where a translator watches a new language grow: drafts included."""
    project = copy_project(tmp_path)
    assert run_cli("new-language", "pt", cwd=project).returncode == 0
    assert run_cli("build", "--lang", "pt", cwd=project).returncode == 1  # a draft, for build
    with _serving(project, "pt") as url:
        page = _fetch(f"{url}capturing/")
        assert page is not None
        assert "Captures decide most games of draughts" in page  # English, until translated


def test_serve_shows_the_last_good_pages_and_the_error_while_a_diagram_is_broken(
    tmp_path: Path,
) -> None:
    project = copy_project(tmp_path)
    port = free_port()
    with running_cli("serve", "--lang", "en", "--dev-addr", f"127.0.0.1:{port}", cwd=project):
        url = f"http://127.0.0.1:{port}/man/"
        _wait_for(url, '<html lang="en"')
        diagram = project / "diagrams" / "man-move.yaml"
        good = diagram.read_text(encoding="utf-8")
        diagram.write_text('position: "W:W31:B12"\nclaim: capture\nmove: 31-27\n')
        # Before, every request hung until the diagram was fixed.
        page = _wait_for(url, "dama-build-error", seconds=30)
        assert "diagrams/man-move.yaml:3: 31-27 is legal" in page
        diagram.write_text(good, encoding="utf-8")
        deadline = time.monotonic() + 30
        while "dama-build-error" in (_fetch(url) or "dama-build-error"):
            assert time.monotonic() < deadline, "the error banner stayed after the fix"
            time.sleep(0.5)


def test_serve_answers_a_nul_in_the_path_with_404(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    port = free_port()
    with running_cli("serve", "--lang", "en", "--dev-addr", f"127.0.0.1:{port}", cwd=project):
        _wait_for(f"http://127.0.0.1:{port}/", '<html lang="en"')
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/%00", timeout=5)
        error.value.close()
        assert error.value.code == 404


def test_serve_of_one_language_marks_the_others_in_its_menu(tmp_path: Path) -> None:
    """The other languages are not served: the menu says so instead of linking to a 404."""
    project = copy_project(tmp_path)
    with _serving(project, "it") as url:
        page = _wait_for(f"{url}king/", '<html lang="it"')
    assert 'href="../../en/' not in page
    own = re.findall(r'href="([^"]+)" hreflang="it"', page)
    assert [urllib.parse.urljoin(f"{url}king/", href) for href in own] == [f"{url}king/"]
    assert page.count('class="md-select__link dama-not-served"') == 5
    assert "English (non in questa anteprima)" in " ".join(page.split())


def test_serve_without_a_language_serves_every_language_with_a_working_menu(
    tmp_path: Path,
) -> None:
    project = copy_project(tmp_path)
    port = free_port()
    with running_cli("serve", "--dev-addr", f"127.0.0.1:{port}", cwd=project):
        root = f"http://127.0.0.1:{port}/"
        _wait_for(f"{root}it/king/", '<html lang="it"')
        with urllib.request.urlopen(f"{root}it/king/", timeout=10) as response:
            page = response.read().decode("utf-8")
        links = re.findall(r'href="([^"]+)" hreflang="([a-z]+)"', page)
        assert len(links) == 6
        for href, code in links:  # each menu entry: the same page in that language
            target = urllib.parse.urljoin(f"{root}it/king/", href)
            with urllib.request.urlopen(target, timeout=10) as response:
                assert f'<html lang="{code}"' in response.read().decode("utf-8")
