"""The catalog probes of the third hostile review (issue 31), each run as a user runs it.

A limit must hold however its input is spelled: the plural forms as Babel
reads the header (I01), nesting as Python-Markdown builds it (I02, B03).  A
translation adds no link, no markup and no control character to its English
(B04, I04-I05).  Each probe is refused by ``status`` and ``build`` at the PO
file's ``path:line``, in one line, with no traceback; the site built before
stays as it was.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dama_diagrams._markdown_text import MAX_DEPTH
from dama_diagrams.site.i18n.limits import markup_problem
from tests.conftest import copy_project, made_once, run_cli

pytestmark = pytest.mark.slow

IT = "docs/locales/it/LC_MESSAGES/messages.po"
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
def project(built: Path, tmp_path: Path) -> Path:
    """A fresh copy of the built project, site/ included, for one probe to break."""
    return Path(shutil.copytree(built, tmp_path / "project"))


def _lines(project: Path) -> list[str]:
    return (project / IT).read_text(encoding="utf-8").split("\n")


def _write(project: Path, lines: list[str]) -> None:
    (project / IT).write_text("\n".join(lines), encoding="utf-8")


def _line_of(lines: list[str], start: str) -> int:
    """The number (from 1) of the one line that starts so."""
    found = [number for number, text in enumerate(lines, 1) if text.startswith(start)]
    assert len(found) == 1, (start, found)
    return found[0]


def _refused(project: Path, line: int, reason: str, *, also_update: bool = False) -> None:
    """status and build refuse at ``IT:line``, in one line; the site and the catalog stay."""
    site = {p: p.read_bytes() for p in (project / "site").rglob("*.html")}
    catalog = (project / IT).read_bytes()
    commands = [("status", "--lang", "it"), ("build", "--lang", "it", "--lang", "en")]
    if also_update:
        commands.append(("update-translations",))
    for command in commands:
        result = run_cli(*command, cwd=project)
        assert result.returncode == 1, (command, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr, result.stderr
        problems = result.stderr.splitlines()
        assert len(problems) == 1, (command, problems)
        assert problems[0].startswith(f"{IT}:{line}: it: "), (command, problems[0])
        assert reason in problems[0], problems[0]
    assert {p: p.read_bytes() for p in (project / "site").rglob("*.html")} == site
    assert (project / IT).read_bytes() == catalog


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
    project: Path, header: list[str], offset: int, reason: str
) -> None:
    """Each spelling once reached Babel, which allocated 10**9 strings per plural message."""
    lines = _lines(project)
    line = _line_of(lines, '"Plural-Forms:')
    lines[line - 1 : line] = header
    _write(project, [*lines, *PLURAL, ""])

    _refused(project, line + offset, reason, also_update=True)


def test_nplurals_of_a_second_header_is_bounded_too(project: Path) -> None:
    """Babel reads every ``msgid ""`` as the header, one with a msgctxt too, wherever it is."""
    lines = _lines(project)
    header = ['msgctxt "x"', 'msgid ""', 'msgstr "plural-forms: nplurals=1000000000;\\n"']
    _write(project, [*lines, *header, "", *PLURAL, ""])

    _refused(project, len(lines) + 3, "more than 6 plural forms")


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
    project: Path, payload: str, reason: str
) -> None:
    """Within the length limits, each once ended the book in a RecursionError naming no file."""
    lines = _lines(project)
    msgid = _line_of(lines, f'msgid "{SITE}')
    escaped = payload.replace("\n", "\\n")
    lines[msgid] = f'msgstr "{escaped}Questo sito segue [il regolamento]({{fid_site}})."'
    _write(project, lines)

    _refused(project, msgid, reason)


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
def test_a_translation_adds_no_link_and_no_markup(project: Path, payload: str, reason: str) -> None:
    """nh3 let a raw link through: it was on the site and a /URI in the PDF."""
    lines = _lines(project)
    msgid = _line_of(lines, f'msgid "{SITE}')
    lines[msgid] = f'msgstr "{payload}Questo sito segue [il regolamento]({{fid_site}})."'
    _write(project, lines)

    _refused(project, msgid, reason)


def test_a_link_in_a_translation_of_plain_text_is_refused(project: Path) -> None:
    lines = _lines(project)
    msgid = _line_of(lines, 'msgid "Exercises"')
    lines[msgid] = 'msgstr "<a href=\\"https://evil.example/\\">Esercizi</a>"'
    _write(project, lines)

    _refused(project, msgid, "has a <a> element, which the English lacks")


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
def test_control_characters_are_refused(project: Path, character: str, code: str) -> None:
    """They were published raw in 33 HTML files, and broke the book's fonts."""
    lines = _lines(project)
    msgid = _line_of(lines, 'msgid "Exercises"')
    lines[msgid] = f'msgstr "Eser{character}cizi"'
    _write(project, lines)

    _refused(project, msgid, f"holds the control character {code} at character 5")


def test_the_projects_own_catalogs_pass(tmp_path: Path) -> None:
    """Every real translation keeps within the limits: status is clean in all six languages."""
    project = copy_project(tmp_path)
    result = run_cli("status", cwd=project)
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
