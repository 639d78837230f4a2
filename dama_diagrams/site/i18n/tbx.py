"""The terminology base as TBX, the exchange format that Weblate, Crowdin and Poedit import.

TBX-Basic in the TBX v3 core structure (ISO 30042:2019): one ``conceptEntry``
per concept of ``docs/terms.yaml``, one ``langSec`` per language, the
preferred word as ``preferredTerm-admn-sts``, the other Italian terms and a
language's ``also`` words as ``admittedTerm-admn-sts``, and each word to avoid
as ``deprecatedTerm-admn-sts``.  The glossary's definition goes into each
language whose catalog translates it.  Written with the standard library's
ElementTree, which escapes every text and attribute; the same inputs give the
same bytes.  ElementTree writes any character as it is, and XML 1.0 has no
way at all to write some (C0 controls, U+FFFE, U+FFFF, lone surrogates), so
every text is looked at first: such a character is refused at its line, in
``docs/terms.yaml`` or a catalog, and the writer never makes a file that an
XML parser refuses.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path

from ..._markdown_text import NONCHARACTER
from .catalog import CatalogError
from .reading import available_languages, load_catalog
from .status import entry_problems
from .terms import ENGLISH, Terms

TBX_NAMESPACE = "urn:iso:std:iso:30042:ed-2"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_SCHEMA = (
    '<?xml-model href="https://raw.githubusercontent.com/LTAC-Global/TBX-Basic_dialect/master/'
    'DCA/TBXcoreStructV03_TBX-Basic_integrated.rng" type="application/xml" '
    'schematypens="http://relaxng.org/ns/structure/1.0"?>\n'
)
PREFERRED = "preferredTerm-admn-sts"
ADMITTED = "admittedTerm-admn-sts"
AVOIDED = "deprecatedTerm-admn-sts"


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""What XML 1.0's ``Char`` production leaves out: no escape can write these."""


def translated_definitions(project_root: Path, terms: Terms) -> dict[str, dict[str, str]]:
    """Each language's translations of the glossary's definitions, for :func:`terms_tbx`.

    A definition whose translation a build refuses (``status`` names it: a
    noncharacter, a control character, a broken limit) stops the export with
    the same error, at its PO line.
    """
    wanted = {concept.definition for concept in terms.concepts if concept.definition}
    found: dict[str, dict[str, str]] = {}
    for language in available_languages(project_root):
        catalog = load_catalog(project_root, language)
        translated = found.setdefault(language, {})
        for (_, english), entry in catalog.entries.items():
            if english not in wanted or entry.state != "translated":
                continue
            if entry.po_line is not None:
                for problem in entry_problems(catalog, english, entry):
                    raise problem
            translated[english] = entry.translation
    return found


def terms_tbx(terms: Terms, definitions: Mapping[str, Mapping[str, str]]) -> bytes:
    """The TBX document, UTF-8; ``definitions[language][english]`` is a translated definition.

    Raises :class:`.CatalogError` for a text that XML cannot hold (or that
    holds a noncharacter), naming the concept: :func:`translated_definitions`
    and :func:`.terms.parse_terms` refuse them at their line before.
    """
    ET.register_namespace("", TBX_NAMESPACE)
    root = ET.Element(_tag("tbx"), {"type": "TBX-Basic", "style": "dca", _XML_LANG: ENGLISH})
    header = ET.SubElement(root, _tag("tbxHeader"))
    described = ET.SubElement(header, _tag("fileDesc"))
    title = ET.SubElement(ET.SubElement(described, _tag("titleStmt")), _tag("title"))
    title.text = "The words of Italian draughts (dama italiana)"
    source = ET.SubElement(ET.SubElement(described, _tag("sourceDesc")), _tag("p"))
    source.text = f"Made by dama-diagrams from {terms.path}; edit that file, not this one."
    body = ET.SubElement(ET.SubElement(root, _tag("text")), _tag("body"))
    for concept in terms.concepts:
        entry = ET.SubElement(body, _tag("conceptEntry"), {"id": concept.id})
        for language, words in concept.words.items():
            section = ET.SubElement(entry, _tag("langSec"), {_XML_LANG: language})
            definition = (
                concept.definition
                if language == ENGLISH
                else definitions.get(language, {}).get(concept.definition or "")
            )
            if definition:
                descrip = ET.SubElement(section, _tag("descrip"), {"type": "definition"})
                descrip.text = definition
            _term(section, words.term, PREFERRED)
            italian = concept.italian if language == "it" else ()
            for admitted in dict.fromkeys([*italian, *words.also]):
                if admitted.casefold() != words.term.casefold():
                    _term(section, admitted, ADMITTED)
            for avoided in words.avoid:
                _term(section, avoided, AVOIDED)
    _check_characters(root, terms)
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + _SCHEMA + text + "\n").encode()


def _tag(name: str) -> str:
    return f"{{{TBX_NAMESPACE}}}{name}"


def _term(section: ET.Element, word: str, status: str) -> None:
    term_section = ET.SubElement(section, _tag("termSec"))
    ET.SubElement(term_section, _tag("term")).text = word
    note = ET.SubElement(term_section, _tag("termNote"), {"type": "administrativeStatus"})
    note.text = status


def _check_characters(root: ET.Element, terms: Terms) -> None:
    """Every text and attribute of the document is XML 1.0 text, with no noncharacter."""
    concept = None
    for element in root.iter():
        concept = element.get("id", concept) if element.tag == _tag("conceptEntry") else concept
        for text in (element.text or "", *element.attrib.values()):
            found = _NOT_XML.search(text) or NONCHARACTER.search(text)
            if found is not None:
                where = terms.path if concept is None else f"{terms.path}, concept '{concept}'"
                raise CatalogError(
                    f"U+{ord(found[0]):04X} in the TBX ({where}) cannot be written in XML; "
                    "remove it from the file that holds it (dama-diagrams status names the line)"
                )
