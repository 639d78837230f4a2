"""Plain catalog text skips Python-Markdown: the HTML must be exactly what Markdown writes.

The answer here is Python-Markdown's own output, computed by a fresh
``markdown.Markdown()`` for every message (English and translated) of every
catalog in the project, and for hand-picked lines that look plain but are not.
"""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest
from babel.messages.pofile import read_po

from dama_diagrams.site._markdown import _NOT_A_BLOCK, _NUMBERED, markdown_html, one_line

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "docs" / "locales"


def _python_markdown(text: str) -> str:
    return markdown.Markdown().convert(text.replace("\x00", ""))


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
    return _NOT_A_BLOCK.sub(r"\\", _NUMBERED.sub(r"\1\\.", one_line(text)))


def test_every_catalog_message_gets_python_markdowns_html() -> None:
    texts = _catalog_texts()
    assert len(texts) > 1000  # six catalogs of a few hundred messages each
    plain = 0
    for text in texts:
        for shown in (text, _as_inline(text)):
            assert markdown_html(shown) == _python_markdown(shown), repr(shown)
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
    ],
)
def test_lines_that_look_plain_get_python_markdowns_html(text: str) -> None:
    assert markdown_html(text) == _python_markdown(text)


def test_every_text_the_pages_convert_gets_python_markdowns_html(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The texts as the pages fill them in (links, moves, counts), in every language."""
    from dama_diagrams.site import _markdown
    from dama_diagrams.site.build import BaseConfig, generate_language, load_figures
    from dama_diagrams.site.i18n import available_languages

    seen: list[str] = []

    def recorded(text: str) -> str:
        seen.append(text)
        return markdown_html(text)

    monkeypatch.setattr(_markdown, "markdown_html", recorded)
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
        assert markdown_html(text) == _python_markdown(text), repr(text)
