"""The books against PDF/UA-1 (ISO 14289-1), read by a validator of its own, not by Typst.

The checker is ``page`` (the ``page-validation`` package of the ``test`` extra, a Rust
validator with no Java and no download at run time).  Its PDF/UA-1 profile has 104
rules, each the counterpart of a rule of veraPDF's PDF/UA-1 profile, the machine
checks of the Matterhorn Protocol: clause 5 (the PDF/UA identification), 6 (the
file), 7.1 (tagging, artifacts, role map, metadata, title), 7.2 (the structure of
tables, lists and contents, and the language of every text: page content, /Alt,
/ActualText, outline, annotations), 7.3 (figures' alternative text), 7.4 (headings),
7.5 (table headers), 7.7 (formulas), 7.9 (notes), 7.10 and 7.11 (optional content,
embedded files), 7.15 and 7.16 (XFA, encryption), 7.18 (annotations, links, tab
order, forms, media), 7.20 (XObjects) and 7.21 (fonts: embedding, glyphs, widths,
cmaps, Unicode mapping, .notdef).  It passes veraPDF's own test corpus.  The other
machine checks at hand were smaller: ``pdfua`` 0.1.3 runs 16 rules and skipped one
that failed inside it on every book; ``outloud`` 0.2.1 55 conformance rules, one
of them not yet written.  veraPDF itself is in no package registry this project uses.

Every rule must run and pass on every book (the six on A4, one on letter, one on A5):
the test asks for the profile's whole count of rules, all passed, so a rule the checker
could not run fails it, as a finding does (a safety limit it reaches is an exception).
And the checker must see a fault when there is one: each test of the second group
breaks one requirement of ISO 14289-1 in a copy of the English book and expects the
rule of that clause to fail.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, made_once, run_cli
from .test_booklet import LANGUAGES, make_books, structure_elements

pytestmark = pytest.mark.slow

PROFILE = "ua1"
RULES = 104
"""The rules of page-validation 0.11's PDF/UA-1 profile (``report.rules.total``)."""


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The six books of ``tests/test_booklet.py``, made once for the test run."""
    return made_once(tmp_path_factory, "books", make_books)


def _findings(report: Any) -> list[tuple[str, str]]:
    return [(failure.rule_id, failure.message) for failure in report.failures]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_pdf_ua_1_rule_runs_and_passes(books: Path, language: str) -> None:
    import page

    report = page.validate_pdf(books / f"{language}.pdf", profile=PROFILE)
    assert _findings(report) == []
    assert report.profile is page.ValidationProfile.PDF_UA_1
    # Each rule ran: none failed, none was left out of the count.
    assert report.rules.total == RULES, "the checker's profile changed: update RULES and the doc"
    assert report.rules.passed == RULES and report.rules.failed == 0
    assert report.checks.failed == 0
    assert report.is_compliant


@pytest.mark.parametrize(("paper", "language"), [("letter", "de"), ("a5", "fr")])
def test_every_pdf_ua_1_rule_passes_on_the_other_papers(
    tmp_path: Path, paper: str, language: str
) -> None:
    """Letter and the A5 booklet (its inside margins, its blank pages to fill the last sheet)."""
    import page

    result = run_cli("booklet", "--lang", language, "--paper", paper, "--out", tmp_path, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    report = page.validate_pdf(tmp_path / f"{language}.pdf", profile=PROFILE)
    assert _findings(report) == []
    assert report.rules.total == RULES and report.rules.passed == RULES


# --- the checker finds each kind of fault ---------------------------------------------


def _first(pdf: Any, role: str) -> Any:
    return next(node for node in structure_elements(pdf.Root.StructTreeRoot) if str(node.S) == role)


def _figure_without_alt(pdf: Any) -> None:
    del _first(pdf, "/Figure")["/Alt"]


def _first_heading_h3(pdf: Any) -> None:
    import pikepdf

    _first(pdf, "/H1").S = pikepdf.Name("/H3")


def _not_marked(pdf: Any) -> None:
    pdf.Root.MarkInfo.Marked = False


def _suspect(pdf: Any) -> None:
    import pikepdf

    pdf.Root.MarkInfo.Suspects = pikepdf.Boolean(True)


def _title_not_shown(pdf: Any) -> None:
    del pdf.Root["/ViewerPreferences"]


def _no_language(pdf: Any) -> None:
    del pdf.Root["/Lang"]


def _links_without_tab_order(pdf: Any) -> None:
    for sheet in pdf.pages:
        if "/Annots" in sheet.obj:
            del sheet.obj["/Tabs"]


def _cell_outside_a_row(pdf: Any) -> None:
    import pikepdf

    _first(pdf, "/TD").S = pikepdf.Name("/LI")


FAULTS: dict[str, tuple[Callable[[Any], None], str]] = {
    # ISO 14289-1 clause broken: the rule of that clause
    "7.3: a figure without alternative text": (
        _figure_without_alt,
        "PDFUA1-FIGURE-ALTERNATIVE-TEXT-001",
    ),
    "7.4.2: the first heading an H3": (_first_heading_h3, "PDFUA1-HEADING-NESTING-001"),
    "6.2: the document not marked as tagged": (_not_marked, "PDFUA1-TAGGED-DOCUMENT-001"),
    "7.1: the structure marked as suspect": (_suspect, "PDFUA1-SUSPECTS-001"),
    "7.1: the title not shown by the viewer": (
        _title_not_shown,
        "PDFUA1-VIEWER-PREFERENCES-001",
    ),
    "7.2: no language for the page text": (_no_language, "PDFUA1-TEXT-LANGUAGE-001"),
    "7.18.3: links without the structure's tab order": (
        _links_without_tab_order,
        "PDFUA1-PAGE-TABS-001",
    ),
    "7.2: a table cell as a list item": (_cell_outside_a_row, "PDFUA1-LI-PARENT-001"),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_the_checker_finds_a_broken_requirement(books: Path, fault: str) -> None:
    import page
    import pikepdf

    breaks, rule = FAULTS[fault]
    with pikepdf.open(books / "en.pdf") as pdf:
        breaks(pdf)
        broken = io.BytesIO()
        pdf.save(broken)
    report = page.validate_pdf_bytes(broken.getvalue(), profile=PROFILE)
    assert rule in {failure.rule_id for failure in report.failures}, _findings(report)
    assert not report.is_compliant
    assert report.rules.total == RULES
