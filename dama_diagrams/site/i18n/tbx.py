"""The terminology base as TBX, the exchange format that Weblate, Crowdin and Poedit import.

TBX-Basic in the TBX v3 core structure (ISO 30042:2019): one ``conceptEntry``
per concept of ``docs/terms.yaml``, one ``langSec`` per language, the
preferred word as ``preferredTerm-admn-sts``, the other Italian terms and a
language's ``also`` words as ``admittedTerm-admn-sts``, and each word to avoid
as ``deprecatedTerm-admn-sts``.  The glossary's definition goes into each
language whose catalog translates it.  Written with the standard library's
ElementTree, which escapes every text and attribute; the same inputs give the
same bytes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping

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


def terms_tbx(terms: Terms, definitions: Mapping[str, Mapping[str, str]]) -> bytes:
    """The TBX document, UTF-8; ``definitions[language][english]`` is a translated definition."""
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
