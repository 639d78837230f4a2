"""Round 3 of the hostile review, L01: ``new-language`` accepts what the build accepts.

``pt_BR`` (Material knows ``pt-BR``) is refused at once, with the codes to use.
``ja`` is accepted: the build makes its site and leaves its book out with a
warning, since the book's fonts have no Japanese, and the other books are made.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import copy_project, run_cli


@pytest.mark.parametrize("code", ["pt_BR", "ku", "zh-CN"])
def test_a_code_the_build_refuses_is_refused_at_once(tmp_path: Path, code: str) -> None:
    project = copy_project(tmp_path)
    result = run_cli("new-language", code, cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    (printed,) = result.stderr.strip().splitlines()
    assert printed.startswith(
        f"dama-diagrams: language '{code}': Material for MkDocs has no translation for it"
    )
    assert "use a code Material knows" in printed
    assert not (project / "docs" / "locales" / code).exists()


def test_pt_br_is_shown_the_code_to_use(tmp_path: Path) -> None:
    result = run_cli("new-language", "pt_BR", cwd=copy_project(tmp_path))
    assert "(for example pt, pt-BR)" in result.stderr


@pytest.mark.slow
def test_a_language_the_book_fonts_lack_is_built_without_its_book(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    assert run_cli("new-language", "ja", cwd=project).returncode == 0
    catalog = project / "docs" / "locales" / "ja" / "LC_MESSAGES" / "messages.po"
    text = catalog.read_text(encoding="utf-8")
    name = 'msgctxt "site.name"\nmsgid "Italian draughts rules"\nmsgstr ""'
    assert name in text
    catalog.write_text(text.replace(name, name[:-2] + '"イタリアのダマ"'), "utf-8")
    site = tmp_path / "site"
    result = run_cli(
        "build",
        "--lang",
        "ja",
        "--lang",
        "en",
        "--out",
        site,
        cwd=project,
        env={"DAMA_DIAGRAMS_BOOKS": "1"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert (
        "dama-diagrams: warning: ja: no printed book: its script (Jpan) is not in the book's "
        "fonts, which cover Latin, Greek, Cyrillic only; its site is published without it"
    ) in result.stderr.splitlines()
    assert (site / "en" / "rules-en.pdf").is_file()
    assert not list((site / "ja").glob("*.pdf"))
    page = (site / "ja" / "index.html").read_text(encoding="utf-8")
    assert ".pdf" not in page and 'lang="ja"' in page and "イタリアのダマ" in page
    # The booklet command: ja asked for by name is refused in one line; with every
    # language, ja is left out and named, and the others' books are written.
    asked = run_cli("booklet", "--lang", "ja", "--out", tmp_path / "books", cwd=project)
    assert asked.returncode == 1 and "Traceback" not in asked.stderr
    assert "ja: no printed book can be made: its script (Jpan)" in asked.stderr
    every = run_cli("booklet", "--drafts", "--out", tmp_path / "all", cwd=project)
    assert every.returncode == 0, every.stderr[-2000:]
    assert "ja: no printed book: its script (Jpan)" in every.stderr
    assert sorted(path.name for path in (tmp_path / "all").iterdir()) == [
        f"{code}.pdf" for code in sorted(("de", "en", "es", "fr", "it", "nl"))
    ]
