"""A live preview keeps serving when a rebuild fails, whatever the reason, and says why.

``serve --lang`` (the MkDocs plugin) and ``serve`` (every language) share the
words and the banner: any exception of a rebuild, not only a
:class:`~dama_diagrams.errors.DamaError`, becomes one line, shown above the
content of every page of the last good site.
"""

from __future__ import annotations

import html

from ...errors import DamaError

CONTENT = '<article class="md-content__inner md-typeset">'
"""Where the banner goes: first thing in a page's content (Material's theme)."""


def failure_text(exc: BaseException) -> str:
    """Why a rebuild failed, in one line: a DamaError's own ``path:line:`` message, or more."""
    if isinstance(exc, DamaError):
        return str(exc)
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}"
    text = " ".join(str(exc).split()) or "no details"
    return f"unexpected {type(exc).__name__} ({text}); please report it as a dama-diagrams bug"


def banner(message: str) -> str:
    """The notice above every page while the last change does not build."""
    return (
        '<div class="admonition failure dama-build-error"><p class="admonition-title">'
        "The last change does not build; this page is from before it.</p>"
        f"<p><code>{html.escape(message)}</code></p></div>"
    )


def with_banner(page: str, message: str) -> str:
    """``page`` with the banner, if it has content to put it above (a 404 page has)."""
    return page.replace(CONTENT, CONTENT + banner(message), 1)
