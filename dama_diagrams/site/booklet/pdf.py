"""The book's HTML laid out as a PDF by WeasyPrint: vector diagrams, embedded fonts, fixed bytes.

WeasyPrint reads nothing but what the book is made of: its fetcher serves the
diagrams from memory and refuses every other address, so the build reads no
file and no network.  The SVG diagrams are drawn as vector paths and the fonts
(DejaVu, installed with the system) are embedded as subsets.  The PDF's dates
come from ``SOURCE_DATE_EPOCH`` (none when it is unset) and its /ID is a hash
of its content (pydyf's own), so the same sources give the same bytes.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib.resources import files
from typing import Any

from .._common import SiteError
from .assemble import book_html
from .sources import BookSources

PAPERS = {"a4": "A4", "letter": "letter"}
"""``--paper`` choices, as CSS page sizes."""
BASE_URL = "https://booklet.invalid/"
"""The book's own address space (``.invalid`` never resolves): its fetcher serves it."""
STYLESHEET = files(__package__).joinpath("print.css")


def book_pdf(book: BookSources, *, paper: str = "a4") -> bytes:
    """The book of one language as PDF bytes; a missing picture or a layout warning is an error."""
    from weasyprint import CSS, HTML  # type: ignore[import-untyped]  # no type hints

    document = book_html(book)
    fetcher = _fetcher(book.assets)
    with _warnings_collected() as warnings:
        stylesheets = [
            CSS(string=STYLESHEET.read_text(encoding="utf-8"), url_fetcher=fetcher),
            CSS(string=f"@page {{ size: {PAPERS[paper]}; }}"),
        ]
        html = HTML(string=_dated(document, book.epoch), base_url=BASE_URL, url_fetcher=fetcher)
        pdf = html.write_pdf(stylesheets=stylesheets, pdf_identifier=True)
    if warnings:
        raise SiteError(f"{book.language}: the book: {warnings[0]}")
    assert pdf is not None
    return bytes(pdf)


def _dated(document: str, epoch: int | None) -> str:
    """The PDF's creation date: the sources' time, or none (a date of now would vary)."""
    if epoch is None:
        return document
    when = datetime.datetime.fromtimestamp(epoch, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    meta = f'<meta name="dcterms.created" content="{when}">'
    return document.replace("</head>", f"{meta}\n</head>", 1)


def _fetcher(assets: Mapping[str, bytes]) -> Any:
    """A WeasyPrint URL fetcher that serves the book's pictures and nothing else."""
    from weasyprint.urls import (  # type: ignore[import-untyped]
        URLFetcher,
        URLFetcherResponse,
    )

    class BookFetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            path = url.removeprefix(BASE_URL) if url.startswith(BASE_URL) else None
            if path is None or path not in assets:
                raise ValueError(f"the book has no file {url}")
            return URLFetcherResponse(url, assets[path], headers={"Content-Type": "image/svg+xml"})

    return BookFetcher()


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(" ".join(record.getMessage().split()))


@contextmanager
def _warnings_collected() -> Iterator[list[str]]:
    """WeasyPrint's warnings (a picture it could not load, CSS it ignored), to be reported."""
    handler = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)
