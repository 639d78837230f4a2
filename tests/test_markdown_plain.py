"""Simple catalog text skips Python-Markdown and nh3: the HTML must be exactly theirs.

The answers here are Python-Markdown's own output, from a fresh
``markdown.Markdown()``, and nh3's with the site's allowed tags (``sanitized``,
which always calls nh3): for every message (English and translated) of every
catalog, every text the pages of every language convert, and hand-picked
lines that look simple but are not.
"""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest
from babel.messages.pofile import read_po

from dama_diagrams import _markdown_text
from dama_diagrams._markdown_text import NOT_A_BLOCK, NUMBERED, markdown_html, one_line
from dama_diagrams.site.i18n.safe_text import clean_html, sanitized

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "docs" / "locales"


def _python_markdown(text: str) -> str:
    return markdown.Markdown().convert(text.replace("\x00", ""))


def _agrees(text: str) -> None:
    converted = markdown_html(text)
    assert converted == _python_markdown(text), repr(text)
    for inline in (True, False):
        assert clean_html(converted, inline=inline) == sanitized(converted, inline=inline), repr(
            text
        )


def _catalog_texts() -> list[str]:
    texts: set[str] = set()
    for path in sorted(LOCALES.glob("*/LC_MESSAGES/messages.po")):
        with path.open("rb") as stream:
            catalog = read_po(stream)
        for message in catalog:
            for text in (message.id, message.string):
                texts.update(t for t in (text if isinstance(text, tuple) else (text,)) if t)
    return sorted(texts)


def _as_inline(text: str) -> str:
    """What catalog_html hands to Markdown for inline text."""
    return NOT_A_BLOCK.sub(r"\\", NUMBERED.sub(r"\1\\.", one_line(text)))


def test_every_catalog_message_gets_python_markdowns_html() -> None:
    texts = _catalog_texts()
    assert len(texts) > 1000  # six catalogs of a few hundred messages each
    plain = 0
    for text in texts:
        for shown in (text, _as_inline(text)):
            _agrees(shown)
            plain += markdown_html(shown) == f"<p>{shown}</p>"
    assert plain > len(texts)  # most of the catalogs are prose: the short path is used


@pytest.mark.parametrize(
    "text",
    [
        "3 men beat 2 kings",
        "1. a list item",
        "12) not a list",
        "- a list",
        "+ a list",
        "* a list",
        "# a heading",
        "> a quote",
        "    code",
        "a *word*",
        "a _word_",
        "snake_case",
        "a `move`",
        "a [link](https://example.org)",
        "![image](x.png)",
        "R&D",
        "&amp; an entity",
        "a <b>tag</b>",
        "<https://example.org>",
        "an escaped \\* star",
        "two lines\nof text",
        "a line break  \nhere",
        "trailing space ",
        " leading space",
        "\xa0non-breaking edge\xa0",
        'Tom\'s "quoted" «guillemets» — 100%',
        "---",
        "===",
        "a = b",
        "x\x02y\x03z",
        "tab\there",
        "e.g. https://example.org/a_b",
        "½ · § ¶ †",
        "!",
        "a",
        '<a href="board/">Board, setup and notation</a>: the board and its squares.',
        'See <a href="king/">The king</a> and <a href="man/">the man</a>.',
        '<a href="x">',
        "</a> stray",
        '<a href="x" title="t">t</a>',
        '<a href="a_b/">x</a>',
        '<a href="`x`">x</a>',
        '<a href="a&amp;b">x</a>',
        '<a href="x">*em*</a>',
        "<b>bold</b>",
        "<div>block</div>",
        "**Base** (*base*)\xa0: la rangée",
        "a *b* c **d** e `f` g",
        "a*b*c and a**b**c",
        "2*3*4 * 5",
        "* not a list?",
        "*a **b** c*",
        "**a *b* c**",
        "***both***",
        "** spaced **",
        "* spaced *",
        "`a*b_c<d>&e`",
        "`` double ``",
        "` spaced `",
        "`a` `b`",
        "*`code` in em*",
        "`x`*y*",
        "**unclosed",
        "*unclosed",
        "`unclosed",
        "line one\nline two",
        "line one  \nbreak",
        "line one\n\nline two",
        "para\n# heading",
        "para\n> quote",
        "para\n- list",
        "para\n1. list",
        "para\n===",
        "para\n---",
        "para\n    indented",
        "*a\nb*",
        "`a\nb`",
        "a\xa0b",
        "a\u202fb",
        'see <a href="javascript:alert(1)">this</a>',
        'see <a href="x">*this*</a>',
    ],
)
def test_lines_that_look_simple_get_python_markdowns_and_nh3s_html(text: str) -> None:
    _agrees(text)


def test_every_text_the_pages_convert_gets_python_markdowns_html(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The texts as the pages fill them in (links, moves, counts), in every language."""
    from dama_diagrams.site import generate_language, load_figures
    from dama_diagrams.site.builder import BaseConfig
    from dama_diagrams.site.i18n import available_languages
    from dama_diagrams.site.i18n import safe_text as _markdown

    seen: list[str] = []

    def recorded(text: str) -> str:
        seen.append(text)
        return markdown_html(text)

    monkeypatch.setattr(_markdown_text, "markdown_html", recorded)  # catalog_html's, is_paragraph's
    _markdown.catalog_html.cache_clear()
    try:
        figures = load_figures(ROOT)
        base = BaseConfig.read(ROOT)
        languages = available_languages(ROOT)
        for language in languages:
            generate_language(ROOT, language, figures, base=base, languages=languages)
    finally:
        _markdown.catalog_html.cache_clear()
    assert sum('<a href="' in text for text in seen) > 100  # the templates' links are in
    for text in sorted(set(seen)):
        _agrees(text)
