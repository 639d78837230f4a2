"""Text on its way into Markdown, whoever wrote it: converted one way, within one set of limits.

Stage-neutral, like :mod:`.errors`: a diagram's title, caption and exercise
question (read by :mod:`.diagram.schema`, for ``verify``, the ``dama`` fence
and the editor alike), the texts of ``docs/terms.yaml`` (:mod:`.site.i18n.terms`),
the English of the page templates (:mod:`.site.i18n.extract`) and a catalog's
translations (:mod:`.site.i18n.limits`) all become HTML through
:func:`catalog_markdown`, and the same limits bind them before they do.
Python-Markdown is quadratic in ``[`` repeated (``<![CDATA[``, ``![``,
``[a](``: 4,500 ``[`` took 4.6 s, a 63 KB caption of ``<![CDATA[`` 146 s)
and follows nested quotes and lists into a RecursionError.  Each limit is far
above what real text needs:

- no control character but tab and newline, and no bidi embedding, override
  or isolate (:data:`CONTROL`), which no page or book shows as text, nor any
  noncharacter (:data:`NONCHARACTER`); each is judged in the text as the page
  shows it (:func:`shown_text`), so ``&#x202E;`` counts as the U+202E it becomes;
- no line nests more than :data:`MAX_NESTING` list or quote markers, nor is
  indented deeper than :data:`MAX_DEPTH` list levels (measured before any
  conversion), and the HTML made of it nests at most :data:`MAX_DEPTH`
  elements, however the nesting was spelled (``>>>``, ``<ul><li>``, ``<em>``);
- a text with no English to follow (an English title, caption or question,
  a glossary definition, a template's paragraph) is at most
  :data:`MAX_TEXT_CHARS` characters long with at most :data:`MAX_BRACKETS`
  ``[`` (:func:`english_problem`).  A translation is bounded by its English
  instead: at most four times as long, and no ``[`` added
  (:mod:`.site.i18n.limits`), so both stay within milliseconds.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from ._html_tree import VOID, html_tree

if TYPE_CHECKING:
    import markdown

MAX_NESTING = 3
MAX_DEPTH = 20
"""Elements nested in one text's HTML; the project's deepest text nests 3."""
MAX_TEXT_CHARS = 1_000
"""An English title, caption or question: the project's longest caption is 163 characters."""
MAX_BRACKETS = 20
"""``[`` in an English title, caption or question (links, images): the project's use none."""

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""C0 but tab and newline, DEL, C1, and the bidi embeddings, overrides and isolates."""
_NESTED = re.compile(
    rf"^[ \t]*(?:(?:>|(?:[-*+]|\d{{1,9}}[.)])(?=[ \t]))[ \t]*){{{MAX_NESTING + 1},}}", re.M
)
"""A line that opens more than ``MAX_NESTING`` quotes or lists (``>`` needs no blank after it)."""
_INDENT = re.compile(r"^[ \t]+", re.M)


# == The limits ================================================================


NONCHARACTER = re.compile(
    "[\ufdd0-\ufdef"
    + "".join(
        f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000)
    )
    + "]"
)
"""Unicode's 66 noncharacters (U+FDD0..U+FDEF, and the last two of each plane, U+FFFE and
U+FFFF among them): never text, and XML 1.0 refuses U+FFFE and U+FFFF outright."""


def noncharacter_problem(text: str) -> str | None:
    """The first noncharacter that ``text`` shows, said as a problem; None without one.

    A catalog's translation (``status``), every text of ``docs/terms.yaml`` and a
    diagram's title, caption or question are refused with it, at their line: a
    TBX file that held one would not be XML, and no page or book shows one as
    text.  Control characters are refused beside it (:func:`control_problem`).
    """
    found = first_shown(NONCHARACTER, text)
    if found is None:
        return None
    return (
        f"holds the noncharacter U+{ord(found.character):04X} {found.where}, "
        "which no page, book or TBX file can hold; delete it"
    )


def control_problem(text: str) -> str | None:
    """The first control or bidi character that ``text`` shows, said as a problem; None if none."""
    found = first_shown(CONTROL, text)
    if found is None:
        return None
    return (
        f"holds the control character U+{ord(found.character):04X} {found.where}, "
        "which no page or book shows as text; delete it"
    )


# == What a page shows =========================================================

REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]{0,31});?")
"""An HTML character reference, numeric or named, as a browser finds one (``;`` optional)."""


def shown_text(text: str) -> str:
    """``text`` as its page shows it: each HTML character reference decoded, once.

    Python-Markdown passes ``&#x202E;`` and ``&nbsp;`` through as they are, and
    nh3 and the browser turn them into the characters; so the checks of what a
    text holds (a control, a noncharacter, nothing visible) judge this text.
    """
    if "&" not in text:
        return text
    return REFERENCE.sub(lambda reference: decoded(reference[0]), text)


def decoded(reference: str) -> str:
    """One character reference as HTML decodes it (``&#8238;``: U+202E; ``&nbsp;``: U+00A0).

    Unlike :func:`html.unescape`, which drops them, a control character and a
    noncharacter stay: HTML calls them a parse error and shows them all the same.
    NUL, a surrogate and a number past Unicode are U+FFFD; 128-159 are read as
    Windows-1252, as HTML reads them.
    """
    if not reference.startswith("&#"):
        return html.unescape(reference)
    digits = reference[2:].rstrip(";")
    hexadecimal = digits[:1] in ("x", "X")
    digits = (digits[1:] if hexadecimal else digits).lstrip("0") or "0"
    if len(digits) > (6 if hexadecimal else 7):  # past U+10FFFF, and never a 5,000-digit int()
        return "\ufffd"
    number = int(digits, 16 if hexadecimal else 10)
    if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return "\ufffd"
    if 0x80 <= number <= 0x9F:
        try:
            return bytes([number]).decode("cp1252")
        except UnicodeDecodeError:  # 0x81, 0x8D, 0x8F, 0x90, 0x9D: the C1 control stays
            pass
    return chr(number)


@dataclass(frozen=True)
class Shown:
    """A character that a text shows, where it is written, and how."""

    character: str
    position: int
    """Where it is written in the text, counted from 1."""
    written: str
    """The character itself, or the reference that makes it (``&#x202E;``)."""

    @property
    def where(self) -> str:
        """``at character 3``, and ``(written &#x202E;)`` when a reference makes it."""
        written = self.written if len(self.written) <= 20 else f"{self.written[:16]}..."
        spelled = "" if self.written == self.character else f" (written {written})"
        return f"at character {self.position:,}{spelled}"


def first_shown(pattern: re.Pattern[str], text: str) -> Shown | None:
    """The first character that ``text`` shows matching ``pattern``, as written or by reference."""
    raw = pattern.search(text)
    end = len(text) if raw is None else raw.start()
    if "&" in text[:end]:
        for reference in REFERENCE.finditer(text, 0, end):
            found = pattern.search(decoded(reference[0]))
            if found is not None:
                return Shown(found[0], reference.start() + 1, reference[0])
    return None if raw is None else Shown(raw[0], raw.start() + 1, raw[0])


def nesting_problem(text: str, fix: str) -> str | None:
    """Lists or quotes nested past the limits on one line, or indented too deep; None if not.

    ``fix`` says how to mend it, for a translation or an English text.
    """
    if _NESTED.search(text):
        return f"nests more than {MAX_NESTING} list or quote markers on one line; {fix}"
    indent = max((len(m[0].expandtabs(4)) for m in _INDENT.finditer(text)), default=0)
    if indent > 4 * MAX_DEPTH:
        return f"indents a line by {indent:,} columns, deeper than {MAX_DEPTH} nested lists; {fix}"
    return None


def depth_problem(depth: int | None, fix: str) -> str | None:
    """A depth from :func:`markdown_depth` past :data:`MAX_DEPTH`, said as a problem."""
    if depth is not None and depth <= MAX_DEPTH:
        return None
    shown = "too deep to measure" if depth is None else f"{depth} deep"
    return (
        f"nests its lists, quotes, emphasis or HTML elements {shown} (at most {MAX_DEPTH}); {fix}"
    )


def english_problem(text: str, *, inline: bool | None = True) -> str | None:
    """Why an English text for a page is refused, or None.

    A diagram's title, caption and question, the texts of ``docs/terms.yaml``
    and the English of the page templates have no English to follow, so fixed
    numbers bind them.  ``inline``: whether the text goes in as one paragraph;
    None, as the pages decide it (:func:`is_paragraph`, a template's text).
    Checked cheapest first, so that a conversion (the depth, and whether the
    text is one paragraph) only ever sees a text within the length limits.
    """
    problem = control_problem(text) or noncharacter_problem(text)
    if problem is not None:
        return problem
    if len(text) > MAX_TEXT_CHARS:
        return f"is {len(text):,} characters long (at most {MAX_TEXT_CHARS:,}); shorten it"
    if text.count("[") > MAX_BRACKETS:
        return (
            f"has {text.count('[')} '[' (at most {MAX_BRACKETS}), and each one slows the "
            "conversion of the whole text; keep a few links at most"
        )
    fix = "nest them less deeply"
    problem = nesting_problem(text, fix)
    if problem is not None:
        return problem
    inline = is_paragraph(text) if inline is None else inline
    return depth_problem(markdown_depth(text, inline=inline), fix)


_BLOCK = re.compile(r"<(?:ol|ul|pre|blockquote)\b")


@lru_cache(maxsize=4096)
def is_paragraph(english: str) -> bool:
    """Whether English Markdown is one paragraph, so it and its translations go in inline."""
    rendered = markdown_html(english).strip()
    return rendered.startswith("<p>") and rendered.count("<p>") == 1 and not _BLOCK.search(rendered)


def markdown_depth(text: str, *, inline: bool) -> int | None:
    """How deep the HTML that the site makes of ``text`` nests; None if too deep to build."""
    try:
        return html_depth(html_tree(catalog_markdown(text, inline=inline)))
    except RecursionError:
        return None


def html_depth(root: ET.Element) -> int:
    """How many elements are open at the deepest point below ``root``; counted without recursion."""
    deepest = 0
    waiting = [(child, 1) for child in root]
    while waiting:
        element, level = waiting.pop()
        if element.tag not in VOID:  # a void element opens nothing
            deepest = max(deepest, level)
            waiting.extend((child, level + 1) for child in element)
    return deepest


# == The conversion ============================================================

LINE_START = re.compile(r"^(?:[-+=]|\d+[.)])")
_TEXT = r"[^\x00-\x1f\x7f\\`*_\[\]<>&]"
_WORDS = rf"(?!\s){_TEXT}+?(?<!\s)"
_SPANS = (
    r"`(?! )[^`\x00-\x1f\x7f]+?(?<! )`",  # code
    rf"\*\*{_WORDS}\*\*",  # strong
    rf"\*{_WORDS}\*",  # emphasis
    r'<a href="[^"\s<>&\\`*_\[\]]*">|</a>',  # a link, as the templates fill them in
)
_SPAN = re.compile("|".join(f"({span})" for span in _SPANS))
_SIMPLE_LINE = re.compile(rf"(?!\s|[#>+=_&\[\]\\-]|\*\s)(?:{'|'.join(_SPANS)}|{_TEXT})*(?<=\S)")
"""A line whose only Markdown is code, strong, emphasis and links, none nested or split."""
NUMBERED = re.compile(r"^(\d+)\.(?=\s)")
NOT_A_BLOCK = re.compile(r"^(?=[#>]|[-+*]\s|([-*_])\s*(?:\1\s*){2,}$)")
"""The start of a heading, quote, list or rule: inline text is one paragraph, as it reads."""


def catalog_markdown(text: str, *, inline: bool) -> str:
    """Python-Markdown's HTML for catalog text, before nh3: what the limits measure.

    ``inline`` text is made one line first, and a line start that would open a
    heading, quote or list is escaped, as the site shows it
    (:func:`.site.i18n.safe_text.catalog_html`).
    """
    if inline:
        text = NOT_A_BLOCK.sub(r"\\", NUMBERED.sub(r"\1\\.", one_line(text)))
    return markdown_html(text)


def markdown_html(text: str) -> str:
    """Python-Markdown's HTML for ``text``; simple prose, most of a catalog, skips the parser.

    Lines with no Markdown but code, strong, emphasis and links (none nested,
    none across lines, and no list, quote or heading at a line's start) make
    one paragraph, which is written here: Python-Markdown's own output, at a
    fraction of its cost.  tests/test_markdown_plain.py checks the two agree
    on every text the pages convert, in every language.
    """
    lines = text.split("\n")
    if all(_SIMPLE_LINE.fullmatch(line) and not LINE_START.match(line) for line in lines):
        paragraph = "\n".join(_SPAN.sub(_span_html, line) for line in lines)
        return f"<p>{paragraph}</p>"
    renderer = _renderer()
    renderer.reset()
    return renderer.convert(text.replace("\x00", ""))


@cache
def _renderer() -> markdown.Markdown:
    """One Python-Markdown, made when first needed: ``verify`` of simple captions needs none."""
    import markdown

    return markdown.Markdown()


def _span_html(match: re.Match[str]) -> str:
    code, strong, emphasis, _ = match.groups()
    if code:
        return f"<code>{html.escape(code[1:-1], quote=False)}</code>"
    if strong:
        return f"<strong>{strong[2:-2]}</strong>"
    if emphasis:
        return f"<em>{emphasis[1:-1]}</em>"
    return match[0]


_LINE_SPACE = re.compile(r"[^\S\u00a0\u202f]{2,}|[^\S\u00a0\u202f ]")
"""A run of spaces, or any other space but a no-break one: a single space stays as it is."""


def one_line(text: str) -> str:
    """Text on one line; a no-break space (French before ':') is the translator's, and stays."""
    return _LINE_SPACE.sub(" ", text).strip()
