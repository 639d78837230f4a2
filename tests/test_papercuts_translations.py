"""After adding a page, the advice about a suggested translation is one a newcomer can follow.

Babel's fuzzy matching proposes the Italian of 'A king moves' for the new
title 'Opening moves' (tests/test_translation_workflow.py checks that it does).
Before ``update-translations`` that suggestion lives only in memory: the PO
file has no entry for 'Opening moves', so "check it in messages.po" alone
sends the reader to look for something that is not there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.conftest import copy_project, run_cli
from tests.test_translation_workflow import add_opening_page, po_path

pytestmark = pytest.mark.slow

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


def _has_entry(project: Path, english: str) -> bool:
    with po_path(project, "it").open("rb") as file:
        return read_po(file, locale="it").get(english) is not None


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copied = copy_project(tmp_path)
    add_opening_page(copied)
    return copied


def test_verify_says_to_run_update_translations_until_the_entry_is_written(
    project: Path,
) -> None:
    assert not _has_entry(project, "Opening moves")
    before = run_cli("verify", cwd=project)
    assert before.returncode == 0, before.stderr
    assert BEFORE in before.stderr.splitlines()

    assert run_cli("update-translations", cwd=project).returncode == 0
    assert _has_entry(project, "Opening moves")  # now the advice can be followed
    after = run_cli("verify", cwd=project)
    assert after.returncode == 0, after.stderr
    lines = after.stderr.splitlines()
    assert AFTER in lines and BEFORE not in lines


def test_build_gives_the_same_advice(project: Path) -> None:
    result = run_cli("build", "--lang", "it", "--lang", "en", cwd=project)
    assert result.returncode == 0, result.stderr
    assert BEFORE in result.stdout.splitlines()  # in the build's summary
