"""The book's Typst markup laid out as a PDF: vector diagrams, embedded fonts, fixed bytes.

Typst (the ``typst`` package, one wheel with no system library) reads nothing
but what the book is made of: the markup comes in as bytes, the diagrams as
``sys.inputs``, its root is an empty folder, and only the fonts Typst embeds
are used, so a book is the same on every machine.  Every book is PDF/UA-1,
which Typst checks as it writes it: tagged, its language set, every diagram
read aloud by its description.  The PDF's dates come from
``SOURCE_DATE_EPOCH`` (none when it is unset), so the same sources give the
same bytes.
"""

from __future__ import annotations

import tempfile
from types import ModuleType

from .._common import SiteError
from .assemble import book_document
from .sources import BookSources

PAPERS = {"a4": "a4", "letter": "us-letter"}
"""``--paper`` choices, as Typst's paper names."""
STANDARD = "ua-1"
"""PDF/UA-1: the accessible PDF, checked by Typst itself."""


class TypstMissingError(SiteError):
    """This machine cannot lay out books (Typst does not load): the site goes out without them."""


class BookRefusedError(SiteError):
    """Typst refused a book's text, or failed on it: ``build`` publishes that site without it."""


def typst_module() -> ModuleType:
    """The ``typst`` package, or :class:`TypstMissingError` saying what is missing."""
    try:
        import typst
    except ImportError as exc:  # no wheel for this platform, or a broken install
        raise TypstMissingError(
            f"the printed books need the Python package typst, which does not load here "
            f"({exc}): it comes with the site extra, pip install 'dama-diagrams[site]'"
        ) from exc
    return typst


def book_pdf(book: BookSources, *, paper: str = "a4") -> bytes:
    """The book of one language as PDF bytes; Typst's first error names its cause.

    Every text is set in the embedded fonts, a character they lack as the
    replacement character (:mod:`.markup`), so Typst's PDF/UA check passes; what
    it still refuses, or a panic inside it, is a :class:`BookRefusedError`.
    """
    typst = typst_module()
    document = book_document(book, paper=PAPERS[paper])
    with tempfile.TemporaryDirectory(prefix="dama-book-") as empty_root:
        compiler = typst.Compiler(root=empty_root, ignore_system_fonts=True)
        try:
            pdf = compiler.compile(
                document.markup.encode("utf-8"),
                format="pdf",
                sys_inputs=document.images,
                pdf_standards=[STANDARD],
                timestamp=book.epoch,
            )
        except typst.TypstError as exc:
            hints = "; ".join(getattr(exc, "hints", None) or [])
            message = " ".join(str(getattr(exc, "message", exc)).split())
            raise BookRefusedError(
                f"{book.language}: the book: Typst refused it: {message}"
                + (f" ({hints})" if hints else "")
            ) from exc
        except BaseException as exc:  # pyo3's PanicException derives from BaseException only
            if type(exc).__name__ != "PanicException":
                raise
            message = " ".join(str(exc).split())
            raise BookRefusedError(
                f"{book.language}: the book: Typst failed on it: {message}"
            ) from None
    assert isinstance(pdf, bytes)
    return pdf
