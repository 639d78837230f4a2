"""A translator's PO file is input like any other: bounded in time and memory, read whole.

One test per catalog breach of the second hostile review (issue 25), each
reproducing its input in a copy of the project and run as a user runs the
command: one ``path:line: message`` line, exit 1, no traceback, nothing written.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dama_diagrams._markdown_text import MAX_DEPTH
from dama_diagrams.site.i18n import catalog_path
from dama_diagrams.site.i18n.limits import markup_problem
from tests.conftest import copy_project, fails_cleanly, made_once, run_cli
from tests.po_files import msgstr_line, translate

pytestmark = pytest.mark.slow

IT = "docs/locales/it/LC_MESSAGES/messages.po"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def _refused_everywhere(project: Path, line: int, reason: str) -> None:
    """status, build and update-translations each refuse at ``line``; nothing is written."""
    before = {p: p.read_bytes() for p in (project / "docs" / "locales").rglob("*") if p.is_file()}
    for command in (("status", "--lang", "it"), ("build",), ("update-translations",)):
        result = run_cli(*command, cwd=project)
        assert result.returncode == 1, (command, result.stdout)
        assert "Traceback" not in result.stderr
        first = result.stderr.splitlines()[0]
        assert first.startswith(f"{IT}:{line}: it: "), (command, first)
        assert reason in first, first
    after = {p: p.read_bytes() for p in (project / "docs" / "locales").rglob("*") if p.is_file()}
    assert after == before
    assert not (project / "site").exists()


def test_an_absurd_nplurals_is_refused_at_its_line(project: Path) -> None:
    """nplurals=10**9 and one plural entry once took 8 GB per entry."""
    catalog = project / IT
    lines = catalog.read_text(encoding="utf-8").split("\n")
    line = next(n for n, text in enumerate(lines, 1) if text.startswith('"Plural-Forms:'))
    lines[line - 1] = '"Plural-Forms: nplurals=1000000000; plural=0;\\n"'
    lines += ['msgid "one apple"', 'msgid_plural "{n} apples"', 'msgstr[0] "a"', 'msgstr[1] "b"']
    catalog.write_text("\n".join(lines) + "\n", encoding="utf-8")

    _refused_everywhere(project, line, "no language has more than 6 plural forms")


def test_cr_only_line_endings_are_refused_not_read_as_empty(project: Path) -> None:
    """Read as one comment, the file was 0% translated, and an update emptied it."""
    catalog = project / IT
    catalog.write_bytes(catalog.read_bytes().replace(b"\n", b"\r"))

    _refused_everywhere(project, 1, "lone carriage return")


def test_crlf_line_endings_are_read_as_usual(project: Path) -> None:
    catalog = project / IT
    catalog.write_bytes(catalog.read_bytes().replace(b"\n", b"\r\n"))
    result = run_cli("status", "--lang", "it", cwd=project)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("it  100.0%  translated ")


def test_a_second_entry_for_one_msgid_is_refused(project: Path) -> None:
    """Babel kept the first silently and update-translations deleted the second."""
    catalog = project / IT
    text = catalog.read_text(encoding="utf-8")
    first = msgstr_line(catalog, "Italian draughts rules", "site.name") - 2  # its msgctxt
    entry = 'msgctxt "site.name"\nmsgid "Italian draughts rules"\nmsgstr "Altro nome"\n'
    catalog.write_text(text + "\n" + entry, encoding="utf-8")
    second = len(text.split("\n")) + 1

    _refused_everywhere(
        project, second, f"a second entry for the same msgid (the first is on line {first})"
    )


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ("<![CDATA[" * 8000, "72,008 characters long"),  # 97 s of Markdown before
        ("<![CDATA[" * 50, "has 100 '[' where the English has 0"),
        ("![" * 200, "'[' where the English has 0"),
        ("[a](" * 100, "'[' where the English has 0"),
        ("- " * 200, "nests more than 3 list or quote markers"),  # a RecursionError at 4,000
    ],
    ids=["long-cdata", "cdata", "images", "links", "nested-lists"],
)
def test_a_translation_that_would_stall_the_build_is_refused(
    project: Path, payload: str, reason: str
) -> None:
    english = "Exercises"
    catalog = project / IT
    line = msgstr_line(catalog, english)
    lines = catalog.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = f'msgstr "{payload}Esercizi"'
    catalog.write_text("\n".join(lines), encoding="utf-8")

    result = run_cli("build", "--lang", "it", cwd=project)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{IT}:{line}: it: the translation of 'Exercises' ")
    assert reason in result.stderr
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("english", "translation", "refused"),
    [
        ("See [the rules](rules.md).", "Zie [de regels](rules.md).", False),
        ("See [the rules](rules.md).", "Zie [de regels](rules.md) [en meer].", True),
        ("Compulsory capture", "Obligation de prendre" + " très" * 10, False),
        ("and", "x" * 504, True),  # 4 x 3 characters, or 3 + 500: at most 503
        ("and", "x" * 503, False),
        ("A list:\n\n- one\n- two", "Een lijst:\n\n- een\n- twee", False),
        ("One", "- - - - een", True),
        ("Use `<id>` here.", "Gebruik `<id>` hier.", False),
        ("Plain", "Plat <b>vet</b>", True),  # a tag the English lacks: refused
    ],
)
def test_markup_limits_hand_worked(english: str, translation: str, refused: bool) -> None:
    assert (markup_problem(english, translation) is not None) is refused


@pytest.mark.parametrize("command", ["status", "update-translations"])
def test_a_language_code_never_reaches_outside_the_locales(
    project: Path, tmp_path: Path, command: str
) -> None:
    outside = tmp_path / "x" / "LC_MESSAGES"
    outside.mkdir(parents=True)
    (outside / "messages.po").write_bytes((project / IT).read_bytes())
    before = (outside / "messages.po").read_bytes()

    result = run_cli(command, "--lang", "../../../x", cwd=project)

    assert result.returncode == 1
    assert result.stderr == (
        "dama-diagrams: '../../../x' is not a language code such as 'pt' or 'pt-BR'\n"
    )
    assert (outside / "messages.po").read_bytes() == before


SLOW_RENAMES = """
import os, sys, time
from dama_diagrams.cli import main
rename = os.replace
def slow(source, target, **options):
    time.sleep(3)
    return rename(source, target, **options)
os.replace = slow
sys.exit(main(sys.argv[1:]))
"""
"""The real command, each file held 3 s between being written and being put in place."""


def test_sigterm_during_update_translations_leaves_no_temporary_file(project: Path) -> None:
    before = {path: path.read_bytes() for path in (project / "docs" / "locales").rglob("*.po")}
    command = [sys.executable, "-c", SLOW_RENAMES, "update-translations"]
    process = subprocess.Popen(
        command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120
        while not list((project / "docs" / "locales").rglob("*.tmp")):
            assert time.monotonic() < deadline, "no temporary file appeared"
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 128 + signal.SIGTERM
    assert "Traceback" not in stderr
    assert list((project / "docs" / "locales").rglob("*.tmp")) == []
    after = {path: path.read_bytes() for path in (project / "docs" / "locales").rglob("*.po")}
    assert after == before  # each file whole: the old bytes, or the same bytes written again


# ------------------------------------------------------------------------------
# The catalog probes of the third hostile review (issue 31), each run as a user runs it.
#
# A limit must hold however its input is spelled: the plural forms as Babel
# reads the header (I01), nesting as Python-Markdown builds it (I02, B03).  A
# translation adds no link, no markup and no control character to its English
# (B04, I04-I05).  Each probe is refused by ``status`` and ``build`` at the PO
# file's ``path:line``, in one line, with no traceback; the site built before
# stays as it was.


SITE = "This site follows the technical rules of the Italian Draughts Federation (FID)"
"""The start of a long one-line English message with a link: room for every probe."""
PLURAL = ['msgid "one apple"', 'msgid_plural "{n} apples"', 'msgstr[0] "a"', 'msgstr[1] "b"']


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project, built in Italian and English."""

    def make(folder: Path) -> None:
        result = run_cli("build", "--lang", "it", "--lang", "en", cwd=copy_project(folder))
        assert result.returncode == 0, result.stderr

    return made_once(tmp_path_factory, "built-it-en", make) / "project"


@pytest.fixture
def built_copy(built: Path, tmp_path: Path) -> Path:
    """A fresh copy of the built project, site/ included, for one probe to break."""
    return Path(shutil.copytree(built, tmp_path / "project"))


def _lines(built_copy: Path) -> list[str]:
    return (built_copy / IT).read_text(encoding="utf-8").split("\n")


def _write(built_copy: Path, lines: list[str]) -> None:
    (built_copy / IT).write_text("\n".join(lines), encoding="utf-8")


def _line_of(lines: list[str], start: str) -> int:
    """The number (from 1) of the one line that starts so."""
    found = [number for number, text in enumerate(lines, 1) if text.startswith(start)]
    assert len(found) == 1, (start, found)
    return found[0]


def _refused(built_copy: Path, line: int, reason: str, *, also_update: bool = False) -> None:
    """status and build refuse at ``IT:line``, in one line; the site and the catalog stay."""
    site = {p: p.read_bytes() for p in (built_copy / "site").rglob("*.html")}
    catalog = (built_copy / IT).read_bytes()
    commands = [("status", "--lang", "it"), ("build", "--lang", "it", "--lang", "en")]
    if also_update:
        commands.append(("update-translations",))
    for command in commands:
        result = run_cli(*command, cwd=built_copy)
        assert result.returncode == 1, (command, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr, result.stderr
        problems = result.stderr.splitlines()
        assert len(problems) == 1, (command, problems)
        assert problems[0].startswith(f"{IT}:{line}: it: "), (command, problems[0])
        assert reason in problems[0], problems[0]
    assert {p: p.read_bytes() for p in (built_copy / "site").rglob("*.html")} == site
    assert (built_copy / IT).read_bytes() == catalog


# --- I01: the plural forms as Babel reads them ------------------------------------------------


@pytest.mark.parametrize(
    ("header", "offset", "reason"),
    [
        (['"plural-forms: nplurals=1000000000; plural=0;\\n"'], 0, "more than 6 plural forms"),
        (['"Plural-"', '"Forms: nplurals=1000000000; plural=0;\\n"'], 1, "more than 6"),
        (['"Plural-Forms: nplurals=2; nplurals=1000000000; plural=0;\\n"'], 0, "more than 6"),
        (['"Plural-Forms: nplurals=\\"1000000000\\"; plural=0;\\n"'], 0, "more than 6"),
        (['"X-Dummy: 1\\nPlural-Forms: nplurals=1000000000; plural=0;\\n"'], 0, "more than 6"),
        (['"Plural-Forms: nplurals=1_000_000_000; plural=0;\\n"'], 0, "more than 6"),
        (['"Plural-Forms: nplurals=0; plural=0;\\n"'], 0, "at least 1 plural form"),
    ],
    ids=["lower-case", "split", "twice", "quoted", "inside-another", "underscores", "zero"],
)
def test_nplurals_is_bounded_however_it_is_spelled(
    built_copy: Path, header: list[str], offset: int, reason: str
) -> None:
    """Each spelling once reached Babel, which allocated 10**9 strings per plural message."""
    lines = _lines(built_copy)
    line = _line_of(lines, '"Plural-Forms:')
    lines[line - 1 : line] = header
    _write(built_copy, [*lines, *PLURAL, ""])

    _refused(built_copy, line + offset, reason, also_update=True)


def test_nplurals_of_a_second_header_is_bounded_too(built_copy: Path) -> None:
    """Babel reads every ``msgid ""`` as the header, one with a msgctxt too, wherever it is."""
    lines = _lines(built_copy)
    header = ['msgctxt "x"', 'msgid ""', 'msgstr "plural-forms: nplurals=1000000000;\\n"']
    _write(built_copy, [*lines, *header, "", *PLURAL, ""])

    _refused(built_copy, len(lines) + 3, "more than 6 plural forms")


# --- I02, B03: nesting as Python-Markdown builds it -------------------------------------------


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (">" * 300, "nests more than 3 list or quote markers"),  # no blank after each >
        ("<ul><li>" * 100, f"(at most {MAX_DEPTH})"),
        ("<em>" * 250, f"(at most {MAX_DEPTH})"),
        ("\n".join(" " * 4 * level + "- a" for level in range(22)), "indents a line by"),
    ],
    ids=["quotes", "html-lists", "emphasis", "indented-lists"],
)
def test_deep_nesting_is_refused_however_it_is_spelled(
    built_copy: Path, payload: str, reason: str
) -> None:
    """Within the length limits, each once ended the book in a RecursionError naming no file."""
    lines = _lines(built_copy)
    msgid = _line_of(lines, f'msgid "{SITE}')
    escaped = payload.replace("\n", "\\n")
    lines[msgid] = f'msgstr "{escaped}Questo sito segue [il regolamento]({{fid_site}})."'
    _write(built_copy, lines)

    _refused(built_copy, msgid + 1, reason)


# --- B04, I04-I05: nothing the English lacks --------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (
            '<a href=\\"https://evil.example/phish\\">qui</a> ',
            "links to 'https://evil.example/phish'",
        ),
        ("<https://evil.example/phish> ", "links to 'https://evil.example/phish'"),
        ("<b>Nota</b> ", "has a <b> element, which the English lacks"),
        ('<img src=\\"https://evil.example/x.png\\"> ', "has a <img> element"),
        ("<script>alert(1)</script> ", "has a <script> element"),
    ],
    ids=["raw-link", "autolink", "bold-tag", "image", "script"],
)
def test_a_translation_adds_no_link_and_no_markup(
    built_copy: Path, payload: str, reason: str
) -> None:
    """nh3 let a raw link through: it was on the site and a /URI in the PDF."""
    lines = _lines(built_copy)
    msgid = _line_of(lines, f'msgid "{SITE}')
    lines[msgid] = f'msgstr "{payload}Questo sito segue [il regolamento]({{fid_site}})."'
    _write(built_copy, lines)

    _refused(built_copy, msgid + 1, reason)


def test_a_link_in_a_translation_of_plain_text_is_refused(built_copy: Path) -> None:
    lines = _lines(built_copy)
    msgid = _line_of(lines, 'msgid "Exercises"')
    lines[msgid] = 'msgstr "<a href=\\"https://evil.example/\\">Esercizi</a>"'
    _write(built_copy, lines)

    _refused(built_copy, msgid + 1, "has a <a> element, which the English lacks")


@pytest.mark.parametrize(
    ("character", "code"),
    [
        ("\x1b", "U+001B"),  # ESC
        ("\x07", "U+0007"),  # BEL
        ("\x00", "U+0000"),
        ("\x7f", "U+007F"),  # DEL
        ("\x85", "U+0085"),  # C1 next line
        ("\x9b", "U+009B"),  # C1 control sequence introducer
        ("\u202e", "U+202E"),  # right-to-left override
        ("\u2067", "U+2067"),  # right-to-left isolate
        ("\\a", "U+0007"),  # BEL as a PO escape
        ("\\r", "U+000D"),
    ],
)
def test_control_characters_are_refused(built_copy: Path, character: str, code: str) -> None:
    """They were published raw in 33 HTML files, and broke the book's fonts."""
    lines = _lines(built_copy)
    msgid = _line_of(lines, 'msgid "Exercises"')
    lines[msgid] = f'msgstr "Eser{character}cizi"'
    _write(built_copy, lines)

    _refused(built_copy, msgid + 1, f"holds the control character {code} at character 5")


def test_the_projects_own_catalogs_pass(tmp_path: Path) -> None:
    """Every real translation keeps within the limits: status is clean in all six languages."""
    built_copy = copy_project(tmp_path)
    result = run_cli("status", cwd=built_copy)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert [line.split()[:2] for line in result.stdout.splitlines()] == [
        [code, "100.0%"] for code in ("de", "es", "fr", "it", "nl")
    ]


@pytest.mark.parametrize(
    ("english", "translation", "refused"),
    [
        ("A board of 64 squares.", "Una damiera di 64 caselle, il *cantone*.", False),
        ("A board of 64 squares.", "Una damiera di **64** caselle.", False),
        ("A board " * 40, "<em>" * (MAX_DEPTH - 1) + "x", False),  # with its <p>: 20 deep
        ("A board " * 40, "<em>" * MAX_DEPTH + "x", True),
        ("See [the rules](rules.md).", "Zie [de regels](rules.md).", False),
        ("See [the rules](rules.md).", "Zie [de regels](https://evil.example/).", True),
        ("See <https://a.example/>.", "Zie <https://a.example/>.", False),
        ("Use `<id>` here.", "Gebruik `<id>` hier.", False),
        ("Plain", "Plat <code>x</code>", True),
        ("Tab", "Ta\tb", False),
        ("Line", "Re\u200dgel", False),  # a zero-width joiner is text in many scripts
        ("A list:\n\n- one\n- two", "Een lijst:\n\n- een\n- twee", False),
        ("A list:\n\n- one\n- two", "Een lijst:\n\n> - een\n- twee", True),
    ],
)
def test_markup_hand_worked(english: str, translation: str, refused: bool) -> None:
    assert (markup_problem(english, translation) is not None) is refused


# ------------------------------------------------------------------------------
# Catalog text that once broke the build or status.
#
# From a hostile review (issue 9, items 7-12 and 14; issue 25): each input once gave a
# traceback, and is now one ``path:line: message`` and exit 1, run as a user runs the command.


NL_CATALOG = catalog_path(Path(), "nl").as_posix()


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- YAML 1.1 numbers and dates in a translation ---


@pytest.mark.parametrize("value", ["0b_", "2024-02-30", "1_0", "1e3", "!!int 0x_", "~"])
def test_number_or_date_looking_translation_is_text(project: Path, value: str) -> None:
    translate(project, "nl", {("ui.and", "and"): value})
    assert run_cli("status", cwd=project).returncode == 0
    result = run_cli("build", "--lang", "nl", "--drafts", cwd=project)
    assert result.returncode == 0, result.stderr
    page = (project / "site" / "nl" / "capturing" / "index.html").read_text(encoding="utf-8")
    assert f" {value} " in page


def test_an_unquoted_translation_is_located(project: Path) -> None:
    catalog = project / NL_CATALOG
    line = msgstr_line(catalog, "and", "ui.and")
    _replace(
        catalog,
        'msgctxt "ui.and"\nmsgid "and"\nmsgstr "en"\n',
        'msgctxt "ui.and"\nmsgid "and"\nmsgstr !!int 0x_\n',
    )
    message = fails_cleanly(run_cli("status", cwd=project), f"{NL_CATALOG}:{line}:")
    assert "expected a string in double quotes" in message


# --- 9. a lone surrogate in a catalog ---------------------------------------------------


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        (b'msgstr "en\\ud800"', "unknown escape \\u"),  # PO has no \u escape
        (b'msgstr "en\xed\xa0\x80"', "not UTF-8"),  # a surrogate encoded as UTF-8 bytes
    ],
)
def test_a_lone_surrogate_in_a_catalog_is_located(
    project: Path, written: bytes, expected: str
) -> None:
    catalog = project / NL_CATALOG
    line = msgstr_line(catalog, "and", "ui.and")
    lines = catalog.read_bytes().split(b"\n")
    assert lines[line - 1] == b'msgstr "en"'
    lines[line - 1] = written
    catalog.write_bytes(b"\n".join(lines))
    result = run_cli("build", "--lang", "nl", "--drafts", cwd=project)
    message = fails_cleanly(result, f"{NL_CATALOG}:{line}:")
    assert expected in message
    assert not (project / "site").exists()


# --- 12. braces in a legend label --------------------------------------------------------


def test_braces_in_a_legend_label_are_text(project: Path) -> None:
    translate(project, "nl", {("legend.start", "start square"): "start {{ square }} {.red}"})
    result = run_cli("build", "--lang", "nl", "--drafts", cwd=project)
    assert result.returncode == 0, result.stderr
    home = (project / "site" / "nl" / "index.html").read_text(encoding="utf-8")
    assert "start &#123;&#123; square &#125;&#125; &#123;.red&#125;" in home
