"""The pages of one language: Jinja page templates filled from a catalog.

Templates in ``docs/pages/*.md.j2`` are written once.  They hold structure
and call helpers for everything else: ``t(key)`` for text, ``figure(id)`` for a
checked diagram, ``explain_table(id)`` for the engine's priority table,
``legend()`` and ``link(page)``.  The output is Markdown for MkDocs.

Templates run with ``StrictUndefined``, so a typo in a template is an error
and not an empty string; catalog text is inserted as Markdown, and everything
that lands inside HTML attributes or Markdown syntax is escaped here.
"""

from __future__ import annotations

import contextlib
import html
import json
import re
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import markdown
import yaml

from .catalog import Catalog, CatalogError
from .errors import DamaError

PAGES_DIR = Path("docs") / "pages"
TEMPLATE_SUFFIX = ".md.j2"
DIAGRAM_DIR = "assets/diagrams"
SOCIAL_DIR = "assets/social"
DEFAULT_MAIN_DIAGRAM = "initial-position"
RULE_IDS = ("most-pieces", "with-king", "most-kings", "king-first")
LEGEND_KEYS = ("start", "landing", "captured", "king")
LEFTOVER = re.compile(r"\{\{|\{%|%\}|\}\}")


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
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise PageError(f"cannot read the page list: {exc}", path=shown) from exc
    items: list[NavItem] = []
    for entry in data if isinstance(data, list) else [None]:
        if isinstance(entry, str):
            items.append(entry)
        elif isinstance(entry, dict) and len(entry) == 1:
            ((section, pages),) = entry.items()
            if not (isinstance(pages, list) and all(isinstance(p, str) for p in pages)):
                raise PageError(f"section '{section}' must list page names", path=shown)
            items.append((str(section), tuple(pages)))
        else:
            raise PageError("each entry is a page name or {section: [pages]}", path=shown)
    return tuple(items)


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
            result.append({catalog.text(f"nav.{section}"): [f"{page}.md" for page in pages]})
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
        template_path = (PAGES_DIR / f"{name}{TEMPLATE_SUFFIX}").as_posix()
        self._page_figures = []
        self.catalog.untranslated_used = set()
        try:
            template = self.env.get_template(f"{name}{TEMPLATE_SUFFIX}")
            body = template.render(self._helpers())
        except jinja2.TemplateSyntaxError as exc:
            message = exc.message or "syntax error"
            raise PageError(message, path=template_path, line=exc.lineno) from exc
        except jinja2.TemplateNotFound as exc:
            message = f"page '{name}' is in nav.yml but has no template"
            raise PageError(message, path=template_path) from exc
        except (DamaError, jinja2.UndefinedError) as exc:
            message = exc.message if isinstance(exc, DamaError) else str(exc)
            raise _located(exc, message, template_path) from exc
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
        return self.catalog.text(key, **params)

    def link(self, page: str) -> str:
        """A Markdown link to another page, titled in this language."""
        return f"[{_escape_link_text(self.catalog.text(f'{page}.title'))}]({page}.md)"

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
            parts.append(
                f'<span class="dama-move">{html.escape(label)} {_join(codes, self.catalog)}</span>'
            )
        if view.legend:
            parts.append(self.legend_html(self._legend_labels(), view.legend))
        engine = self.catalog.text("ui.engine")
        sentence = engine_sentence(view.finding, self.catalog)
        parts.append(
            f'<span class="dama-engine"><strong>{html.escape(engine)}</strong> '
            f"{inline_html(sentence)}</span>"
        )
        image = (
            f"![{_escape_link_text(_one_line(alt))}]({DIAGRAM_DIR}/{diagram_id}.svg)"
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
        t = self.catalog.text
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
                else t("explain.rejected", rule=rule_label(row.rejected_by, self.catalog))
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
        caption = _one_line(t("explain.caption"))
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
        description = _one_line(self.catalog.text(f"{name}.description"))
        meta = {"description": description, "og_image": f"{SOCIAL_DIR}/{name}.png"}
        lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in meta.items()]
        return "---\n" + "\n".join(lines) + "\n---\n\n"

    def _notice(self) -> str:
        if not self.catalog.untranslated_used:
            return ""
        notice = self.catalog.text("meta.untranslated_notice")
        return f'!!! note ""\n\n    {_one_line(notice)}\n\n'


_ENVIRONMENTS: dict[Path, jinja2.Environment] = {}


def environment(project_root: Path) -> jinja2.Environment:
    """One Jinja environment per project, so each template compiles once.

    The loader checks file times, so an edited template is recompiled.
    """
    folder = (project_root / PAGES_DIR).resolve()
    if folder not in _ENVIRONMENTS:
        _ENVIRONMENTS[folder] = jinja2.Environment(
            loader=jinja2.FileSystemLoader(folder),
            undefined=jinja2.StrictUndefined,
            autoescape=False,  # the output is Markdown; helpers escape what they insert
            keep_trailing_newline=True,
        )
    return _ENVIRONMENTS[folder]


def warm_up(project_root: Path) -> None:
    """Compile every page template now (before worker processes fork)."""
    env = environment(project_root)
    for name in page_names(load_nav(project_root)):
        with contextlib.suppress(jinja2.TemplateError):  # reported when the page renders
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
    converted = _INLINE.convert(html.escape(_one_line(text), quote=False))
    return converted.removeprefix("<p>").removesuffix("</p>")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _escape_link_text(text: str) -> str:
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def _cell(text: str) -> str:
    return _one_line(text).replace("|", "\\|")


def _located(exc: BaseException, message: str, template_path: str) -> PageError:
    """The error at the template line that raised it (Jinja rewrites tracebacks so)."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith(TEMPLATE_SUFFIX):
            line = frame.lineno
    if isinstance(exc, CatalogError | PageError):
        return PageError(message, path=template_path, line=line)
    return PageError(
        f"{message} (a template helper or variable is wrong)", path=template_path, line=line
    )
