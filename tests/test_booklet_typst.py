"""Typst's one world per process: a book's bytes never depend on what was laid out before it.

A process lays out all its books in one Typst world (:mod:`dama_diagrams.site.booklet.pdf`),
and each diagram goes in without its SVG ``<title>`` and ``<desc>``, so that the six
languages' books share what Typst has read.  The answer known without the code: a book
laid out alone, in a new world, is the book; after other books, with other words in
the same diagram's title, it must be the same bytes.
"""

from __future__ import annotations

from dama_diagrams.site.booklet import BookSources, book_pdf, pdf
from dama_diagrams.site.booklet.pdf import printable_document

from .conftest import book_sources

BOARD = "assets/diagrams/board.svg"


def _svg(title: str, description: str, fill: str = "#6e4d31") -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 80 80" width="80" height="80">'
        f'<title id="t">{title}</title><desc id="d">{description}</desc>'
        f'<rect width="40" height="40" fill="{fill}" /><text x="44" y="60">22</text></svg>'
    ).encode()


def _book(heading: str, title: str, description: str) -> BookSources:
    page = f"# {heading}\n\nThe board:\n\n![{description}]({BOARD})\n"
    return book_sources({"index": page}, {BOARD: _svg(title, description)})


def test_a_book_is_the_same_bytes_whatever_its_process_laid_out_before() -> None:
    english = _book("The board", "The board", "White: man on 22.")
    italian = _book("La damiera", "La damiera", "Bianco: pedina in 22.")
    other = book_sources({"index": f"# Other\n\n![x]({BOARD})\n"}, {BOARD: _svg("x", "y", "#000")})
    assert list(printable_document(english).images) == [BOARD]  # the diagram is printed
    pdf._WORLD.clear()
    alone = book_pdf(english)  # in a new world, as a process's first book
    assert alone.startswith(b"%PDF-")
    assert book_pdf(italian) != alone  # the same diagram, with its words in another language
    assert book_pdf(other) != alone  # the same picture's name, another picture
    assert book_pdf(english) == alone
    pdf._WORLD.clear()
    assert book_pdf(english) == alone
