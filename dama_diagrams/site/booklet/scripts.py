"""Which languages the printed book can be set in: the scripts its fonts cover.

The book uses only the fonts Typst embeds (Libertinus Serif, New Computer
Modern, DejaVu Sans Mono), so that it looks the same on every machine.  They
cover the Latin, Greek and Cyrillic scripts; a language written in another
(Japanese, Chinese, Arabic, Hebrew, Devanagari...) would print as missing
glyphs, so the build leaves its book out with a warning and builds the rest.
A language's script is its own code's (``sr-Latn``), or else the one CLDR
says it is most likely written in (Babel's ``likely_subtags``: ``ja`` is Jpan).
"""

from __future__ import annotations

from babel.core import Locale, UnknownLocaleError, get_global, parse_locale

BOOK_SCRIPTS = {"Latn": "Latin", "Grek": "Greek", "Cyrl": "Cyrillic"}
"""The scripts of Typst's embedded fonts, by their ISO 15924 code."""


def script_of(language: str) -> str | None:
    """The ISO 15924 code of the script ``language`` is written in, if Babel knows it."""
    try:
        locale = Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    if locale.script:
        return str(locale.script)
    likely = get_global("likely_subtags")
    for key in (f"{locale.language}_{locale.territory}", locale.language):
        if key in likely:
            script = parse_locale(likely[key])[2]
            if script:
                return str(script)
    return None


def book_fonts_lack(language: str) -> str | None:
    """Why the book's fonts cannot print ``language`` (its script), or None when they can.

    An unknown script is taken as printable: the build then says which glyph is missing.
    """
    script = script_of(language)
    if script is None or script in BOOK_SCRIPTS:
        return None
    return (
        f"its script ({script}) is not in the book's fonts, which cover "
        f"{', '.join(BOOK_SCRIPTS.values())} only"
    )
