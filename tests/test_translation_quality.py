"""The translators' quality checks: each planted fault is found at its line; real catalogs pass.

A small project is written by hand: one template, a terminology file and three
PO catalogs, each entry's line known from the text written here.  Every fault
the issue names is planted once (a wrong term, an inconsistent pair, unchanged
text, a glued French colon, a straight apostrophe, a missing link), beside a
correct entry that must not be flagged.
"""

# ruff: noqa: RUF001  (typographic quotes and apostrophes are the subject)
from __future__ import annotations

import importlib.resources
import json
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from babel.messages.pofile import read_po

from dama_diagrams.site.i18n import available_languages, load_catalog, translation_problems
from dama_diagrams.site.i18n.catalog import CatalogError
from dama_diagrams.site.i18n.quality import (
    CHECKS,
    QualityError,
    allowed_checks,
    quality_findings,
    terminology_problems,
)
from dama_diagrams.site.i18n.tbx import AVOIDED, PREFERRED, TBX_NAMESPACE, terms_tbx
from dama_diagrams.site.i18n.terms import TermsError, load_terms, parse_terms
from dama_diagrams.site.i18n.typography import (
    markdown_fault,
    punctuation_problems,
    structure_problems,
    typography_problems,
)
from dama_diagrams.site.i18n.update import update_translations

from .conftest import copy_project, run_cli

ROOT = Path(__file__).resolve().parent.parent

MESSAGES = [
    "A man moves one square.",
    "A king moves.",
    "Not allowed:",
    "not allowed",
    "Checked by the engine",
    "The move 22x13: the only capture.",
    "The player's turn.",
    "See [the rules](https://example.org/rules).",
]
TERMS = """\
concepts:
  - id: man
    italian: [pedina]
    en: {term: man, forms: [man, men]}
    nl: {term: schijf, forms: [schijf, schijven], avoid: [damsteen]}
    it: {term: pedina, forms: [pedin*]}
    fr: {term: pion, forms: [pion, pions]}
"""
HEADER = """\
msgid ""
msgstr ""
"Language: {language}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"""
PLANTED: dict[str, list[tuple[str, str, str | None]]] = {
    # (English, translation, the check that must find it there, or None)
    "nl": [
        ("A man moves one square.", "Een damsteen zet één veld.", "terminology"),
        ("A king moves.", "Een dam zet.", None),
        ("Not allowed:", "Niet toegestaan:", None),
        ("not allowed", "verboden", "inconsistent"),
        ("Checked by the engine", "Checked by the engine", "unchanged"),
    ],
    "fr": [
        ("A man moves one square.", "Un pion avance d’une case.", None),
        ("The move 22x13: the only capture.", "Le coup 22x13: la seule prise.", "typography"),
    ],
    "it": [
        ("The player's turn.", "Il turno dell'avversario.", "typography"),
        ("See [the rules](https://example.org/rules).", "Vedi le regole.", "markdown"),
        ("A man moves one square.", "La pedina avanza di una casella.", None),
    ],
}


def _po_text(language: str, comments: dict[str, str] | None = None) -> str:
    parts = [HEADER.replace("{language}", language)]
    for english, text, _ in PLANTED[language]:
        line = MESSAGES.index(english) + 1
        comment = (comments or {}).get(english, "")
        parts.append(f'{comment}#: docs/pages/p.md.j2:{line}\nmsgid "{english}"\nmsgstr "{text}"\n')
    return "\n".join(parts)


def _msgstr_line(text: str, english: str) -> int:
    """The line of the msgstr of ``msgid "english"`` in a PO text written above, from 1."""
    return text.split("\n").index(f'msgid "{english}"') + 2


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    (tmp_path / "babel.cfg").write_text("[jinja2: docs/pages/*.md.j2]\nsilent = false\n")
    pages = tmp_path / "docs" / "pages"
    pages.mkdir(parents=True)
    template = "\n".join(f'{{{{ _("{english}") }}}}' for english in MESSAGES)
    (pages / "p.md.j2").write_text(template + "\n", encoding="utf-8")
    (tmp_path / "docs" / "terms.yaml").write_text(TERMS, encoding="utf-8")
    for language in PLANTED:
        folder = tmp_path / "docs" / "locales" / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "messages.po").write_text(_po_text(language), encoding="utf-8")
    return tmp_path


def _found(project: Path, language: str) -> set[tuple[str, int | None]]:
    findings = quality_findings(load_catalog(project, language), load_terms(project))
    return {(finding.check, finding.line) for finding in findings}


@pytest.mark.parametrize("language", sorted(PLANTED))
def test_each_planted_fault_is_found_at_its_line_and_nothing_else(
    planted: Path, language: str
) -> None:
    text = _po_text(language)
    expected = {
        (check, _msgstr_line(text, english))
        for english, _, check in PLANTED[language]
        if check is not None
    }
    assert _found(planted, language) == expected


def test_a_finding_names_the_catalog_its_line_the_english_and_the_check(planted: Path) -> None:
    findings = quality_findings(load_catalog(planted, "fr"), load_terms(planted))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.path == "docs/locales/fr/LC_MESSAGES/messages.po"
    assert finding.english == "The move 22x13: the only capture."
    assert finding.check == "typography"
    assert "no space before ':'" in finding.message
    assert str(finding).startswith(f"docs/locales/fr/LC_MESSAGES/messages.po:{finding.line}: ")


def test_the_wrong_term_is_named_both_ways(planted: Path) -> None:
    """The Dutch 'damsteen' lacks the preferred 'schijf' and is a word to avoid."""
    findings = quality_findings(load_catalog(planted, "nl"), load_terms(planted))
    messages = [f.message for f in findings if f.check == "terminology"]
    assert len(messages) == 2
    assert any("lacks 'schijf'" in message for message in messages)
    assert any("says 'damsteen'" in message for message in messages)


def test_findings_are_warnings_and_errors_when_strict(planted: Path) -> None:
    errors, warnings = translation_problems(planted, ["it"])
    assert errors == []
    assert sorted(w.finding.check for w in warnings if isinstance(w, QualityError)) == [
        "markdown",
        "typography",
    ]
    errors, _ = translation_problems(planted, ["it"], strict=True)
    assert sorted(e.finding.check for e in errors if isinstance(e, QualityError)) == [
        "markdown",
        "typography",
    ]


# --- accepting a finding in the PO file --------------------------------------------------


def test_a_translator_comment_accepts_a_finding_and_survives_an_update(planted: Path) -> None:
    """``# dama: allow unchanged`` is a translator comment: gettext tools keep those."""
    po = planted / "docs/locales/nl/LC_MESSAGES/messages.po"
    allow = {"Checked by the engine": "# dama: allow unchanged, the same word in Dutch\n"}
    po.write_text(_po_text("nl", allow), encoding="utf-8")
    assert "unchanged" not in {check for check, _ in _found(planted, "nl")}
    update_translations(planted, ["nl"])
    assert "# dama: allow unchanged, the same word in Dutch\n" in po.read_text("utf-8")
    assert "unchanged" not in {check for check, _ in _found(planted, "nl")}


def test_an_extracted_comment_in_the_po_file_is_the_templates_and_is_dropped(
    planted: Path,
) -> None:
    """A ``#.`` line a translator writes is not theirs: an update replaces it."""
    po = planted / "docs/locales/nl/LC_MESSAGES/messages.po"
    po.write_text(
        _po_text("nl", {"Checked by the engine": "#. dama: allow unchanged\n"}), encoding="utf-8"
    )
    assert "unchanged" in {check for check, _ in _found(planted, "nl")}
    update_translations(planted, ["nl"])
    assert "dama: allow" not in po.read_text("utf-8")


def test_a_source_comment_accepts_a_finding_in_every_language(planted: Path) -> None:
    """``{# dama: allow unchanged #}`` before the message becomes ``#.`` in every catalog."""
    template = planted / "docs/pages/p.md.j2"
    english = 'Checked by the engine") }}'
    text = template.read_text("utf-8")
    template.write_text(
        text.replace(f'{{{{ _("{english}', f'{{# dama: allow unchanged #}}{{{{ _("{english}'),
        encoding="utf-8",
    )
    assert "unchanged" not in {check for check, _ in _found(planted, "nl")}
    update_translations(planted, ["nl"])
    po = (planted / "docs/locales/nl/LC_MESSAGES/messages.po").read_text("utf-8")
    assert "#. dama: allow unchanged\n" in po
    assert "unchanged" not in {check for check, _ in _found(planted, "nl")}


def test_allow_comments_name_checks_then_any_explanation() -> None:
    assert allowed_checks(["dama: allow unchanged"]) == {"unchanged"}
    assert allowed_checks([" dama: allow unchanged, markdown: both fine"]) == {
        "unchanged",
        "markdown",
    }
    assert allowed_checks(["dama: allow all"]) == set(CHECKS)
    assert allowed_checks(["a note about unchanged text", "dama: allow nothing"]) == set()


# --- the checks, one by one, on text worked out by hand -----------------------------------


def _found_only(found: list[str], wanted: str | None) -> None:
    """No finding when none is wanted; else exactly one, and it says ``wanted``."""
    if wanted is None:
        assert found == []
    else:
        assert len(found) == 1 and wanted in found[0], found


@pytest.mark.parametrize(
    ("text", "language", "wanted"),
    [
        ("Coup : 22x13", "fr", "a breaking space before ':'"),
        ("Coup\u00a0: 22x13\u00a0; «\u00a0dame\u00a0»", "fr", None),
        ("«dame\u00a0»", "fr", "no no-break space after '«'"),
        ("Qué jugada?", "es", "does not open it with '¿'"),
        ("Juegan. ¿Qué jugada? Sí.", "es", None),
        ("Gana!", "es", "does not open it with '¡'"),
        ("Er sagt «nein».", "de", "quotes with «"),
        ("Er sagt „nein“.", "de", None),
        ("open “Toon het antwoord”", "nl", "quotes with “"),
        ("open ‘Toon het antwoord’ en zo’n", "nl", None),
        ("apri “Mostra”", "it", "quotes with “"),
        ("l’ultima riga, `it's code`", "it", None),
        ("l'ultima riga", "it", "straight apostrophe"),
        # the review of 2026-12-05 (G23): the Spanish site writes «…», and “…” passed
        ("pulsa “Mostrar la solución”", "es", "quotes with “"),
        ("pulsa «Mostrar la solución»", "es", None),
        ("dijo «la regla “10” manda»", "es", None),
        ("dijo «la regla» y “10”", "es", "quotes with “"),
    ],
)
def test_typography(text: str, language: str, wanted: str | None) -> None:
    found = typography_problems(text, language)
    _found_only(found, wanted)


@pytest.mark.parametrize(
    ("english", "translation", "wanted"),
    [
        ("Move:", "Zet", "ends with no final mark, where the English ends with a colon"),
        ("Move:", "Coup\u00a0:", None),
        ("Is it?", "Ist es so.", "ends with a full stop, where the English ends with a question"),
        ("He wins.", "Il gagne\u00a0!", None),
        (" padded", "rembourré", "starts without the space"),
        ("One.\n\nTwo.", "Eins. Zwei.", "has 1 paragraphs, the English 2"),
        ("one space", "zwei  Leerzeichen", "double space"),
        ("*it* (“quoted”)", "*es* («zitiert»)", None),
    ],
)
def test_punctuation(english: str, translation: str, wanted: str | None) -> None:
    found = punctuation_problems(english, translation)
    _found_only(found, wanted)


@pytest.mark.parametrize(
    ("english", "translation", "wanted"),
    [
        ("See [x](https://a.b/c).", "Siehe x.", "lacks the link to https://a.b/c"),
        ("Run `status` now.", "Lance `statut`.", "lacks the code `status`"),
        ("A *man* and a **king**.", "Een schijf en een **dam**.", "has 1 emphases"),
        ("See [x](https://a.b/c), `a`, *b*.", "Zie [y](https://a.b/c), `a`, *c*.", None),
    ],
)
def test_markdown_structure(english: str, translation: str, wanted: str | None) -> None:
    found = structure_problems(english, translation)
    _found_only(found, wanted)


SHOWS_ENGLISH = "the site and the book show the English until it is fixed"


@pytest.mark.parametrize(
    ("english", "translation", "wanted", "at"),
    [
        ("See [x](https://a.b/c).", "Voir [x](https://a.b/c.", "'(' that is never closed", 8),
        ("See [x](https://a.b/c).", "Voir [x(https://a.b/c).", "lacks the link to", 5),
        ("See [x](https://a.b/c).", "Voir x](https://a.b/c).", "']' that closes nothing", 6),
        ("A *man* moves.", "Un *pion se déplace.", "'*' that opens an emphasis", 3),
        ("A **king**.", "Une **dame*.", "'*' that opens an emphasis", 4),
        ("A _man_ moves.", "Un _pion se déplace.", "'_' that opens an emphasis", 3),
        ("Run `status`.", "Lancez `status.", "'`' that opens a code span", 7),
        ("Run `status`.", "Lancez `status`.", None, None),
        ("Rule 3 (captures) [x](https://a.b).", "Règle 3 (prises) [x](https://a.b).", None, None),
        ("Rules 1) and 2).", "Règles 1) et 2).", None, None),  # the English has them too
        ("A *man* and a **king**.", "Een schijf en een **dam**.", None, None),  # closed: shown
        ("and", "1_0", None, None),  # an underscore inside a word opens nothing
        ("3 by 4", "3 * 4", None, None),  # nor a star between spaces
    ],
)
def test_broken_markdown_is_a_fault_at_its_character(
    english: str, translation: str, wanted: str | None, at: int | None
) -> None:
    """Worked out by hand: which mark does not close, and its index in the translation."""
    fault = markdown_fault(english, translation)
    if wanted is None:
        assert fault is None
        return
    assert fault is not None
    message, where = fault
    assert wanted in message and SHOWS_ENGLISH in message, message
    assert "build --strict-translations refuses it" in message
    assert where == at


# --- the real catalogs ---------------------------------------------------------------------


@pytest.mark.parametrize("language", [code for code in available_languages(ROOT) if code != "en"])
def test_the_real_catalogs_pass_every_check(language: str) -> None:
    findings = quality_findings(load_catalog(ROOT, language), load_terms(ROOT))
    assert [str(finding) for finding in findings] == []


def test_status_warns_and_strict_status_fails_on_a_finding(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    po = project / "docs/locales/fr/LC_MESSAGES/messages.po"
    text = po.read_text("utf-8")
    glued = text.replace('msgstr "Interdit\u00a0:"', 'msgstr "Interdit:"', 1)
    assert glued != text
    po.write_text(glued, encoding="utf-8")
    line = glued.split("\n").index('msgstr "Interdit:"') + 1
    plain = run_cli("status", "--lang", "fr", cwd=project)
    assert plain.returncode == 0, plain.stderr
    expected = f"warning: docs/locales/fr/LC_MESSAGES/messages.po:{line}: fr: typography: "
    assert expected in plain.stderr
    strict = run_cli("status", "--lang", "fr", "--strict-translations", cwd=project)
    assert strict.returncode == 1
    assert f"docs/locales/fr/LC_MESSAGES/messages.po:{line}: fr: typography: " in strict.stderr
    assert "Traceback" not in strict.stderr


# --- the terminology file ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "wanted"),
    [
        ("concepts:\n  - id: man\n    en: {term: man}\n    colour: red\n", 4, "unknown key"),
        ("concepts:\n  - id: man\n    nl: {term: schijf}\n", 2, "no English words"),
        ("concepts:\n  - id: man\n    en: {term: man, nope: 1}\n", 3, "unknown key 'nope'"),
        (
            "concepts:\n  - id: a\n    en: {term: x}\n  - id: a\n    en: {term: y}\n",
            4,
            "a second concept 'a' (the first is on line 2)",
        ),
        ("concepts:\n  - id: man\n    en: {term: man}\n    check: maybe\n", 4, "true or false"),
        ("concepts: [\n", 1, "not valid YAML"),  # the bracket that is never closed
        ("concepts:\n  - id: x\n    en: !!python/object:os.system {term: a}\n", 3, "tag"),
        # noncharacters: no XML may hold U+FFFE or U+FFFF, and none is text (the TBX broke)
        ('concepts:\n  - id: x\n    definition: "a\\uFFFF"\n    en: {term: a}\n', 3, "U+FFFF"),
        ('concepts:\n  - id: x\n    en: {term: "\\uFFFE"}\n', 3, "noncharacter U+FFFE"),
        ("concepts:\n  - id: x\n    en: {term: a, avoid: [b\ufdd0]}\n", 3, "U+FDD0"),
        ('concepts:\n  - id: x\n    en: {term: "\\U0010FFFF"}\n', 3, "U+10FFFF"),
        ("unchanged: [FID]\nconcepts:\n  - id: x\n    en: {term: a\uffff}\n", 4, "U+FFFF"),
        ("concepts:\n  - id: x\n\n    en: {term: a\x07}\n", 4, "U+0007"),
        # the limits of every text that reaches Markdown: a definition goes into the glossary
        (
            'concepts:\n  - id: x\n    definition: "'
            + "<![CDATA[" * 7000
            + '"\n    en: {term: a}\n',
            3,
            "definition is 63,000 characters long (at most 1,000); shorten it",
        ),
        (
            'concepts:\n  - id: x\n    definition: "' + "[a](b) " * 21 + '"\n    en: {term: a}\n',
            3,
            "definition has 21 '[' (at most 20)",
        ),
        (
            'concepts:\n  - id: x\n    definition: "x &#x202E; y"\n    en: {term: a}\n',
            3,
            "definition holds the control character U+202E at character 3 (written &#x202E;)",
        ),
        (
            "concepts:\n  - id: x\n    definition: a \u202eb\n    en: {term: a}\n",
            3,
            "definition holds the control character U+202E at character 3, which no page",
        ),
        (
            'concepts:\n  - id: x\n    definition: d\n    en: {term: a, headword: "&#8238;A"}\n',
            4,
            "headword holds the control character U+202E at character 1 (written &#8238;)",
        ),
        (
            'concepts:\n  - id: x\n    en: {term: "a&#xFFFF;"}\n',
            3,
            "term holds the noncharacter U+FFFF at character 2 (written &#xFFFF;)",
        ),
    ],
)
def test_a_bad_terminology_file_is_one_error_at_its_line(text: str, line: int, wanted: str) -> None:
    with pytest.raises(TermsError) as caught:
        parse_terms(text, "docs/terms.yaml")
    assert caught.value.path == "docs/terms.yaml"
    assert caught.value.line == line
    assert wanted in caught.value.message


@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "python"])
def test_a_character_yaml_refuses_is_an_error_at_its_line_with_either_reader(
    libyaml: bool,
) -> None:
    """Raw U+FFFF in terms.yaml was a traceback: libyaml's reader error is no MarkedYAMLError."""
    from dama_diagrams.diagram._yaml import YamlError, compose_yaml

    text = "a: \u00e9\u00e9\nb: 1\nc: x\uffffy\n"  # libyaml counts bytes: the é's are two
    with pytest.raises(YamlError) as caught:
        compose_yaml(text, libyaml=libyaml)
    assert caught.value.line == 3
    assert "U+FFFF" in caught.value.message


def test_the_real_terminology_file_has_every_language_for_every_concept() -> None:
    terms = load_terms(ROOT)
    assert terms is not None
    languages = set(available_languages(ROOT))
    assert [c.id for c in terms.concepts if set(c.words) != languages] == []


# --- TBX -----------------------------------------------------------------------------------


def _tbx_terms(data: bytes) -> dict[str, dict[str, dict[str, list[str]]]]:
    """Concept id -> language -> administrative status -> terms, as the XML says."""
    namespace = {"t": TBX_NAMESPACE}
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    found: dict[str, dict[str, dict[str, list[str]]]] = {}
    for entry in ET.fromstring(data).iterfind(".//t:conceptEntry", namespace):
        languages = found.setdefault(entry.attrib["id"], {})
        for section in entry.iterfind("t:langSec", namespace):
            statuses = languages.setdefault(section.attrib[lang], {})
            for term_section in section.iterfind("t:termSec", namespace):
                term = term_section.findtext("t:term", namespaces=namespace)
                status = term_section.findtext("t:termNote", namespaces=namespace)
                assert term is not None and status is not None
                statuses.setdefault(status, []).append(term)
    return found


def test_the_tbx_export_parses_and_holds_every_term_in_six_languages() -> None:
    terms = load_terms(ROOT)
    assert terms is not None
    data = terms_tbx(terms, {})
    found = _tbx_terms(data)
    assert list(found) == [concept.id for concept in terms.concepts]
    for concept in terms.concepts:
        assert sorted(found[concept.id]) == ["de", "en", "es", "fr", "it", "nl"]
        for language, words in concept.words.items():
            assert found[concept.id][language][PREFERRED] == [words.term]
    # checked against the file by hand: German's words to avoid for the man
    assert found["man"]["de"][PREFERRED] == ["einfacher Stein"]
    assert "Stein" in found["man"]["de"][AVOIDED]
    assert terms_tbx(terms, {}) == data  # the same bytes every time


def test_the_tbx_export_escapes_every_word() -> None:
    text = (
        "concepts:\n  - id: odd\n    definition: 'a <b> & \"c\"'\n"
        "    en: {term: 'x < y & \"z\"', avoid: [']]>']}\n"
    )
    data = terms_tbx(parse_terms(text, "t.yaml"), {"fr": {'a <b> & "c"': "« <i> »"}})
    found = _tbx_terms(data)
    assert found["odd"]["en"] == {PREFERRED: ['x < y & "z"'], AVOIDED: ["]]>"]}
    root = ET.fromstring(data)
    definitions = [e.text for e in root.iter(f"{{{TBX_NAMESPACE}}}descrip")]
    assert definitions == ['a <b> & "c"']  # fr is not among the concept's languages


def test_the_terms_command_writes_the_tbx(tmp_path: Path) -> None:
    out = tmp_path / "terms.tbx"
    result = run_cli("terms", "--out", out, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    found = _tbx_terms(out.read_bytes())
    assert found["man"]["nl"][PREFERRED] == ["schijf"]
    _assert_well_formed(out.read_bytes())


def _assert_well_formed(data: bytes) -> None:
    """The TBX parses with expat (ElementTree) and, where it is installed, with libxml2 (lxml)."""
    ET.fromstring(data)
    try:
        from lxml import etree  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return
    etree.fromstring(data)  # raises XMLSyntaxError on any character XML 1.0 forbids


# Every character XML 1.0 cannot hold (C0 controls but tab, newline and CR; U+FFFE, U+FFFF),
# and noncharacters that it can but that are no text (U+FDD0, U+1FFFF).
UNFIT = ["\x01", "\x1b", "\x0c", "\ufffe", "\uffff", "\ufdd0", "\U0001ffff"]


@pytest.mark.parametrize("character", UNFIT, ids=[f"U+{ord(c):04X}" for c in UNFIT])
def test_the_tbx_writer_never_writes_a_character_xml_cannot_hold(character: str) -> None:
    """However a text came in, a TBX is whole, well-formed XML, or is not written at all."""
    terms = parse_terms("concepts:\n  - id: odd\n    definition: d\n    de: {term: x}\n"
                        "    en: {term: y}\n", "docs/terms.yaml")  # fmt: skip
    assert terms_tbx(terms, {"de": {"d": "ok"}}).count(b"<descrip") == 2
    _assert_well_formed(terms_tbx(terms, {"de": {"d": "ok"}}))
    with pytest.raises(CatalogError) as caught:
        terms_tbx(terms, {"de": {"d": f"a{character}b"}})
    assert str(caught.value).startswith(
        f"U+{ord(character):04X} in the TBX (docs/terms.yaml, concept 'odd') cannot be written"
    )


def _with_de_definition(project: Path, make: Callable[[str], str]) -> int:
    """The German catalog's translation of the board's definition changed by ``make``; its line."""
    catalog = project / "docs" / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    lines = catalog.read_text("utf-8").split("\n")
    number = lines.index(f'msgid "{BOARD}"') + 2
    assert lines[number - 1].startswith('msgstr "')
    lines[number - 1] = make(lines[number - 1])
    catalog.write_text("\n".join(lines), encoding="utf-8")
    return number  # the msgstr's line, as status names it


BOARD = "the board of 8 × 8 squares. Only its 32 dark squares are used."
"""The glossary's definition of the board in docs/terms.yaml: the TBX carries its translations."""


@pytest.mark.parametrize("character", ["\ufffe", "\uffff", "\U0001fffe"])
def test_a_noncharacter_in_a_translated_definition_stops_status_and_terms_at_its_line(
    tmp_path: Path, character: str
) -> None:
    """status said 100 %, and the TBX did not parse: not well-formed (invalid token)."""
    project = copy_project(tmp_path, cards=False)
    line = _with_de_definition(project, lambda text: text[:-1] + character + '"')
    where = f"docs/locales/de/LC_MESSAGES/messages.po:{line}: de: the translation of "
    status = run_cli("status", "--lang", "de", cwd=project)
    assert status.returncode == 1
    (problem,) = status.stderr.splitlines()
    assert problem.startswith(where)
    assert f"holds the noncharacter U+{ord(character):04X} at character " in problem
    out = tmp_path / "terms.tbx"
    terms = run_cli("terms", "--out", out, cwd=project)
    assert terms.returncode == 1
    assert terms.stderr.splitlines() == [problem]  # the same line as status
    assert not out.exists()
    to_stdout = run_cli("terms", cwd=project)
    assert (to_stdout.returncode, to_stdout.stdout) == (1, "")


def test_a_control_character_in_a_translated_definition_stops_terms_at_its_line(
    tmp_path: Path,
) -> None:
    """status refused it already; terms wrote it into the TBX all the same."""
    project = copy_project(tmp_path, cards=False)
    line = _with_de_definition(project, lambda text: text.replace("Brett", "Br\\aett"))
    result = run_cli("terms", cwd=project)
    assert result.returncode == 1
    assert result.stderr.startswith(f"docs/locales/de/LC_MESSAGES/messages.po:{line}: de: ")
    assert "holds the control character U+0007" in result.stderr
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("written", "wanted"),
    [
        ("\\uFFFF", "definition holds the noncharacter U+FFFF at character 10"),  # an escape
        ("\uffff", "the text holds U+FFFF, a character YAML does not allow"),  # the character
    ],
)
def test_a_noncharacter_in_the_terminology_file_stops_status_and_terms_at_its_line(
    tmp_path: Path, written: str, wanted: str
) -> None:
    project = copy_project(tmp_path, cards=False)
    terms = project / "docs" / "terms.yaml"
    lines = terms.read_text("utf-8").split("\n")
    number = lines.index(f'    definition: "{BOARD}"') + 1
    lines[number - 1] = lines[number - 1].replace("the board", f"the board{written}")
    terms.write_text("\n".join(lines), encoding="utf-8")
    for command in (("status",), ("terms",)):
        result = run_cli(*command, cwd=project)
        assert result.returncode == 1
        assert result.stderr.splitlines() == [f"docs/terms.yaml:{number}: {wanted}" + (
            ", which no page, book or TBX file can hold; delete it"
            if "noncharacter" in wanted
            else " (a control character or a noncharacter); remove it"
        )]  # fmt: skip


MAN_DEFINITION = "the piece each player starts with. It moves and captures forwards only."
"""The glossary's definition of the man in docs/terms.yaml."""


def test_a_definition_past_the_markdown_limits_stops_status_and_build_at_its_line(
    tmp_path: Path,
) -> None:
    """A 63 KB definition passed status, then took 95 s of pages in build --lang en."""
    project = copy_project(tmp_path, cards=False)
    terms = project / "docs" / "terms.yaml"
    lines = terms.read_text("utf-8").split("\n")
    number = lines.index(f'    definition: "{MAN_DEFINITION}"') + 1
    lines[number - 1] = '    definition: "' + "<![CDATA[" * 7000 + '"'
    terms.write_text("\n".join(lines), encoding="utf-8")
    said = f"docs/terms.yaml:{number}: definition is 63,000 characters long (at most 1,000); "
    said += "shorten it"
    for command in (("status",), ("terms",), ("build", "--lang", "en")):
        started = time.perf_counter()
        result = run_cli(*command, cwd=project)
        assert time.perf_counter() - started < 20, command
        assert (result.returncode, result.stderr.splitlines()) == (1, [said]), command
    assert not (project / "site").exists()


# --- Material's own labels ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("labels", "header"),
    [({"header": "Paginakop"}, "Paginakop"), ({}, "Header"), (None, "Header")],
)
def test_the_theme_takes_its_header_label_from_the_catalogs(
    labels: dict[str, str] | None, header: str
) -> None:
    """Material's Dutch file says "Header"; the site's override asks the catalogs first."""
    material = importlib.resources.files("material") / "templates"
    overrides = ROOT / "dama_diagrams" / "site" / "templates" / "overrides"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(overrides), str(material)]))
    page = env.from_string(
        '{% import "partials/language.html" as lang with context %}'
        '{{ lang.t("header") }}|{{ lang.t("footer.next") }}'
    )
    config = {"theme": {"language": "nl"}, "extra": {"dama_theme_labels": labels}}
    assert page.render(config=config) == f"{header}|Volgende"


def test_a_broken_terminology_file_stops_status_at_its_line(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    terms = project / "docs" / "terms.yaml"
    lines = terms.read_text("utf-8").split("\n")
    number = lines.index("  - id: king") + 1
    lines[number - 1] = "  - id: King"
    terms.write_text("\n".join(lines), encoding="utf-8")
    result = run_cli("status", cwd=project)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"docs/terms.yaml:{number}: the id 'King' is not lowercase letters, digits and dashes; "
        "write it so, such as flying-king"
    ]


# --- where a finding points, and what a broken translation does (review G23) ---------------

FR = "docs/locales/fr/LC_MESSAGES/messages.po"
WRAPPED = "tranche\u00a0». Avant la construction"
"""The third string of a wrapped French msgstr (about.md.j2, 'Each diagram is a small file')."""


def test_a_fault_in_a_wrapped_msgstr_is_found_at_its_line_and_column(tmp_path: Path) -> None:
    """It was named at the msgid, eight lines above, with no column (review G23)."""
    project = copy_project(tmp_path, cards=False)
    po = project / FR
    lines = po.read_text("utf-8").split("\n")
    (number,) = [n for n, line in enumerate(lines, 1) if WRAPPED in line]
    assert lines[number - 4] == 'msgstr ""' and lines[number - 2].startswith('"')  # wrapped
    lines[number - 1] = lines[number - 1].replace("tranche\u00a0»", "tranche »")
    po.write_text("\n".join(lines), encoding="utf-8")
    column = lines[number - 1].index("»") + 1  # from 1, in characters, as GitHub counts
    text = run_cli("status", "--lang", "fr", cwd=project)
    assert text.returncode == 0, text.stderr
    assert f"warning: {FR}:{number}: fr: typography: " in text.stderr
    assert "a breaking space before '»'" in text.stderr
    found = run_cli("status", "--lang", "fr", "--format", "json", cwd=project)
    findings = [json.loads(line) for line in found.stdout.splitlines()]
    assert [(f["path"], f["line"], f["col"]) for f in findings] == [(FR, number, column)]
    github = run_cli("status", "--lang", "fr", "--format", "github", cwd=project)
    assert f"::warning file={FR},line={number},col={column},title=dama-diagrams::" in github.stdout
    verify = run_cli("verify", "--format", "json", cwd=project)
    mine = [json.loads(line) for line in verify.stdout.splitlines() if f'"{FR}"' in line]
    assert (number, column, "warning") in [(f["line"], f["col"], f["severity"]) for f in mine]


def plant_in_the_fid_link(project: Path, old: str, new: str) -> tuple[int, str]:
    """In the French About page's sentence with the FID's link, ``old`` becomes ``new`` on the
    msgstr line that holds the link: that line's number and its text now."""
    po = project / FR
    lines = po.read_text("utf-8").split("\n")
    (number,) = [n for n, line in enumerate(lines, 1) if "[son site]({fid_site})" in line
                 and lines[n - 2].startswith('msgid "This site follows')]  # fmt: skip
    lines[number - 1] = lines[number - 1].replace(old, new)
    po.write_text("\n".join(lines), encoding="utf-8")
    return number, lines[number - 1]


def test_a_placeholder_fault_is_refused_at_its_msgstr_line_and_column(tmp_path: Path) -> None:
    project = copy_project(tmp_path, cards=False)
    number, line = plant_in_the_fid_link(project, "({fid_site})", "({fid_sit})")
    column = line.index("{fid_sit}") + 1
    result = run_cli("status", "--lang", "fr", "--format", "json", cwd=project)
    assert result.returncode == 1
    found = [json.loads(line) for line in result.stdout.splitlines()]
    (finding,) = [f for f in found if "placeholder {fid_sit}" in f["message"]]
    assert (finding["line"], finding["col"], finding["severity"]) == (number, column, "error")
    status = run_cli("status", "--lang", "fr", cwd=project)
    assert "(broken: every build refuses it until the problems below are fixed)" in status.stdout
    build = run_cli("build", "--lang", "fr", cwd=project, env={"DAMA_DIAGRAMS_BOOKS": "0"})
    assert build.returncode == 1
    assert build.stderr.startswith(f"{FR}:{number}: fr: the translation of ")


def test_a_broken_link_in_a_french_translation_never_reaches_the_page(tmp_path: Path) -> None:
    """A plain build published '[son site](https://…' as text (review G23): now the English."""
    project = copy_project(tmp_path, cards=False)
    number, line = plant_in_the_fid_link(project, "({fid_site})", "({fid_site}")
    column = line.index("({fid_site}") + 1
    build = run_cli("build", "--lang", "fr", cwd=project, env={"DAMA_DIAGRAMS_BOOKS": "0"})
    assert build.returncode == 0, build.stderr
    warning = f"{FR}:{number}: fr: markdown: "
    (said,) = [line for line in build.stdout.splitlines() if warning in line]  # the report
    assert "has a '(' that is never closed" in said
    assert "the site and the book show the English until it is fixed" in said
    assert "build --strict-translations refuses it" in said
    page = (project / "site" / "fr" / "about" / "index.html").read_text("utf-8")
    assert "[son site]" not in page and "{fid_site}" not in page
    english = 'publishes them on <a href="https://www.federdama.org/">its website</a>'
    assert english in page
    assert "Passages de cette page affichés en anglais" in page  # the page's notice
    json_status = run_cli("status", "--lang", "fr", "--format", "json", cwd=project)
    found = [json.loads(line) for line in json_status.stdout.splitlines()]
    assert (number, column, "warning") in [(f["line"], f["col"], f["severity"]) for f in found]
    strict = run_cli("status", "--lang", "fr", "--strict-translations", cwd=project)
    assert strict.returncode == 1
    refuses = "(build --strict-translations refuses it until the problems below are fixed)"
    assert strict.stdout.rstrip().endswith(refuses), strict.stdout
    refused = run_cli("build", "--lang", "fr", "--strict-translations", cwd=project,
                      env={"DAMA_DIAGRAMS_BOOKS": "0"})  # fmt: skip
    assert refused.returncode == 1 and refused.stderr.startswith(warning)


# --- words the fourth native review found that the checks could not see (G5, G8, G12) ---------

REVIEWED_WORDING = [
    # (language, message, the review's words, the words it found, the word to avoid in them)
    (
        "de",
        "A quiet move is written as its start square and its end\nsquare",
        "Ein gewöhnlicher Zug wird",
        "Ein einfacher Zug wird",
        "einfacher Zug",
    ),
    (
        "fr",
        ("legend.rejected", "move not allowed"),
        "coup interdit",
        "coup non permis",
        "non permis",
    ),
    (
        "fr",
        (
            "alt.rejected_end",
            "A dashed ring marks where the move {moves} would end; it is not allowed.",
        ),
        "qui est interdit",
        "qui n’est pas permis",
        "pas permis",
    ),
    (
        "nl",
        "The man takes {count} pieces in a single move, {move}.",
        "De schijf slaat {count} stukken",
        "De schijf neemt {count} stukken",
        "neemt",
    ),
    (
        "de",
        "The man takes {count} pieces in a single move, {move}.",
        "Der einfache Stein schlägt {count} Spielsteine",
        "Der einfache Stein nimmt {count} Spielsteine",
        "nimmt",
    ),
]


def _real_message(language: str, key: str | tuple[str, str]) -> tuple[str, str]:
    """The English and the translation of one message of the checkout's catalog."""
    context, english = key if isinstance(key, tuple) else (None, key)
    with (ROOT / f"docs/locales/{language}/LC_MESSAGES/messages.po").open("rb") as file:
        catalog = read_po(file)
    found = [m for m in catalog if m.id and m.context == context and english in m.id]
    assert len(found) == 1, f"{language}: no single message holds {english!r}"
    return str(found[0].id), str(found[0].string)


@pytest.mark.parametrize(("language", "key", "right", "wrong", "avoided"), REVIEWED_WORDING)
def test_the_reviewed_wording_passes_and_the_old_wording_is_a_word_to_avoid(
    language: str, key: str | tuple[str, str], right: str, wrong: str, avoided: str
) -> None:
    """G5 'einfacher Zug', G8 'non permis', G12 'neemt'/'nimmt': docs/terms.yaml avoids them."""
    terms = load_terms(ROOT)
    assert terms is not None
    english, text = _real_message(language, key)
    assert right in text
    assert terminology_problems(english, text, language, terms) == []
    old = terminology_problems(english, text.replace(right, wrong), language, terms)
    assert len(old) == 1, old
    assert f"says '{avoided}', which docs/terms.yaml:" in old[0]


def test_status_reports_the_old_wording_the_review_found(tmp_path: Path) -> None:
    """Planted back into the catalogs, each of G5, G8 and G12's words is a finding of status."""
    project = copy_project(tmp_path, cards=False)
    for language, _, right, wrong, _ in REVIEWED_WORDING:
        po = project / f"docs/locales/{language}/LC_MESSAGES/messages.po"
        text = po.read_text("utf-8")
        assert right in text
        po.write_text(text.replace(right, wrong, 1), encoding="utf-8")
    result = run_cli("status", cwd=project)
    assert result.returncode == 0, result.stderr
    for language, _, _, _, avoided in REVIEWED_WORDING:
        finding = f": {language}: terminology: the translation of "
        assert finding in result.stderr
        assert f"says '{avoided}', which docs/terms.yaml:" in result.stderr, result.stderr
    assert run_cli("status", "--strict-translations", cwd=project).returncode == 1
