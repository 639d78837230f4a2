"""The gettext catalogs: status, updates, new languages and broken input, as translators see them.

Most tests work on a copy of the project whose five catalogs are first made
complete (:func:`complete_catalogs`), so that every count below starts from
"all N messages translated" and is worked out from the edits the test makes.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.pofile import read_po, write_po

from dama_diagrams.site.i18n import (
    Catalog,
    CatalogError,
    Entry,
    available_languages,
    extract,
    load_catalog,
    reading,
    translation_problems,
)
from dama_diagrams.site.i18n._po import po_syntax_problem
from dama_diagrams.site.i18n.extract import extract_messages
from dama_diagrams.site.messages import MESSAGES
from tests.conftest import ROOT, copy_project, made_once, run_cli

LANGUAGES = ("de", "es", "fr", "it", "nl")
STATUS_LINE = re.compile(
    r"(?P<language>[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?)  (?P<percent>\d{1,3}\.\d)%  "
    r"translated (?P<translated>\d+), outdated (?P<outdated>\d+), missing (?P<missing>\d+)"
    r"(?:  \((?P<note>draft: .*)\))?"
)
LOCATED = re.compile(r"[^\s:]+:\d+: \S")
"""One error line: ``path:line: message``."""

MAN = "docs/pages/man.md.j2"
# Messages of docs/pages/man.md.j2 that no other page or diagram uses, by their line there.
MAN_7 = (
    "Every piece starts the game as a man. The men are the foot soldiers of\n"
    "the game: they only ever go forwards, towards the opponent's side."
)
MAN_12 = (
    "A man moves one square diagonally forwards, onto an empty dark square. It\n"
    "can never step backwards or sideways."
)
MAN_23 = "Never backwards"
MAN_25 = (
    "A man captures forwards only. Even with an opposing piece right behind it\n"
    "and an empty square beyond, a man may not capture backwards."
)
CAPTURE_ONLY = ("engine.capture_only", MESSAGES["engine.capture_only"])


# --- helpers: catalogs read and written with Babel, as a PO editor would ------------------


def po_file(project: Path, language: str) -> Path:
    return project / "docs" / "locales" / language / "LC_MESSAGES" / "messages.po"


def read_catalog(path: Path) -> BabelCatalog:
    with path.open("rb") as file:
        return read_po(file)


def write_catalog(path: Path, catalog: BabelCatalog) -> None:
    with path.open("wb") as file:
        write_po(file, catalog, width=0, include_previous=True)


def complete_catalogs(project: Path) -> int:
    """Translate every message of every language for the current English; the message count.

    Translated messages keep their translation; the others get ``[xx] English``,
    which keeps their placeholders.  Obsolete entries are dropped.
    """
    template = extract_messages(project)
    for language in LANGUAGES:
        path = po_file(project, language)
        catalog = read_catalog(path)
        catalog.update(template)
        for message in catalog:
            if not message.id:
                continue
            if not message.string or message.fuzzy:
                message.string = f"[{language}] {message.id}"
            message.flags.discard("fuzzy")
            message.previous_id = []
        catalog.obsolete.clear()
        write_catalog(path, catalog)
    return len(template)


def edit_message(
    project: Path,
    language: str,
    english: str,
    change: Callable[[BabelCatalog, str], None],
) -> None:
    path = po_file(project, language)
    catalog = read_catalog(path)
    change(catalog, english)
    write_catalog(path, catalog)


def blank(catalog: BabelCatalog, english: str) -> None:
    catalog[english].string = ""


def make_fuzzy(catalog: BabelCatalog, english: str) -> None:
    catalog[english].flags.add("fuzzy")


def line_of(path: Path, text: str) -> int:
    """The number of the one line of ``path`` that is exactly ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines.count(text) == 1, text
    return lines.index(text) + 1


def status_lines(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if not line.startswith("  ")]
    for line in lines:
        assert STATUS_LINE.fullmatch(line), line
    return {line.split()[0]: line for line in lines}


def expected_status(language: str, translated: int, outdated: int, missing: int) -> str:
    total = translated + outdated + missing
    return (
        f"{language}  {math.floor(1000 * translated / total) / 10:.1f}%  translated {translated}, "
        f"outdated {outdated}, missing {missing}"
    )


def fails_cleanly(result: subprocess.CompletedProcess[str]) -> list[str]:
    """A refused command: exit 1, every line ``path:line: message``, no traceback."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines, result.stdout
    for line in lines:
        assert LOCATED.match(line), line
    return lines


def locales_snapshot(project: Path) -> dict[str, bytes]:
    folder = project / "docs" / "locales"
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file()
    }


@pytest.fixture(scope="module")
def completed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A copy of the project with every language complete, and its number of messages."""
    project = copy_project(tmp_path_factory.mktemp("completed"))
    return project, complete_catalogs(project)


@pytest.fixture
def project(completed: tuple[Path, int], tmp_path: Path) -> Path:
    """A fresh copy of the completed project, for one test to change."""
    return Path(shutil.copytree(completed[0], tmp_path / "project"))


@pytest.fixture
def total(completed: tuple[Path, int]) -> int:
    return completed[1]


# --- the project's own catalogs ---------------------------------------------------------

TERMS = {
    "nl": ("schijf", "dam"),
    "it": ("pedina", "dama"),
    "en": ("man", "king"),
    "de": ("Stein", "Dame"),
    "fr": ("pion", "dame"),
    "es": ("peón", "dama"),
}


def test_every_required_language_has_a_catalog() -> None:
    assert available_languages(ROOT) == ["de", "en", "es", "fr", "it", "nl"]


def test_no_translation_in_the_project_is_broken() -> None:
    errors, _ = translation_problems(ROOT, LANGUAGES)
    assert [str(error) for error in errors] == []


@pytest.mark.parametrize("language", sorted(TERMS))
def test_catalog_uses_the_established_draughts_terms(language: str) -> None:
    man, king = TERMS[language]
    catalog = load_catalog(ROOT, language)
    assert man in catalog.text("position.man", squares="9")
    assert king.lower() in catalog.text("position.king", squares="9").lower()


def test_the_messages_these_tests_edit_are_where_they_say() -> None:
    """The line numbers below were read off docs/pages/man.md.j2; each message is used once."""
    found = {m.id: m.locations for m in extract_messages(ROOT) if m.id}
    assert [found[english] for english in (MAN_7, MAN_12, MAN_23, MAN_25)] == [
        [(MAN, 7)],
        [(MAN, 12)],
        [(MAN, 23)],
        [(MAN, 25)],
    ]


def test_the_complete_copy_starts_at_one_hundred_percent(completed: tuple[Path, int]) -> None:
    project, total = completed
    lines = status_lines(run_cli("status", cwd=project))
    assert lines == {code: expected_status(code, total, 0, 0) for code in LANGUAGES}
    assert lines["it"] == f"it  100.0%  translated {total}, outdated 0, missing 0"


# --- one language's catalog in memory -----------------------------------------------------


def _entry(english: str, shown: str, state: str = "translated") -> Entry:
    return Entry(english, shown, state, ((MAN, 1),), 10)  # type: ignore[arg-type]


def test_placeholders_must_match_exactly() -> None:
    entries = {
        (None, "Move {move}"): _entry("Move {move}", "Zug {move}"),
        (None, "plain"): _entry("plain", "schlicht"),
    }
    catalog = Catalog("de", Path("de.po"), entries)
    assert catalog.message("Move {move}", move="22-19") == "Zug 22-19"
    with pytest.raises(CatalogError, match=r"placeholder \{move\} is missing"):
        catalog.message("plain", move="22-19")
    with pytest.raises(CatalogError, match=r"unknown placeholder \{move\}") as raised:
        catalog.message("Move {move}", square="5")
    assert str(raised.value).startswith("de.po:10: de: ")


def test_untranslated_text_shows_in_english_and_is_counted_once_used() -> None:
    entries = {
        (None, "old"): _entry("old", "alt", "outdated"),
        (None, "new"): _entry("new", "new", "missing"),
        (None, "done"): _entry("done", "fertig"),
    }
    catalog = Catalog("de", Path("de.po"), entries)
    assert catalog.not_current() == 0
    assert catalog.message("done") == "fertig"
    assert catalog.not_current() == 0
    assert catalog.message("old") == "alt"
    assert catalog.message("new") == "new"
    assert catalog.message("never extracted") == "never extracted"
    assert catalog.not_current() == 2


def test_a_code_message_is_found_by_its_key() -> None:
    catalog = load_catalog(ROOT, "it")
    assert catalog.text("ui.and") == "e"
    with pytest.raises(CatalogError, match=r"no message 'ui\.nothing'"):
        catalog.text("ui.nothing")


# --- status --------------------------------------------------------------------------------


def test_status_counts_missing_and_outdated_messages(project: Path, total: int) -> None:
    for english in (MAN_7, MAN_23):
        edit_message(project, "it", english, blank)
    edit_message(project, "it", MAN_25, make_fuzzy)
    edit_message(project, "de", MAN_23, blank)

    lines = status_lines(run_cli("status", cwd=project))

    assert sorted(lines) == list(LANGUAGES)
    assert lines["it"] == expected_status("it", total - 3, 1, 2)
    assert lines["de"] == expected_status("de", total - 1, 0, 1)
    for code in ("es", "fr", "nl"):
        assert lines[code] == f"{code}  100.0%  translated {total}, outdated 0, missing 0"


def test_status_percent_is_worked_out_from_the_counts(project: Path, total: int) -> None:
    edit_message(project, "it", MAN_7, blank)
    edit_message(project, "it", MAN_23, blank)

    line = status_lines(run_cli("status", "--lang", "it", cwd=project))["it"]

    found = STATUS_LINE.fullmatch(line)
    assert found is not None
    assert int(found["translated"]) == total - 2
    assert (int(found["outdated"]), int(found["missing"])) == (0, 2)
    # two of the total are missing: 100 * (total - 2) / total, to one decimal
    # Rounded down: a language one message short never shows 100.0%.
    assert found["percent"] == str(math.floor(1000 * (total - 2) / total) / 10)
    assert float(found["percent"]) < 100


def test_verbose_status_names_the_source_line_of_each_message(project: Path, total: int) -> None:
    for english in (MAN_7, MAN_23):
        edit_message(project, "it", english, blank)
    edit_message(project, "it", MAN_25, make_fuzzy)

    result = run_cli("status", "--lang", "it", "-v", cwd=project)

    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == expected_status("it", total - 3, 1, 2)
    assert lines[1:] == [
        f"  {MAN}:25: outdated: 'A man captures forwards only. Even with an opposing piece "
        "right beh...'",
        f"  {MAN}:7: missing: 'Every piece starts the game as a man. The men are the foot "
        "soldiers...'",
        f"  {MAN}:23: missing: 'Never backwards'",
    ]


def test_status_of_a_language_without_catalog_is_refused(project: Path) -> None:
    result = run_cli("status", "--lang", "pt", cwd=project)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "dama-diagrams new-language pt" in result.stderr


def _translated_as(text: str) -> Callable[[BabelCatalog, str], None]:
    def change(catalog: BabelCatalog, english: str) -> None:
        catalog[english].string = text

    return change


@pytest.mark.parametrize(
    ("character", "named"),
    [
        ("😀", "😀 (U+1F600 GRINNING FACE)"),
        ("⛀", "⛀ (U+26C0 WHITE DRAUGHTS MAN)"),
        ("ก", "ก (U+0E01 THAI CHARACTER KO KAI)"),
    ],
)
def test_status_warns_at_its_line_of_a_character_the_book_cannot_print(
    project: Path, total: int, character: str, named: str
) -> None:
    """The fonts Typst embeds have no emoji, no draughts men, no Thai: said before any build."""
    edit_message(project, "it", MAN_23, _translated_as(f"Mai all\u2019indietro {character}"))
    line = line_of(po_file(project, "it"), f'msgid "{MAN_23}"') + 1  # its msgstr

    result = run_cli("status", "--lang", "it", cwd=project)

    assert result.returncode == 0, result.stderr  # a warning: the site shows it, the book not
    assert status_lines(result)["it"] == expected_status("it", total, 0, 0)
    assert result.stderr.splitlines() == [
        f"warning: docs/locales/it/LC_MESSAGES/messages.po:{line}: it: glyphs: the translation "
        f"of 'Never backwards' has {named}, which the printed book's fonts lack: the book "
        "shows \ufffd in its place; write it another way (the web pages show it), or keep it "
        "with a translator comment '# dama: allow glyphs'"
    ]
    strict = run_cli("status", "--lang", "it", "--strict-translations", cwd=project)
    assert strict.returncode == 1 and f"messages.po:{line}: it: glyphs" in strict.stderr


@pytest.mark.parametrize(
    ("blank_text", "named"),
    [
        ("\u2028", "U+2028 (LINE SEPARATOR), which shows"),
        ("\u3000", "U+3000 (IDEOGRAPHIC SPACE), which shows"),
        ("\u200b\u3164", "U+200B (ZERO WIDTH SPACE), U+3164 (HANGUL FILLER), which show"),
        # written as HTML references, which the page shows as the characters
        ("&#8203;", "U+200B (ZERO WIDTH SPACE), written &#8203;, which shows"),
        ("&#x2028;", "U+2028 (LINE SEPARATOR), written &#x2028;, which shows"),
        ("&nbsp;&shy;", "U+00A0 (NO-BREAK SPACE), U+00AD (SOFT HYPHEN), written &nbsp;, &shy;, "
         "which show"),
    ],
    ids=["line-separator", "ideographic-space", "fillers", "reference", "hex", "named"],
)  # fmt: skip
def test_a_blank_translation_is_none_and_status_says_so_at_its_line(
    project: Path, total: int, blank_text: str, named: str
) -> None:
    """A heading translated as a line separator would be an empty heading: the English shows.

    Written as ``&#8203;``, it passed as translated: 100 %, and an empty ``<h2>``.
    """
    edit_message(project, "it", MAN_23, _translated_as(blank_text))
    line = line_of(po_file(project, "it"), f'msgid "{MAN_23}"') + 1  # its msgstr

    result = run_cli("status", "--lang", "it", cwd=project)

    assert status_lines(result)["it"] == expected_status("it", total - 1, 0, 1)
    assert result.stderr.splitlines() == [
        f"warning: docs/locales/it/LC_MESSAGES/messages.po:{line}: it: blank: the translation "
        f"of 'Never backwards' is blank: it holds only {named} nothing; the site "
        "and the book show the English instead: translate it, or empty the msgstr"
    ]
    catalog = load_catalog(project, "it")
    assert catalog.raw(MAN_23) == MAN_23


@pytest.mark.parametrize(
    ("translation", "said"),
    [
        ("&#8238;ertnaid&#x2019;lla iaM", "the control character U+202E at character 1 (written "
         "&#8238;), which no page or book shows as text; delete it"),
        ("Mai &#x2067;all\u2019indietro&#x2069;", "the control character U+2067 at character 5 "
         "(written &#x2067;)"),
        ("Mai all\u2019indietro&#1;", "the control character U+0001 at character 17 (written "
         "&#1;)"),
        ("Mai all\u2019indietro&#xFDD0;", "the noncharacter U+FDD0 at character 17 (written "
         "&#xFDD0;), which no page, book or TBX file can hold; delete it"),
    ],
    ids=["override", "isolates", "c0", "noncharacter"],
)  # fmt: skip
def test_a_control_character_written_as_a_reference_is_refused_at_its_line(
    project: Path, translation: str, said: str
) -> None:
    """``&#8238;`` passed status, and the page's heading held a raw U+202E."""
    edit_message(project, "it", MAN_23, _translated_as(translation))
    line = line_of(po_file(project, "it"), f'msgid "{MAN_23}"') + 1  # its msgstr

    lines = fails_cleanly(run_cli("status", "--lang", "it", cwd=project))

    assert len(lines) == 1
    assert lines[0].startswith(
        f"docs/locales/it/LC_MESSAGES/messages.po:{line}: it: the translation of "
        f"'Never backwards' holds {said}"
    ), lines[0]


def test_a_reference_to_text_in_a_translation_is_read_as_written(project: Path, total: int) -> None:
    """What the page shows as text (``&amp;#8238;``, a mark of direction) is no control."""
    edit_message(project, "it", MAN_23, _translated_as("Mai &lrm;all\u2019indietro &amp;#8238;"))

    result = run_cli("status", "--lang", "it", cwd=project)

    assert status_lines(result)["it"] == expected_status("it", total, 0, 0)
    assert result.stderr == ""


# --- an English sentence changes: status, then update-translations ---------------------------

MAN_12_NEW = MAN_12.replace("moves one square", "steps one square")
ADDED = "A draw is agreed by both players."


def change_the_man_page(project: Path) -> None:
    """Line 12: one word of a sentence changes; line 23: a heading is replaced by a new one."""
    page = project / MAN
    text = page.read_text(encoding="utf-8")
    assert text.count(MAN_12) == 1 and text.count(f'_("{MAN_23}")') == 1
    text = text.replace(MAN_12, MAN_12_NEW).replace(f'_("{MAN_23}")', f'_("{ADDED}")')
    page.write_text(text, encoding="utf-8")


def test_changed_english_is_outdated_in_every_language(project: Path, total: int) -> None:
    change_the_man_page(project)

    lines = status_lines(run_cli("status", cwd=project))

    # the changed sentence is outdated, the new heading missing, the old one gone
    assert lines == {code: expected_status(code, total - 2, 1, 1) for code in LANGUAGES}
    verbose = run_cli("status", "--lang", "fr", "-v", cwd=project).stdout.splitlines()
    assert verbose[1:] == [
        f"  {MAN}:12: outdated: 'A man steps one square diagonally forwards, onto an empty dark "
        "squa...'",
        f"  {MAN}:23: missing: 'A draw is agreed by both players.'",
    ]


CHANGED_ENTRY = (
    f"#: {MAN}:12\n"
    "#, fuzzy\n"
    '#| msgid ""\n'
    '#| "A man moves one square diagonally forwards, onto an empty dark square. It\\n"\n'
    '#| "can never step backwards or sideways."\n'
    'msgid ""\n'
    '"A man steps one square diagonally forwards, onto an empty dark square. It\\n"\n'
    '"can never step backwards or sideways."\n'
    'msgstr ""\n'
)


def test_update_translations_marks_fuzzy_keeps_old_and_adds_new(project: Path, total: int) -> None:
    old = {code: read_catalog(po_file(project, code)) for code in LANGUAGES}
    change_the_man_page(project)

    result = run_cli("update-translations", cwd=project)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"wrote {Path('docs/locales/messages.pot')}",
        *(
            f"wrote {Path('docs/locales') / code / 'LC_MESSAGES' / 'messages.po'}"
            for code in LANGUAGES
        ),
    ]
    for code in LANGUAGES:
        path = po_file(project, code)
        text = path.read_text(encoding="utf-8")
        catalog = read_catalog(path)
        changed = catalog[MAN_12_NEW]
        assert changed.fuzzy
        assert changed.string == old[code][MAN_12].string != ""
        assert changed.locations == [(MAN, 12)]
        assert CHANGED_ENTRY in text  # the previous English as GNU gettext writes it
        assert reading.read_catalog(project, code)[MAN_12_NEW].previous_id == [MAN_12]
        assert catalog[ADDED].string == ""
        assert not catalog[ADDED].fuzzy
        assert MAN_23 not in catalog
        assert catalog.obsolete[MAN_23].string == old[code][MAN_23].string
        assert f'#~ msgid "{MAN_23}"\n#~ msgstr "{old[code][MAN_23].string}"' in text
    template = read_catalog(project / "docs" / "locales" / "messages.pot")
    assert len(template) == total
    assert ADDED in template and MAN_23 not in template

    # the written catalogs measure as the sources did; a second update writes the same bytes
    after = status_lines(run_cli("status", cwd=project))
    assert after == {code: expected_status(code, total - 2, 1, 1) for code in LANGUAGES}
    written = locales_snapshot(project)
    assert run_cli("update-translations", cwd=project).returncode == 0
    assert locales_snapshot(project) == written
    msgfmt = shutil.which("msgfmt")
    if msgfmt is not None:  # GNU gettext, where installed, reads every file written
        for code in LANGUAGES:
            check = [msgfmt, "--check", "-o", os.devnull, str(po_file(project, code))]
            checked = subprocess.run(check, capture_output=True, text=True, check=False)
            assert checked.returncode == 0, checked.stderr


def test_update_translations_of_one_language_leaves_the_others(project: Path) -> None:
    before = po_file(project, "de").read_bytes()
    change_the_man_page(project)

    result = run_cli("update-translations", "--lang", "it", cwd=project)

    assert result.returncode == 0, result.stderr
    assert po_file(project, "de").read_bytes() == before
    assert read_catalog(po_file(project, "it"))[MAN_12_NEW].fuzzy


# --- a new language --------------------------------------------------------------------------


def test_new_language_is_started_from_the_english_sources(project: Path, total: int) -> None:
    result = run_cli("new-language", "pt", cwd=project)

    assert result.returncode == 0, result.stderr
    path = po_file(project, "pt")
    assert result.stdout.startswith(f"wrote {Path('docs/locales/pt/LC_MESSAGES/messages.po')} ")
    assert "(Português)" in result.stdout
    text = path.read_text(encoding="utf-8")
    assert '"Language: pt\\n"' in text
    catalog = read_catalog(path)
    assert str(catalog.locale) == "pt"
    template = extract_messages(project)
    assert {(m.context, m.id) for m in catalog if m.id} == {
        (m.context, m.id) for m in template if m.id
    }
    assert all(message.string == "" for message in catalog if message.id)
    assert len(catalog) == total

    lines = status_lines(run_cli("status", cwd=project))
    assert lines["pt"] == (
        f"pt  0.0%  translated 0, outdated 0, missing {total}  (draft: it is a new language, "
        "with no message translated yet; left out of a build without --drafts)"
    )
    assert sorted(lines) == sorted([*LANGUAGES, "pt"])


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("xx-!!", "is not a language code"),
        ("zz", "is not a locale that Babel knows"),
        ("PT", "is not a language code"),
        ("en", "English is the language of the sources"),
    ],
)
def test_a_bad_language_code_is_one_line_and_writes_nothing(
    project: Path, code: str, reason: str
) -> None:
    before = locales_snapshot(project)

    result = run_cli("new-language", code, cwd=project)

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert reason in result.stderr
    assert locales_snapshot(project) == before
    assert not (project / "docs" / "locales" / code).exists()


def test_an_existing_language_is_not_overwritten(project: Path) -> None:
    before = locales_snapshot(project)

    result = run_cli("new-language", "nl", cwd=project)

    assert result.returncode == 1
    assert "already exists at docs/locales/nl/LC_MESSAGES/messages.po" in result.stderr
    assert locales_snapshot(project) == before


# --- broken input: one line each, path:line ---------------------------------------------------


@pytest.fixture(scope="module")
def built(completed: tuple[Path, int], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The completed project, built in Italian and English with --strict-translations."""

    def make(folder: Path) -> None:
        project = Path(shutil.copytree(completed[0], folder / "project"))
        result = run_cli(
            "build", "--lang", "it", "--lang", "en", "--strict-translations", cwd=project
        )
        assert result.returncode == 0, result.stderr
        assert "translation" not in result.stdout  # nothing outdated or missing to warn about

    return made_once(tmp_path_factory, "completed-it-en", make) / "project"


@pytest.fixture
def site_project(built: Path, tmp_path: Path) -> Path:
    """A fresh copy of the built project, site/ included."""
    return Path(shutil.copytree(built, tmp_path / "project"))


def build_fails(project: Path, *args: str) -> list[str]:
    """A build that is refused: its lines; the site built before is left as it was."""
    before = (project / "site" / "it" / "index.html").read_bytes()
    lines = fails_cleanly(run_cli("build", "--lang", "it", "--lang", "en", *args, cwd=project))
    assert (project / "site" / "it" / "index.html").read_bytes() == before
    return lines


def replace_line(path: Path, number: int, change: Callable[[str], str]) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[number - 1] = change(lines[number - 1])
    path.write_text("\n".join(lines), encoding="utf-8")


IT_PO = "docs/locales/it/LC_MESSAGES/messages.po"


def test_po_string_without_its_closing_quote(site_project: Path) -> None:
    path = site_project / IT_PO
    msgstr = line_of(path, f'msgid "{MAN_23}"') + 1
    replace_line(path, msgstr, lambda line: line.removesuffix('"'))

    lines = build_fails(site_project)

    assert lines == [
        f"{IT_PO}:{msgstr}: it: not a valid PO file: the string has no closing quote: end it "
        'with " on the same line'
    ]
    status = fails_cleanly(run_cli("status", cwd=site_project))
    assert status == lines


def test_po_msgstr_without_msgid(site_project: Path) -> None:
    path = site_project / IT_PO
    msgid = line_of(path, f'msgid "{MAN_23}"')
    replace_line(path, msgid, lambda line: "")  # the msgstr below it is left alone

    lines = build_fails(site_project)

    assert lines == [
        f"{IT_PO}:{msgid + 1}: it: not a valid PO file: msgstr without a msgid before it"
    ]


def test_po_msgid_without_msgstr(site_project: Path) -> None:
    path = site_project / IT_PO
    msgid = line_of(path, f'msgid "{MAN_23}"')
    replace_line(path, msgid + 1, lambda line: "")

    lines = build_fails(site_project)

    assert len(lines) == 1
    assert lines[0].startswith(f"{IT_PO}:{msgid}: it: not a valid PO file: msgid without msgstr")


def test_po_translation_with_a_placeholder_its_english_lacks(site_project: Path) -> None:
    path = site_project / IT_PO
    msgid = line_of(path, 'msgctxt "engine.capture_only"') + 1
    replace_line(path, msgid + 1, lambda line: line.replace("{move}", "{moves}"))
    assert "{moves}" in path.read_text(encoding="utf-8").splitlines()[msgid]

    lines = build_fails(site_project)

    assert lines == [  # the msgstr's line, which holds the fault
        f"{IT_PO}:{msgid + 1}: it: the translation of '{CAPTURE_ONLY[1]}' has the placeholder "
        "{moves}, which the English lacks; keep exactly the English placeholders"
    ]


def test_an_outdated_translation_with_other_placeholders_shows_the_english(
    project: Path,
) -> None:
    """Babel's fuzzy matching may give new English an old text with other placeholders.

    That old text cannot take the new values: the page shows the English, and the
    message counts as outdated, not as a broken translation.
    """
    context, english = CAPTURE_ONLY

    def old_and_fuzzy(catalog: BabelCatalog, _: str) -> None:
        message = catalog.get(english, context)
        message.string = "{moves} era l'unica mossa."
        message.flags.add("fuzzy")

    edit_message(project, "it", english, old_and_fuzzy)
    catalog = load_catalog(project, "it")

    assert catalog.message(english, context, move="22x13") == (
        "22x13 is the only legal move: the capture is compulsory."
    )
    assert catalog.not_current() == 1
    errors, warnings = translation_problems(project, ["it"])
    assert errors == []
    assert [str(w).split(": ", 2)[2][:23] for w in warnings] == ["outdated translation of"]


def test_broken_catalogs_of_several_languages_are_all_reported(site_project: Path) -> None:
    de, fr = (f"docs/locales/{code}/LC_MESSAGES/messages.po" for code in ("de", "fr"))
    de_msgstr = line_of(site_project / de, f'msgid "{MAN_23}"') + 1
    replace_line(site_project / de, de_msgstr, lambda line: line.removesuffix('"'))
    fr_msgid = line_of(site_project / fr, 'msgctxt "engine.capture_only"') + 1
    replace_line(site_project / fr, fr_msgid + 1, lambda line: line.replace("{move}", "{moves}"))
    it_msgid = line_of(site_project / IT_PO, 'msgctxt "engine.capture_only"') + 1
    replace_line(site_project / IT_PO, it_msgid + 1, lambda line: line.replace("{move} ", ""))

    result = run_cli(
        "build", "--lang", "de", "--lang", "fr", "--lang", "it", "--lang", "en", cwd=site_project
    )
    lines = fails_cleanly(result)

    assert [line.split(": ", 1)[0] for line in lines] == [  # each at the msgstr's line
        f"{de}:{de_msgstr}",
        f"{fr}:{fr_msgid + 1}",
        f"{IT_PO}:{it_msgid + 1}",
    ]
    assert "has no closing quote" in lines[0]
    assert "has the placeholder {moves}, which the English lacks" in lines[1]
    assert "lacks the placeholder {move}" in lines[2]


def test_update_translations_reports_every_broken_catalog_and_writes_nothing(
    project: Path,
) -> None:
    de, fr = (f"docs/locales/{code}/LC_MESSAGES/messages.po" for code in ("de", "fr"))
    de_msgstr = line_of(project / de, f'msgid "{MAN_23}"') + 1
    replace_line(project / de, de_msgstr, lambda line: line.removesuffix('"'))
    fr_msgid = line_of(project / fr, f'msgid "{MAN_23}"')
    replace_line(project / fr, fr_msgid, lambda line: "")
    change_the_man_page(project)
    before = locales_snapshot(project)

    lines = fails_cleanly(run_cli("update-translations", cwd=project))

    assert lines == [
        f"{de}:{de_msgstr}: de: not a valid PO file: the string has no closing quote: end it "
        'with " on the same line',
        f"{fr}:{fr_msgid + 1}: fr: not a valid PO file: msgstr without a msgid before it",
    ]
    assert locales_snapshot(project) == before


@pytest.mark.parametrize(
    ("line", "change", "where", "reason"),
    [
        # an expression in a {% trans %} block: line 12 of the template
        (12, lambda line: line.replace("{% trans %}", "{% trans %}{{ piece.name }} "), 12, "'.'"),
        # a control structure in a {% trans %} block
        (
            12,
            lambda line: line.replace("{% trans %}", "{% trans %}{% if x %}y{% endif %}"),
            12,
            "control structures in translatable sections are not allowed",
        ),
        # `{% endtrans` left open on line 13: Jinja reads on to the next `{`, in line 15
        (13, lambda line: line.replace("{% endtrans %}", "{% endtrans"), 15, "got '{'"),
    ],
)
def test_a_trans_block_that_does_not_parse(
    site_project: Path, line: int, change: Callable[[str], str], where: int, reason: str
) -> None:
    replace_line(site_project / MAN, line, change)

    lines = build_fails(site_project)

    assert len(lines) == 1
    assert lines[0].startswith(f"{MAN}:{where}: ")
    assert reason in lines[0]
    # the English cannot be found, so status and update-translations stop too
    assert fails_cleanly(run_cli("status", cwd=site_project)) == lines
    before = locales_snapshot(site_project)
    assert fails_cleanly(run_cli("update-translations", cwd=site_project)) == lines
    assert locales_snapshot(site_project) == before


@pytest.mark.parametrize(
    ("english", "reason"),
    [
        ("<![CDATA[" * 7000, "is 63,000 characters long (at most 1,000); shorten it"),
        ("[a](b) " * 21, "has 21 '[' (at most 20), and each one slows the conversion"),
        (
            "Forward &#x202E;only.",
            "holds the control character U+202E at character 9 (written &#x202E;), which no "
            "page or book shows as text; delete it",
        ),
    ],
    ids=["cdata-63k", "brackets", "bidi-reference"],
)
def test_a_template_text_past_the_markdown_limits_is_refused_at_its_line(
    site_project: Path, english: str, reason: str
) -> None:
    """The English of a template reaches Markdown as a caption does, within the same limits."""
    replace_line(
        site_project / MAN, 12, lambda line: f"{{% trans %}}{english}{{% endtrans %}}\n\n{line}"
    )

    started = time.perf_counter()
    lines = build_fails(site_project)
    assert time.perf_counter() - started < 20  # the 63 KB text took minutes to convert

    assert len(lines) == 1 and lines[0].startswith(f"{MAN}:12: the English text {reason}"), lines
    assert fails_cleanly(run_cli("status", cwd=site_project)) == lines
    before = locales_snapshot(site_project)
    assert fails_cleanly(run_cli("update-translations", cwd=site_project)) == lines
    assert locales_snapshot(site_project) == before


def test_an_undeclared_variable_in_a_trans_block(site_project: Path) -> None:
    replace_line(site_project / MAN, 25, lambda line: line.replace("A man", "A {{ colour }} man"))

    lines = build_fails(site_project)

    assert len(lines) == 1
    assert lines[0].startswith(f"{MAN}:25: ")
    assert "'colour' is undefined" in lines[0]


def test_strict_translations_lists_every_outdated_and_missing_message(
    site_project: Path,
) -> None:
    edit_message(site_project, "it", MAN_23, blank)
    edit_message(site_project, "it", MAN_25, make_fuzzy)

    lines = build_fails(site_project, "--drafts", "--strict-translations")

    assert lines == [
        f"{MAN}:23: it: no translation of 'Never backwards'; add it to {IT_PO}",
        f"{MAN}:25: it: outdated translation of 'A man captures forwards only. Even with an "
        "opposing piece...' (its English changed, so the site shows the English); update it "
        f"in {IT_PO} and clear its fuzzy flag",
    ]
    # without --strict-translations the same build goes through, with the same lines as warnings
    result = run_cli("build", "--lang", "it", "--lang", "en", "--drafts", cwd=site_project)
    assert result.returncode == 0, result.stderr
    assert all(line in result.stdout.splitlines() for line in lines)


def test_a_draft_threshold_is_refused_at_its_line_with_the_way_forward(
    site_project: Path,
) -> None:
    """The old setting made every language a draft as soon as the English grew: it is gone."""
    config = site_project / "mkdocs.yml"
    text = (
        config.read_text(encoding="utf-8") + "\nextra:\n  dama_diagrams:\n    draft_threshold: 90\n"
    )
    config.write_text(text, encoding="utf-8")

    lines = build_fails(site_project)

    assert lines == [
        f"mkdocs.yml:{len(text.splitlines())}: extra.dama_diagrams.draft_threshold is no longer "
        "read: a published language stays published, its untranslated text shown in English; "
        "list the languages to hold back instead, as extra.dama_diagrams.drafts: [pt]"
    ]


# --- PO syntax, line by line ------------------------------------------------------------------

HEADER = 'msgid ""\nmsgstr ""\n"Language: it\\n"\n\n'


@pytest.mark.parametrize(
    ("body", "line", "reason"),
    [
        ('msgid "a"\nmsgstr "b\n', 6, "no closing quote"),
        ('msgid "a"\nmsgstr "b" c\n', 6, "text after the closing quote"),
        ('msgid "a"\nmsgstr "\\q"\n', 6, "unknown escape \\q"),
        ('#: x:1\nmsgstr "b"\n', 6, "msgstr without a msgid before it"),
        ('msgid "a"\n\n#: x:2\nmsgid "c"\nmsgstr "d"\n', 5, "msgid without msgstr"),
        ('msgid "a"\nmsgid "c"\nmsgstr "d"\n', 6, "msgid before the msgstr"),
        ('msgid "a"\nmsgstr "b"\nmsgstr "c"\n', 7, "a second msgstr"),
        ('msgctxt "k"\n\n', 5, "msgctxt without a msgid"),
        ('msgid "a"\nmsgstr "b"\n#: x:1\n"d"\n', 8, "a string outside any msgid or msgstr"),
        ('msgid "a"\nmsgstr b\n', 6, "expected a string in double quotes"),
        ('msgid "a"\nmsgsrt "b"\n', 6, "unexpected text"),
        ('#~ msgid "a"\n#~ msgstr "b\n', 6, "no closing quote"),
    ],
)
def test_po_syntax_errors_name_their_line(body: str, line: int, reason: str) -> None:
    problem = po_syntax_problem((HEADER + body).encode())
    assert problem is not None
    assert problem[0] == line
    assert reason in problem[1]


@pytest.mark.parametrize(
    "body",
    [
        'msgid "a"\nmsgstr "b"\n',
        '#, fuzzy\n#| msgid "x"\nmsgctxt "k"\nmsgid ""\n"a\\n"\n"b \\"q\\""\nmsgstr "c\\\\d"\n',
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "uno"\nmsgstr[1] "molti"\n',
        'msgid "a"\nmsgstr "b"\n\n#~| msgid "x"\n#~ msgid "y"\n#~ msgstr ""\n#~ "z"\n',
    ],
)
def test_valid_po_syntax_passes(body: str) -> None:
    assert po_syntax_problem((HEADER + body).encode()) is None


def test_po_that_is_not_utf8_names_its_line() -> None:
    assert po_syntax_problem((HEADER + 'msgid "a"\nmsgstr "').encode() + b'\xe8"\n') == (
        6,
        "not UTF-8 text; save the file as UTF-8",
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_project_catalogs_are_valid_po(language: str) -> None:
    assert po_syntax_problem(po_file(ROOT, language).read_bytes()) is None


# --- the standard tool finds what a build finds --------------------------------------------------


def test_pybabel_extract_with_babel_cfg_finds_the_same_messages(tmp_path: Path) -> None:
    pybabel = Path(sys.executable).with_name("pybabel")
    pot = tmp_path / "messages.pot"
    result = subprocess.run(
        [str(pybabel), "extract", "-F", "babel.cfg", "-o", str(pot), "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr

    standard = {(m.context, m.id): sorted(m.locations) for m in read_catalog(pot) if m.id}
    ours = {(m.context, m.id): sorted(m.locations) for m in extract_messages(ROOT) if m.id}

    assert standard == ours
    # every kind of source is there: the code's words, page text and a diagram's caption
    assert ("ui.and", "and") in ours
    assert ours[(None, MAN_12)] == [(MAN, 12)]
    assert any(path.startswith("diagrams/") for places in ours.values() for path, _ in places)


def test_the_code_messages_come_from_the_package_when_the_project_has_none(
    completed: tuple[Path, int],
) -> None:
    project, _ = completed
    assert not (project / "dama_diagrams").exists()
    ours = {(m.context, m.id): m.locations for m in extract_messages(project) if m.id}
    package = extract_messages(ROOT).get(CAPTURE_ONLY[1], context=CAPTURE_ONLY[0])
    assert package is not None
    assert ours[CAPTURE_ONLY] == package.locations
    assert len(ours) == len(extract_messages(ROOT))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[python: x\nfoo\n", "babel.cfg:1: not a Babel mapping"),
        ("[jinja2: docs/pages/*.md.j2]\nx\n", "babel.cfg:2: not a Babel mapping"),
        ("[nonsense: docs/pages/*.md.j2]\n", "babel.cfg: Unknown extraction method 'nonsense'"),
        (None, "babel.cfg: there is no babel.cfg"),
    ],
)
def test_a_broken_babel_cfg_is_one_line(project: Path, text: str | None, expected: str) -> None:
    config = project / "babel.cfg"
    if text is None:
        config.unlink()
    else:
        config.write_text(text, encoding="utf-8")

    result = run_cli("status", cwd=project)

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(expected)


def test_a_copy_of_the_project_shares_only_what_it_did_not_change(tmp_path: Path) -> None:
    """English, catalogs and checks are remembered by content: a copy gets its own edits."""
    load_catalog(ROOT, "nl")
    extract._EXTRACTED.clear()  # as when other sources were read since: their English forgotten
    project = copy_project(tmp_path)
    assert load_catalog(project, "nl").entries is load_catalog(ROOT, "nl").entries
    assert extract_messages(project) is extract_messages(ROOT)  # the same sources

    # one Italian translation changed, one German placeholder lost: in the copy alone
    italian = load_catalog(ROOT, "it").entries
    key = next(
        key
        for key, entry in italian.items()
        if entry.state == "translated" and not re.search(r"[{}<%\[]", key[1])
    )
    _edit_translation(po_file(project, "it"), lambda message: (message.context, message.id) == key,
                      lambda text: "Tradotto di nuovo")  # fmt: skip
    _edit_translation(po_file(project, "de"), lambda message: "{" in str(message.string),
                      lambda text: text.replace("{", "(").replace("}", ")"))  # fmt: skip
    assert load_catalog(project, "it").entries[key].translation == "Tradotto di nuovo"
    assert load_catalog(ROOT, "it").entries[key].translation == italian[key].translation
    copy_errors, _ = translation_problems(project, ["de", "it"])
    root_errors, _ = translation_problems(ROOT, ["de", "it"])
    assert [error.path for error in copy_errors] == ["docs/locales/de/LC_MESSAGES/messages.po"]
    assert "placeholder" in str(copy_errors[0]) and root_errors == []

    # a sentence only the copy's pages have
    page = sorted((project / "docs" / "pages").glob("*.j2"))[0]
    page.write_text(page.read_text() + "{% trans %}Only the copy says this{% endtrans %}\n")
    assert extract_messages(project).get("Only the copy says this") is not None
    assert extract_messages(ROOT).get("Only the copy says this") is None


def _edit_translation(path: Path, pick: Callable[[Any], bool], edit: Callable[[str], str]) -> None:
    """Change the first translation that ``pick`` chooses in a PO file."""
    catalog = read_catalog(path)
    message = next(message for message in catalog if message.id and pick(message))
    message.string = edit(str(message.string))
    write_catalog(path, catalog)


def test_no_fuzzy_guess_is_copied_from_english_with_other_numbers() -> None:
    """A guess for "Rule 2: ..." copied from "Rule 4: ..." would teach the wrong rule (E11).

    Babel's fuzzy matching proposes the rule 4 title's translation for both new titles;
    only the one whose numbers agree keeps it, for the translator to check.
    """
    from babel.messages.catalog import Catalog as BabelCatalog

    from dama_diagrams.site.i18n.reading import measured

    old = BabelCatalog(locale="it")
    old.add("Rule 4: king met first", "Regola 4: prima la dama incontrata")
    template = BabelCatalog()
    template.add("Rule 2: the king captures first")
    template.add("Rule 4: the king met first")
    updated = measured(old, template)
    other_rule = updated.get("Rule 2: the king captures first")
    same_rule = updated.get("Rule 4: the king met first")
    assert other_rule is not None and other_rule.string == "" and not other_rule.fuzzy
    assert same_rule is not None and same_rule.fuzzy
    assert same_rule.string == "Regola 4: prima la dama incontrata"


@pytest.mark.parametrize("language", ["en", "nl", "it", "de", "fr", "es"])
def test_the_about_page_names_the_six_languages_in_alphabetical_order(language: str) -> None:
    """Review 2026-12-05 G19: "olandese, italiano, inglese, …" is an order no reader expects."""
    import unicodedata

    from dama_diagrams.site.i18n import load_catalog

    english = (
        "This book exists in six languages: Dutch, English, French, German, Italian and "
        "Spanish. Each has the same chapters and the same diagrams."
    )
    said = load_catalog(ROOT, language).message(english)
    listed = said.split(":", 1)[1].split(".", 1)[0].strip()
    words = re.split(r",\s*|\s+(?:and|en|e|und|et|y)\s+", listed)
    assert len(words) == 6, words

    def plain(word: str) -> str:
        return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().casefold()

    assert words == sorted(words, key=plain)
