"""The multilingual rules site: verify, render, write pages, run MkDocs.

:func:`build_site` is the whole pipeline of ``dama-diagrams build``::

    diagrams/*.yaml --verify--> figures --render per language--> SVG, PNG
    docs/pages/*.md.j2 + docs/locales/<lang>.yml --> Markdown per language
    one MkDocs build per language (in parallel) --> site/<lang>/, site/index.html

Everything is generated into a temporary folder next to ``site/`` and swapped
in at the end, so a failed build (a false claim, a missing catalog key, a
MkDocs warning) leaves the previous site as it was.  A build only ever
replaces a folder that it made itself (see :func:`check_out`), and Ctrl-C or
SIGTERM leave neither temporary folders nor worker processes behind.  The MkDocs plugin
(:mod:`dama_diagrams.plugin`) reuses :func:`load_figures` and
:func:`generate_language` for ``mkdocs serve``.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import html
import importlib.resources
import io
import logging
import multiprocessing
import os
import re
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import yaml
from markupsafe import Markup

from ..diagram.schema import Claim
from ..diagram.verify import VerifiedDiagram, verify_directory
from ..engine.board import Color
from ..engine.position import GameOverReason, Position
from ..errors import DamaError
from ..render.figure import diagram_markers, diagram_svg
from ..render.svg import Markers, legend_html
from .pages import (
    DIAGRAM_DIR,
    LEGEND_KEYS,
    SOCIAL_DIR,
    TEMPLATE_SUFFIX,
    ExplainRow,
    FigureView,
    Finding,
    PageRenderer,
    RenderedPage,
    load_nav,
    mkdocs_nav,
    page_names,
    warm_up,
)
from .translations import DEFAULT_LANGUAGE, Catalog, available_languages, load_catalog

BASE_CONFIG = "mkdocs.yml"
DIAGRAMS_DIR = "diagrams"
SITE_DIR = "site"
TEMPLATES = Path(__file__).parent / "templates"
OVERRIDES = TEMPLATES / "overrides"
STYLESHEET = "assets/dama.css"
FAVICON = "assets/favicon.svg"
DIAGRAM_SIZE = 400
WORKERS = 2
PLUGIN_NAME = "dama-diagrams"
SITE_MARKER = ".dama-diagrams-site"
"""A file in every built site: the folder is ours, and the next build may replace it."""
PROJECT_INPUTS = (DIAGRAMS_DIR, "docs", BASE_CONFIG, ".cache")
"""What a build reads (and its card cache); the output folder may not overlap any of them."""
SERVE_PREFIX = "dama-diagrams-serve-"
DEFAULT_DEV_ADDR = "127.0.0.1:8000"


class SiteError(DamaError):
    """The site cannot be built; the message says where and why."""


# --- 1. verify: the one adapter to the verifier ------------------------------


@dataclass(frozen=True)
class Figure:
    """A verified diagram and what the pages say about it, ready to draw in any language."""

    verified: VerifiedDiagram
    view: FigureView


def _relative_to_cwd(path: Path) -> Path:
    """Messages name files as the user sees them: relative to where they stand."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _verified_diagrams(project_root: Path) -> list[VerifiedDiagram]:
    """Every diagram of ``diagrams/``; the first claim that fails is raised (``path:line:``)."""
    folder = project_root / DIAGRAMS_DIR
    if not folder.is_dir():
        raise SiteError(f"no diagrams folder at {folder}")
    report = verify_directory(_relative_to_cwd(folder))
    for failure in report.failures:
        raise failure.error
    return list(report.verified)


def load_figures(project_root: Path) -> dict[str, Figure]:
    """Verify every diagram and turn each into a :class:`Figure`, keyed by id."""
    return {
        verified.id: Figure(verified, _figure_view(verified))
        for verified in _verified_diagrams(project_root)
    }


def _figure_view(verified: VerifiedDiagram) -> FigureView:
    """The language-independent facts of a figure: the moves its file names, the finding."""
    diagram = verified.diagram
    named = diagram.move  # the move played, or the one an illegal claim refuses
    first = named or (diagram.moves[0] if diagram.moves else None)
    width, height = _svg_size(diagram_svg(verified, size=DIAGRAM_SIZE))
    return FigureView(
        id=diagram.id,
        move=None if named is None else str(named),
        moves=tuple(map(str, diagram.moves)),
        rejected=tuple(map(str, diagram.rejected)),
        start=None if first is None else first.origin,
        end=None if first is None else first.destination,
        captured=() if first is None else first.captured,
        legend=_legend_keys(diagram.position, diagram_markers(verified)),
        finding=_finding(verified),
        explain=_explain_rows(verified) if diagram.claim in _EXPLAINED else (),
        width=width,
        height=height,
    )


_EXPLAINED = (Claim.PRIORITY, Claim.FREE_CHOICE)
"""The claims whose figure can show the engine's table of candidate captures."""


def _svg_size(svg: str) -> tuple[int, int]:
    head = svg[: svg.index(">")]
    width = re.search(r'\swidth="(\d+)"', head)
    height = re.search(r'\sheight="(\d+)"', head)
    return (
        int(width.group(1)) if width else DIAGRAM_SIZE,
        int(height.group(1)) if height else DIAGRAM_SIZE,
    )


def _legend_keys(position: Position, markers: Markers) -> tuple[str, ...]:
    """The legend entries a figure needs: only the markers it shows."""
    present = {
        "start": markers.start is not None,
        "landing": bool(markers.landings),
        "captured": bool(markers.captured),
        "king": any(piece.king for piece in position.pieces().values()),
    }
    return tuple(key for key in LEGEND_KEYS if present[key])


def _finding(verified: VerifiedDiagram) -> Finding:
    """What the engine found, as the catalog key and values of the figure's proof line."""
    diagram, found = verified.diagram, verified.finding
    move = None if diagram.move is None else str(diagram.move)
    legal = len(verified.legal_moves)
    side = diagram.position.turn.value
    match diagram.claim:
        case Claim.SETUP:
            if not diagram.position.pieces() and diagram.show.numbers == "all":
                return Finding("setup_empty")  # it says that every number is printed
            if found.initial:
                return Finding("setup_initial", count=legal)
            return Finding("setup", side=side)
        case Claim.MOVE:
            if move is None:
                return Finding("moves", moves=tuple(map(str, verified.moves)))
            if legal > 1:
                return Finding("move", move, count=legal)
            return Finding("move_only", move)
        case Claim.CAPTURE:
            if legal > 1:
                return Finding("capture", move, count=legal)
            return Finding("capture_only", move)
        case Claim.MULTI_CAPTURE:
            return Finding("multi_capture", move, count=found.captured)
        case Claim.ILLEGAL:
            assert found.reason is not None  # the verifier names why a move is illegal
            return Finding("illegal", move, reason=found.reason.value)
        case Claim.PRIORITY | Claim.FREE_CHOICE:
            return _priority_finding(verified)
        case Claim.PROMOTION:
            return Finding("promotion", move)
        case Claim.GAME_OVER:
            reason = "no_pieces" if found.reason is GameOverReason.NO_PIECES else "blocked"
            return Finding(f"{reason}_{side}")


def _priority_finding(verified: VerifiedDiagram) -> Finding:
    legal = tuple(map(str, verified.legal_moves))
    rule = verified.deciding_rule
    if verified.claim is Claim.FREE_CHOICE or rule is None:
        return Finding("free_choice", moves=legal)
    if len(legal) == 1:
        return Finding("priority", legal[0], rule=rule.value)
    return Finding("priority_many", moves=legal, rule=rule.value)


def _explain_rows(verified: VerifiedDiagram) -> tuple[ExplainRow, ...]:
    return tuple(
        ExplainRow(
            move=str(candidate.move),
            pieces=candidate.pieces_captured,
            by_king=candidate.by_king,
            kings=candidate.kings_captured,
            king_places=candidate.king_places,
            rejected_by=None if candidate.rejected_by is None else candidate.rejected_by.value,
        )
        for candidate in verified.explanation.candidates
    )


# --- 2-3. render diagrams and pages of one language -------------------------


@dataclass
class LanguageSources:
    """Everything MkDocs needs for one language, still in memory."""

    language: str
    files: dict[str, str | bytes]
    settings: dict[str, Any]
    unused_keys: list[str]
    untranslated_pages: list[str]
    timings: dict[str, float] = field(default_factory=dict)


def generate_language(
    project_root: Path,
    language: str,
    figures: Mapping[str, Figure],
    *,
    languages: list[str],
) -> LanguageSources:
    """Diagrams, pages, social cards and settings of one language."""
    catalog = load_catalog(project_root, language)
    catalog.text("meta.name")
    timings: dict[str, float] = {}
    started = time.perf_counter()
    files: dict[str, str | bytes] = {
        f"{DIAGRAM_DIR}/{figure_id}.svg": _diagram_svg(figure, catalog)
        for figure_id, figure in figures.items()
    }
    timings["render"] = time.perf_counter() - started

    started = time.perf_counter()
    nav = load_nav(project_root)
    views = {figure_id: figure.view for figure_id, figure in figures.items()}
    renderer = PageRenderer(project_root, catalog, views, _legend_html)
    pages: list[RenderedPage] = []
    untranslated = []
    for name in page_names(nav):
        page = renderer.render(name)
        pages.append(page)
        files[f"{name}.md"] = page.markdown
        if catalog.untranslated_used:
            untranslated.append(name)
    files[STYLESHEET] = (TEMPLATES / "dama.css").read_text(encoding="utf-8")
    files[FAVICON] = (TEMPLATES / "favicon.svg").read_text(encoding="utf-8")
    settings = language_settings(project_root, catalog, languages, mkdocs_nav(nav, catalog))
    timings["pages"] = time.perf_counter() - started

    started = time.perf_counter()
    site_name = catalog.text("site.name")
    for page in pages:
        main = figures.get(page.main_diagram)
        if main is not None:
            files[f"{SOCIAL_DIR}/{page.name}.png"] = social_card(
                main.verified, page.title, site_name, project_root / CARD_CACHE
            )
    timings["render"] += time.perf_counter() - started
    unused = catalog.unused_keys()
    return LanguageSources(language, files, settings, unused, untranslated, timings)


def _diagram_svg(figure: Figure, catalog: Catalog) -> str:
    return diagram_svg(
        figure.verified,
        title=catalog.text(f"diagrams.{figure.view.id}.title"),
        description=describe(figure.verified.diagram.position, catalog),
        size=DIAGRAM_SIZE,
    )


def _legend_html(labels: Mapping[str, str], keys: tuple[str, ...]) -> str:
    """The renderer's legend, keeping only the entries in ``keys``."""
    full = legend_html(labels)
    for key in LEGEND_KEYS:
        if key not in keys:
            full = re.sub(rf'<li class="dama-legend-{key}">.*?</li>', "", full, flags=re.S)
    return full


def describe(position: Position, catalog: Catalog) -> str:
    """The position read aloud in the catalog's language, for the SVG ``<desc>``."""
    sides = []
    for color in (Color.WHITE, Color.BLACK):
        groups = []
        for king, one, many in ((False, "man", "men"), (True, "king", "kings")):
            squares = position.squares(color, king=king)
            if squares:
                key = f"position.{one if len(squares) == 1 else many}"
                groups.append(catalog.text(key, squares=", ".join(map(str, squares))))
        listed = "; ".join(groups) if groups else catalog.text("position.none")
        sides.append(f"{catalog.text(f'position.{color.value}')}: {listed}.")
    sides.append(catalog.text(f"position.{position.turn.value}_to_move"))
    return " ".join(sides)


def language_settings(
    project_root: Path, catalog: Catalog, languages: list[str], nav: list[Any]
) -> dict[str, Any]:
    """The MkDocs settings that differ per language, on top of ``mkdocs.yml``.

    The catalog's plain-text values (site name and description, the palette
    toggles, the language menu) are HTML-escaped here, because Material prints
    them into its pages as they are.  They are :class:`~markupsafe.Markup`, so
    a template that escapes them again (``{{ config.site_name | e }}``, as
    Material's header does) leaves them alone: ``&`` shows as ``&``, once.
    A config written to YAML loses the mark; :func:`run_mkdocs` puts it back.
    """
    base = read_base_config(project_root)
    check_theme_language(base, catalog.language)
    palette = []
    for scheme in base.get("theme", {}).get("palette", []):
        scheme = dict(scheme)
        if "toggle" in scheme:
            dark = scheme.get("scheme") == "slate"
            key = "ui.to_light" if dark else "ui.to_dark"
            scheme["toggle"] = {**scheme["toggle"], "name": _text(catalog.text(key))}
        palette.append(scheme)
    alternate = [
        {
            "name": _text(load_catalog(project_root, code).text("meta.name")),
            "link": f"../{code}/",
            "lang": code,
        }
        for code in languages
    ]
    theme: dict[str, Any] = {"language": catalog.language}
    if palette:
        theme["palette"] = palette
    return {
        "site_name": _text(catalog.text("site.name")),
        "site_description": _text(catalog.text("site.description")),
        "nav": nav,
        "theme": theme,
        "extra": {"alternate": alternate},
    }


def _text(value: str) -> Markup:
    """Plain catalog text, escaped once for HTML and marked so it is not escaped again."""
    return Markup(html.escape(value))


def _mark_escaped(config: Any) -> None:
    """Mark the values that :func:`language_settings` escaped, after a trip through YAML."""
    config.site_name = Markup(config.site_name)
    if config.site_description:
        config.site_description = Markup(config.site_description)
    for scheme in config.theme.get("palette") or []:
        if isinstance(scheme, dict) and isinstance(scheme.get("toggle"), dict):
            toggle = scheme["toggle"]
            toggle["name"] = Markup(toggle.get("name", ""))
    for entry in config.extra.get("alternate") or []:
        if isinstance(entry, dict) and "name" in entry:
            entry["name"] = Markup(entry["name"])


def _plain(value: Any) -> Any:
    """``value`` with every ``str`` subclass (Markup) made a plain ``str``, for YAML."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {_plain(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def material_languages() -> frozenset[str]:
    """The codes that Material for MkDocs has a translation for (``partials/languages/``)."""
    try:
        folder = importlib.resources.files("material") / "templates" / "partials" / "languages"
        return frozenset(
            entry.name.removesuffix(".html")
            for entry in folder.iterdir()
            if entry.name.endswith(".html")
        )
    except (ModuleNotFoundError, OSError):
        return frozenset()


def check_theme_language(base: Mapping[str, Any], language: str) -> None:
    """Refuse a language that Material cannot print its interface in.

    Material takes ``<html lang>`` and its own interface words from
    ``partials/languages/<theme.language>.html``; without that file the build
    dies in Jinja (TemplateNotFound).  Falling back to ``theme.language: en``
    would build, but every page would then say ``<html lang="en">`` over text
    in another language (wrong for screen readers, search engines and the
    search index), so the build stops and says how to fix it instead.
    """
    theme = base.get("theme", {})
    name = theme.get("name") if isinstance(theme, dict) else theme
    if name != "material":
        return
    known = material_languages()
    if not known or language in known:
        return
    family = language.split("-", maxsplit=1)[0]
    near = sorted(code for code in known if code.split("-", maxsplit=1)[0] == family)
    hint = f" (for example {', '.join(near)})" if near else ""
    raise SiteError(
        f"language '{language}': Material for MkDocs has no translation for it "
        f"(no partials/languages/{language}.html), so its pages cannot be built; "
        f"rename docs/locales/{language}.yml to a code Material knows{hint}, "
        f"one of: {', '.join(sorted(known))}"
    )


def read_base_config(project_root: Path) -> dict[str, Any]:
    path = project_root / BASE_CONFIG
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise SiteError(
            f"the base configuration is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} "
            f"at offset {exc.start}); save it as UTF-8",
            path=BASE_CONFIG,
        ) from exc
    except (OSError, yaml.YAMLError) as exc:
        raise SiteError(f"cannot read the base configuration: {exc}", path=BASE_CONFIG) from exc
    if not isinstance(data, dict):
        raise SiteError("the base configuration must be a mapping", path=BASE_CONFIG)
    return data


# --- social preview images ---------------------------------------------------

CARD_WIDTH, CARD_HEIGHT = 1200, 630
CARD_CACHE = Path(".cache") / "dama-diagrams" / "cards"
"""Social cards by the hash of what they show: a warm build draws none."""

_CARD_REVISION = 3
"""Part of every card's cache key: raise it when the card's drawing changes."""

_CARD_BOARD, _CARD_MARGIN, _CARD_TEXT_X = 530, 50, 630
_CARD_FONT = "DejaVu Sans"
_CARD_COLORS = {"background": "#f6efe2", "accent": "#6e4d31", "title": "#2b1d12"}

# cairocffi ships no type hints, so its surfaces are typed Any below.


def social_card(
    verified: VerifiedDiagram, title: str, site_name: str, cache: Path | None = None
) -> bytes:
    """A 1200x630 PNG for og:image: the page's main diagram beside its title."""
    board = diagram_svg(verified, size=_CARD_BOARD)  # the same in every language
    key = repr((_CARD_REVISION, board, title, site_name))
    stored = None if cache is None else cache / f"{_digest(key)}.png"
    if stored is not None and stored.is_file():
        return stored.read_bytes()
    png = _png(_draw_card(_board_image(board), title, site_name))
    if stored is None:
        return png
    stored.parent.mkdir(parents=True, exist_ok=True)
    partial = stored.with_suffix(f".{os.getpid()}.tmp")
    partial.write_bytes(png)
    partial.replace(stored)  # atomic, so a parallel build never reads half a file
    return png


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=32)
def _board_image(board_svg: str) -> Any:
    """The board drawn by cairosvg, once per process for every card that shows it.

    Drawing the board is most of a card's work, and its pixels do not depend on
    the language.  cairosvg's surface is used before it is written out as a PNG
    (``finish()``): encoding and decoding a board PNG would double the time.
    """
    from cairosvg.parser import Tree  # type: ignore[import-untyped]  # a third of a second
    from cairosvg.surface import PNGSurface  # type: ignore[import-untyped]

    tree = Tree(bytestring=board_svg.encode("utf-8"))
    return PNGSurface(tree, None, 96, output_width=_CARD_BOARD, output_height=_CARD_BOARD).cairo


def _draw_card(board: Any, title: str, site_name: str) -> Any:
    """A bar along the top, the board on the left, the site name and the title beside it."""
    import cairocffi as cairo  # type: ignore[import-untyped]

    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, CARD_WIDTH, CARD_HEIGHT)
    context = cairo.Context(surface)
    context.set_source_rgb(*_rgb(_CARD_COLORS["background"]))
    context.paint()
    context.set_source_rgb(*_rgb(_CARD_COLORS["accent"]))
    context.rectangle(0, 0, CARD_WIDTH, 14)
    context.fill()
    context.set_source_surface(board, _CARD_MARGIN, _CARD_MARGIN)
    context.paint()

    def write(text: str, y: float, size: int, color: str, weight: int) -> None:
        context.select_font_face(_CARD_FONT, cairo.FONT_SLANT_NORMAL, weight)
        context.set_font_size(size)
        context.set_source_rgb(*_rgb(_CARD_COLORS[color]))
        context.move_to(_CARD_TEXT_X, y)
        context.show_text(text)

    write(site_name, 110, 30, "accent", cairo.FONT_WEIGHT_NORMAL)
    context.select_font_face(_CARD_FONT, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)

    def width_at(size: int) -> Callable[[str], float]:
        context.set_font_size(size)
        return lambda text: float(context.text_extents(text)[4])  # x_advance

    lines, size = _wrap(title, CARD_WIDTH - _CARD_TEXT_X - 40, width_at)
    top = CARD_HEIGHT / 2 - (len(lines) - 1) * size * 0.6
    for index, line in enumerate(lines):
        write(line, round(top + index * size * 1.2), size, "title", cairo.FONT_WEIGHT_BOLD)
    surface.flush()
    return surface


def _rgb(color: str) -> tuple[float, float, float]:
    red, green, blue = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return red, green, blue


def _png(surface: Any) -> bytes:
    """An opaque cairo image as an RGB PNG, written by Pillow with fast compression.

    cairo's own writer takes two to three times as long on a card (libpng tries
    every row filter, at zlib level 6) for a file only a sixth smaller.
    """
    from PIL import Image

    # cairo stores one native-endian 0xXXRRGGBB word per pixel.
    layout = "BGRX" if sys.byteorder == "little" else "XRGB"
    size = (surface.get_width(), surface.get_height())
    image = Image.frombuffer(
        "RGB", size, bytes(surface.get_data()), "raw", layout, surface.get_stride(), 1
    )
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _wrap(
    text: str, width: float, measure_at: Callable[[int], Callable[[str], float]]
) -> tuple[list[str], int]:
    """Split a title into at most four lines that fit ``width``; shrink it if needed."""
    for size in (60, 52, 44, 38, 32, 28):
        measure = measure_at(size)
        lines: list[str] = []
        for word in text.split():
            if lines and measure(f"{lines[-1]} {word}") <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        if len(lines) <= 4 and all(measure(line) <= width for line in lines):
            return lines, size
    return lines, size


# --- 4. MkDocs, one build per language ---------------------------------------


def write_sources(sources: LanguageSources, folder: Path) -> Path:
    """Write one language's generated docs into ``folder/docs``."""
    docs = folder / "docs"
    for relative, content in sources.files.items():
        target = docs / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return docs


def write_language_config(
    project_root: Path, sources: LanguageSources, folder: Path, site_dir: Path
) -> Path:
    """A per-language ``mkdocs.yml`` that INHERITs the project's base config."""
    base = read_base_config(project_root)
    config: dict[str, Any] = {
        "INHERIT": str((project_root / BASE_CONFIG).resolve()),
        "docs_dir": str((folder / "docs").resolve()),
        "site_dir": str(site_dir.resolve()),
        "strict": True,
        "plugins": _plugins_without_ours(base.get("plugins", ["search"])),
        **sources.settings,
    }
    config["theme"] = {**config["theme"], "custom_dir": str(OVERRIDES)}
    base_url = base.get("site_url")
    if base_url:
        config["site_url"] = f"{str(base_url).rstrip('/')}/{sources.language}/"
    path = folder / "mkdocs.yml"
    text = yaml.safe_dump(_plain(config), allow_unicode=True, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    return path


def _plugins_without_ours(plugins: Any) -> Any:
    """The base plugins, except this one: the pages are already generated."""
    if isinstance(plugins, dict):
        return {name: value for name, value in plugins.items() if name != PLUGIN_NAME}
    return [
        p for p in plugins if p != PLUGIN_NAME and not (isinstance(p, dict) and PLUGIN_NAME in p)
    ]


class _Collect(logging.Handler):
    """Keeps every MkDocs warning, so the first one can be reported clearly."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def run_mkdocs(config_file: str) -> list[str]:
    """Build one language with MkDocs in strict mode; return its warnings.

    ``config_file`` is one written by :func:`write_language_config`.  An empty
    list means success.
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")  # a banner, not a build problem
    handler = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = load_config(config_file=config_file)
        _mark_escaped(config)
        build(config)
    except MkDocsException as exc:
        return handler.messages or [str(exc)]
    finally:
        logger.removeHandler(handler)
    return handler.messages


@dataclass(frozen=True)
class _Job:
    """One language's share of a build, sent to a worker process."""

    project_root: Path
    language: str
    languages: list[str]
    figures: dict[str, Figure]
    staging: Path


@dataclass
class _Outcome:
    language: str
    error: str | None
    timings: dict[str, float]
    unused_keys: list[str]
    untranslated_pages: list[str]


def build_language(job: _Job) -> _Outcome:
    """Generate one language and run MkDocs on it (in a worker process).

    Errors come back as their one-line text: exceptions with extra fields do
    not survive the trip between processes intact.
    """
    try:
        sources = generate_language(
            job.project_root, job.language, job.figures, languages=job.languages
        )
        folder = job.staging / "src" / job.language
        write_sources(sources, folder)
        config = write_language_config(
            job.project_root, sources, folder, job.staging / "site" / job.language
        )
        started = time.perf_counter()
        warnings = run_mkdocs(str(config))
        timings = {**sources.timings, "mkdocs": time.perf_counter() - started}
        if not warnings and not read_base_config(job.project_root).get("site_url"):
            root_404(job.staging / "site" / job.language / "404.html", job.language)
    except DamaError as exc:
        return _Outcome(job.language, str(exc), {}, [], [])
    error = str(_mkdocs_error(job.language, warnings[0])) if warnings else None
    return _Outcome(job.language, error, timings, sources.unused_keys, sources.untranslated_pages)


def root_404(path: Path, language: str) -> None:
    """Point the 404 page's absolute links into its language folder.

    MkDocs roots the 404 page at the path of ``site_url``, because it is served
    at any address.  Without a ``site_url`` that root is ``/``, which is wrong
    for ``site/<lang>/404.html``; this assumes the site is served from ``/``.
    """
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'(\s(?:href|src)=")/(?!/)', rf"\1/{language}/", text)
    text = text.replace('"base": "/"', f'"base": "/{language}/"')
    path.write_text(text, encoding="utf-8")


def _run_all(jobs: list[_Job]) -> list[_Outcome]:
    """Build the languages in parallel, one worker process per core.

    If the build is interrupted (Ctrl-C, SIGTERM, an error), the queued jobs
    are cancelled and the workers terminated before the exception goes on, so
    no worker outlives the build or writes into its removed staging folder.
    """
    workers = max(1, min(WORKERS, len(jobs), os.cpu_count() or 1))
    if workers == 1:
        return [build_language(job) for job in jobs]
    # fork is fast; once threads run (a test server, a browser driver) it is unsafe.
    method = "fork" if threading.active_count() == 1 else "forkserver"
    context = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_init)
    try:
        futures = [pool.submit(build_language, job) for job in jobs]
        outcomes = [future.result() for future in futures]
    except BaseException:
        processes = list(pool._processes.values())  # the executor has no public handle on them
        pool.shutdown(wait=False, cancel_futures=True)
        _terminate(processes)
        raise
    pool.shutdown()
    return outcomes


def _worker_init() -> None:
    """A worker dies on SIGTERM and ignores Ctrl-C: the main process cleans up for both."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _terminate(processes: Sequence[multiprocessing.process.BaseProcess]) -> None:
    """Stop worker processes: SIGTERM, then SIGKILL for any still running a second later."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + 1.0
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


def _mkdocs_error(language: str, message: str) -> SiteError:
    """A MkDocs warning, pointed at the page template it comes from."""
    page = re.search(r"'([\w/-]+)\.md'", message)
    path = (
        (Path("docs") / "pages" / f"{page.group(1)}{TEMPLATE_SUFFIX}").as_posix() if page else None
    )
    return SiteError(f"{language}: MkDocs: {' '.join(message.split())}", path=path)


# --- 5. root page ------------------------------------------------------------


def root_index(entries: list[dict[str, str]], default: str) -> str:
    """``site/index.html``: every language, and a redirect by browser language."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("root_index.html").render(languages=entries, default=default)


def _root_entries(project_root: Path, languages: list[str]) -> list[dict[str, str]]:
    entries = []
    for code in languages:
        catalog = load_catalog(project_root, code)
        entries.append(
            {
                "code": code,
                "name": catalog.text("meta.name"),
                "title": catalog.text("site.name"),
                "description": catalog.text("site.description"),
                "choose": catalog.text("site.root_choose"),
            }
        )
    return entries


# --- the whole build ---------------------------------------------------------


@dataclass
class BuildReport:
    """What a build made, how long each step took, and what to tidy up."""

    site_dir: Path
    languages: list[str]
    diagrams: int
    pages: int
    timings: dict[str, float]
    unused_keys: dict[str, list[str]]
    untranslated_pages: dict[str, list[str]]

    def summary(self) -> str:
        steps = ", ".join(f"{name} {seconds:.2f}s" for name, seconds in self.timings.items())
        lines = [
            f"built {len(self.languages)} languages ({', '.join(self.languages)}), "
            f"{self.pages} pages and {self.diagrams} diagrams each, into {self.site_dir}",
            f"time: {steps}",
        ]
        for language, keys in self.unused_keys.items():
            if keys:
                lines.append(f"{language}: unused catalog keys: {', '.join(keys)}")
        for language, names in self.untranslated_pages.items():
            if names:
                lines.append(f"{language}: pages not fully translated: {', '.join(names)}")
        return "\n".join(lines)


def build_site(
    project_root: Path,
    *,
    languages: list[str] | None = None,
    out: Path | None = None,
) -> BuildReport:
    """Build the whole site into ``out`` (default ``site/``), atomically.

    ``out`` is replaced as a whole, so it must be a folder that a build made
    (see :func:`check_out`): the project, its inputs, a file or a folder of
    other things are refused before any work is done.  On SIGTERM, as on
    Ctrl-C, the workers are stopped and the temporary folder is removed.

    ``timings`` holds the wall time of verify and of the whole build, and for
    render, pages and mkdocs the time summed over the languages (which run
    in parallel).
    """
    with terminate_as_interrupt():
        return _build_site(project_root, languages=languages, out=out)


def _build_site(
    project_root: Path, *, languages: list[str] | None, out: Path | None
) -> BuildReport:
    project_root = project_root.resolve()
    out = (out or project_root / SITE_DIR).resolve()
    check_out(project_root, out)
    chosen = _choose_languages(project_root, languages)
    started = time.perf_counter()
    figures = load_figures(project_root)
    timings = {"verify": time.perf_counter() - started}
    # Work done once here is shared by the forked workers: the parsed catalogs
    # and the compiled templates.  (cairosvg is imported only if a card is not cached.)
    warmed = time.perf_counter()
    nav = load_nav(project_root)
    warm_up(project_root)
    for code in chosen:
        load_catalog(project_root, code)
    timings["pages"] = time.perf_counter() - warmed

    _make_parent(out)
    sweep_stale(out.parent, f".{out.name}-build-")
    with _staging(out) as staging:
        jobs = [_Job(project_root, code, chosen, figures, staging) for code in chosen]
        outcomes = _run_all(jobs)
        for outcome in outcomes:
            if outcome.error:
                raise SiteError(outcome.error)
        for step in ("render", "pages", "mkdocs"):
            timings[step] = timings.get(step, 0.0) + sum(o.timings[step] for o in outcomes)
        entries = _root_entries(project_root, chosen)
        default = DEFAULT_LANGUAGE if DEFAULT_LANGUAGE in chosen else chosen[0]
        (staging / "site" / "index.html").write_text(root_index(entries, default), encoding="utf-8")
        (staging / "site" / SITE_MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        _swap(staging / "site", out, staging)
    timings["total"] = time.perf_counter() - started
    return BuildReport(
        site_dir=out,
        languages=chosen,
        diagrams=len(figures),
        pages=len(page_names(nav)),
        timings=timings,
        unused_keys={o.language: o.unused_keys for o in outcomes},
        untranslated_pages={o.language: o.untranslated_pages for o in outcomes},
    )


def _choose_languages(project_root: Path, languages: list[str] | None) -> list[str]:
    found = available_languages(project_root)
    if not found:
        raise SiteError("no catalogs in docs/locales/")
    if languages:
        unknown = [code for code in languages if code not in found]
        if unknown:
            raise SiteError(
                f"no catalog for language '{unknown[0]}' (docs/locales/{unknown[0]}.yml); "
                f"available: {', '.join(found)}"
            )
    chosen = list(dict.fromkeys(languages)) if languages else found
    base = read_base_config(project_root)
    for code in chosen:
        check_theme_language(base, code)
    return chosen


# --- where the site goes --------------------------------------------------------

MARKER_TEXT = (
    "This folder was built by dama-diagrams. The next `dama-diagrams build` into it\n"
    "replaces it as a whole: keep nothing else here.\n"
)


def check_out(project_root: Path, out: Path) -> None:
    """Refuse an output folder that a build must not replace (both paths resolved).

    A build replaces ``out`` as a whole, so ``out`` may not be the project
    folder or one of its parents, may not overlap what the build reads
    (:data:`PROJECT_INPUTS`: ``diagrams/``, ``docs/``, ``mkdocs.yml``, the card
    cache), and may not be a file.  If it exists it must be an empty folder, a
    folder with the :data:`SITE_MARKER` file that every build writes, or a
    site built before the marker existed: a folder holding only an optional
    ``index.html`` and language folders that each contain
    ``search/search_index.json`` (what ``dama-diagrams build`` and the
    plugin's ``mkdocs build`` made).  Anything else is someone's data.
    """
    shown = _relative_to_cwd(out)
    if out == project_root or out in project_root.parents:
        raise SiteError(
            f"cannot build into {shown}: it is the project folder or contains it, and the "
            f"build replaces its output folder; choose a new or empty folder such as site/"
        )
    for name in PROJECT_INPUTS:
        source = (project_root / name).resolve()
        if out == source or out in source.parents or source in out.parents:
            raise SiteError(
                f"cannot build into {shown}: it overlaps the project's {name}, which the "
                f"build reads; choose a folder outside it, such as site/"
            )
    if not out.exists():
        return
    if not out.is_dir():
        raise SiteError(
            f"cannot build into {shown}: it is a file, not a folder; "
            f"choose a new or empty folder such as site/"
        )
    try:
        entries = list(out.iterdir())
    except OSError as exc:
        raise _os_error(exc, f"cannot read the output folder {shown}") from exc
    if not entries or (out / SITE_MARKER).is_file() or _looks_like_old_site(entries):
        return
    raise SiteError(
        f"cannot build into {shown}: it is not empty and was not made by dama-diagrams "
        f"(no {SITE_MARKER} file), and the build would replace everything in it; "
        f"choose a new or empty folder, or delete this one yourself"
    )


def _looks_like_old_site(entries: list[Path]) -> bool:
    """A site from before :data:`SITE_MARKER`: ``index.html`` and language builds only."""
    languages = 0
    for entry in entries:
        if entry.name == "index.html" and entry.is_file():
            continue
        if entry.is_dir() and (entry / "search" / "search_index.json").is_file():
            languages += 1
            continue
        return False
    return languages > 0


def _os_error(exc: OSError, what: str, *, name_file: bool = True) -> SiteError:
    """An OSError as one line: what failed, where (unless ``what`` says), why, and a hint."""
    reason = exc.strerror or str(exc)
    shown = str(_relative_to_cwd(Path(exc.filename))) if exc.filename else ""
    where = f" ({shown})" if name_file and shown and shown not in what else ""
    hints = {
        errno.ENOTDIR: "a part of the path is a file",
        errno.EEXIST: "a part of the path is a file",
        errno.EACCES: "you may not write there",
        errno.EPERM: "you may not write there",
        errno.EROFS: "the disk is read-only",
        errno.ENOSPC: "the disk is full",
        errno.ENOENT: "the folder cannot hold new files",
    }
    hint = hints.get(exc.errno or 0)
    fix = f"{hint}; choose another --out" if hint else "choose another --out"
    return SiteError(f"{what}{where}: {reason}; {fix}")


def _make_parent(out: Path) -> None:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _os_error(exc, f"cannot create the folder {_relative_to_cwd(out.parent)}") from exc
    if not out.parent.is_dir():  # mkdir(exist_ok=True) accepts a symlink to a file
        raise SiteError(
            f"cannot create the folder {_relative_to_cwd(out.parent)}: it is a file; "
            f"choose another --out"
        )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    except OSError:
        return True
    return True


STALE_AGE = 24 * 3600
"""Seconds after which a temporary folder without an owner's PID (older versions) is stale."""


def sweep_stale(folder: Path, prefix: str) -> None:
    """Remove temporary folders ``<prefix><pid>-*`` in ``folder`` whose process is gone.

    A build names its staging folder with its PID, so a build killed by
    SIGKILL or a power cut leaves a folder that the next build removes.
    Folders named by older versions (``<prefix>xxxxxxxx``, no PID) are removed
    once they are a day old; a live build is never that slow.
    """
    pattern = re.compile(rf"{re.escape(prefix)}(?:(\d+)-[a-z0-9_]+|[a-z0-9_]{{8}})")
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if not match or not entry.is_dir() or entry.is_symlink():
            continue
        if match.group(1) is not None:
            pid = int(match.group(1))
            stale = pid != os.getpid() and not _pid_alive(pid)
        else:
            try:
                stale = time.time() - entry.stat().st_mtime > STALE_AGE
            except OSError:
                continue
        if stale:
            shutil.rmtree(entry, ignore_errors=True)


@contextmanager
def _staging(out: Path) -> Iterator[Path]:
    """A temporary folder beside ``out``, named with this PID, removed whatever happens."""
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-build-{os.getpid()}-", dir=out.parent))
    except OSError as exc:
        where = f"cannot write into {_relative_to_cwd(out.parent)}"
        raise _os_error(exc, where, name_file=False) from exc
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _swap(new: Path, out: Path, staging: Path) -> None:
    """Put ``new`` in place of ``out``; the old site goes only once the new one is there."""
    old = staging / "old"
    try:
        if out.exists():
            out.rename(old)
        try:
            new.rename(out)
        except OSError:
            if old.exists():
                old.rename(out)
            raise
    except OSError as exc:
        raise _os_error(exc, f"cannot put the site in place at {_relative_to_cwd(out)}") from exc


# --- signals -------------------------------------------------------------------


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM like Ctrl-C inside the block, then exit with status 143.

    SIGTERM (``kill``, a CI timeout, a process manager) would otherwise end the
    process at once, skipping every ``finally``: temporary folders and worker
    processes would stay behind.  Inside the block it raises
    :class:`KeyboardInterrupt` in the main thread, so the cleanup written for
    Ctrl-C runs (ours, and that of ``mkdocs serve``); when the block is left
    that way, :class:`SystemExit` (128 + SIGTERM) replaces the interrupt.  A
    second SIGTERM during the cleanup is ignored.  Only the main thread can
    install a handler, and a handler that someone else installed (or
    SIG_IGN) is left alone; the previous handler is restored afterwards.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous not in (signal.SIG_DFL, None):
        yield
        return
    received = False

    def handler(signum: int, frame: Any) -> None:
        nonlocal received
        received = True
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    except KeyboardInterrupt:
        if received:
            raise SystemExit(128 + signal.SIGTERM) from None
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
    if received:  # the block itself handled the interrupt (mkdocs serve does)
        raise SystemExit(128 + signal.SIGTERM)


# --- live preview -------------------------------------------------------------


def serve_site(project_root: Path, language: str, *, dev_addr: str | None = None) -> None:
    """``mkdocs serve`` for one language, regenerating on every edit.

    The generation runs inside MkDocs through the plugin, which watches the
    diagrams, the page templates and the catalogs.  A bad ``dev_addr`` or a
    port in use is a :class:`SiteError`; SIGTERM stops the server like Ctrl-C,
    removing the temporary folders (see :func:`terminate_as_interrupt`).
    """
    with terminate_as_interrupt():
        _serve_site(project_root, language, dev_addr=dev_addr)


def _serve_site(project_root: Path, language: str, *, dev_addr: str | None) -> None:
    from mkdocs.commands.serve import serve

    logger = logging.getLogger("mkdocs")
    if not logger.handlers:  # the mkdocs command sets this up; we are called as a library
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    project_root = project_root.resolve()
    _choose_languages(project_root, [language])
    address = dev_addr or str(read_base_config(project_root).get("dev_addr") or DEFAULT_DEV_ADDR)
    port = _check_dev_addr(address)
    temp = Path(tempfile.gettempdir())
    sweep_stale(temp, SERVE_PREFIX)
    folder = Path(tempfile.mkdtemp(prefix=f"{SERVE_PREFIX}{os.getpid()}-"))
    try:
        config = {
            "INHERIT": str(project_root / BASE_CONFIG),
            "docs_dir": str(project_root / "docs"),
            "theme": {"language": language, "custom_dir": str(OVERRIDES)},
            "plugins": [
                {PLUGIN_NAME: {"lang": language, "project_root": str(project_root)}},
                *_plugins_without_ours(read_base_config(project_root).get("plugins", ["search"])),
            ],
        }
        path = folder / "mkdocs.yml"
        path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
        try:
            serve(config_file=str(path), livereload=True, dev_addr=dev_addr)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise SiteError(
                    f"port {port} is in use; choose another with --dev-addr, "
                    f"such as --dev-addr 127.0.0.1:{port + 1 if port < 65535 else 8001}"
                ) from exc
            if exc.filename is None and exc.errno in (errno.EADDRNOTAVAIL, errno.EACCES):
                raise SiteError(
                    f"cannot listen on {address}: {exc.strerror}; choose another with --dev-addr"
                ) from exc
            raise _os_error(exc, "the preview server stopped") from exc
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _check_dev_addr(address: str) -> int:
    """The port of a ``HOST:PORT`` address, or a :class:`SiteError` saying what is wrong."""
    host, colon, text = address.rpartition(":")
    if not colon or not host or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise SiteError(
            f"--dev-addr {address!r} is not HOST:PORT with a port from 1 to 65535; "
            f"for example --dev-addr {DEFAULT_DEV_ADDR}"
        )
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    if host != "localhost":
        try:
            socket.inet_pton(family, host.strip("[]"))
        except OSError:
            raise SiteError(
                f"--dev-addr {address!r}: {host!r} is not an IP address (or localhost); "
                f"for example --dev-addr {DEFAULT_DEV_ADDR}"
            ) from None
    return int(text)
