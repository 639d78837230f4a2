"""The pages of one language: Jinja page templates filled from a catalog.

Templates in ``docs/pages/*.md.j2`` are written once.  They hold structure
and call helpers for everything else: ``t(key)`` for text, ``figure(id)`` for a
checked diagram, ``explain_table(id)`` for the engine's priority table,
``legend()`` and ``link(page)``.  The output is Markdown for MkDocs.

Templates run with ``StrictUndefined``, so a typo in a template is an error
and not an empty string; catalog text is inserted as Markdown, and everything
that lands inside HTML attributes or Markdown syntax is escaped here.

Catalogs may hold Markdown but never markup: :func:`safe_markdown` escapes raw
HTML, braces (an attribute list could add ``onclick``) and links to anything
but http(s), mailto and relative addresses, so a translator's text can never
inject a script into the site.
"""

from __future__ import annotations

import contextlib
import html
import json
import re
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import markdown
import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

from ..diagram._yaml import load_yaml, read_utf8
from ..errors import DamaError
from .translations import PLACEHOLDER, UNTRANSLATED, Catalog, CatalogError

PAGES_DIR = Path("docs") / "pages"
TEMPLATE_SUFFIX = ".md.j2"
DIAGRAM_DIR = "assets/diagrams"
SOCIAL_DIR = "assets/social"
DEFAULT_MAIN_DIAGRAM = "initial-position"
RULE_IDS = ("most-pieces", "with-king", "most-kings", "king-first")
LEGEND_KEYS = ("start", "landing", "captured", "king")
LEFTOVER = re.compile(r"\{\{|\{%|%\}|\}\}")
PAGE_NAME = re.compile(r"[a-z0-9][a-z0-9-]*(?:/[a-z0-9][a-z0-9-]*)*")
"""A page in nav.yml: lowercase words, with ``/`` between folders; never leaves docs/pages."""


class PageError(DamaError):
    """A page template is wrong, or asks for something that does not exist."""


# --- what a page needs to know about a checked diagram ----------------------


@dataclass(frozen=True)
class Finding:
    """What the engine found, as a catalog key (``engine.<key>``) and its values.

    Only the fields that the key's sentence uses are set, so that the
    catalog's placeholders and the values always match one to one.
    """

    key: str
    move: str | None = None
    moves: tuple[str, ...] = ()
    count: int | None = None
    rule: str | None = None
    reason: str | None = None
    side: str | None = None


@dataclass(frozen=True)
class ExplainRow:
    """One candidate capture and its value on each priority rule."""

    move: str
    pieces: int
    by_king: bool
    kings: int
    king_places: tuple[int, ...]
    rejected_by: str | None


@dataclass(frozen=True)
class FigureView:
    """The language-independent facts a page shows about one verified diagram."""

    id: str
    move: str | None
    moves: tuple[str, ...]
    rejected: tuple[str, ...]
    start: int | None
    end: int | None
    captured: tuple[int, ...]
    legend: tuple[str, ...]
    finding: Finding
    explain: tuple[ExplainRow, ...] = ()
    width: int = 400
    height: int = 400


# --- navigation -------------------------------------------------------------

NavItem = str | tuple[str, tuple[str, ...]]


def load_nav(project_root: Path) -> tuple[NavItem, ...]:
    """``docs/pages/nav.yml``: page names in order, and sections of pages."""
    path = project_root / PAGES_DIR / "nav.yml"
    shown = (PAGES_DIR / "nav.yml").as_posix()
    data, node = load_yaml(read_utf8(path, shown, PageError), shown, PageError)
    if not isinstance(data, list) or not isinstance(node, SequenceNode):
        line = _line(node) if node is not None else None
        raise PageError(
            "the page list must be a YAML list of page names and {section: [pages]}",
            path=shown,
            line=line,
        )
    items: list[NavItem] = []
    for entry, entry_node in zip(data, _children(node, len(data)), strict=True):
        line = _line(entry_node)
        if isinstance(entry, str):
            items.append(_page_name(entry, shown, line))
        elif isinstance(entry, dict) and len(entry) == 1:
            ((section, pages),) = entry.items()
            if not (isinstance(pages, list) and all(isinstance(p, str) for p in pages)):
                raise PageError(f"section '{section}' must list page names", path=shown, line=line)
            value_node = (
                entry_node.value[0][1]
                if isinstance(entry_node, MappingNode) and len(entry_node.value) == 1
                else entry_node
            )
            names = tuple(
                _page_name(page, shown, _line(page_node))
                for page, page_node in zip(pages, _children(value_node, len(pages)), strict=True)
            )
            items.append((str(section), names))
        else:
            raise PageError(
                "each entry is a page name or {section: [pages]}", path=shown, line=line
            )
    return tuple(items)


def _page_name(name: str, shown: str, line: int) -> str:
    if not PAGE_NAME.fullmatch(name):
        raise PageError(
            f"{name!r} is not a page name: use lowercase letters, digits and '-', with '/' "
            "between folders (the page is docs/pages/<name>.md.j2)",
            path=shown,
            line=line,
        )
    return name


def _children(node: Node, count: int) -> Iterator[Node]:
    """The item nodes of a sequence node (or the node itself, for each of ``count`` items)."""
    if isinstance(node, SequenceNode) and len(node.value) == count:
        yield from node.value
    else:
        for _ in range(count):
            yield node


def _line(node: Node) -> int:
    return int(node.start_mark.line) + 1


def page_names(nav: tuple[NavItem, ...]) -> list[str]:
    names: list[str] = []
    for item in nav:
        names.extend([item] if isinstance(item, str) else item[1])
    return names


def mkdocs_nav(nav: tuple[NavItem, ...], catalog: Catalog) -> list[Any]:
    """The ``nav`` setting of MkDocs, with section titles from the catalog."""
    result: list[Any] = []
    for item in nav:
        if isinstance(item, str):
            result.append(f"{item}.md")
        else:
            section, pages = item
            # Material prints section titles as they are: escape them here, once.
            title = html.escape(catalog.text(f"nav.{section}"))
            result.append({title: [f"{page}.md" for page in pages]})
    return result


# --- rendering --------------------------------------------------------------


@dataclass
class RenderedPage:
    name: str
    markdown: str
    title: str
    main_diagram: str
    figures: list[str] = field(default_factory=list)


class PageRenderer:
    """Renders every page of one language; keeps the Jinja environment warm."""

    def __init__(
        self,
        project_root: Path,
        catalog: Catalog,
        figures: Mapping[str, FigureView],
        legend_html: Callable[[Mapping[str, str], tuple[str, ...]], str],
    ) -> None:
        self.root = project_root
        self.catalog = catalog
        self.figures = figures
        self.legend_html = legend_html
        self.env = environment(project_root)
        self._page_figures: list[str] = []

    def render(self, name: str) -> RenderedPage:
        own = f"{name}{TEMPLATE_SUFFIX}"
        template_path = (PAGES_DIR / own).as_posix()
        folder = (self.root / PAGES_DIR).resolve()
        self._page_figures = []
        self.catalog.untranslated_used = set()
        try:
            template = self.env.get_template(own)
            body = template.render(self._helpers())
        except jinja2.TemplateSyntaxError as exc:
            message = exc.message or "syntax error"
            path = _shown_template(exc.filename, folder) or template_path
            raise PageError(message, path=path, line=exc.lineno) from exc
        except jinja2.TemplateNotFound as exc:
            if exc.name == own:
                message = f"page '{name}' is in nav.yml but has no template"
                raise PageError(message, path=template_path) from exc
            message = f"template '{exc.name}' not found in {PAGES_DIR.as_posix()}/"
            raise _located(exc, message, template_path, folder) from exc
        except (DamaError, jinja2.UndefinedError) as exc:
            if isinstance(exc, PageError) and exc.path is not None:
                raise  # already names its file (a template that is not UTF-8)
            message = exc.message if isinstance(exc, DamaError) else str(exc)
            raise _located(exc, message, template_path, folder) from exc
        except RecursionError as exc:
            message = "the templates include or call each other without end"
            raise _located(exc, message, template_path, folder) from None
        except Exception as exc:  # anything a template expression can raise: 1/0, figure()
            message = f"{type(exc).__name__}: {exc}"
            raise _located(exc, message, template_path, folder) from exc
        leftover = LEFTOVER.search(body)
        if leftover:
            line = body.count("\n", 0, leftover.start()) + 1
            raise PageError(
                f"{self.catalog.language}: template braces left in the output (line {line})",
                path=template_path,
            )
        title = self.catalog.text(f"{name}.title")
        main = self._page_figures[0] if self._page_figures else DEFAULT_MAIN_DIAGRAM
        markdown = self._front_matter(name, main) + self._notice() + body
        return RenderedPage(name, markdown, title, main, list(self._page_figures))

    def _helpers(self) -> dict[str, Any]:
        return {
            "t": self.text,
            "figure": self.figure,
            "explain_table": self.explain_table,
            "legend": self.legend,
            "link": self.link,
        }

    def text(self, key: str, **params: str) -> str:
        """The catalog entry ``key`` as safe Markdown; ``params`` (from templates) go in as is."""
        self.catalog.text(key, **params)  # checks the key and its placeholders, counts its use
        raw = self.catalog.entries[key]
        if raw.startswith(UNTRANSLATED):
            raw = raw[len(UNTRANSLATED) :]
        return safe_markdown(raw, params)

    def link(self, page: str) -> str:
        """A Markdown link to another page, titled in this language."""
        title = safe_markdown(_one_line(self.catalog.text(f"{page}.title")))
        return f"[{_escape_link_text(title)}]({page}.md)"

    def legend(self) -> str:
        """The full legend of markers, for the home page."""
        return self.legend_html(self._legend_labels(), LEGEND_KEYS)

    def _legend_labels(self) -> dict[str, str]:
        return {key: self.catalog.text(f"legend.{key}") for key in LEGEND_KEYS}

    def _figure_view(self, diagram_id: str) -> FigureView:
        view = self.figures.get(diagram_id)
        if view is None:
            raise PageError(f"no verified diagram '{diagram_id}' (diagrams/{diagram_id}.yaml)")
        return view

    def figure(self, diagram_id: str) -> str:
        """One checked diagram: picture, caption, move, legend and the engine's line."""
        view = self._figure_view(diagram_id)
        self._page_figures.append(diagram_id)
        values = caption_values(view, self.catalog)
        caption = self.catalog.text(
            f"diagrams.{diagram_id}.caption",
            **_used(self.catalog, f"diagrams.{diagram_id}.caption", values),
        )
        alt = self.catalog.text(
            f"diagrams.{diagram_id}.alt",
            **_used(self.catalog, f"diagrams.{diagram_id}.alt", values),
        )
        parts = [f'<span class="dama-caption">{inline_html(caption)}</span>']
        shown = (view.move,) if view.move else view.moves
        if shown:
            label = self.catalog.text("ui.move" if len(shown) == 1 else "ui.moves")
            codes = [f"<code>{html.escape(move)}</code>" for move in shown]
            and_word = _plain_html(self.catalog.text("ui.and"))
            listed = (
                codes[0] if len(codes) == 1 else f"{', '.join(codes[:-1])} {and_word} {codes[-1]}"
            )
            parts.append(f'<span class="dama-move">{_plain_html(label)} {listed}</span>')
        if view.legend:
            parts.append(self.legend_html(self._legend_labels(), view.legend))
        engine = self.catalog.text("ui.engine")
        sentence = engine_sentence(view.finding, self.catalog)
        parts.append(
            f'<span class="dama-engine"><strong>{_plain_html(engine)}</strong> '
            f"{inline_html(sentence)}</span>"
        )
        image = (
            f"![{_escape_link_text(_one_line(_escape_html(alt)))}]({DIAGRAM_DIR}/{diagram_id}.svg)"
            f'{{ .dama-board width="{view.width}" height="{view.height}" }}'
        )
        return "\n".join(
            [
                f'<figure class="dama-figure" id="figure-{diagram_id}" markdown>',
                image,
                "<figcaption>",
                *parts,
                "</figcaption>",
                "</figure>",
            ]
        )

    def explain_table(self, diagram_id: str) -> str:
        """The engine's table of every candidate capture, as a Markdown table."""
        view = self._figure_view(diagram_id)
        if not view.explain:
            raise PageError(f"diagram '{diagram_id}' has no captures to explain")
        t = self.text
        headings = [
            t(f"explain.{key}")
            for key in ("capture", "pieces", "with_king", "kings", "king_places", "verdict")
        ]
        rows = [
            "| " + " | ".join(_cell(h) for h in headings) + " |",
            "| --- | :---: | :---: | :---: | :---: | --- |",
        ]
        for row in view.explain:
            places = ", ".join(map(str, row.king_places)) or t("explain.none")
            verdict = (
                f"**{t('explain.legal')}**"
                if row.rejected_by is None
                else t(
                    "explain.rejected",
                    rule=safe_markdown(rule_label(row.rejected_by, self.catalog)),
                )
            )
            cells = [
                f"`{row.move}`",
                str(row.pieces),
                t("explain.by_king_yes") if row.by_king else t("explain.by_king_no"),
                str(row.kings),
                places,
                verdict,
            ]
            rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
        caption = _one_line(self.catalog.text("explain.caption"))
        return "\n".join(
            [
                '<div class="dama-explain" markdown>',
                f'<p class="dama-explain-caption">{inline_html(caption)}</p>',
                "",
                *rows,
                "",
                "</div>",
            ]
        )

    def _front_matter(self, name: str, main: str) -> str:
        """YAML front matter: plain text on one line, in JSON quotes (which YAML reads).

        The page template (``overrides/main.html``) escapes these values for HTML.
        """
        description = _one_line(_printable(self.catalog.text(f"{name}.description")))
        meta = {"description": description, "og_image": f"{SOCIAL_DIR}/{name}.png"}
        lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in meta.items()]
        return "---\n" + "\n".join(lines) + "\n---\n\n"

    def _notice(self) -> str:
        if not self.catalog.untranslated_used:
            return ""
        notice = safe_markdown(_one_line(self.catalog.text("meta.untranslated_notice")))
        return f'!!! note ""\n\n    {notice}\n\n'


_ENVIRONMENTS: dict[Path, jinja2.Environment] = {}


class _PageLoader(jinja2.FileSystemLoader):
    """Jinja's file loader; a template that is not UTF-8 is a PageError naming it."""

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        try:
            return super().get_source(environment, template)
        except UnicodeDecodeError:
            folder = Path(self.searchpath[0])
            shown = (PAGES_DIR / template).as_posix()
            read_utf8(folder / template, shown, PageError)  # raises, with the line
            raise


def environment(project_root: Path) -> jinja2.Environment:
    """One Jinja environment per project, so each template compiles once.

    The loader checks file times, so an edited template is recompiled.
    """
    folder = (project_root / PAGES_DIR).resolve()
    if folder not in _ENVIRONMENTS:
        _ENVIRONMENTS[folder] = jinja2.Environment(
            loader=_PageLoader(folder),
            undefined=jinja2.StrictUndefined,
            autoescape=False,  # the output is Markdown; helpers escape what they insert
            keep_trailing_newline=True,
        )
    return _ENVIRONMENTS[folder]


def warm_up(project_root: Path) -> None:
    """Compile every page template now (before worker processes fork)."""
    env = environment(project_root)
    for name in page_names(load_nav(project_root)):
        with contextlib.suppress(jinja2.TemplateError, DamaError):  # reported at render
            env.get_template(f"{name}{TEMPLATE_SUFFIX}")


def caption_values(view: FigureView, catalog: Catalog) -> dict[str, str]:
    """Values that a diagram's caption and alt text may use as placeholders."""
    values = {
        "move": view.move or "",
        "start": "" if view.start is None else str(view.start),
        "end": "" if view.end is None else str(view.end),
        "captured": _join([str(s) for s in view.captured], catalog) if view.captured else "",
        "count": str(len(view.captured)),
        "rejected": _join(view.rejected, catalog) if view.rejected else "",
        "moves": _join(view.moves, catalog) if view.moves else "",
    }
    return values


def _used(catalog: Catalog, key: str, values: Mapping[str, str]) -> dict[str, str]:
    """The subset of ``values`` that the entry ``key`` actually mentions."""
    raw = catalog.entries.get(key, "")
    wanted = set(re.findall(r"\{([a-z_]+)\}", raw))
    return {name: value for name, value in values.items() if name in wanted}


def rule_label(rule: str, catalog: Catalog) -> str:
    """'rule 1 (most pieces)' in the catalog's language."""
    number = RULE_IDS.index(rule) + 1
    return catalog.text("rules.numbered", number=str(number), name=catalog.text(f"rules.{rule}"))


def engine_sentence(finding: Finding, catalog: Catalog) -> str:
    """The 'checked by the engine' sentence for one diagram."""
    params: dict[str, str] = {}
    if finding.move is not None:
        params["move"] = finding.move
    if finding.moves:
        params["moves"] = _join(finding.moves, catalog)
    if finding.count is not None:
        params["count"] = str(finding.count)
    if finding.rule is not None:
        params["rule"] = rule_label(finding.rule, catalog)
    if finding.reason is not None:
        params["reason"] = catalog.text(f"engine.reason_{finding.reason}")
    if finding.side is not None:
        params["side"] = catalog.text(f"position.{finding.side}")
    return catalog.text(f"engine.{finding.key}", **params)


def _join(items: tuple[str, ...] | list[str], catalog: Catalog) -> str:
    """'a, b and c' with the catalog's word for 'and'."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {catalog.text('ui.and')} {items[-1]}"


_INLINE = markdown.Markdown()


def inline_html(text: str) -> str:
    """Catalog Markdown as inline HTML, for text that sits inside an HTML element.

    MkDocs does not look into raw HTML, so figure captions are converted here;
    raw HTML in the catalog is escaped, not passed through.
    """
    _INLINE.reset()
    converted = _INLINE.convert(safe_markdown(_one_line(text)))
    return converted.removeprefix("<p>").removesuffix("</p>")


# --- catalog text made safe -------------------------------------------------

_CODE_SPAN = re.compile(r"(?<![\\`])(`+)(?!`)((?:[^\n]|\n(?![ \t]*\n))+?)(?<!`)\1(?!`)")
"""A code span (not across a blank line).  Where this and Markdown disagree, the
text is only escaped once too often: shown with an entity, never unsafe."""
_ENTITY = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
_TEXT_SPECIAL = re.compile(
    rf"(?P<entity>{_ENTITY})|(?P<quote>^[ ]{{0,3}}(?:>[ ]?)+)|(?P<char>[&<>{{}}])",
    re.MULTILINE,
)
_HTML_SPECIAL = re.compile(rf"(?P<entity>{_ENTITY})|(?P<char>[&<>{{}}])")
_CODE_SPECIAL = re.compile(r"[&<>\\`*_\[\](){}|!]")
_SLOT = re.compile("\x00([cp])([0-9]+)\x00")
_LINK_TARGET = re.compile(r"\](?:\(\s*|:[ \t]*\n?[ \t]*)")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def safe_markdown(text: str, params: Mapping[str, str] | None = None) -> str:
    """Catalog Markdown that can only ever be text, emphasis, lists, code and safe links.

    Raw HTML (``<``, ``>`` and a bare ``&``) is escaped, as are braces, which
    would otherwise be Markdown attribute lists (``*x*{ onclick=... }``).  Code
    spans become ``<code>`` with their text escaped, so they still show ``<id>``.
    A link or reference to anything but http(s), mailto or a relative address
    (``javascript:``) is left as plain text.  ``params`` fill the ``{name}``
    placeholders afterwards, as they are: they come from templates and helpers.
    """
    slots: list[str] = []

    def slot(kind: str, value: str) -> str:
        slots.append(value)
        return f"\x00{kind}{len(slots) - 1}\x00"

    text = text.replace("\x00", "")
    if params:
        text = PLACEHOLDER.sub(
            lambda m: slot("p", str(params[m[1]])) if m[1] in params else m[0], text
        )

    def code(match: re.Match[str]) -> str:
        content = _SLOT.sub(lambda m: slots[int(m[2])], " ".join(match[2].split()))
        escaped = _CODE_SPECIAL.sub(lambda m: f"&#{ord(m[0])};", content)
        return slot("c", f"<code>{escaped}</code>")

    text = _CODE_SPAN.sub(code, text)
    text = _TEXT_SPECIAL.sub(_escape_special, text)
    text = _SLOT.sub(lambda m: slots[int(m[2])] if m[1] == "c" else m[0], text)
    text = _neutralize_links(text)
    return _SLOT.sub(lambda m: slots[int(m[2])], text)


def _escape_special(match: re.Match[str]) -> str:
    char = match.groupdict().get("char")
    if char is None:
        return match[0]  # an entity, or the > of a blockquote
    return {"&": "&amp;", "<": "&lt;", ">": "&gt;"}.get(char) or f"&#{ord(char)};"


def _neutralize_links(text: str) -> str:
    """``[x](javascript:...)`` and ``[x]: javascript:...`` lose their ``]``: they are text."""
    starts = [m.start() for m in _LINK_TARGET.finditer(text) if _unsafe_target(text[m.end() :])]
    for start in reversed(starts):
        text = f"{text[:start]}&#93;{text[start + 1 :]}"
    return text


def _unsafe_target(rest: str) -> bool:
    """Whether the link target at the start of ``rest`` has a scheme other than the safe ones.

    Decoded as a browser would (entities, tabs and newlines dropped), and cut
    generously, so that a doubtful target counts as unsafe.
    """
    rest = rest[:2000]
    if rest.startswith("&lt;"):
        target = rest[4:].split("&gt;", 1)[0]
    else:
        target = re.split(r"[)\"']", rest, maxsplit=1)[0]
    decoded = re.sub(r"[\x00-\x20\x7f]+", "", html.unescape(target)).lstrip("<")
    scheme = _SCHEME.match(decoded)
    return scheme is not None and scheme[1].lower() not in SAFE_SCHEMES


def _escape_html(text: str) -> str:
    """Text with raw HTML and braces escaped, entities kept (for an image's alt text)."""
    return _HTML_SPECIAL.sub(_escape_special, text)


def _plain_html(text: str) -> str:
    """Plain text for raw HTML on a page, with braces escaped too (they are no template)."""
    return html.escape(text, quote=False).replace("{", "&#123;").replace("}", "&#125;")


def _printable(text: str) -> str:
    """Without the characters YAML refuses (front matter must stay readable)."""
    return str(yaml.reader.Reader.NON_PRINTABLE.sub("", text))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _escape_link_text(text: str) -> str:
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def _cell(text: str) -> str:
    return _one_line(text).replace("|", "\\|")


def _located(
    exc: BaseException, message: str, template_path: str, folder: Path | None = None
) -> PageError:
    """The error at the template line that raised it (Jinja rewrites tracebacks so).

    The innermost template frame wins, so an error in an included template
    names that template, not the page.
    """
    line = None
    path = template_path
    for frame in traceback.extract_tb(exc.__traceback__):
        shown = _shown_template(frame.filename, folder)
        if shown is not None or frame.filename.endswith(TEMPLATE_SUFFIX):
            line = frame.lineno
            path = shown or template_path
    if isinstance(exc, CatalogError | PageError | RecursionError | jinja2.TemplateNotFound):
        return PageError(message, path=path, line=line)
    return PageError(f"{message} (a template helper or variable is wrong)", path=path, line=line)


def _shown_template(filename: str | None, folder: Path | None) -> str | None:
    """``docs/pages/<name>`` for a template file in the pages folder, else None."""
    if not filename or folder is None:
        return None
    try:
        relative = Path(filename).resolve().relative_to(folder)
    except (ValueError, OSError):
        return None
    return (PAGES_DIR / relative).as_posix()
