"""An author's change never takes a language off the site, and a guess is never published.

Each test starts from a copy of the project and runs the commands as the
contributor page tells a newcomer to: add a page or a diagram, run
``update-translations``, build.  The expected texts are the project's own
catalogs and the contributor page's example, read independently of the code.
"""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from tests.conftest import copy_project, made_once, run_cli
from tests.po_files import msgstr_line

pytestmark = pytest.mark.slow

LANGUAGES = ("de", "es", "fr", "it", "nl")
SITE_LANGUAGES = sorted(("en", *LANGUAGES))

OPENING_PAGE = """\
{% set title = _("Opening moves") %}
{% set description = _("How a game of Italian draughts begins.") %}
{% set summary = _("the first moves of a game.") %}

# {{ title }}

{% trans %}White moves first, and the players move in turn.{% endtrans %}

{{ figure("initial-position") }}
"""
"""The contributor page's own example of a new page."""

NEW_DIAGRAM = """\
position: "W:W23,29,30:B12,19"
claim: capture
move: 23x14
title: "A capture for the newcomer"
caption: "The man on 23 takes the man on 19 and lands on 14."
"""
"""A correct diagram, with English that no catalog knows yet."""

NOTICE = (
    "notice.untranslated",
    "Passages on this page shown in English, because their translation is missing, out of "
    "date or faulty: {count}.",
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def po_path(project: Path, language: str) -> Path:
    return project / "docs" / "locales" / language / "LC_MESSAGES" / "messages.po"


def run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=project)


def site_languages(project: Path) -> list[str]:
    return sorted(path.name for path in (project / "site").iterdir() if path.is_dir())


def chooser_languages(project: Path) -> list[str]:
    root = (project / "site" / "index.html").read_text(encoding="utf-8")
    return sorted(set(re.findall(r'href="([a-z]{2,3})/"', root)))


def notice(project: Path, language: str, count: int) -> str:
    with po_path(project, language).open("rb") as file:
        message = read_po(file, locale=language).get(NOTICE[1], NOTICE[0])
    assert message is not None and message.string and not message.fuzzy
    return str(message.string).replace("{count}", str(count))


def fuzzy_entries(project: Path, language: str) -> dict[str, str]:
    """Every fuzzy entry of a catalog, English to the text the PO file holds."""
    with po_path(project, language).open("rb") as file:
        catalog = read_po(file, locale=language)
    return {
        str(message.id): str(message.string)
        for message in catalog
        if message.id and message.fuzzy and message.string
    }


def every_page(project: Path, language: str) -> str:
    return "\n".join(
        path.read_text(encoding="utf-8")
        for path in sorted((project / "site" / language).rglob("*.html"))
    )


def add_opening_page(project: Path) -> None:
    (project / "docs" / "pages" / "opening.md.j2").write_text(OPENING_PAGE, encoding="utf-8")
    with (project / "docs" / "pages" / "nav.yml").open("a", encoding="utf-8") as nav:
        nav.write("- opening\n")


def test_a_newcomer_adds_a_page_and_a_diagram_and_every_language_stays(project: Path) -> None:
    """The contributor page's workflow, end to end: six languages before and after."""
    add_opening_page(project)
    (project / "diagrams" / "newcomer-capture.yaml").write_text(NEW_DIAGRAM, encoding="utf-8")
    assert run(project, "update-translations").returncode == 0

    result = run(project, "build")

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # nothing left out, so nothing to say on stderr
    assert result.stdout.startswith("built 6 languages (de, en, es, fr, it, nl), 16 pages")
    assert site_languages(project) == SITE_LANGUAGES
    assert chooser_languages(project) == SITE_LANGUAGES
    for language in LANGUAGES:
        page = (project / "site" / language / "opening" / "index.html").read_text("utf-8")
        assert re.search(r"<h1[^>]*>Opening moves", page), language
        assert "White moves first, and the players move in turn." in page
        # the title and the paragraph are shown in English, and the notice counts both
        assert notice(project, language, 2) in html.unescape(page), language
        assert f'<html lang="{language}"' in page


@pytest.fixture(scope="module")
def suggested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new page, update-translations and a build: one workflow for every language's test."""

    def make(folder: Path) -> None:
        project = copy_project(folder)
        add_opening_page(project)
        assert run(project, "update-translations").returncode == 0
        built = run(project, "build")
        assert built.returncode == 0, built.stderr

    return made_once(tmp_path_factory, "fuzzy-suggestion", make) / "project"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fuzzy_suggestion_never_reaches_a_page(suggested: Path, language: str) -> None:
    """update-translations proposes a look-alike's translation; no page ever shows it."""
    guesses = fuzzy_entries(suggested, language)
    # Babel's fuzzy matching proposes the translation of 'A king moves' for 'Opening moves'
    assert "Opening moves" in guesses
    with po_path(suggested, language).open("rb") as file:
        king_moves = read_po(file, locale=language).get("A king moves")
    assert king_moves is not None and guesses["Opening moves"] == king_moves.string

    opening = (suggested / "site" / language / "opening" / "index.html").read_text("utf-8")
    assert re.search(r"<h1[^>]*>Opening moves", opening)
    assert f"<title>{guesses['Opening moves']} " not in opening
    assert guesses["Opening moves"] not in re.sub(r"<nav.*?</nav>", "", opening, flags=re.S)
    # status calls it missing, not outdated: it was never a translation of this message
    status = run(suggested, "status", "--lang", language, "-v")
    assert status.returncode == 0, status.stderr
    assert (
        "docs/pages/opening.md.j2:1: missing: 'Opening moves' (a suggestion from 'A king moves')"
        in status.stdout
    )
    assert "outdated 0," in status.stdout


def test_an_outdated_translation_never_reaches_any_page(project: Path) -> None:
    """Every translation marked fuzzy, in every language: not one of them is on the site."""
    for language in LANGUAGES:
        path = po_path(project, language)
        with path.open("rb") as file:
            catalog = read_po(file, locale=language)
        marked = []
        for message in catalog:
            if message.id and isinstance(message.id, str) and message.id in SHOWN_EVERYWHERE:
                message.string = f"FUZZY-{language}-{len(marked)}"
                message.flags.add("fuzzy")
                marked.append(str(message.string))
        assert len(marked) == len(SHOWN_EVERYWHERE)
        with path.open("wb") as file:
            write_po(file, catalog, width=0)

    result = run(project, "build")

    assert result.returncode == 0, result.stderr
    assert site_languages(project) == SITE_LANGUAGES
    for language in LANGUAGES:
        pages = every_page(project, language)
        assert "FUZZY-" not in pages, language
        assert "Italian draughts" in pages  # the English shows in their place
        home = (project / "site" / language / "index.html").read_text("utf-8")
        wanted = re.escape(notice(project, language, 1)).replace("1", r"[1-9]\d*")
        assert re.search(wanted, html.unescape(home)), language


SHOWN_EVERYWHERE = ("Italian draughts", "The starting position")
"""The home page's title and a diagram title: English that every language shows somewhere."""


def test_status_fails_at_the_line_where_the_build_fails(project: Path) -> None:
    """The issue's example: {cout} for {count} in Dutch."""
    path = po_path(project, "nl")
    line = msgstr_line(path, NOTICE[1], NOTICE[0])
    lines = path.read_text(encoding="utf-8").split("\n")
    assert "{count}" in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace("{count}", "{cout}")
    path.write_text("\n".join(lines), encoding="utf-8")

    build = run(project, "build")
    status = run(project, "status")

    assert build.returncode == 1 and status.returncode == 1
    assert not (project / "site").exists()
    where = f"docs/locales/nl/LC_MESSAGES/messages.po:{line}: nl: the translation of "
    assert build.stderr.startswith(where), build.stderr
    assert "{cout}" in build.stderr
    assert status.stderr == build.stderr
    assert "Traceback" not in status.stderr
    nl = next(row for row in status.stdout.splitlines() if row.startswith("nl "))
    assert nl.endswith("(broken: every build refuses it until the problems below are fixed)")


BROKEN_CATALOGS = {
    "no closing quote": ('msgstr "en"', 'msgstr "en'),
    "unknown escape": ('msgstr "en"', 'msgstr "en\\q"'),
    "msgstr without msgid": ('msgctxt "ui.and"\nmsgid "and"\n', 'msgctxt "ui.and"\n'),
    "unknown charset": ("charset=utf-8", "charset=no-such-charset"),
    "placeholder dropped": (
        "is een van de {count} mogelijke slagen.",
        "is een van de vele mogelijke slagen.",
    ),
}


@pytest.mark.parametrize("breakage", BROKEN_CATALOGS, ids=list(BROKEN_CATALOGS))
def test_status_fails_on_every_catalog_the_build_refuses(project: Path, breakage: str) -> None:
    old, new = BROKEN_CATALOGS[breakage]
    path = po_path(project, "nl")
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")

    build = run(project, "build")
    status = run(project, "status")

    assert build.returncode == 1, build.stdout
    assert status.returncode == 1, status.stdout
    assert status.stderr == build.stderr
    assert re.match(r"docs/locales/nl/LC_MESSAGES/messages\.po:\d+: ", status.stderr)
    assert "Traceback" not in status.stderr


def test_status_and_build_name_every_language_left_out(project: Path) -> None:
    """A listed draft and a new language: both named, with the reason and the flag."""
    config = project / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8") + "\nextra:\n  dama_diagrams:\n    drafts: [de]\n",
        encoding="utf-8",
    )
    assert run(project, "new-language", "pt").returncode == 0

    status = run(project, "status")
    build = run(project, "build")

    assert status.returncode == 0, status.stderr
    rows = {row.split()[0]: row for row in status.stdout.splitlines()}
    assert rows["de"].endswith(
        "(draft: mkdocs.yml lists it as a draft (extra.dama_diagrams.drafts); left out of a "
        "build without --drafts)"
    )
    assert rows["pt"].endswith(
        "(draft: it is a new language, with no message translated yet; left out of a build "
        "without --drafts)"
    )
    assert all("draft" not in rows[code] for code in ("es", "fr", "it", "nl"))
    assert build.returncode == 0, build.stderr
    assert build.stderr.splitlines() == [
        "dama-diagrams: de (Deutsch) is left out of the site: mkdocs.yml lists it as a draft "
        "(extra.dama_diagrams.drafts); build --drafts includes it",
        "dama-diagrams: pt (Português) is left out of the site: it is a new language, with no "
        "message translated yet; build --drafts includes it",
    ]
    assert site_languages(project) == ["en", "es", "fr", "it", "nl"]

    everything = run(project, "build", "--drafts")
    assert everything.returncode == 0, everything.stderr
    assert everything.stderr == ""
    assert site_languages(project) == sorted([*SITE_LANGUAGES, "pt"])


def test_a_partial_build_without_an_earlier_site_names_the_others(project: Path) -> None:
    result = run(project, "build", "--lang", "nl")

    assert result.returncode == 0, result.stderr
    assert site_languages(project) == ["nl"]
    named = result.stderr.splitlines()
    assert [line.split()[1] for line in named] == ["de", "en", "es", "fr", "it"]
    assert named[0] == (
        "dama-diagrams: de (Deutsch) is not in the site: the build asked only for --lang nl, "
        "and the earlier site had no such language to keep; build without --lang, or add "
        "--lang de, to include it"
    )
    # with the earlier site there, the others are kept, and nothing is left out
    assert run(project, "build").returncode == 0
    again = run(project, "build", "--lang", "nl")
    assert again.returncode == 0 and again.stderr == ""
    assert site_languages(project) == SITE_LANGUAGES


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("drafts: [xx]", "extra.dama_diagrams.drafts lists 'xx', which has no catalog"),
        ("drafts: pt", "extra.dama_diagrams.drafts must be a list of language codes"),
        ("draft_threshold: 90", "extra.dama_diagrams.draft_threshold is no longer read"),
    ],
)
def test_a_wrong_drafts_setting_is_one_line(project: Path, setting: str, message: str) -> None:
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8") + f"\nextra:\n  dama_diagrams:\n    {setting}\n"
    config.write_text(text, encoding="utf-8")

    for command in (("build",), ("status",)):
        result = run(project, *command)
        assert result.returncode == 1, command
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stderr.startswith("mkdocs.yml:"), result.stderr
        assert message in result.stderr


# ------------------------------------------------------------------------------
# After adding a page, the advice about a suggested translation is one a newcomer can follow.
#
# Babel's fuzzy matching proposes the Italian of 'A king moves' for the new
# title 'Opening moves' (tests/test_translation_workflow.py checks that it does).
# Before ``update-translations`` that suggestion lives only in memory: the PO
# file has no entry for 'Opening moves', so "check it in messages.po" alone
# sends the reader to look for something that is not there.


IT = "docs/locales/it/LC_MESSAGES/messages.po"
BEFORE = (
    "docs/pages/opening.md.j2:1: it: no translation of 'Opening moves', only a suggestion "
    "copied from 'A king moves' (the site shows the English); run dama-diagrams "
    f"update-translations, then check it in {IT}"
)
AFTER = (
    "docs/pages/opening.md.j2:1: it: no translation of 'Opening moves', only a suggestion "
    f"copied from 'A king moves' (the site shows the English); check it in {IT}"
)


def _has_entry(opening_project: Path, english: str) -> bool:
    with po_path(opening_project, "it").open("rb") as file:
        return read_po(file, locale="it").get(english) is not None


@pytest.fixture
def opening_project(tmp_path: Path) -> Path:
    copied = copy_project(tmp_path)
    add_opening_page(copied)
    return copied


def test_verify_says_to_run_update_translations_until_the_entry_is_written(
    opening_project: Path,
) -> None:
    assert not _has_entry(opening_project, "Opening moves")
    before = run_cli("verify", cwd=opening_project)
    assert before.returncode == 0, before.stderr
    assert BEFORE in before.stderr.splitlines()

    assert run_cli("update-translations", cwd=opening_project).returncode == 0
    assert _has_entry(opening_project, "Opening moves")  # now the advice can be followed
    after = run_cli("verify", cwd=opening_project)
    assert after.returncode == 0, after.stderr
    lines = after.stderr.splitlines()
    assert AFTER in lines and BEFORE not in lines


def test_build_gives_the_same_advice(opening_project: Path) -> None:
    result = run_cli("build", "--lang", "it", "--lang", "en", cwd=opening_project)
    assert result.returncode == 0, result.stderr
    assert BEFORE in result.stdout.splitlines()  # in the build's summary
