"""The rules as a printed book: one PDF per language, laid out by WeasyPrint.

Made from what the site is made of (:func:`..build.generate_language`): the
same verified diagrams, as vector drawings, and the same translated pages.
:mod:`.assemble` writes one language's book as HTML, ``print.css`` lays it out
as pages, :mod:`.pdf` runs WeasyPrint, :mod:`.jobs` runs that in a worker
process, and :mod:`.build` is ``dama-diagrams booklet``.  ``build`` puts each
language's PDF into its site too.
"""

from .assemble import book_html
from .jobs import BookJob, book_job, write_book
from .pdf import PAPERS, book_pdf
from .sources import BookSources, book_sources

PDF_NAME = "rules-{language}.pdf"
"""Where ``build`` puts a language's book in its site folder."""

__all__ = [
    "PAPERS",
    "PDF_NAME",
    "BookJob",
    "BookSources",
    "book_html",
    "book_job",
    "book_pdf",
    "book_sources",
    "write_book",
]
