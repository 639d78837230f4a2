# ruff: noqa: RUF001, RUF002  (the marks each language writes are the subject)
"""What a translation's punctuation, typography and Markdown must keep, checked per message.

- ``punctuation``: spaces at the start or end, the final stop, colon, question
  or exclamation mark, paragraph breaks and double spaces, as the English has them;
- ``typography``: each language's own marks.  French puts a no-break space
  (U+00A0, or the narrow U+202F) before ``: ; ? !`` and inside ``« »``.
  Quotation marks: Italian and French ``«…»``, German ``„…“``, Dutch ``‘…’``
  (the single curly quotes the Dutch pages already use most), Spanish ``«…»``
  (``“…”`` only for a quotation inside one).  Apostrophes are typographic (’)
  everywhere.  Spanish opens a question with ¿ and an exclamation with ¡;
- ``markdown``: the same link targets, code spans and number of emphases
  (italics and bold) as the English.  A translation whose Markdown is broken
  (:func:`markdown_fault`: a ``[``, ``(``, ``*``, ``_`` or a backtick that does
  not close, or a link of the English lost) is never shown: the site and the
  book show the English until it is fixed, and ``build --strict-translations``
  refuses it.

Each check also says where in the translation its problem is (a *located*
problem), so that a finding points at the PO file's line and column.

Code spans, link targets, HTML tags, addresses and placeholders are no prose:
each check reads the text with them blanked out (:func:`prose`).
"""

from __future__ import annotations

import functools
import re

from ..._markdown_text import is_paragraph
from .limits import markup_problem, text_shape

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
    "es": ("«»", "«…» (“…” only inside «…»)"),
}
"""Each language's quotation marks, and how a message shows them."""
INNER_QUOTES: dict[str, str] = {"es": "“”"}
"""Marks a language writes only for a quotation inside its own: Spanish «… “…” …»."""
Located = tuple[str, int | None]
"""A problem, and the character of the translation where it is (None: the whole message)."""
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


def original_offset(text: str, at: int) -> int:
    """Where character ``at`` of :func:`prose` ``(text)`` is in ``text`` itself."""
    shift = 0
    for match in _NOT_PROSE.finditer(text):
        start = match.start() - shift
        if at < start:
            break
        if at == start:
            return match.start()
        shift += len(match[0]) - 1
    return at + shift


# --- punctuation and whitespace ------------------------------------------------------------


def _final(text: str) -> str:
    """The text's last mark (``.`` ``:`` ``?`` ``!``), quotes and brackets after it aside."""
    end = text.rstrip().rstrip(_CLOSERS + NO_BREAK + " ").rstrip()
    last = end[-1:]
    return "." if last == "…" else last if last in _FINAL else ""


def punctuation_problems(english: str, translation: str) -> list[str]:
    """Where spaces, final marks and paragraphs differ from the English."""
    return [problem for problem, _ in punctuation_located(english, translation)]


def punctuation_located(english: str, translation: str) -> list[Located]:
    """:func:`punctuation_problems`, each with the character where it is."""
    problems: list[Located] = []
    for side, english_end, end, at in (
        ("starts", english[:1], translation[:1], 0),
        ("ends", english[-1:], translation[-1:], max(len(translation) - 1, 0)),
    ):
        if english_end.isspace() != end.isspace():
            has = "with a space or line break" if end.isspace() else "without the space"
            problems.append((f"{side} {has}, unlike the English; write it as the English does", at))
    wanted, got = _final(english), _final(translation)
    if wanted != got and not (wanted == "." and got in "?!" and got):
        what = _FINAL.get(wanted, "no final mark")
        problems.append(
            (
                f"ends with {_FINAL.get(got, 'no final mark')}, where the English ends with "
                f"{what}; end it as the English does",
                max(len(translation.rstrip()) - 1, 0),
            )
        )
    paragraphs = len(re.findall(r"\n[ \t]*\n", english.strip()))
    mine = len(re.findall(r"\n[ \t]*\n", translation.strip()))
    if paragraphs != mine:
        problems.append(
            (
                f"has {mine + 1} paragraphs, the English {paragraphs + 1}; keep the English's "
                "blank lines",
                None,
            )
        )
    doubled = re.search(r"\S( {2,})\S", prose(translation))
    if doubled is not None and not re.search(r"\S {2,}\S", prose(english)):
        at = original_offset(translation, doubled.start(1))
        problems.append(("has a double space; write one", at))
    return problems


# --- typography per language ---------------------------------------------------------------


def typography_problems(translation: str, language: str) -> list[str]:
    """The marks this language writes otherwise: quotes, apostrophes, spaces, ¿ and ¡."""
    return [problem for problem, _ in typography_located(translation, language)]


def typography_located(translation: str, language: str) -> list[Located]:
    """:func:`typography_problems`, each with the character where it is."""
    text = prose(translation)
    found: list[tuple[str, int]] = []
    base = re.split(r"[-_]", language, maxsplit=1)[0]
    if "'" in text:
        at = text.index("'")
        found.append(
            (f"has a straight apostrophe ({_around(text, at)}); write the typographic ’", at)
        )
    quotes = QUOTES.get(base)
    if quotes is not None:
        wrong = _wrong_quote(text, quotes[0], INNER_QUOTES.get(base, ""))
        if wrong is not None:
            found.append(
                (
                    f"quotes with {text[wrong]} ({_around(text, wrong)}); this language "
                    f"writes {quotes[1]}",
                    wrong,
                )
            )
    if base == "fr":
        found += _french_spaces(text)
    if base == "es":
        found += _spanish_openers(text)
    return [(problem, original_offset(translation, at)) for problem, at in found]


def _wrong_quote(text: str, quotes: str, inner: str) -> int | None:
    """The first quotation mark the language does not write there.

    ``inner`` marks are written only inside the language's own first pair (« »).
    """
    depth = 0
    for at, char in enumerate(text):
        if char not in _ANY_QUOTE:
            continue
        if char in quotes[:2]:
            depth = max(depth + (1 if char == quotes[0] else -1), 0)
        if char not in quotes and not (char in inner and depth > 0):
            return at
    return None


def _around(text: str, at: int) -> str:
    """A few characters around a position, to find the place in a long message."""
    return repr(" ".join(text[max(at - 12, 0) : at + 12].split()))


def _french_spaces(text: str) -> list[tuple[str, int]]:
    """A missing no-break space before : ; ? ! », or after «."""
    for at, char in enumerate(text):
        if char in ":;?!»" and at > 0 and text[at - 1] not in NO_BREAK:
            if char == ":" and text[at - 1].isdigit() and text[at + 1 : at + 2].isdigit():
                continue  # a time or a ratio, 12:30
            space = "a breaking space" if text[at - 1].isspace() else "no space"
            return [
                (
                    f"has {space} before '{char}' ({_around(text, at)}); French writes a "
                    "no-break space there (U+00A0, or U+202F)",
                    at,
                )
            ]
        if char == "«" and text[at + 1 : at + 2] not in ("", *NO_BREAK):
            return [
                (
                    f"has no no-break space after '«' ({_around(text, at)}); French writes "
                    "«\u00a0…\u00a0»",
                    at + 1,
                )
            ]
    return []


def _spanish_openers(text: str) -> list[tuple[str, int]]:
    """A question or exclamation whose sentence has no ¿ or ¡ before it."""
    start = 0
    for at, char in enumerate(text):
        if char in "?!":
            opener = "¿" if char == "?" else "¡"
            if opener not in text[start:at]:
                return [
                    (
                        f"ends a sentence with '{char}' but does not open it with '{opener}' "
                        f"({_around(text, at)}); Spanish writes {opener}…{char}",
                        at,
                    )
                ]
            start = at + 1
        elif char in ".\n":
            start = at + 1
    return []


# --- Markdown structure ---------------------------------------------------------------------

FALLBACK = (
    "the site and the book show the English until it is fixed (the page's notice counts it "
    "as untranslated), and build --strict-translations refuses it"
)
"""What happens to a translation whose Markdown is broken, as every such finding says."""


def structure_problems(english: str, translation: str) -> list[str]:
    """Links, code spans and emphases that the translation drops, adds or changes."""
    return [problem for problem, _ in structure_located(english, translation)]


def structure_located(english: str, translation: str) -> list[Located]:
    """:func:`structure_problems`, each with the character where it is.

    A broken translation (:func:`markdown_fault`) is that one problem: its
    other differences follow from it.
    """
    fault = markdown_fault(english, translation)
    if fault is not None:
        return [fault]
    inline = is_paragraph(english)
    mine, theirs = text_shape(translation, inline), text_shape(english, inline)
    if mine is None or theirs is None:
        return []  # too deep to build: the limits of .limits refuse it
    problems: list[Located] = []
    code_lost = sorted((theirs.code - mine.code).elements())
    code_added = sorted((mine.code - theirs.code).elements())
    if code_lost or code_added:
        what = (
            f"lacks the code `{code_lost[0]}`" if code_lost else f"has the code `{code_added[0]}`"
        )
        at = translation.find(f"`{code_added[0]}`") if code_added else -1
        problems.append(
            (
                f"{what}, unlike the English; keep the English's code spans as they are",
                at if at >= 0 else None,
            )
        )
    if mine.emphases != theirs.emphases:
        problems.append(
            (
                f"has {mine.emphases} emphases (italics or bold), the English {theirs.emphases}; "
                "mark the same words as the English does",
                None,
            )
        )
    return problems


def markdown_fault(english: str, translation: str) -> Located | None:
    """Why the translation's Markdown would show on the page as marks, and where; None if not.

    A ``[`` or ``(`` that never closes (or a ``]`` or ``)`` that closes nothing),
    a ``*``, ``_`` or backtick that opens an emphasis or a code span and never
    closes it: each shows on the page as itself, more often than in the English.
    A link of the English that the translation lost is one too: its words lose
    their link, or show as ``[words](address``.  A translation that the limits
    refuse (:func:`.limits.markup_problem`) is not read here: every build refuses it.
    """
    if markup_problem(english, translation) is not None:
        return None
    inline = is_paragraph(english)
    mine, theirs = text_shape(translation, inline), text_shape(english, inline)
    if mine is None or theirs is None:
        return None
    what: str | None = None
    at: int | None = None
    for opener, closer in ("[]", "()"):
        wanted = theirs.literal[opener] - theirs.literal[closer]
        got = mine.literal[opener] - mine.literal[closer]
        if got != wanted:
            mark = opener if got > wanted else closer
            at = _unmatched(translation, opener, closer, mark)
            what = (
                f"has a '{mark}' that is never closed"
                if mark == opener
                else f"has a '{mark}' that closes nothing"
            )
            break
    else:
        for mark, span in (("`", "a code span"), ("*", "an emphasis"), ("_", "an emphasis")):
            if mine.literal[mark] > theirs.literal[mark]:
                at = _lone_run(translation, mark)
                what = f"has a '{mark}' that opens {span} and never closes it"
                break
    if at is not None and what is not None:
        what += f" ({_around(translation, at)})"
    lost = sorted((theirs.link_counts - mine.link_counts).elements())
    if lost:
        link = f"lacks the link to {lost[0]}"
        what = link if what is None else f"{link}: it {what}"
    if what is None:
        return None
    return f"{what}; write the Markdown as the English does: {FALLBACK}", at


def _unmatched(text: str, opener: str, closer: str, mark: str) -> int | None:
    """The ``mark`` (``opener`` or ``closer``) that no other one matches: the first such."""
    stack: list[int] = []
    lone: list[int] = []
    for at, char in enumerate(_without_code(text)):
        if char == opener:
            stack.append(at)
        elif char == closer:
            if stack:
                stack.pop()
            else:
                lone.append(at)
    found = stack if mark == opener else lone
    return found[0] if found else None


def _lone_run(text: str, mark: str) -> int | None:
    """The first run of ``mark`` (``**``, a backtick) that no later run of its length closes."""
    runs = re.finditer(re.escape(mark) + "+", _without_code(text, mark))
    open_runs: list[re.Match[str]] = []
    for run in runs:
        same = next((o for o in reversed(open_runs) if len(o[0]) == len(run[0])), None)
        if same is not None:
            open_runs.remove(same)
        else:
            open_runs.append(run)
    return open_runs[0].start() if open_runs else None


_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)


def _without_code(text: str, mark: str = "") -> str:
    """The text with its code spans blanked, same length (none if ``mark`` is the backtick)."""
    if mark == "`":
        return text
    return _CODE_SPAN.sub(lambda found: " " * len(found[0]), text)
