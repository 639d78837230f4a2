"""One language's messages in memory, as the pages ask for them.

A message translated for its current English shows its translation.  Every
other one shows the English: a missing message, and an outdated (fuzzy) one,
whose old translation may say something other than the English says now.  On a
rules site a guess is worse than the English, so a fuzzy entry never reaches a
page; the page's notice counts it instead.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ...errors import DamaError, shorten
from ..messages import MESSAGES
from ._po import PoString, string_position

PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")

State = Literal["translated", "outdated", "missing"]
MessageKey = tuple[str | None, str]
"""A message's context (or None) and its English text, as gettext identifies it."""


class CatalogError(DamaError):
    """A catalog that cannot be read, or a translation that does not fit its English
    (its ``column``, when known, is where on the msgstr's line the fault is)."""


class CombinedCatalogError(CatalogError):
    """Several catalog errors at once, printed as one ``path:line: message`` line each."""

    def __init__(self, problems: Sequence[CatalogError]) -> None:
        first = problems[0]
        super().__init__(first.message, path=first.path, line=first.line)
        self.problems = list(problems)

    def __str__(self) -> str:
        return "\n".join(str(problem) for problem in self.problems)


@dataclass(frozen=True, slots=True)
class Entry:
    """One message in one language: what the site shows, and why."""

    english: str
    shown: str
    """The translation if it is current, else the English."""
    state: State
    sources: tuple[tuple[str, int], ...]
    """Where the English is written: (file, line)."""
    po_line: int | None = None
    """The line of the translation in the PO file, if it has one."""
    translation: str = ""
    """The PO file's text, current or not: what its placeholders are checked in."""
    suggested_by: str | None = None
    """For a missing message: the other message whose translation a fuzzy match copied."""
    comments: tuple[str, ...] = ()
    """The PO file's translator comments, then the extracted ones (``# dama: allow ...``)."""
    msgstr: tuple[PoString, ...] = ()
    """The strings of the translation in the PO file, one per line: where a fault is."""
    fault: str | None = None
    """Why a current translation is not shown (its Markdown would break the page), if it is
    not: the English shows until it is fixed, as for a missing one."""

    def at(self, offset: int | None = None) -> tuple[int | None, int | None]:
        """The PO file's line and column of character ``offset`` of the translation.

        Without ``offset``, the msgstr's first line; without the msgstr's strings
        (an entry made in memory), the line Babel gave and no column.
        """
        if not self.msgstr:
            return self.po_line, None
        return string_position(self.msgstr, offset)

    @property
    def current(self) -> bool:
        """Whether the page shows the translation: translated for this English, and sound."""
        return self.state == "translated" and self.fault is None


@dataclass
class Catalog:
    """One language's messages, measured against the English sources as they are now.

    ``used`` collects the messages a page asked for, so that the page can say
    how many of them are not translated for their current English.
    """

    language: str
    path: Path
    """The PO file, as shown in messages (relative to the project)."""
    entries: dict[MessageKey, Entry]
    used: set[MessageKey] = field(default_factory=set)

    def message(self, english: str, /, context: str | None = None, **params: str) -> str:
        """The message in this language, its ``{name}`` placeholders filled in."""
        raw = self.raw(english, context)
        if not params:
            return raw
        return fill(raw, params, functools.partial(self._placeholder_error, english, context))

    def raw(self, english: str, context: str | None = None) -> str:
        """The message in this language as written, placeholders and all."""
        key = (context, english)
        self.used.add(key)
        entry = self.entries.get(key)
        return english if entry is None else entry.shown

    def text(self, key: str, /, **params: str) -> str:
        """A message of the code (:mod:`..messages`), by its key."""
        english = MESSAGES.get(key)
        if english is None:
            raise CatalogError(f"no message '{key}' in dama_diagrams/site/messages.py")
        return self.message(english, key, **params)

    def join(self, items: Sequence[str], *, escape: Callable[[str], str] = str) -> str:
        """'a, b and c' with this language's word for 'and' (``escape``-d, for raw HTML)."""
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} {escape(self.text('ui.and'))} {items[-1]}"

    def not_current(self) -> int:
        """How many of the messages used since the last reset show the English.

        They are outdated, missing, or their translation's Markdown is broken (``fault``).
        """
        return sum(1 for key in self.used if key in self.entries and not self.entries[key].current)

    def error(self, message: str) -> CatalogError:
        return CatalogError(f"{self.language}: {message}", path=self.path.as_posix())

    def _placeholder_error(self, english: str, context: str | None, message: str) -> CatalogError:
        entry = self.entries.get((context, english))
        where = self.path.as_posix() if entry and entry.po_line else None
        text = f"{self.language}: {message} in the message {shorten(english)}"
        line, column = entry.at() if entry else (None, None)
        return CatalogError(text, path=where, line=line, column=column)


def used_values(english: str, values: Mapping[str, str]) -> dict[str, str]:
    """The subset of ``values`` that a message mentions (its translation must match)."""
    wanted = placeholders(english)
    return {name: value for name, value in values.items() if name in wanted}


def placeholders(text: object) -> frozenset[str]:
    return _placeholders(str(text))


@functools.lru_cache(maxsize=8192)
def _placeholders(text: str) -> frozenset[str]:
    """Each message's placeholders, found once: pages fill the same messages many times."""
    return frozenset(PLACEHOLDER.findall(text))


def fill(raw: str, params: Mapping[str, str], error: Callable[[str], Exception]) -> str:
    """Replace ``{name}`` placeholders; a missing or unknown one is an error.

    Only lowercase ``{name}`` patterns are placeholders, so code with braces
    passes through untouched.
    """
    if not params:
        return raw
    found = placeholders(raw)
    unknown = sorted(found - params.keys())
    if unknown:
        raise error(f"unknown placeholder {{{unknown[0]}}}")
    lost = sorted(params.keys() - found)
    if lost:
        raise error(f"placeholder {{{lost[0]}}} is missing")
    return PLACEHOLDER.sub(lambda match: params[match.group(1)], raw)
