"""The book's Typst markup laid out as a PDF: vector diagrams, embedded fonts, fixed bytes.

Typst (the ``typst`` package, one wheel with no system library) reads nothing
but what the book is made of: the markup comes in as bytes, the diagrams as
``sys.inputs``, its root is an empty folder (removed once Typst has it), and
only the fonts Typst embeds are used, so a book is the same on every machine.
A process lays out all its books in one Typst world: the fonts load once, and
a diagram Typst has read for one language's book serves the next, since the
diagrams go in without their ``<title>`` and ``<desc>``, the only words that
differ between languages (which the PDF never shows: a figure is read aloud by
the alternative text the markup gives it).  Every book is PDF/UA-1,
which Typst checks as it writes it: tagged, its language set, every diagram
read aloud by its description.  The PDF's dates come from
``SOURCE_DATE_EPOCH`` (none when it is unset), so the same sources give the
same bytes.

The book is optional: whatever goes wrong in making it, from its own markup
to Typst, is a :class:`BookRefusedError` that says why in one line, and
``build`` publishes the site without that book.
"""

from __future__ import annotations

import re
import tempfile
import threading
from types import ModuleType
from typing import Any

from ...errors import DamaError
from .._common import SiteError
from .assemble import BookDocument, book_document
from .sources import BookSources

PAPERS = {"a4": "a4", "letter": "us-letter", "a5": "a5"}
"""``--paper`` choices, as Typst's paper names; A5 is the booklet a club folds from A4
sheets, padded to whole sheets (:data:`.assemble.PAGES_PER_SHEET`)."""
STANDARD = "ua-1"
"""PDF/UA-1: the accessible PDF, checked by Typst itself."""


class TypstMissingError(SiteError):
    """This machine cannot lay out books (Typst does not load): the site goes out without them."""


class BookRefusedError(SiteError):
    """The book could not be made (Typst refused its text, or failed on it; a page was past
    what the book can print): ``build`` publishes that site without it."""


_BUG = "report it as a bug, with the page"
_WORLD: list[Any] = []
"""This process's Typst compiler, once made: the world every book here is laid out in."""
_WORLD_LOCK = threading.Lock()
_WORDS = re.compile(r"<(title|desc)\b[^>]*>.*?</\1\s*>", re.DOTALL)
"""An SVG's title and description: words of one language, which Typst does not draw."""


def printable_document(book: BookSources, *, paper: str = "a4") -> BookDocument:
    """The book's Typst document, or a :class:`BookRefusedError` saying why there is none.

    What the book cannot print of a page is left out or printed otherwise, with a
    warning (:mod:`.markup`); what is left is an error of the page (named at its
    template) or of this code, and the book alone is lost to it.
    """
    try:
        return book_document(book, paper=PAPERS[paper])
    except DamaError as exc:
        raise BookRefusedError(f"{book.language}: the book: {exc}") from exc
    except Exception as exc:  # a fault of the book's own code never stops the site
        raise BookRefusedError(
            f"{book.language}: the book: its pages could not be set "
            f"({type(exc).__name__}: {_one_line(exc)}): {_BUG}"
        ) from exc


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


def book_pdf(
    book: BookSources, *, paper: str = "a4", document: BookDocument | None = None
) -> bytes:
    """The book of one language as PDF bytes; Typst's first error names its cause.

    Every text is set in the embedded fonts, a character they lack as the
    replacement character (:mod:`.markup`), so Typst's PDF/UA check passes; what
    it still refuses, or a panic inside it, is a :class:`BookRefusedError`.
    ``document`` is the book's, when the caller made it already.
    """
    typst = typst_module()
    if document is None:
        document = printable_document(book, paper=paper)
    pictures = {name: _WORDS.sub("", svg) for name, svg in document.images.items()}
    with _WORLD_LOCK:
        try:
            pdf = _world(typst).compile(
                document.markup.encode("utf-8"),
                format="pdf",
                sys_inputs=pictures,
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
            _WORLD.clear()  # whatever Typst held after it failed is not used again
            if not isinstance(exc, Exception) and type(exc).__name__ != "PanicException":
                raise  # Ctrl-C, SystemExit
            panic = type(exc).__name__ == "PanicException"
            detail = _one_line(exc) if panic else f"{type(exc).__name__}: {_one_line(exc)}"
            raise BookRefusedError(
                f"{book.language}: the book: Typst failed on it: {detail}"
            ) from None
    assert isinstance(pdf, bytes)
    return pdf


def _world(typst: ModuleType) -> Any:
    """This process's Typst compiler: made once, with the fonts Typst embeds and no others.

    Its root is an empty folder, removed as soon as the compiler has it, so the
    book can read no file at all; what Typst remembers of one book (fonts, the
    diagrams it has read, text it has shaped) serves the next.
    """
    if not _WORLD:
        with tempfile.TemporaryDirectory(prefix="dama-book-") as empty_root:
            _WORLD.append(typst.Compiler(root=empty_root, ignore_system_fonts=True))
    return _WORLD[0]


def _one_line(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else f"{text[: limit - 3]}..."
