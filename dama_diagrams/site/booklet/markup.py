"""Typst markup from a page's element tree: each tag a Typst element, every text escaped.

Text goes into Typst markup with every character that markup gives a meaning
(``#``, ``[``, ``*``, ``<``, ``$``, ``/``...) escaped, and into Typst strings
with quotes and backslashes escaped, so a caption or a translation can never
run Typst code.  Straight quotes stay as they are: Typst turns them into the
language's own quotation marks and apostrophes.  The blocks that
``book.typ`` defines (``dama-figure``, ``dama-exercise``...) take the
diagrams, whose SVG goes in through ``sys.inputs`` by name.

What the book cannot print as the web page shows it never stops the book, nor
the site: a picture it does not have (a remote one, or a file the site does
not make), a link to nowhere in the book, text nested deeper than Typst's
limits.  It prints the picture's words, the link's words, the deep text
flat, and says so in one :class:`.places.BookWarning` at the template's line.
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote

from ..._book_text import REPLACEMENT, book_text, shows_nothing
from ...errors import shorten
from ...render.legend import LEGEND_KEYS, legend_icon_svg
from .._common import SiteError
from ..i18n.safe_text import SAFE_SCHEMES
from ..pages.renderer import EXERCISES_PAGE
from .flow import kept_together
from .places import BookWarning, TemplatePlaces

_SPECIAL = re.compile(r"[\\#$*+\-<=>@\[\]_`~/.()]")
"""Characters with a meaning somewhere in Typst markup; escaped, each means itself."""
_SPACES = re.compile(r"[ \t\n\r\f\v]+")
"""HTML's white space, which collapses; no-break spaces are not in it."""
_MOVE_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}\.(?:\.\.)?) (?=\d{1,2}[-x]\d)")
"""A move's number and the space after it, before the move: ``2. 19x10``, ``1... 10-14``."""
_STRING_SPECIAL = re.compile(r'[\\"\x00-\x1f\x7f-\x9f\u2028\u2029]')
_LABEL_CHARACTER = re.compile(r"[^A-Za-z0-9_-]")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.IGNORECASE)
SOURCE_HREF = "data-book-href"
"""Where :mod:`.assemble` keeps a link's target as the page wrote it, for the warnings."""
SKIPPED_CLASSES = frozenset(
    {"dama-needs-script", "dama-exercise-progress", "dama-exercise-no-script", "headerlink"}
)
"""What only a screen has: the words about playing on the board, the progress line."""
SKIPPED_TAGS = frozenset({"noscript", "summary", "script", "style", "template", "svg", "button"})
BLOCK_TAGS = frozenset(
    {
        *("address", "article", "aside", "blockquote", "details", "div", "dl", "figure"),
        *("footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "nav"),
        *("ol", "p", "pre", "section", "table", "ul"),
    }
)
BOARD_WIDTH = "72mm"
EXERCISE_WIDTH = "100%"
ICON_HEIGHT = "legend-icon"
"""An icon's height: a key's icons and a picture in the text, as book.typ sets it."""
STEP_WIDTH = "100%"
_PARAGRAPHS = "\n\n"
MAX_DEPTH = 40
"""How deeply the book nests a page's elements (20 levels of lists): far beyond any real
page, and within Typst's limits (some 31 levels of lists); deeper text is printed flat."""
PICTURE_SUFFIX = ".svg"
"""The site's files that the book prints as pictures: the SVG it draws (diagrams, icons)."""
LIST_KEPT = 3
"""A long list's last items, kept on one page: its last page never holds one item alone."""
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
"""The elements whose id is a label of the book, which a link can lead to."""


def text_markup(text: str) -> str:
    """Text as Typst markup that shows it, its white space collapsed as HTML does.

    A move number stays on the line of its move ("2. 19x10", "1... 10-14").  A
    character that the book's fonts lack shows as the replacement character
    (:func:`..._book_text.book_text`): Typst would refuse the whole book.
    """
    return escaped_markup(book_text(text))


def escaped_markup(text: str) -> str:
    """Text as Typst markup that shows exactly it, every character as it is."""
    bound = _MOVE_NUMBER.sub("\\1\u00a0", _SPACES.sub(" ", text))
    return _SPECIAL.sub(lambda found: "\\" + found[0], bound)


def string_literal(text: str) -> str:
    """Text as a Typst string literal."""

    def escaped(found: re.Match[str]) -> str:
        character = found[0]
        return "\\" + character if character in '\\"' else f"\\u{{{ord(character):x}}}"

    return '"' + _STRING_SPECIAL.sub(escaped, text) + '"'


def label(identifier: str) -> str:
    """An element's id as a Typst label: letters, digits, ``-`` and ``_`` only."""
    return "<" + _LABEL_CHARACTER.sub(lambda found: f"_{ord(found[0]):x}_", identifier) + ">"


def message_markup(pattern: str, values: Mapping[str, str]) -> str:
    """A catalog message whose placeholders are Typst markup already, the rest escaped."""
    parts: list[str] = []
    position = 0
    for found in _PLACEHOLDER.finditer(pattern):
        before = text_markup(pattern[position : found.start()])  # "p. 4" is never split
        parts.append(before[:-1] + "~" if found[1] == "page" and before.endswith(" ") else before)
        parts.append(values.get(found[1], text_markup(found[0])))
        position = found.end()
    parts.append(text_markup(pattern[position:]))
    return "".join(parts)


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def text_content(element: ET.Element) -> str:
    return "".join(element.itertext())


@dataclass
class BookMarkup:
    """What turns one language's pages into markup: the pictures, the labels, the words.

    ``page`` names the page template being written, for errors and warnings;
    ``images`` gathers the SVG of every picture used, by the name that
    ``sys.inputs`` gives it; ``warnings`` what the book prints otherwise than
    the web page, each once.
    """

    assets: Mapping[str, bytes]
    labels: frozenset[str]
    reference: str
    """The catalog's "{reference}, p. {page}": how a cross-reference names its page."""
    engine_label: str = ""
    same_diagram: str = "{caption} (See the diagram on p. {page}.)"
    said_once: str = ""
    """What every diagram's description says alike (how the turn is shown): the book says
    it once, under its key to the diagrams, and no picture repeats it."""
    """The catalog's words for a diagram printed before, which the book prints once."""
    page: str = ""
    images: dict[str, str] = field(default_factory=dict)
    places: Mapping[str, TemplatePlaces] = field(default_factory=dict)
    warnings: list[BookWarning] = field(default_factory=list)
    printed: dict[str, str] = field(default_factory=dict)
    """The label of each diagram printed so far, by its picture and by its description: a
    repeat refers to it."""
    _linking: int = field(default=0, init=False, repr=False)
    _key_given: bool = field(default=False, init=False, repr=False)

    # --- what the book says of a page ----------------------------------------------

    def where(self, addresses: tuple[str, ...] = (), texts: tuple[str, ...] = ()) -> str:
        """``path:line`` of the page's template where an element is written (the path alone
        when no line holds it)."""
        places = self.places.get(self.page)
        if places is None:
            return f"docs/pages/{self.page}.md.j2"
        return places.where(addresses, texts)

    def warn(self, warning: BookWarning) -> None:
        if warning not in self.warnings:
            self.warnings.append(warning)

    # --- pictures --------------------------------------------------------------

    def image(self, path: str, alt: str, width: str) -> str:
        """A diagram of the site, drawn as vectors, read aloud as ``alt``."""
        data = self.assets.get(path)
        if data is None:
            raise SiteError(
                f"{self.where((path,))}: the page shows {path}, which no verified diagram "
                "makes: check the name given to figure() or exercise()"
            )
        self.images[path] = data.decode("utf-8")
        words = " ".join(alt.split())
        if self.said_once:
            words = " ".join(words.replace(" ".join(self.said_once.split()), "").split())
        return (
            f'image(bytes(sys.inputs.at({string_literal(path)})), format: "svg", '
            f"width: {width}, alt: {string_literal(words)})"
        )

    def picture(self, element: ET.Element, *, alone: bool) -> str:
        """A picture of the page that is no diagram's board, as the book can print it.

        A picture the site makes (an SVG of its docs folder: a diagram, an icon,
        the favicon) is printed: across the page at most when it stands
        ``alone`` in its paragraph, else as high as an icon in the text.  One at
        another address is shown by its words (its alt text), linked to it when
        it is on the web and in no link of its own (a badge): the book fetches
        nothing.  A file the site does not make is left out, with a warning.
        """
        source = element.get("src", "").strip()
        alt = " ".join(element.get("alt", "").split())
        scheme = _SCHEME.match(source)
        if scheme or source.startswith("//"):
            address = "https:" + source if scheme is None else source
            web = (scheme[1].lower() if scheme else "https") in SAFE_SCHEMES - {"mailto"}
            if web and not self._linking:
                return f"#link({string_literal(address)})[{text_markup(alt or address)}]"
            return text_markup(alt or (address if web else ""))
        path = self._site_file(source)
        if path is None:
            self.warn(
                BookWarning(
                    self.where((source,), (alt,)),
                    f"the picture {shorten(source)} is no file the site makes: the web page "
                    "cannot show it either",
                    "the book leaves it out: show a diagram with figure(), or a picture by its "
                    "https:// address",
                )
            )
            return ""
        self.images[path] = self.assets[path].decode("utf-8")
        arguments = [f"bytes(sys.inputs.at({string_literal(path)}))", 'format: "svg"']
        arguments += [] if alone else [f"height: {ICON_HEIGHT}"]
        arguments += [f"alt: {string_literal(alt)}"] if alt else []
        shown = f"image({', '.join(arguments)})"
        shown = shown if alt else f"pdf.artifact({shown})"  # no words: a decoration
        return f"#{shown}" if alone else f"#box({shown})"

    def _site_file(self, source: str) -> str | None:
        """The site's picture that an address names, from the page's Markdown file or from
        its web address (a folder of its own); None for one the site does not make."""
        address = unquote(source.partition("#")[0].partition("?")[0])
        if not address or address.startswith("/"):
            return None
        bases = {posixpath.dirname(self.page), "" if self.page == "index" else self.page}
        for base in sorted(bases):
            path = posixpath.normpath(posixpath.join(base, address))
            if path.endswith(PICTURE_SUFFIX) and not path.startswith("..") and path in self.assets:
                return path
        return None

    def icon(self, key: str) -> str:
        """A legend's icon: decoration beside its words, so no alt text of its own."""
        name = f"legend/{key}.svg"
        self.images[name] = legend_icon_svg(key)
        return (
            f"pdf.artifact(image(bytes(sys.inputs.at({string_literal(name)})), "
            f'format: "svg", height: {ICON_HEIGHT}))'
        )

    # --- blocks ----------------------------------------------------------------

    def blocks(self, element: ET.Element, depth: int = 0) -> str:
        """The content of ``element``: its blocks apart, its loose text as paragraphs."""
        if depth > MAX_DEPTH:
            return self._flat(element)
        parts: list[str] = []
        run: list[str] = [text_markup(element.text or "")]
        for child in element:
            if self._skipped(child):
                run.append(text_markup(child.tail or ""))
                continue
            if child.tag in BLOCK_TAGS:
                parts.append("".join(run).strip())
                parts.append(self.block(child, depth + 1))
                run = [text_markup(child.tail or "")]
            else:
                run.append(self.inline(child, depth + 1))
                run.append(text_markup(child.tail or ""))
        parts.append("".join(run).strip())
        return "\n\n".join(kept_together([part for part in parts if part], chapter=depth == 0))

    def block(self, element: ET.Element, depth: int) -> str:
        if depth > MAX_DEPTH:
            return self._flat(element)
        tag, css = element.tag, classes(element)
        if tag in HEADING_TAGS:
            identifier = element.get("id")
            labelled = f" {label(identifier)}" if identifier else ""
            title = self.inline_content(element, depth)
            if shows_nothing(text_content(element)) and element.find(".//img") is None:
                title = REPLACEMENT  # PDF/UA refuses an empty heading; status warns of it
            return f"#heading(level: {tag[1]})[{title}]{labelled}"
        if tag == "p":
            if _picture_alone(element):
                return self.picture(element[0], alone=True)
            text = self.inline_content(element, depth).strip()
            if text_content(element).rstrip().endswith(":"):  # it introduces what follows
                return f"#block(sticky: true)[{text}]"
            return text
        if "dama-legend" in css:  # the key to the diagrams: each marker with its symbol
            key, first = self._legend(element), not self._key_given
            self._key_given = True
            return f"{key}\n\n{text_markup(self.said_once)}" if first and self.said_once else key
        if tag in ("ul", "ol"):
            return self._list(element, depth)
        if tag == "table":
            return self._table(element, depth)
        if tag == "pre":
            code = book_text(text_content(element))
            return f"#dama-code(raw(block: true, {string_literal(code)}))"
        if tag == "figure" and "dama-figure" in css:
            return self.figure(element, depth)
        if "dama-keep" in css:
            return self._kept(element, depth)
        if "dama-explain" in css:
            return self._explain(element, depth)
        if "dama-exercise" in css:
            return self._exercise(element, depth)
        if "dama-game-steps" in css:
            return self._game_steps(element, depth)
        if "admonition" in css:
            return f"#dama-note[{self.blocks(element, depth)}]"
        if tag == "hr":
            return "#line(length: 100%, stroke: 0.4pt)"
        return self.blocks(element, depth)

    def _list(self, element: ET.Element, depth: int) -> str:
        items = [
            f"[{self.blocks(item, depth + 1)}]"
            for item in element
            if item.tag == "li" and not self._skipped(item)
        ]
        if not items:
            return ""
        if element.tag == "ol":
            start = element.get("start", "1")
            first = int(start) if start.isascii() and start.isdigit() and len(start) < 7 else 1
            return f"#enum(start: {first}, {', '.join(items)})"
        if len(items) >= LIST_KEPT * 2:  # the last items never alone on a page
            most, last = ", ".join(items[:-LIST_KEPT]), ", ".join(items[-LIST_KEPT:])
            return f"#dama-list-end(({most},), ({last},))"
        return f"#list({', '.join(items)})"

    def _table(self, element: ET.Element, depth: int, *, verdict_last: bool = False) -> str:
        """A table, its first row the header; ``verdict_last`` for the engine's table.

        The engine's table gives its first column (the capture) the width it needs
        and its last (the verdict, in words) three times a figure column's: in columns of
        equal room the verdict wrapped to four lines.
        """
        rows = [row for row in element.iter("tr")]
        if not rows:
            return ""
        header = [cell for cell in rows[0] if cell.tag in ("th", "td")]
        columns = len(header)
        aligns = ["center" if "center" in cell.get("style", "") else "left" for cell in header]
        widths = str(columns)
        if verdict_last and columns > 2:
            widths = f"(auto, {'1fr, ' * (columns - 2)}3fr)"

        def cells(row: ET.Element) -> list[str]:
            found = [
                f"[{self.blocks(cell, depth + 1)}]" for cell in row if cell.tag in ("th", "td")
            ]
            return (found + ["[]"] * columns)[:columns]

        body = [cell for row in rows[1:] for cell in cells(row)]
        return (
            f"#table(columns: {widths}, align: ({', '.join(aligns)},), "
            f"table.header({', '.join(cells(rows[0]))}), {', '.join(body)})"
        )

    def figure(self, element: ET.Element, depth: int, after: str = "") -> str:
        """A checked diagram: the board beside its caption, moves, legend and engine line.

        A diagram the book has printed already is printed once: here its caption
        names the page it is on.
        """
        board = next((image for image in element.iter("img")), None)
        if board is None:
            raise SiteError(f"docs/pages/{self.page}.md.j2: a figure without its board")
        source = board.get("src", "")
        caption = next((part for part in element if part.tag == "figcaption"), None)
        shown = [] if caption is None else [p for p in caption if not self._skipped(p)]
        words = next((part for part in shown if "dama-caption" in classes(part)), None)
        if source in self.printed and words is not None:
            return self._printed_before(source, words, depth, after)
        picture = self.image(source, board.get("alt", ""), "100%")
        parts: list[str] = []
        said = "" if words is None else text_content(words)
        for part in shown:
            css = classes(part)
            if "dama-engine" in css and self.page != EXERCISES_PAGE and not adds_to(part, said):
                continue  # the caption says it already: the checking is explained once
            if "dama-legend" in css:
                parts.append(self._legend(part))
            elif "dama-caption" in css:
                parts.append(f"#dama-caption[{self.inline_content(part, depth)}]")
            else:
                parts.append(self.inline_content(part, depth).strip())
        extra = f", after: [{after}]" if after else ""
        where = self.printed[source] = f"dama-diagram-{len(self.printed) + 1}"
        self.printed.setdefault(" ".join(board.get("alt", "").split()), where)
        return f"#dama-figure({picture}, [{_PARAGRAPHS.join(parts)}]{extra}) <{where}>"

    def _printed_before(self, source: str, words: ET.Element, depth: int, after: str) -> str:
        """A diagram printed before: its caption and the page it is on, then what follows it."""
        caption = self.inline_content(words, depth).strip()
        where = f"<{self.printed[source]}>"
        page = f"#link({where})[#context counter(page).at({where}).first()]"
        text = message_markup(self.same_diagram, {"caption": caption, "page": page})
        reference = f"#dama-see-diagram[{text}]"
        return f"{reference}\n\n{after}" if after else reference

    def _legend(self, element: ET.Element) -> str:
        entries: list[str] = []
        for item in element:
            if item.tag != "li" or self._skipped(item):
                continue
            keys = [
                css.removeprefix("dama-legend-")
                for css in classes(item)
                if css.removeprefix("dama-legend-") in LEGEND_KEYS
            ]
            words = " ".join(text_markup(text_content(span)) for span in item.iter("span"))
            entries.append(f"({self.icon(keys[0])}, [{words}])" if keys else f"(none, [{words}])")
        return f"#dama-legend({', '.join(entries)})" if entries else ""

    def _kept(self, element: ET.Element, depth: int) -> str:
        """A diagram and the table that explains it: one block, never split by a page."""
        children = [child for child in element if not self._skipped(child)]
        figure = next((c for c in children if "dama-figure" in classes(c)), None)
        if figure is None:
            return self.blocks(element, depth)
        after = "\n\n".join(
            self.block(child, depth + 1) for child in children if child is not figure
        )
        return self.figure(figure, depth + 1, after=after)

    def _explain(self, element: ET.Element, depth: int) -> str:
        caption = next((c for c in element if "dama-explain-caption" in classes(c)), None)
        table = next((c for c in element if c.tag == "table"), None)
        words = "" if caption is None else self.inline_content(caption, depth)
        body = "" if table is None else self._table(table, depth + 1, verdict_last=True)
        return f"#dama-explain([{words}], [{body}])"

    def _exercise(self, element: ET.Element, depth: int) -> str:
        question = next((c for c in element if "dama-exercise-question" in classes(c)), None)
        board = next((image for image in element.iter("img")), None)
        rest = [
            child
            for child in element
            if child is not question
            and board not in list(child.iter())
            and not self._skipped(child)
        ]
        asked = "" if question is None else self.inline_content(question, depth)
        picture = (
            "none"
            if board is None
            else self.image(board.get("src", ""), board.get("alt", ""), EXERCISE_WIDTH)
        )
        answer = "\n\n".join(self.block(child, depth + 1) for child in rest)
        return f"#dama-exercise([{asked}], {picture}, [{answer}])"

    def _game_steps(self, element: ET.Element, depth: int) -> str:
        entries = []
        for step in element:
            board = next(step.iter("img"), None)
            caption = next(step.iter("figcaption"), None)
            if board is None:
                continue
            words = "" if caption is None else self.inline_content(caption, depth)
            where = self.printed.get(" ".join(board.get("alt", "").split()))
            if where is not None:  # a position printed before (the start): its page
                page = f"#link(<{where}>)[#context counter(page).at(<{where}>).first()]"
                words = message_markup(self.same_diagram, {"caption": words, "page": page})
                entries.append(f"(none, [{words}])")
                continue
            picture = self.image(board.get("src", ""), board.get("alt", ""), STEP_WIDTH)
            entries.append(f"({picture}, [{words}])")
        return f"#dama-steps({', '.join(entries)})" if entries else ""

    # --- inline ----------------------------------------------------------------

    def inline_content(self, element: ET.Element, depth: int) -> str:
        parts = [text_markup(element.text or "")]
        for child in element:
            if not self._skipped(child):
                parts.append(self.inline(child, depth + 1))
            parts.append(text_markup(child.tail or ""))
        return "".join(parts)

    def inline(self, element: ET.Element, depth: int) -> str:
        if depth > MAX_DEPTH:
            return self._flat(element)
        tag = element.tag
        wrap: Callable[[str], str] | None = _WRAPPERS.get(tag)
        if wrap is not None:
            return wrap(self.inline_content(element, depth))
        if tag in ("code", "kbd", "samp"):
            return f"#raw({string_literal(book_text(text_content(element)))})"
        if tag == "br":
            return "#linebreak()"
        if tag == "a":
            return self.link(element, depth)
        if tag == "img":
            return self.picture(element, alone=False)
        return self.inline_content(element, depth)

    def link(self, element: ET.Element, depth: int) -> str:
        """A link: inside the book with the page it leads to, out of it with its address."""
        self._linking += 1  # a picture in its words links nowhere else
        try:
            words = self.inline_content(element, depth)
        finally:
            self._linking -= 1
        href = element.get("href", "")
        if href.startswith("#"):
            target = href[1:]
            if target not in self.labels:
                written = element.get(SOURCE_HREF, href)
                self.warn(
                    BookWarning(
                        self.where((f"({written})", f'"{written}"'), (text_content(element),)),
                        f"the link to {shorten(written)} leads to no heading or page of the book",
                        "the book shows its words without the link: link to a heading or a page",
                    )
                )
                return words
            where = label(target)
            linked = f"#link({where})[{words}]"
            page = f"#context counter(page).at({where}).first()"
            return message_markup(self.reference, {"reference": linked, "page": page})
        if not href:
            return words
        shown = href.removeprefix("mailto:")
        if text_content(element).strip() in (href, shown):
            return f"#link({string_literal(href)})[{words}]"
        # The address printed after the words is a link too: a reader of the PDF clicks it.
        target = string_literal(href)
        return f"#link({target})[{words}] \\(#link({target})[{text_markup(shown)}]\\)"

    def _flat(self, element: ET.Element) -> str:
        """Text nested deeper than the book nests: its words, printed flat, with a warning."""
        text = text_content(element)
        self.warn(
            BookWarning(
                self.where((), (text,)),
                f"lists, emphasis or quotes nest deeper than the book prints them, {MAX_DEPTH} "
                f"elements ({MAX_DEPTH // 2} levels of lists)",
                "the book prints what lies deeper as plain text: nest them less deeply",
            )
        )
        return text_markup(text)

    # --- what print leaves out -------------------------------------------------

    @staticmethod
    def _skipped(element: ET.Element) -> bool:
        return (
            element.tag in SKIPPED_TAGS
            or "hidden" in element.attrib
            or bool(classes(element) & SKIPPED_CLASSES)
        )


_WRAPPERS: dict[str, Callable[[str], str]] = {
    "strong": lambda body: f"#strong[{body}]",
    "b": lambda body: f"#strong[{body}]",
    "em": lambda body: f"#emph[{body}]",
    "i": lambda body: f"#emph[{body}]",
    "sup": lambda body: f"#super[{body}]",
    "sub": lambda body: f"#sub[{body}]",
    "s": lambda body: f"#strike[{body}]",
    "del": lambda body: f"#strike[{body}]",
}


_NUMBER = re.compile(r"(?<![\w-])\d+(?![\w-])")
"""A number that is no part of a move (``22x13``, ``22-18``): a count, a rule's number."""


def adds_to(engine: ET.Element, caption: str) -> bool:
    """Whether a diagram's engine line tells what its caption does not: a number (how many
    legal moves, pieces or possible moves, which rule decides) that the caption lacks."""
    told = set(_NUMBER.findall(caption))
    return any(number not in told for number in _NUMBER.findall(text_content(engine)))


def _picture_alone(paragraph: ET.Element) -> bool:
    """Whether a paragraph holds one picture and nothing else."""
    return (
        len(paragraph) == 1
        and paragraph[0].tag == "img"
        and not (paragraph.text or "").strip()
        and not (paragraph[0].tail or "").strip()
    )


def labelled_ids(element: ET.Element) -> Iterator[str]:
    """The ids that the book labels, which a link can lead to: its headings'."""
    for child in element.iter():
        identifier = child.get("id")
        if identifier and child.tag in HEADING_TAGS:
            yield identifier
