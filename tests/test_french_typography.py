"""French puts a no-break space before : ; ! ? and inside « », wherever the text comes from.

The space is the catalog's to write: no page template and no code puts punctuation
of its own between two translated pieces, so a French translator can always set it.
"""

from __future__ import annotations

import re
from pathlib import Path

from dama_diagrams import Position
from dama_diagrams.site.i18n import load_catalog
from dama_diagrams.site.i18n.reading import read_catalog
from dama_diagrams.site.pages.descriptions import describe_position

ROOT = Path(__file__).resolve().parent.parent
NO_BREAK = "\u00a0\u202f"
"""A no-break space, or the narrow one that some typesetters prefer before ; ! ?."""


def _unspaced(text: str) -> list[str]:
    """Where French lacks a no-break space before : ; ! ? », or after «; code and links aside."""
    prose = re.sub(r"`[^`]*`|\]\([^)]*\)|https?://\S+", "·", text)
    before = [
        prose[max(i - 1, 0) : i + 1]
        for i, char in enumerate(prose)
        if char in ":;!?»" and (i == 0 or prose[i - 1] not in NO_BREAK)
    ]
    after = [
        prose[i : i + 2]
        for i, char in enumerate(prose)
        if char == "«" and (prose[i + 1 : i + 2] or "?") not in NO_BREAK
    ]
    return before + after


def test_the_check_finds_a_missing_space() -> None:
    """Worked by hand: the first two lack the space (or have a breaking one), the third is right."""
    assert _unspaced("notation: le damier") == ["n:"]
    assert _unspaced("31 ; dame « trait »") == [" ;", " »", "« "]
    assert _unspaced("Interdit\u00a0: «\u00a0{move}\u00a0» ; `a:b` [x](https://a.b/c?d)") == [" ;"]


def test_every_french_message_spaces_its_punctuation() -> None:
    catalog = read_catalog(ROOT, "fr")
    wrong = [
        (message.id, found)
        for message in catalog
        if message.id and isinstance(message.string, str)
        for found in _unspaced(message.string)
    ]
    assert wrong == []


def test_no_template_puts_punctuation_between_two_translated_pieces() -> None:
    """'{{ link(...) }}: {{ summary(...) }}' would fix the colon in every language."""
    found = [
        f"{path.name}:{number}"
        for path in sorted((ROOT / "docs" / "pages").glob("*.md.j2"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if re.search(r"\}\}\s*[:;!?]", line)
    ]
    assert found == []


def test_a_side_with_men_and_kings_is_read_with_the_catalogs_separator() -> None:
    """White has men on 31 and 32 and a king on 21; Black a man on 5 (worked by hand)."""
    position = Position.from_fen("W:W31,32,K21:B5")
    english = describe_position(position, load_catalog(ROOT, "en"))
    assert english.startswith("White: men on 31, 32; king on 21. Black: man on 5.")
    french = describe_position(position, load_catalog(ROOT, "fr"))
    assert french.startswith("Blancs\u00a0: pions sur 31, 32\u00a0; dame sur 21. Noirs\u00a0: pion")


def test_the_built_french_pages_keep_the_no_break_spaces(built_site: Path) -> None:
    """The home page's list and an alt text, as published: a line never breaks before ':'."""
    import html

    out = built_site
    home = html.unescape((out / "fr" / "index.html").read_text("utf-8"))
    assert "notation</a>\u00a0: le damier" in home
    capturing = html.unescape((out / "fr" / "capturing" / "index.html").read_text("utf-8"))
    assert 'alt="Blancs\u00a0: pions sur 22, 24. Noirs\u00a0: pion sur 18.' in capturing
