"""Which characters the book can set, asked of Typst itself, one code point at a time.

The book uses only the fonts Typst embeds (:mod:`.pdf`), and Typst refuses a
PDF/UA book with a character none of them has.  What it accepts is more than
the fonts' character maps: it sets a line separator or a zero-width joiner
without a glyph, and refuses a few characters that a font maps (U+FEFF
between two letters, some the mathematical fonts alone have).  So the table
is Typst's own answer: every code point between two letters, each in its own
paragraph, in the book's type, under PDF/UA-1; then each one it set, alone
(Typst checks U+FEFF only where it comes first).  ``scripts/book_glyphs.py``
writes it into the package (:mod:`dama_diagrams._book_glyph_table`), where
``status`` and ``verify`` read it without Typst; ``tests/test_booklet.py``
asks Typst again and compares.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence

from ..._book_text import Ranges, code_point_ranges
from .markup import escaped_markup
from .pdf import STANDARD, typst_module

TABLE_FILE = "_book_glyph_table.py"
"""The table's file in the package."""
EVERY_CODE_POINT = tuple(c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
"""Every code point a UTF-8 text can hold (the surrogates cannot)."""
_CHUNK = 5000
"""Code points per document: Typst's report of a chunk's refusals stays a few megabytes."""
_PREAMBLE = '#set text(font: "Libertinus Serif", lang: "en")\n#set document(title: "probe")\n'
_FIRST_LINE = _PREAMBLE.count("\n") + 1
_ERROR = re.compile(r"^error: ", re.MULTILINE)
_LOCATED = re.compile(r"^error: .*\n\s*┌─ [^\n]*?:(\d+):\d+$", re.MULTILINE)


def settable_ranges(code_points: Iterable[int] = EVERY_CODE_POINT) -> Ranges:
    """The ranges of ``code_points`` that Typst sets in the book's type, under PDF/UA-1."""
    chosen = list(code_points)
    refused: set[int] = set()
    for start in range(0, len(chosen), _CHUNK):
        refused |= refused_code_points(chosen[start : start + _CHUNK])
    return code_point_ranges(set_alone(c for c in chosen if c not in refused))


def set_alone(code_points: Iterable[int]) -> Iterator[int]:
    """Those of ``code_points`` that Typst sets alone between two letters, each written
    as the book writes text (the character itself, in markup)."""
    typst = typst_module()
    with tempfile.TemporaryDirectory(prefix="dama-glyphs-") as empty_root:
        compiler = typst.Compiler(root=empty_root, ignore_system_fonts=True)
        for code in code_points:
            document = f"{_PREAMBLE}{escaped_markup(f'a{chr(code)}b')}\n".encode()
            try:
                compiler.compile(document, format="pdf", pdf_standards=[STANDARD])
            except typst.TypstError:
                continue
            yield code


def refused_code_points(code_points: Sequence[int]) -> set[int]:
    """Those of ``code_points`` that Typst refuses between two letters, in a PDF/UA book.

    A chunk that makes Typst panic (it did, on Arabic marks that no font has,
    side by side in one paragraph) is split until the code point that does is found.
    """
    if not code_points:
        return set()
    typst = typst_module()
    lines = "\n\n".join(f'#"a\\u{{{c:x}}}b"' for c in code_points)
    with tempfile.TemporaryDirectory(prefix="dama-glyphs-") as empty_root:
        compiler = typst.Compiler(root=empty_root, ignore_system_fonts=True)
        try:
            compiler.compile(
                (_PREAMBLE + lines + "\n").encode(), format="pdf", pdf_standards=[STANDARD]
            )
        except typst.TypstError as exc:
            report = str(exc.diagnostic)
        except BaseException as exc:  # pyo3's PanicException derives from BaseException only
            if type(exc).__name__ != "PanicException":
                raise
            if len(code_points) == 1:
                return set(code_points)
            half = len(code_points) // 2
            return refused_code_points(code_points[:half]) | refused_code_points(code_points[half:])
        else:
            return set()
    located = [int(line) for line in _LOCATED.findall(report)]
    if len(located) != len(_ERROR.findall(report)):
        raise RuntimeError(f"Typst reported an error at no line of the probe: {report[:2000]}")
    return {code_points[(line - _FIRST_LINE) // 2] for line in located}


def table_text(ranges: Ranges) -> str:
    """The table's module: the ranges, four to a line, and the Typst that answered."""
    typst = typst_module()
    rows = [
        "    " + " ".join(f"(0x{first:04X}, 0x{last:04X})," for first, last in ranges[i : i + 4])
        for i in range(0, len(ranges), 4)
    ]
    count = sum(last - first + 1 for first, last in ranges)
    return (
        '"""The characters the printed book can set: made by scripts/book_glyphs.py, do not edit.\n'
        "\n"
        f"Typst {typst.__version__} set these {count} code points between two letters, in the\n"
        "book's type and with only its embedded fonts, in a PDF/UA-1 document; it refused\n"
        "every other one (:mod:`dama_diagrams.site.booklet.glyphs`).\n"
        '"""\n\n'
        f'TYPST_VERSION = "{typst.__version__}"\n'
        "SETTABLE: tuple[tuple[int, int], ...] = (\n" + "\n".join(rows) + "\n)\n"
    )
