"""Copy the board editor's translations from docs/locales/ into the package.

Run it from the project's folder after the catalogs change (after
``dama-diagrams update-translations`` and the translators' work):
``python scripts/editor_words.py``.  tests/test_editor_words.py fails until
the copy matches the catalogs.
"""

from __future__ import annotations

from pathlib import Path

from dama_diagrams.site.editor.words import catalog_words
from dama_diagrams.site.fence.words import WORDS_FILE, words_text

if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    target = root / "dama_diagrams" / "site" / "editor" / WORDS_FILE
    target.write_text(words_text(catalog_words(root)), encoding="utf-8")
    print(f"wrote {target.relative_to(root)}")
