"""The book's Typst markup, before and through Typst: chapters, links, answers, escaping.

Small hand-written pages, so each expected value can be worked out by reading
them; hostile texts go through the real Typst and must come back as they went in.
"""

from __future__ import annotations

import io
import re

import pytest
import typst
from pypdf import PdfReader

from dama_diagrams._book_text import book_text, unsettable
from dama_diagrams.site._common import SiteError
from dama_diagrams.site.booklet.markup import string_literal, text_markup

from .conftest import book_markup

_book = book_markup


def _chapters(document: str) -> list[str]:
    return re.findall(r"#heading\(level: 1\)\[[^\]]*\] <([^>]*)>", document)


def test_chapters_follow_the_navigation_and_the_glossary_comes_last() -> None:
    document = _book(
        {
            "index": "# Home\n",
            "glossary": "# Glossary\n",
            "king": "---\ndescription: x\n---\n# The king\n",
        }
    )
    assert _chapters(document) == ["index", "king", "glossary"]
    assert "description: x" not in document  # front matter is not text
    assert 'title: "Rules & more"' in document  # a string, escaped for Typst, once


def test_links_between_pages_become_links_inside_the_book_with_their_page() -> None:
    document = _book(
        {
            "index": "# Home\n\nSee [the king](king/) and [moves](king/#moving).\n",
            "king": (
                "# The king\n\n## Moving\n\nBack [home](../), [up](#moving), "
                '[out](https://example.org/), <a href="javascript:alert(1)">bad</a>, '
                "[a file](../assets/x.zip).\n"
            ),
        }
    )
    # "{reference}, p. {page}": the link, then the page Typst finds for its target.
    assert "#link(<king>)[the king], p\\. #context counter(page).at(<king>).first()" in document
    assert "#link(<king--moving>)[moves]" in document
    assert "[Moving] <king--moving>" in document  # the heading's id, under its page's name
    assert "#link(<index>)[home]" in document
    assert '#link("https://example.org/")[out] \\(https:\\/\\/example\\.org\\/\\)' in document
    assert "javascript" not in document
    assert "x.zip" not in document and "[a file]" not in document and "a file" in document


def test_a_link_to_nowhere_in_the_book_names_its_page() -> None:
    with pytest.raises(SiteError, match=r"docs/pages/king\.md\.j2: a link to '#king--nowhere'"):
        _book({"king": "# The king\n\n[lost](#nowhere)\n"})


def test_a_picture_the_site_did_not_make_names_its_page() -> None:
    page = (
        '# Man\n\n<figure class="dama-figure" markdown>\n'
        "![a board](assets/diagrams/x.svg)\n</figure>\n"
    )
    with pytest.raises(
        SiteError, match=r"docs/pages/man\.md\.j2: the page shows assets/diagrams/x\.svg"
    ):
        _book({"man": page})


def test_text_nested_without_end_is_refused_not_a_crash() -> None:
    deep = "# Deep\n\n" + "<em>" * 300 + "x" + "</em>" * 300 + "\n"
    with pytest.raises(SiteError, match=r"docs/pages/deep\.md\.j2: its text nests more than"):
        _book({"deep": deep})


def test_answers_move_to_the_back_each_linked_from_its_exercise() -> None:
    exercises = (
        "# Exercises\n\n"
        "## Exercise 1: First { #exercise-first }\n\n"
        '<div class="dama-exercise" markdown>\n<p>Which move?</p>\n\n'
        '<details class="dama-answer" markdown>\n<summary>Show the answer</summary>\n\n'
        "The answer is 23x14.\n\n</details>\n</div>\n"
    )
    document = _book({"exercises": exercises, "glossary": "# Glossary\n"})
    assert _chapters(document) == ["exercises", "solutions", "glossary"]
    asked, answers = document.split("[Solutions] <solutions>")
    assert "23x14" not in asked and "Show the answer" not in asked
    assert "#link(<solutions--exercises--exercise-first>)[Solutions]" in asked
    assert "<solutions--exercises--exercise-first>" in answers
    assert "#link(<exercises--exercise-first>)[Exercise 1: First]" in answers
    assert "The answer is 23x14\\." in answers.split("<glossary>")[0]


HOSTILE = [
    '#read("/etc/passwd")',
    "#{ panic() } #let x = 1",
    "*bold* _emph_ `raw` $x^2$ <label> @ref",
    "// a comment /* and a block */ here",
    "= heading\n- item\n+ item\n1. item\n/ term: x",
    "back\\slash ] [ ) ( } { ~ -- --- ... -? #set text(red)",
    "https://evil.example/path?q=1&r=%20",
    "\\u{1F600} \\#",
]
"""Texts that would be Typst code, markup, labels, comments or shorthands if not escaped."""


def _typst_text(markup: str) -> str:
    pdf = typst.compile(
        (
            "#set page(width: 300mm, height: auto)\n#set smartquote(enabled: false)\n" + markup
        ).encode(),
        format="pdf",
    )
    assert isinstance(pdf, bytes)
    return " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_comes_out_of_typst_as_it_went_in(text: str) -> None:
    expected = " ".join(text.split())
    assert _typst_text(text_markup(text)) == expected
    assert _typst_text(f"#raw({string_literal(text)})") == " ".join(text.replace("\n", " ").split())


def test_a_move_number_stays_with_its_move() -> None:
    """No line ends between "2." and "19x10": a no-break space, only where a move follows."""
    assert text_markup("Move 1... 10-14.") == "Move 1\\.\\.\\.\u00a010\\-14\\."
    assert text_markup("1. 23-19 10-14 2. 19x10") == "1\\.\u00a023\\-19 10\\-14 2\\.\u00a019x10"
    assert text_markup("art. 3.4 22-18") == "art\\. 3\\.4 22\\-18"  # no move number there


# --- what the book's fonts cannot set ---------------------------------------------------------

UNSETTABLE = "😀 ⛀ ก \uffff \ufeff"
"""An emoji, the white draughts man, a Thai letter, a noncharacter, a byte-order mark: Typst
refused each (review T05), as a character no embedded font has or as one PDF/UA forbids."""


def _pdf_ua(markup: str) -> str:
    """The text of a PDF/UA-1 book that Typst made of ``markup``, with its own fonts only."""
    compiler = typst.Compiler(ignore_system_fonts=True)
    pdf = compiler.compile(markup.encode(), format="pdf", pdf_standards=["ua-1"])
    assert isinstance(pdf, bytes)
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_characters_the_fonts_lack_are_known() -> None:
    assert unsettable(f"Élan Ж Ω € «» — {UNSETTABLE} \u2028\u3000\u200b") == [
        "😀", "⛀", "ก", "\uffff", "\ufeff",
    ]  # fmt: skip
    assert book_text("a⛀b\ufeffc") == "a\ufffdb\ufffdc"


def test_a_character_the_fonts_lack_is_printed_as_the_replacement_character() -> None:
    """Typst's PDF/UA check once refused the whole book for one emoji, naming no file."""
    text = _pdf_ua(
        _book(
            {
                "index": (
                    f"# Home {UNSETTABLE}\n\n## Men ⛀\n\nA man 😀 moves, `code 😀\ufeff`.\n\n"
                    "```\nblock ก\n```\n"
                )
            }
        )
    )
    assert "Home \ufffd \ufffd \ufffd \ufffd" in text
    assert "Men \ufffd" in text and "A man \ufffd moves" in text
    assert "code \ufffd" in text and "block \ufffd" in text
    assert not set(UNSETTABLE.replace(" ", "")) & set(text)


@pytest.mark.parametrize("blank", ["\u2028", "\u3000", "\u200b", "\u00ad\u2060"])
def test_a_heading_that_shows_nothing_is_never_an_empty_heading(blank: str) -> None:
    """PDF/UA refuses an empty heading ("heading title is empty"): it shows U+FFFD instead."""
    document = _book({"index": f"# Home\n\n## {blank}\n\nText.\n"})
    assert "#heading(level: 2)[\ufffd]" in document
    assert "Home" in _pdf_ua(document)
