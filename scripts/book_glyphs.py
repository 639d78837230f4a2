"""Write the table of the characters the printed book can set, by asking Typst.

Run it from the project's folder after Typst is upgraded (its embedded fonts
may change): ``python scripts/book_glyphs.py``.  It asks Typst about every
code point (about two minutes) and writes dama_diagrams/_book_glyph_table.py,
which ``status`` and ``verify`` read without Typst; tests/test_booklet.py
fails until the table is Typst's answer.
"""

from __future__ import annotations

import time
from pathlib import Path

from dama_diagrams.site.booklet.glyphs import TABLE_FILE, settable_ranges, table_text

if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    started = time.perf_counter()
    ranges = settable_ranges()
    target = root / "dama_diagrams" / TABLE_FILE
    target.write_text(table_text(ranges), encoding="utf-8")
    count = sum(last - first + 1 for first, last in ranges)
    print(
        f"wrote {target.relative_to(root)}: {count} code points in {len(ranges)} ranges "
        f"({time.perf_counter() - started:.0f} s)"
    )
