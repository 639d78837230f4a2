"""The site commands as a maintainer or a translator runs them, in a copy of the project."""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import copy_project, run_cli
from tests.test_catalog import (
    LANGUAGES,
    MAN,
    MAN_12,
    MAN_23,
    blank,
    change_the_man_page,
    complete_catalogs,
    edit_message,
    po_file,
    read_catalog,
)

pytestmark = pytest.mark.slow

NOTICE = ("notice.untranslated", "{count}")


def run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=project)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


@pytest.fixture
def complete(project: Path) -> Path:
    """The copy, with every language translated for the current English."""
    complete_catalogs(project)
    return project


def page(project: Path, language: str, name: str) -> str:
    return (project / "site" / language / name / "index.html").read_text(encoding="utf-8")


def text_of(markup: str) -> str:
    """The words of some HTML, tags dropped and white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def notice_text(project: Path, language: str, count: int) -> str:
    """The notice about untranslated passages, as the language's catalog words it."""
    catalog = read_catalog(po_file(project, language))
    message = catalog.get(
        "Passages on this page shown in English, because their translation is missing, out of "
        "date or faulty: {count}.",
        context="notice.untranslated",
    )
    assert message is not None and message.string
    # Collapsed like text_of(): French puts a no-break space before the colon.
    return " ".join(str(message.string).replace("{count}", str(count)).split())


def heading_and_notice(markup: str) -> tuple[str, str | None]:
    """The page's H1 text, and the text of the note that follows it at once (if any)."""
    found = re.search(
        r"<h1[^>]*>(.*?)</h1>\s*(<div class=\"admonition note\">(.*?)</div>)?", markup, re.S
    )
    assert found is not None
    title = text_of(found.group(1)).removesuffix(" ¶")
    return title, (text_of(found.group(3)) if found.group(2) else None)


def title_of(markup: str) -> str:
    found = re.search(r"<title>(.*?)</title>", markup, re.S)
    assert found is not None
    return html.unescape(found.group(1))


def test_translator_adds_a_language_and_builds_it(project: Path) -> None:
    result = run(project, "new-language", "pt")
    assert result.returncode == 0, result.stderr
    assert po_file(project, "pt").is_file()

    status = run(project, "status")
    assert status.returncode == 0
    lines = {line.split()[0]: line for line in status.stdout.splitlines() if line.strip()}
    assert lines["pt"].startswith("pt  0.0%  translated 0, outdated 0, missing ")

    refused = run(project, "build", "--lang", "pt", "--lang", "en")
    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert refused.stderr == (
        "dama-diagrams: pt is a draft: it is a new language, with no message translated yet; "
        "build it with --drafts\n"
    )

    build = run(project, "build", "--lang", "pt", "--lang", "en", "--drafts")
    assert build.returncode == 0, build.stderr
    index = page(project, "pt", ".")
    assert '<html lang="pt"' in index
    # nothing is translated yet: the English shows, and the note says so in English
    title, notice = heading_and_notice(index)
    assert title == "Italian draughts"
    assert notice is not None
    assert re.fullmatch(
        r"Passages on this page shown in English, because their translation is missing, out of "
        r"date or faulty: [1-9]\d*\.",
        notice,
    )
    root = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="pt/"' in root and "Português" in root


def test_failed_build_is_one_line_and_keeps_the_old_site(project: Path) -> None:
    assert run(project, "build", "--lang", "en").returncode == 0
    old = (project / "site" / "en" / "index.html").read_bytes()

    diagram = project / "diagrams" / "priority-most-kings.yaml"
    diagram.write_text(diagram.read_text().replace("most-kings", "king-first"))
    result = run(project, "build", "--lang", "en")

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(f"{Path('diagrams') / 'priority-most-kings.yaml'}:")
    assert (project / "site" / "en" / "index.html").read_bytes() == old


def test_adding_an_existing_language_is_refused(project: Path) -> None:
    result = run(project, "new-language", "nl")
    assert result.returncode == 1
    assert "already exists" in result.stderr


def test_a_language_one_message_short_stays_published(complete: Path) -> None:
    """A message the translator has not done yet shows in English; the language stays."""
    project = complete
    edit_message(project, "it", MAN_23, blank)

    result = run(project, "build")

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("built 6 languages (de, en, es, fr, it, nl),")
    assert "left out" not in result.stderr and "not in the site" not in result.stderr
    assert "Never backwards" in text_of(page(project, "it", "man"))
    assert heading_and_notice(page(project, "it", "man"))[1] == notice_text(project, "it", 1)


def test_a_draft_listed_in_mkdocs_yml_is_left_out_and_named(complete: Path) -> None:
    """Held back by mkdocs.yml: not built, not offered anywhere, and every command says so."""
    project = complete
    config = project / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8") + "\nextra:\n  dama_diagrams:\n    drafts: [it]\n",
        encoding="utf-8",
    )

    result = run(project, "build")

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("built 5 languages (de, en, es, fr, nl),")
    assert result.stderr == (
        "dama-diagrams: it (Italiano) is left out of the site: mkdocs.yml lists it as a draft "
        "(extra.dama_diagrams.drafts); build --drafts includes it\n"
    )
    assert sorted(path.name for path in (project / "site").iterdir() if path.is_dir()) == [
        "de",
        "en",
        "es",
        "fr",
        "nl",
    ]
    root = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert 'hreflang="de"' in root and 'href="de/"' in root
    assert 'hreflang="it"' not in root and 'href="it/"' not in root and '"it"' not in root
    for code in ("en", "de"):
        menu = page(project, code, "man")
        assert 'hreflang="nl"' in menu
        assert 'hreflang="it"' not in menu and "Italiano" not in menu
    status = run(project, "status", "--lang", "it")
    assert status.returncode == 0, status.stderr
    assert status.stdout.endswith(
        "(draft: mkdocs.yml lists it as a draft (extra.dama_diagrams.drafts); left out of a "
        "build without --drafts)\n"
    )
    old = (project / "site" / "en" / "index.html").read_bytes()

    # asked for by name, a draft needs --drafts: one line, and the site stays
    refused = run(project, "build", "--lang", "it")
    assert refused.returncode == 1
    assert refused.stderr == (
        "dama-diagrams: it is a draft: mkdocs.yml lists it as a draft "
        "(extra.dama_diagrams.drafts); build it with --drafts\n"
    )
    assert (project / "site" / "en" / "index.html").read_bytes() == old
    assert not (project / "site" / "it").exists()

    built = run(project, "build", "--drafts")
    assert built.returncode == 0, built.stderr
    assert built.stderr == ""
    assert 'href="it/"' in (project / "site" / "index.html").read_text(encoding="utf-8")


def test_a_changed_sentence_shows_the_english_with_a_notice(complete: Path) -> None:
    """An old translation may say what the English no longer says: the page never shows it."""
    project = complete
    old = read_catalog(po_file(project, "it"))[MAN_12].string
    assert old
    change_the_man_page(project)
    update = run(project, "update-translations")
    assert update.returncode == 0, update.stderr

    result = run(project, "build", "--lang", "it")

    assert result.returncode == 0, result.stderr
    man = page(project, "it", "man")
    assert " ".join(str(old).split()) not in text_of(man)  # the English, not the old translation
    assert "A man steps one square" in text_of(man)
    title, notice = heading_and_notice(man)
    assert title == str(read_catalog(po_file(project, "it"))["The man"].string)
    # the changed sentence is outdated and the new heading missing: two passages
    assert notice == notice_text(project, "it", 2)
    # a page that uses neither carries no notice
    assert heading_and_notice(page(project, "it", "king"))[1] is None
    assert f"{MAN}:12: it: outdated translation of" in result.stdout
    assert f"{MAN}:23: it: no translation of 'A draw is agreed by both players.'" in result.stdout


NEW_PAGE = """\
{% set title = _("Draughts etiquette") %}
{% set description = _("How players behave at the board.") %}
{% set summary = _("how players behave at the board.") %}

# {{ title }}

{% trans %}Shake hands before the game and after it.{% endtrans %}
"""


def test_a_new_page_builds_before_any_catalog_knows_it(complete: Path) -> None:
    project = complete
    catalogs = {code: po_file(project, code).read_bytes() for code in LANGUAGES}
    (project / "docs" / "pages" / "rules-x.md.j2").write_text(NEW_PAGE, encoding="utf-8")
    with (project / "docs" / "pages" / "nav.yml").open("a", encoding="utf-8") as nav:
        nav.write("- rules-x\n")

    result = run(project, "build")  # no --drafts: a new page never takes a language away

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert {code: po_file(project, code).read_bytes() for code in LANGUAGES} == catalogs
    for code in ("en", *LANGUAGES):
        markup = page(project, code, "rules-x")
        title, notice = heading_and_notice(markup)
        assert title == "Draughts etiquette", code
        assert title_of(markup).startswith("Draughts etiquette - "), code
        assert "Shake hands before the game and after it." in text_of(markup)
        assert f'<html lang="{code}"' in markup
        if code == "en":
            assert notice is None
        else:
            # the title and the paragraph: two passages on the page, none translated (its
            # description and summary are not shown on the page itself)
            assert notice == notice_text(project, code, 2), code
        # the other pages link to it in the navigation, by its English title
        assert 'href="../rules-x/"' in page(project, code, "man")
