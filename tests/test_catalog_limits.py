"""A translator's PO file is input like any other: bounded in time and memory, read whole.

One test per catalog breach of the second hostile review (issue 25), each
reproducing its input in a copy of the project and run as a user runs the
command: one ``path:line: message`` line, exit 1, no traceback, nothing written.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dama_diagrams.site.i18n.limits import markup_problem
from tests.conftest import copy_project, run_cli
from tests.po_files import msgstr_line

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
    assert result.stderr.startswith(f"{IT}:{line - 1}: it: the translation of 'Exercises' ")
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
