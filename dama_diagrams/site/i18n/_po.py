"""PO file text where Babel's reader and writer fall short.

Babel reads much on trust: a string without its closing quote loses its last
character, a ``msgstr`` without a ``msgid`` goes to the next message, and
``#|`` lines (a fuzzy message's previous English) are read as comments.  It
writes those ``#|`` lines wrapped like prose, which no PO tool reads back.
:func:`po_syntax_problem` checks the grammar first, :func:`read_previous` and
:func:`with_previous` read and write the previous English as GNU gettext does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.catalog import Message
from babel.messages.pofile import PoFileParser, normalize, unescape

from ...errors import shorten
from .limits import MAX_PLURAL_FORMS

__all__ = [
    "PluralsRefusedError",
    "header_problem",
    "po_syntax_problem",
    "read_bounded_po",
    "read_previous",
    "with_previous",
    "without_obsolete_previous",
]

_OBSOLETE_PREVIOUS = re.compile(rb"^[ \t]*#~\|[^\n]*", re.MULTILINE)


def without_obsolete_previous(data: bytes) -> bytes:
    """The file with its ``#~|`` lines blank (Babel cannot read them), lines kept in place."""
    return _OBSOLETE_PREVIOUS.sub(b"", data)


_PO_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_PO_ESCAPE = re.compile(r"\\(.)")
_PO_KEYWORD = re.compile(r"(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)(?=[\s\"])\s*(.*)")


def po_syntax_problem(data: bytes) -> tuple[int, str] | None:
    """The first line that is not PO syntax, and what is wrong there; None if all is well.

    Babel's reader takes much on trust: it cuts the last character off a
    string that lacks its closing quote, and hands a ``msgstr`` that has no
    ``msgid`` to the next message.  This check is GNU gettext's grammar
    (``msgctxt``? ``msgid`` ``msgid_plural``? ``msgstr``...), for active and
    obsolete (``#~``) entries alike, so such slips are errors at their line.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data.count(b"\n", 0, exc.start) + 1, "not UTF-8 text; save the file as UTF-8"
    lone_cr = _LONE_CR.search(text)
    if lone_cr is not None:
        return text.count("\n", 0, lone_cr.start()) + 1, (
            "a line ends in a lone carriage return (CR), which no PO tool reads as a line end; "
            "save the file with LF (or CRLF) line endings"
        )
    state = "between"  # between entries, or after msgctxt, msgid, msgid_plural, msgstr
    entry_line = 0
    keys = _EntryKeys()
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if not line or line.startswith("|"):
                continue  # the previous English of an obsolete entry
        elif line.startswith("#") or not line:
            if line and state in ("msgctxt", "msgid", "msgid_plural"):
                what = "msgctxt without a msgid" if state == "msgctxt" else "msgid without msgstr"
                return entry_line, f"{what}; finish the entry before the comment on line {number}"
            if line:
                state = "between"  # a comment starts the next entry
            continue
        keyword = _PO_KEYWORD.fullmatch(line)
        if keyword is None:
            if not line.startswith('"'):
                return number, f"unexpected text {shorten(line, 40)}; expected msgid or msgstr"
            string, kind = line, None
        else:
            kind, string = keyword.group(1), keyword.group(2)
        problem = _string_problem(string)
        if problem is not None:
            return number, problem
        if kind is None:
            if state == "between":
                return number, "a string outside any msgid or msgstr"
            keys.extend(state, string)
            continue
        expected = {
            "between": ("msgctxt", "msgid"),
            "msgctxt": ("msgid",),
            "msgid": ("msgid_plural", "msgstr"),
            "msgid_plural": ("msgstr[",),
            "msgstr": ("msgctxt", "msgid", "msgstr["),
        }[state]
        base = "msgstr[" if kind.startswith("msgstr[") else kind
        if base not in expected:
            return number, _order_problem(state, kind)
        if kind in ("msgctxt", "msgid") and state in ("between", "msgstr"):
            entry_line = number
            keys.start(obsolete)
        if base in ("msgstr", "msgstr[") and state != "msgstr":
            first = keys.finish(entry_line)
            if first is not None:
                return entry_line, (
                    f"a second entry for the same msgid (the first is on line {first}); "
                    "keep one of them, as msgfmt would refuse the file too"
                )
        keys.extend(kind, string)
        state = "msgstr" if base in ("msgstr", "msgstr[") else kind
    if state in ("msgctxt", "msgid", "msgid_plural"):
        what = "msgctxt without a msgid" if state == "msgctxt" else "msgid without msgstr"
        return entry_line, f"{what} at the end of the file"
    return None


_LONE_CR = re.compile(r"\r(?!\n)")


class _EntryKeys:
    """The (msgctxt, msgid) of each active entry, as written, to find a second definition."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, ...], int] = {}
        self.fields: dict[str, list[str]] = {}
        self.obsolete = False

    def start(self, obsolete: bool) -> None:
        self.fields = {}
        self.obsolete = obsolete

    def extend(self, kind: str, string: str) -> None:
        if kind in ("msgctxt", "msgid"):
            self.fields.setdefault(kind, []).append(string)

    def finish(self, line: int) -> int | None:
        """The line of an earlier entry with the same key, else None (and this one is kept)."""
        if self.obsolete:
            return None  # gettext keeps obsolete entries apart
        key = tuple("".join(self.fields.get(kind, ["-"])) for kind in ("msgctxt", "msgid"))
        first = self.seen.get(key)
        if first is None:
            self.seen[key] = line
        return first


def _string_problem(string: str) -> str | None:
    if not string.startswith('"'):
        return f"expected a string in double quotes, not {shorten(string, 40)}"
    found = _PO_STRING.match(string)
    if found is None:
        return 'the string has no closing quote: end it with " on the same line'
    if found.end() != len(string):
        rest = string[found.end() :]
        return f'text after the closing quote: {shorten(rest, 40)}; write \\" for a quote'
    for escape in _PO_ESCAPE.finditer(found.group()[1:-1]):
        if escape.group(1) not in '\\"abfnrtv':
            return f"unknown escape \\{escape.group(1)}; write \\\\ for a backslash"
    return None


def _order_problem(state: str, kind: str) -> str:
    if kind.startswith("msgstr"):
        if state in ("between", "msgctxt"):
            return f"{kind} without a msgid before it"
        if state == "msgid_plural":
            return "a plural message needs msgstr[0], msgstr[1], ... here, not msgstr"
        if kind == "msgstr":
            return "a second msgstr for one msgid"
        return f"{kind} without a msgid_plural before it"
    if kind == "msgid_plural":
        return "msgid_plural must follow a msgid"
    if state == "msgctxt":
        return "a second msgctxt; a msgid must follow the msgctxt"
    return f"{kind} before the msgstr of the entry above; add that msgstr"


_HEADER_FIELD = re.compile(r'"(Language|Content-Type):\s*([^"\\]*)')
_CHARSET = re.compile(r"charset=\s*([^;\s]*)", re.IGNORECASE)


def header_problem(text: str) -> tuple[int, str] | None:
    """A header field that Babel would trip over, or misread: its line and what is wrong.

    The file is UTF-8 (:func:`po_syntax_problem` checks it), so a header that
    names another charset would garble every accented letter; and a
    ``Language`` that is not a locale would fail inside Babel, away from its
    line.  An absurd nplurals is caught by the read itself (:func:`read_bounded_po`).
    """
    in_header = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not in_header:
            if line == 'msgid ""':
                in_header = True
            elif line.startswith(("msgid ", "msgctxt ")):
                break  # no header at the top
            continue
        if line.startswith("#") or line.startswith(("msgid ", "msgctxt ")):
            break  # the header ended
        found = _HEADER_FIELD.match(line.removeprefix("msgstr ").strip())
        if found is None:
            continue
        name, value = found.group(1), found.group(2).strip()
        if name == "Content-Type":
            charset = _CHARSET.search(value)
            if charset and charset.group(1).lower() not in ("utf-8", "utf8", "charset"):
                return number, (
                    f"the header says charset={charset.group(1)}, but the file is UTF-8 (as "
                    "every PO editor writes it); write charset=UTF-8"
                )
        elif value:
            try:
                Locale.parse(value.replace("-", "_"))
            except (UnknownLocaleError, ValueError):
                return number, (
                    f"the header names the language {shorten(value, 20)}, which is no locale "
                    "that Babel knows; write the catalog's own code, such as Language: pt"
                )
    return None


class PluralsRefusedError(Exception):
    """A header whose nplurals (as Babel read it) is not 1 to ``MAX_PLURAL_FORMS``."""

    def __init__(self, line: int, nplurals: int) -> None:
        super().__init__(line, nplurals)
        self.line = line
        self.nplurals = nplurals

    def problem(self, text: str) -> tuple[int, str]:
        """Its line in ``text`` (the PO file), and what to write instead."""
        but = (
            f"no language has more than {MAX_PLURAL_FORMS} plural forms"
            if self.nplurals > MAX_PLURAL_FORMS
            else "every language has at least 1 plural form"
        )
        return _plural_line(text, self.line), (
            f"the header says nplurals={shorten(str(self.nplurals), 12)}, but {but}; write "
            "the Plural-Forms line of the catalog's language, as 'dama-diagrams new-language' does"
        )


class _HeaderCheck(BabelCatalog):
    """A catalog that stops the parse at a header whose nplurals is out of bounds.

    Babel allocates one string per plural form for every plural message that
    follows, so the bound is checked on the value Babel itself parsed (however
    the header spells it: lower-case field names, strings split anywhere, a
    repeated or quoted nplurals, a field inside another string), the moment it
    has parsed it, before any such message; a second header is checked too.
    """

    def __setitem__(self, id: str | tuple[str, ...] | list[str], message: Message) -> None:
        super().__setitem__(id, message)
        if id == "" and not 1 <= self.num_plurals <= MAX_PLURAL_FORMS:
            raise PluralsRefusedError(message.lineno or 1, self.num_plurals)


def read_bounded_po(lines: Iterable[bytes], locale: str) -> BabelCatalog:
    """Babel's ``read_po`` (aborting on an invalid file), stopped by an absurd nplurals.

    Raises :class:`PluralsRefusedError` for such a header, and what ``read_po``
    raises for anything else.
    """
    catalog = _HeaderCheck(locale=locale)
    PoFileParser(catalog, abort_invalid=True).parse(lines)
    return catalog


def _plural_line(text: str, header: int) -> int:
    """The last line that mentions plurals in the header entry whose msgid is on ``header``."""
    lines = text.split("\n")
    found = header
    for number in range(header, len(lines) + 1):
        line = lines[number - 1].strip()
        if number > header and not line.startswith(('"', "msgstr")):
            break
        if "plural" in line.lower():
            found = number
    return found


def read_previous(catalog: BabelCatalog) -> None:
    """Each fuzzy message's previous English (``#| msgid``), which Babel reads as a comment."""
    for message in catalog:
        if not isinstance(message.id, str) or not message.id:
            continue
        previous = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
        if not previous:
            continue
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        ids = _previous_ids(previous)
        if ids:
            message.previous_id = ids


def _previous_ids(lines: list[str]) -> list[str]:
    """``msgid "..."`` (and ``msgid_plural``) from ``#|`` lines; [] if they are garbled."""
    fields: dict[str, list[str]] = {}
    current = None
    for line in lines:
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            current, line = keyword, rest.strip()
            fields[current] = []
        if current is None or not _PO_STRING.fullmatch(line):
            return []
        fields[current].append(unescape(line))
    if "msgid" not in fields:
        return []
    return ["".join(fields[name]) for name in ("msgid", "msgid_plural") if name in fields]


def with_previous(text: str, messages: list[Message]) -> str:
    """The previous English of each fuzzy message, as GNU gettext writes it.

    Babel wraps ``#| msgid`` lines like prose, which breaks a long or multi-line
    string across comment lines where no PO tool can read it back.  Here each
    one is written like a msgid, one ``#|`` line per string line.  ``messages``
    are the catalog's, header first, in the order they were written.
    """
    out = []
    index = -1
    inside = False
    for line in text.splitlines(keepends=True):
        if not line.strip():
            inside = False
        elif not inside and line.startswith(("msgctxt ", "msgid ")):
            inside = True
            index += 1
            previous = messages[index].previous_id if index < len(messages) else []
            for keyword, english in zip(("msgid", "msgid_plural"), previous, strict=False):
                out.append(f"#| {keyword} {normalize(english, prefix='#| ', width=0)}\n")
        out.append(line)
    return "".join(out)


PoString = tuple[int, int, str]
"""One string of a msgstr in the PO file: its line, the column of its first character
(counted from 1, in characters), and its text as written, escapes and all."""

_MSGSTR = re.compile(r'msgstr(?:\[0\])?\s*(".*)')


def msgstr_strings(text: str) -> dict[int, tuple[PoString, ...]]:
    """The strings of each active entry's msgstr, by the line of its ``msgid`` (Babel's lineno).

    A wrapped msgstr has one string per line; a finding names the one that holds
    its fault.  Only ``msgstr`` and ``msgstr[0]`` are read: the catalogs hold no plurals.
    """
    found: dict[int, list[PoString]] = {}
    msgid = 0
    collecting: list[PoString] | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if collecting is not None and line.startswith('"'):
            collecting.append(_po_string(raw, number))
            continue
        collecting = None
        if line.startswith("msgid "):
            msgid = number
        elif msgid and _MSGSTR.match(line) is not None:
            collecting = found.setdefault(msgid, [])
            collecting.append(_po_string(raw, number))
            msgid = 0
    return {line: tuple(strings) for line, strings in found.items()}


def _po_string(raw: str, number: int) -> PoString:
    start = raw.index('"')
    end = raw.rstrip().rfind('"')
    return number, start + 2, raw[start + 1 : max(end, start + 1)]


def string_position(strings: tuple[PoString, ...], offset: int | None) -> tuple[int, int]:
    """The line and column in the PO file of character ``offset`` of the msgstr's text.

    ``offset`` counts the characters of the text as Babel reads it (escapes read);
    None, or an offset past the end, gives the msgstr's first string.
    """
    if offset is not None and offset >= 0:
        left = offset
        for line, column, written in strings:
            index = 0
            while index < len(written):
                if left == 0:
                    return line, column + index
                index += 2 if written[index] == "\\" else 1
                left -= 1
        if left == 0 and strings:  # just past the end: the closing quote
            line, column, written = strings[-1]
            return line, column + len(written)
    line, column, _ = strings[0]
    return line, column
