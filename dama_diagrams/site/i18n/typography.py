# ruff: noqa: RUF001, RUF002  (the marks each language writes are the subject)
"""What a translation's punctuation, typography and Markdown must keep, checked per message.

- ``punctuation``: spaces at the start or end, the final stop, colon, question
  or exclamation mark, paragraph breaks and double spaces, as the English has them;
- ``typography``: each language's own marks.  French puts a no-break space
  (U+00A0, or the narrow U+202F) before ``: ; ? !`` and inside ``« »``.
  Quotation marks: Italian and French ``«…»``, German ``„…“``, Dutch ``‘…’``
  (the single curly quotes the Dutch pages already use most), Spanish ``«…»`` or
  ``“…”``.  Apostrophes are typographic (’) everywhere.  Spanish opens a
  question with ¿ and an exclamation with ¡;
- ``markdown``: the same link targets, code spans and number of emphases
  (italics and bold) as the English.

Code spans, link targets, HTML tags, addresses and placeholders are no prose:
each check reads the text with them blanked out (:func:`prose`).
"""

from __future__ import annotations

import functools
import re

from ..._markdown_text import is_paragraph
from .limits import text_shape

_NOT_PROSE = re.compile(
    r"`[^`\n]*`"  # a code span
    r"|\]\([^)\s]*(?:\s+\"[^\"]*\")?\)"  # a link's target (the text in [] stays)
    r"|<[^>\n]*>"  # an HTML tag, its attributes with it
    r"|https?://\S+"  # a bare address
    r"|\{[a-z_]+\}"  # a placeholder
    r"|\w+(?:\.\w+)+/"  # a file or folder name
)
NO_BREAK = "\u00a0\u202f"
QUOTES: dict[str, tuple[str, str]] = {
    "it": ("«»", "«…»"),
    "fr": ("«»", "«\u00a0…\u00a0»"),
    "de": ("„“‚‘", "„…“"),
    "nl": ("‘’", "‘…’"),
    "es": ("«»“”", "«…» or “…”"),
}
"""Each language's quotation marks, and how a message shows them."""
_ANY_QUOTE = '«»“”„‘‚"‹›'
"""Every quotation mark a check looks at (’ is the apostrophe too: it is never counted)."""
_CLOSERS = "\"'»”’“)]*_`"
_FINAL = {".": "a full stop", ":": "a colon", "?": "a question mark", "!": "an exclamation mark"}


@functools.lru_cache(maxsize=8192)
def prose(text: str) -> str:
    """The text with code, link targets, tags, addresses and placeholders blanked (``·``).

    Cached: each check of each language asks again for the prose of the same English.
    """
    return _NOT_PROSE.sub("·", text)


# --- punctuation and whitespace ------------------------------------------------------------


def _final(text: str) -> str:
    """The text's last mark (``.`` ``:`` ``?`` ``!``), quotes and brackets after it aside."""
    end = text.rstrip().rstrip(_CLOSERS + NO_BREAK + " ").rstrip()
    last = end[-1:]
    return "." if last == "…" else last if last in _FINAL else ""


def punctuation_problems(english: str, translation: str) -> list[str]:
    """Where spaces, final marks and paragraphs differ from the English."""
    problems = []
    for side, english_end, end in (
        ("starts", english[:1], translation[:1]),
        ("ends", english[-1:], translation[-1:]),
    ):
        if english_end.isspace() != end.isspace():
            has = "with a space or line break" if end.isspace() else "without the space"
            problems.append(f"{side} {has}, unlike the English; write it as the English does")
    wanted, got = _final(english), _final(translation)
    if wanted != got and not (wanted == "." and got in "?!" and got):
        what = _FINAL.get(wanted, "no final mark")
        problems.append(
            f"ends with {_FINAL.get(got, 'no final mark')}, where the English ends with {what}; "
            "end it as the English does"
        )
    paragraphs = len(re.findall(r"\n[ \t]*\n", english.strip()))
    mine = len(re.findall(r"\n[ \t]*\n", translation.strip()))
    if paragraphs != mine:
        problems.append(
            f"has {mine + 1} paragraphs, the English {paragraphs + 1}; keep the English's "
            "blank lines"
        )
    doubled = re.search(r"\S( {2,})\S", prose(translation))
    if doubled is not None and not re.search(r"\S {2,}\S", prose(english)):
        problems.append("has a double space; write one")
    return problems


# --- typography per language ---------------------------------------------------------------


def typography_problems(translation: str, language: str) -> list[str]:
    """The marks this language writes otherwise: quotes, apostrophes, spaces, ¿ and ¡."""
    text = prose(translation)
    problems = []
    base = re.split(r"[-_]", language, maxsplit=1)[0]
    if "'" in text:
        at = text.index("'")
        problems.append(f"has a straight apostrophe ({_around(text, at)}); write the typographic ’")
    quotes = QUOTES.get(base)
    if quotes is not None:
        wrong = sorted({char for char in text if char in _ANY_QUOTE and char not in quotes[0]})
        if wrong:
            at = text.index(wrong[0])
            problems.append(
                f"quotes with {wrong[0]} ({_around(text, at)}); this language writes {quotes[1]}"
            )
    if base == "fr":
        problems += _french_spaces(text)
    if base == "es":
        problems += _spanish_openers(text)
    return problems


def _around(text: str, at: int) -> str:
    """A few characters around a position, to find the place in a long message."""
    return repr(" ".join(text[max(at - 12, 0) : at + 12].split()))


def _french_spaces(text: str) -> list[str]:
    """A missing no-break space before : ; ? ! », or after «."""
    for at, char in enumerate(text):
        if char in ":;?!»" and at > 0 and text[at - 1] not in NO_BREAK:
            if char == ":" and text[at - 1].isdigit() and text[at + 1 : at + 2].isdigit():
                continue  # a time or a ratio, 12:30
            space = "a breaking space" if text[at - 1].isspace() else "no space"
            return [
                f"has {space} before '{char}' ({_around(text, at)}); French writes a no-break "
                "space there (U+00A0, or U+202F)"
            ]
        if char == "«" and text[at + 1 : at + 2] not in ("", *NO_BREAK):
            return [
                f"has no no-break space after '«' ({_around(text, at)}); French writes "
                "«\u00a0…\u00a0»"
            ]
    return []


def _spanish_openers(text: str) -> list[str]:
    """A question or exclamation whose sentence has no ¿ or ¡ before it."""
    start = 0
    for at, char in enumerate(text):
        if char in "?!":
            opener = "¿" if char == "?" else "¡"
            if opener not in text[start:at]:
                return [
                    f"ends a sentence with '{char}' but does not open it with '{opener}' "
                    f"({_around(text, at)}); Spanish writes {opener}…{char}"
                ]
            start = at + 1
        elif char in ".\n":
            start = at + 1
    return []


# --- Markdown structure ---------------------------------------------------------------------


def structure_problems(english: str, translation: str) -> list[str]:
    """Links, code spans and emphases that the translation drops, adds or changes."""
    inline = is_paragraph(english)
    mine, theirs = text_shape(translation, inline), text_shape(english, inline)
    if mine is None or theirs is None:
        return []  # too deep to build: the limits of .limits refuse it
    problems = []
    lost = sorted((theirs.link_counts - mine.link_counts).elements())
    if lost:
        problems.append(f"lacks the link to {lost[0]}; keep every link of the English")
    code_lost = sorted((theirs.code - mine.code).elements())
    code_added = sorted((mine.code - theirs.code).elements())
    if code_lost or code_added:
        what = (
            f"lacks the code `{code_lost[0]}`" if code_lost else f"has the code `{code_added[0]}`"
        )
        problems.append(f"{what}, unlike the English; keep the English's code spans as they are")
    if mine.emphases != theirs.emphases:
        problems.append(
            f"has {mine.emphases} emphases (italics or bold), the English {theirs.emphases}; "
            "mark the same words as the English does"
        )
    return problems
