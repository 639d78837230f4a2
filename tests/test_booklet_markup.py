"""The book's Typst markup, before and through Typst: chapters, links, answers, escaping.

Small hand-written pages, so each expected value can be worked out by reading
them; hostile texts go through the real Typst and must come back as they went in.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
import typst
from pypdf import PdfReader

from dama_diagrams._book_text import book_text, unsettable
from dama_diagrams.site.booklet import BookDocument, BookSources, book_pdf
from dama_diagrams.site.booklet.markup import BookMarkup, string_literal, text_markup
from dama_diagrams.site.booklet.pdf import BookRefusedError, printable_document
from dama_diagrams.site.booklet.places import BookWarning

from .conftest import book_markup, book_sources

_book = book_markup


def _document(pages: dict[str, str], **given: Any) -> BookDocument:
    return printable_document(book_sources(pages, **given))


def _pdf_of(sources: BookSources) -> PdfReader:
    """The book as the build lays it out: real Typst, PDF/UA-1, the pictures from memory."""
    return PdfReader(io.BytesIO(book_pdf(sources)))


def _pdf_text(reader: PdfReader) -> str:
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def _links(reader: PdfReader) -> set[str]:
    """The addresses the book's links lead out to."""
    return {
        str(annotation.get_object()["/A"]["/URI"])
        for page in reader.pages
        for annotation in page.get("/Annots", [])
        if "/URI" in annotation.get_object().get("/A", {})
    }


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
    # "{reference}, p. {page}": the link, then the page Typst finds for its target, after a
    # no-break space (~): "p." never ends a line with the number on the next.
    assert "#link(<king>)[the king], p\\.~#context counter(page).at(<king>).first()" in document
    assert "#link(<king--moving>)[moves]" in document
    assert "[Moving] <king--moving>" in document  # the heading's id, under its page's name
    assert "#link(<index>)[home]" in document
    shown = '#link("https://example.org/")[https:\\/\\/example\\.org\\/]'
    assert f'#link("https://example.org/")[out] \\({shown}\\)' in document
    assert "javascript" not in document
    assert "x.zip" not in document and "[a file]" not in document and "a file" in document


def test_a_link_to_nowhere_in_the_book_keeps_its_words_and_names_its_line() -> None:
    """It once stopped the book, and the site with it; an anchor only the web page has
    (``<span id>``, ``{: #para }``) made Typst refuse the book."""
    king = (
        "# The king\n\n"
        "Go [back](#moving).\n\n"
        "## Moving\n\n"
        'A <span id="para">kept</span> word, [lost](#nowhere), [to the word](#para).\n'
    )
    sources = book_sources({"king": king}, templates={"king": king})
    document = printable_document(sources)
    assert "#link(<king--moving>)[back]" in document.markup  # a heading: linked
    assert "lost" in document.markup and "to the word" in document.markup
    assert "nowhere" not in document.markup and "king--para" not in document.markup
    advice = "the book shows its words without the link: link to a heading or a page"
    assert document.warnings == (
        BookWarning(
            "docs/pages/king.md.j2:7",
            "the link to '#nowhere' leads to no heading or page of the book",
            advice,
        ),
        BookWarning(
            "docs/pages/king.md.j2:7",
            "the link to '#para' leads to no heading or page of the book",
            advice,
        ),
    )
    text = _pdf_text(_pdf_of(sources))
    assert "A kept word, lost, to the word." in text


def test_a_board_the_site_did_not_make_leaves_the_book_out_naming_its_line() -> None:
    """A figure's board is a verified diagram's: a figure without one is an error of the
    page, which costs its book alone (build publishes the site without it)."""
    page = (
        "# Man\n\nText.\n\n"
        '<figure class="dama-figure" markdown>\n'
        "![a board](assets/diagrams/x.svg)\n</figure>\n"
    )
    with pytest.raises(BookRefusedError) as refused:
        _document({"man": page}, templates={"man": page})
    assert refused.value.message == (
        "en: the book: docs/pages/man.md.j2:6: the page shows assets/diagrams/x.svg, which no "
        "verified diagram makes: check the name given to figure() or exercise()"
    )


def test_a_fault_of_the_books_own_code_costs_the_book_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(self: BookMarkup, element: object, depth: int) -> str:
        raise ValueError("a bug")

    monkeypatch.setattr(BookMarkup, "block", broken)
    with pytest.raises(BookRefusedError) as refused:
        _document({"index": "# Home\n\nText.\n"})
    assert refused.value.message == (
        "en: the book: its pages could not be set (ValueError: a bug): report it as a bug, "
        "with the page"
    )


# --- pictures ----------------------------------------------------------------------------

LOGO = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    b'<rect width="64" height="64" rx="10" fill="#b08659"/></svg>'
)
"""A picture the site makes (its favicon is such an SVG), by its path in the docs folder."""


def test_a_picture_the_site_makes_is_printed_and_one_on_the_web_by_its_words() -> None:
    """An ordinary picture in a template once stopped the whole site (review T05-4)."""
    page = (
        "# Home\n\n"
        "![The club logo](assets/logo.svg)\n\n"
        "An icon ![a king](assets/logo.svg) in the text.\n\n"
        "A photo: ![The board at the club](https://example.org/board.jpg), "
        '<img src="https://example.org/x.png"> and ![a sketch](data:image/png;base64,AAAA).\n\n'
        "[![build passing](https://img.example/badge.svg)](https://ci.example/run)\n"
    )
    sources = book_sources({"index": page}, assets={"assets/logo.svg": LOGO})
    document = printable_document(sources)
    assert document.warnings == ()
    assert document.images == {"assets/logo.svg": LOGO.decode()}
    logo = 'image(bytes(sys.inputs.at("assets/logo.svg")), format: "svg"'
    assert f'#{logo}, alt: "The club logo")' in document.markup  # alone: its own size
    assert f'#box({logo}, height: legend-icon, alt: "a king"))' in document.markup  # in the text
    reader = _pdf_of(sources)  # Typst's PDF/UA-1 check passes: each picture has its words
    text = _pdf_text(reader)
    assert "A photo: The board at the club, https://example.org/x.png and a sketch." in text
    assert "build passing (https://ci.example/run)" in text  # a badge: its link's, not its own
    assert _links(reader) == {
        "https://example.org/board.jpg",
        "https://example.org/x.png",
        "https://ci.example/run",
    }
    figures = [node for node in _structure_tags(reader) if node[0] == "/Figure"]
    assert [alt for _, alt in figures] == ["The club logo", "a king"]


def _structure_tags(reader: PdfReader) -> list[tuple[str, str | None]]:
    """(tag, alternative text) of each element of the PDF's structure tree, in order."""
    found: list[tuple[str, str | None]] = []

    def walk(node: Any) -> None:
        node = node.get_object()
        if isinstance(node, list):
            for child in node:
                walk(child)
            return
        if not hasattr(node, "get"):
            return
        if "/S" in node:
            alt = node.get("/Alt")
            found.append((str(node["/S"]), None if alt is None else str(alt)))
        kids = node.get("/K")
        if kids is not None:
            walk(kids)

    walk(reader.trailer["/Root"]["/StructTreeRoot"])
    return found


@pytest.mark.parametrize(
    "source", ["assets/missing.svg", "assets/dama.css", "../../etc/passwd", "/etc/logo.svg"]
)
def test_a_picture_the_site_does_not_make_is_left_out_with_a_warning_at_its_line(
    source: str,
) -> None:
    """The book reads no file for it: only the pictures the site made, from memory."""
    template = (
        '# Home\n\n{{ _("Some text.") }}\n\n'
        f'<img src="{source}" alt="A lost picture">\n\nAfter it.\n'
    )
    page = template.replace('{{ _("Some text.") }}', "Some text.")
    assets = {"assets/logo.svg": LOGO, "assets/dama.css": b"body {}"}
    sources = book_sources({"index": page}, assets=assets, templates={"index": template})
    document = printable_document(sources)
    assert document.warnings == (
        BookWarning(
            "docs/pages/index.md.j2:5",
            f"the picture '{source}' is no file the site makes: the web page cannot show it either",
            "the book leaves it out: show a diagram with figure(), or a picture by its https:// "
            "address",
        ),
    )
    assert document.images == {}
    assert "Some text. After it." in _pdf_text(_pdf_of(sources))


# --- nesting --------------------------------------------------------------------------------


def _nested_list(levels: int, word: str = "level") -> str:
    return "\n".join("    " * depth + f"- {word} {depth + 1}" for depth in range(levels)) + "\n"


@pytest.mark.parametrize("levels", [20, 21, 60])
def test_a_list_deeper_than_the_book_nests_is_printed_flat_with_a_warning(levels: int) -> None:
    """A list 21 levels deep once stopped the whole site; the web page shows any depth.
    Typst itself stops at some 31 levels ("maximum show rule depth exceeded")."""
    template = "# Deep\n\nA list:\n\n" + _nested_list(levels)
    sources = book_sources({"index": template}, templates={"index": template})
    document = printable_document(sources)
    text = _pdf_text(_pdf_of(sources))
    assert f"level {levels}" in text and "level 20" in text
    if levels == 20:
        assert document.warnings == ()
        return
    assert document.warnings == (
        BookWarning(
            "docs/pages/index.md.j2:25",  # "- level 21", the first that is printed flat
            "lists, emphasis or quotes nest deeper than the book prints them, 40 elements "
            "(20 levels of lists)",
            "the book prints what lies deeper as plain text: nest them less deeply",
        ),
    )


def test_emphasis_nested_without_end_is_printed_flat_not_a_crash() -> None:
    deep = "# Deep\n\nFirst.\n\n" + "<em>" * 300 + "Deep words" + "</em>" * 300 + "\n"
    sources = book_sources({"deep": deep}, templates={"deep": deep})
    document = printable_document(sources)
    assert [warning.where for warning in document.warnings] == ["docs/pages/deep.md.j2:5"]
    assert "Deep words" in _pdf_text(_pdf_of(sources))


def test_a_warning_finds_a_translated_text_by_its_message() -> None:
    """The template holds the English; the book shows the translation, which the catalog
    holds with the line of the template it comes from."""
    english = _nested_list(20) + "    " * 20 + '- {{ _("The deepest rule") }}\n'
    page = "# Profondo\n\n" + _nested_list(20) + "    " * 20 + "- La regola più profonda\n"
    messages = {"deep": (("Profondo", 1), ("La regola più profonda", 23))}
    document = _document(
        {"deep": page}, templates={"deep": "# Deep\n\n" + english}, messages=messages
    )
    assert [warning.where for warning in document.warnings] == ["docs/pages/deep.md.j2:23"]


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
    assert "#link(<solutions--exercises--exercise-first>)[Solution]" in asked
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
