"""Where a page's element is written: the template line that a book's warning names.

The book reads each page as the HTML that Python-Markdown makes of it, which
keeps no line numbers; the page is rendered from a Jinja template, whose
lines are not the output's either.  So an element is found where it is
written by what it holds: a picture's address or a link's target, which the
template holds as they are, or the first words of its text, which the
template holds in English and the catalog in the language (each message with
the template line it comes from).  :class:`TemplatePlaces` holds both, as
plain data a worker process can take.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

_WORD = re.compile(r"\w+")
NEEDLE_WORDS = 8
"""How many of a text's first words find it: enough to tell it from the page's other texts."""


@dataclass(frozen=True)
class TemplatePlaces:
    """One page template's lines, and the line of each message the language shows from it."""

    path: str
    """The template as the project names it: ``docs/pages/man.md.j2``."""
    lines: tuple[str, ...] = ()
    messages: tuple[tuple[str, int], ...] = ()
    """(the text this language shows for a message of the template, the message's line)."""

    def line_of(self, addresses: Iterable[str] = (), texts: Iterable[str] = ()) -> int | None:
        """The first line that holds one of ``addresses`` as it is, else the first words of
        one of ``texts`` (as words: punctuation and markup aside; as few as two of them when
        the rest is on the next line); None if none does."""
        held = [*((text, line) for line, text in enumerate(self.lines, 1)), *self.messages]
        for address in addresses:
            found = next((line for text, line in held if address and address in text), None)
            if found is not None:
                return found
        spaced = [(f" {_words(text)} ", line) for text, line in held]
        for text in texts:
            words = first_words(text).split()
            for count in range(len(words), min(len(words), 2) - 1, -1):  # two words at least
                wanted = f" {' '.join(words[:count])} "
                found = next((line for each, line in spaced if wanted in each), None)
                if found is not None:
                    return found
        return None

    def where(self, addresses: Iterable[str] = (), texts: Iterable[str] = ()) -> str:
        """``path:line`` of the first of them found, or the path alone."""
        line = self.line_of(addresses, texts)
        return self.path if line is None else f"{self.path}:{line}"


def first_words(text: str) -> str:
    """The first words of a text's first line that has any: what finds the line it is on."""
    line = next((line for line in text.splitlines() if _WORD.search(line)), "")
    return " ".join(_WORD.findall(line)[:NEEDLE_WORDS])


def _words(text: str) -> str:
    return " ".join(_WORD.findall(text))


@dataclass(frozen=True)
class BookWarning:
    """Something of a page that one book prints otherwise than the web page, or leaves out."""

    where: str
    """``path:line`` of the template that writes it."""
    what: str
    advice: str


def warning_lines(warnings: Mapping[str, Sequence[BookWarning]]) -> list[str]:
    """One line per warning, whichever books give it: ``path:line: what (the books of en, it);
    advice``, in the order of the files and lines."""
    books: dict[BookWarning, list[str]] = {}
    for language, found in warnings.items():
        for warning in found:
            books.setdefault(warning, []).append(language)

    def order(warning: BookWarning) -> tuple[str, int]:
        path, _, line = warning.where.rpartition(":")
        return (path, int(line)) if path and line.isdigit() else (warning.where, 0)

    return [
        f"{warning.where}: {warning.what} (the books of {', '.join(languages)}); {warning.advice}"
        for warning, languages in sorted(books.items(), key=lambda item: order(item[0]))
    ]
