"""Stage 3 of the site, the book: the rules as one PDF per language, laid out by Typst.

Takes what the pages room makes (:mod:`..pages`): the same verified diagrams,
as vector drawings, and the same templates and catalogs, rendered with the
wording of print (:func:`.sources.printed_pages`).  Gives PDF/UA-1 bytes.
:mod:`.tree` reads each page into elements, :mod:`.markup` writes them as
Typst markup (:mod:`.flow` keeps what reads as one thing on one page),
:mod:`.assemble` makes the whole book of it, after the layout of
``book.typ``, :mod:`.pdf` runs Typst and :mod:`.jobs` runs that in a worker
process, with a cache.  Publishing them is :mod:`..publish`'s: ``build`` puts
each language's PDF into its site and ``booklet`` writes them alone.
"""

from .assemble import BookDocument, book_document
from .jobs import BookJob, book_job, write_book
from .pdf import PAPERS, TypstMissingError, book_pdf, typst_module
from .sources import BookSources, book_sources, printed_pages

PDF_NAME = "rules-{language}.pdf"
"""Where ``build`` puts a language's book in its site folder."""

__all__ = [
    "PAPERS",
    "PDF_NAME",
    "BookDocument",
    "BookJob",
    "BookSources",
    "TypstMissingError",
    "book_document",
    "book_job",
    "book_pdf",
    "book_sources",
    "printed_pages",
    "typst_module",
    "write_book",
]
