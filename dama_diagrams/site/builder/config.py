"""MkDocs settings: the project's ``mkdocs.yml``, read once, and what each language changes.

Every language's site is the base configuration plus a few settings from its
catalog (the site name, the palette toggles, the navigation, the language
menu).  :func:`apply_language` puts those into a loaded MkDocs configuration;
the command line's build and the MkDocs plugin both go through it, so the two
ways to build a language cannot drift apart.
"""

from __future__ import annotations

import functools
import html
import importlib.resources
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup
from yaml.nodes import MappingNode, Node

from ...diagram._yaml import load_yaml, read_utf8
from ...errors import shorten
from .._common import BASE_CONFIG, OVERRIDES, PLUGIN_NAME, SiteError
from ..i18n import DRAFTS_SETTING, Catalog, new_catalog
from ..i18n.reading import LANGUAGE_CODE


@dataclass(frozen=True)
class BaseConfig:
    """The parts of the project's ``mkdocs.yml`` that the build itself reads."""

    path: Path
    theme_name: str | None = None
    palette: tuple[Mapping[str, Any], ...] = ()
    plugins: Any = field(default_factory=lambda: ["search"])
    site_url: str | None = None
    dev_addr: str | None = None
    directory_urls: bool = True
    """MkDocs' ``use_directory_urls``: ``king/`` rather than ``king.html``."""
    drafts: tuple[str, ...] = ()
    """The languages that ``mkdocs.yml`` holds back: built only with --drafts."""
    drafts_line: int | None = None
    """Where ``mkdocs.yml`` lists them, for messages."""
    site_author: str | None = None
    """Who publishes the rules: the printed book's author."""

    @classmethod
    def read(cls, project_root: Path) -> BaseConfig:
        """Read ``mkdocs.yml`` once; a file that is not a YAML mapping is a :class:`SiteError`."""
        path = project_root / BASE_CONFIG
        text = read_utf8(
            path, BASE_CONFIG, SiteError, "the base configuration: ", inside=project_root
        )
        data, node = load_yaml(text, BASE_CONFIG, SiteError, "the base configuration: ")
        if not isinstance(data, dict):
            raise SiteError("the base configuration must be a mapping", path=BASE_CONFIG)
        theme = data.get("theme", {})
        return cls(
            path=path.resolve(),
            theme_name=theme.get("name") if isinstance(theme, dict) else theme,
            palette=_palette(theme, node),
            plugins=_plugins(data, node),
            site_url=str(data["site_url"]) if data.get("site_url") else None,
            dev_addr=str(data["dev_addr"]) if data.get("dev_addr") else None,
            directory_urls=bool(data.get("use_directory_urls", True)),
            drafts=_drafts(data, node),
            drafts_line=_line_of(node, "extra", "dama_diagrams", "drafts"),
            site_author=str(data["site_author"]).strip() or None
            if data.get("site_author")
            else None,
        )

    def plugin_names(self) -> list[str]:
        """The names of the base plugins, whatever form the list takes."""
        return [name for entry in self.plugins for name in _plugin_names(entry)]

    def plugins_without_ours(self) -> Any:
        """The base plugins, except this one: the pages are already generated."""
        plugins = self.plugins
        if isinstance(plugins, dict):
            return {name: value for name, value in plugins.items() if name != PLUGIN_NAME}
        return [entry for entry in plugins if PLUGIN_NAME not in _plugin_names(entry)]


def _plugin_names(entry: Any) -> list[str]:
    """The plugins one list entry names: ``search`` or ``{search: {options}}``."""
    if isinstance(entry, str):
        return [entry]
    return [str(name) for name in entry] if isinstance(entry, dict) else []


@dataclass(frozen=True)
class LanguageSettings:
    """What one language changes in the base configuration, as plain catalog text."""

    language: str
    site_name: str
    site_description: str
    nav: list[Any]
    palette: tuple[Mapping[str, Any], ...]
    alternate: tuple[tuple[str, str], ...]
    """The language menu: (code, name) for every language of the site."""
    made_with: str = "Made with {tool}"
    """The footer's credit, with ``{tool}`` where the link to Material goes."""
    not_found: tuple[str, str] = ("Page not found", "There is no page at this address.")
    """The 404 page's heading and sentence (Material's is English)."""
    site_root: str | None = None
    """The site's address, ``site_url`` ending in ``/``: each page's alternates hang from it."""
    not_served: str = "not in this preview"
    """What the language menu of ``serve --lang`` says of the languages it does not serve."""
    pdf: tuple[str, str] | None = None
    """The link to the language's book: its text and its file, beside the pages (``build``)."""
    theme_labels: tuple[tuple[str, str], ...] = ()
    """Material's labels that the catalogs translate: (Material's key, the text)."""
    permalink: str = "Permanent link"
    """The tooltip of each heading's permalink (``toc``'s ``permalink_title``), which
    Python-Markdown writes in English."""


THEME_LABELS = ("header", "footer", "footer.link")
"""Material's aria-labels of the page's header and footer, which its Dutch file leaves English,
and the footer's links, "{direction}: {title}", which its template builds outside any language
file (French writes a no-break space before the colon)."""


def language_settings(
    base: BaseConfig,
    catalog: Catalog,
    names: Mapping[str, str],
    nav: list[Any],
    *,
    pdf: str | None = None,
) -> LanguageSettings:
    """The settings of ``catalog``'s language; ``names`` are the menu's language names.

    ``pdf`` is the file of the language's book, which every page then links.
    """
    check_theme_language(base, catalog.language)
    palette = []
    for scheme in base.palette:
        scheme = dict(scheme)
        if "toggle" in scheme:
            dark = scheme.get("scheme") == "slate"
            key = "ui.to_light" if dark else "ui.to_dark"
            scheme["toggle"] = {**scheme["toggle"], "name": catalog.text(key)}
        palette.append(scheme)
    return LanguageSettings(
        language=catalog.language,
        site_name=catalog.text("site.name"),
        site_description=catalog.text("site.description"),
        nav=nav,
        palette=tuple(palette),
        alternate=tuple(names.items()),
        made_with=catalog.text("ui.made_with", tool="{tool}"),
        not_found=(catalog.text("site.not_found"), catalog.text("site.not_found_text")),
        site_root=f"{base.site_url.rstrip('/')}/" if base.site_url else None,
        not_served=catalog.text("ui.not_served"),
        pdf=(catalog.text("ui.pdf"), pdf) if pdf else None,
        theme_labels=tuple((key, catalog.text(f"theme.{key}")) for key in THEME_LABELS),
        permalink=catalog.text("theme.permalink"),
    )


def apply_language(
    config: Any, settings: LanguageSettings, *, served: Collection[str] | None = None
) -> None:
    """Put one language's settings into a loaded MkDocs configuration.

    Material prints the site name and description, the palette toggles and the
    language menu into its pages as they are, so the catalog's text is escaped
    here, once, as :class:`~markupsafe.Markup`: a template that escapes it again
    (``{{ config.site_name | e }}``, as Material's header does) leaves it alone.
    """
    config.site_name = _escaped(settings.site_name)
    config.site_description = _escaped(settings.site_description)
    config.nav = settings.nav
    config.theme["language"] = settings.language
    if settings.palette:
        config.theme["palette"] = [
            {**scheme, "toggle": {**scheme["toggle"], "name": _escaped(scheme["toggle"]["name"])}}
            if "toggle" in scheme
            else dict(scheme)
            for scheme in settings.palette
        ]
    config.extra["alternate"] = [
        {"name": _escaped(name), "link": f"../{code}/", "lang": code}
        if served is None
        # A preview serves its one language at its root: itself, and no other.
        else {"name": _escaped(name), "link": "./", "lang": code}
        if code in served
        else {"name": _escaped(name), "link": None, "lang": code, "note": settings.not_served}
        for code, name in settings.alternate
    ]
    config.extra["dama_made_with"] = made_with_html(settings.made_with)
    config.extra["dama_theme_labels"] = {key: _escaped(text) for key, text in settings.theme_labels}
    toc = config.mdx_configs.get("toc")
    if isinstance(toc, dict) and toc.get("permalink"):  # ElementTree escapes the attribute
        config.mdx_configs["toc"] = {**toc, "permalink_title": settings.permalink}
    title, text = settings.not_found
    config.extra["dama_not_found"] = {"title": _escaped(title), "text": _escaped(text)}
    config.extra["dama_site_root"] = settings.site_root and _escaped(settings.site_root)
    config.extra["dama_pdf"] = settings.pdf and {
        "text": _escaped(settings.pdf[0]),
        "href": _escaped(settings.pdf[1]),
    }
    if str(OVERRIDES) not in config.theme.dirs:  # shipped in the package: any folder works
        config.theme.dirs.insert(0, str(OVERRIDES))


MATERIAL_LINK = (
    '<a href="https://squidfunk.github.io/mkdocs-material/" target="_blank" rel="noopener">'
    "Material for MkDocs</a>"
)


def made_with_html(text: str) -> Markup:
    """The footer's credit in the page's language: Material writes it in English."""
    before, _, after = text.partition("{tool}")
    return Markup(f"{_escaped(before)}{MATERIAL_LINK}{_escaped(after)}")


def _escaped(value: str) -> Markup:
    return Markup(html.escape(value))


def language_config(
    base: BaseConfig, language: str, docs_dir: Path, site_dir: Path
) -> dict[str, Any]:
    """A per-language ``mkdocs.yml`` that INHERITs the base one: where to read and write."""
    config: dict[str, Any] = {
        "INHERIT": str(base.path),
        "docs_dir": str(docs_dir.resolve()),
        "site_dir": str(site_dir.resolve()),
        "strict": True,
        "plugins": base.plugins_without_ours(),
        "theme": {"language": language, "custom_dir": str(OVERRIDES)},
    }
    if base.site_url:
        config["site_url"] = f"{base.site_url.rstrip('/')}/{language}/"
    return config


@functools.cache
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


def check_theme_language(base: BaseConfig, language: str, *, fix: str | None = None) -> None:
    """Refuse a language that Material cannot print its interface in.

    Material takes ``<html lang>`` and its own interface words from
    ``partials/languages/<theme.language>.html``; without that file the build
    dies in Jinja (TemplateNotFound).  Falling back to ``theme.language: en``
    would build, but every page would then say ``<html lang="en">`` over text
    in another language (wrong for screen readers, search engines and the
    search index), so the build stops and says how to fix it instead.
    ``fix`` says what to do when there is no catalog yet (``new-language``).
    """
    if base.theme_name != "material":
        return
    known = material_languages()
    if not known or language in known:
        return
    family = re.split("[-_]", language, maxsplit=1)[0]
    near = sorted(code for code in known if re.split("[-_]", code, maxsplit=1)[0] == family)
    hint = f" (for example {', '.join(near)})" if near else ""
    fix = fix or f"rename the folder docs/locales/{language}/ to a code Material knows"
    raise SiteError(
        f"language '{language}': Material for MkDocs has no translation for it "
        f"(no partials/languages/{language}.html), so its pages cannot be built; "
        f"{fix}{hint}, one of: {', '.join(sorted(known))}"
    )


def _palette(theme: Any, node: Node | None) -> tuple[Mapping[str, Any], ...]:
    """``theme.palette``: a list of schemes, or one scheme, as Material takes it.

    The build adds each toggle's name in the page's language, so a scheme and
    its toggle must be mappings; anything else is one line, not a traceback.
    """
    palette = theme.get("palette") if isinstance(theme, dict) else None
    if palette is None:
        return ()
    schemes = [palette] if isinstance(palette, dict) else palette
    if not isinstance(schemes, list) or not all(
        isinstance(scheme, dict) and isinstance(scheme.get("toggle", {}), dict)
        for scheme in schemes
    ):
        raise SiteError(
            "theme.palette must be a list of color schemes (mappings such as "
            "{scheme: slate, toggle: {icon: material/brightness-4}}), or one scheme, not "
            f"{shorten(repr(palette))}",
            path=BASE_CONFIG,
            line=_line_of(node, "theme", "palette"),
        )
    return tuple(dict(scheme) for scheme in schemes)


def _plugins(data: Mapping[str, Any], node: Node | None) -> Any:
    """``plugins``: a list of names or ``{name: options}``, or a mapping, as MkDocs takes it."""
    plugins = data.get("plugins", ["search"])
    if isinstance(plugins, dict) and all(isinstance(name, str) for name in plugins):
        return plugins
    if isinstance(plugins, list) and all(
        isinstance(entry, str)
        or (isinstance(entry, dict) and all(isinstance(name, str) for name in entry))
        for entry in plugins
    ):
        return plugins
    raise SiteError(
        "plugins must be a list of plugin names or {name: options} mappings, such as "
        f"[search], not {shorten(repr(plugins))}; leave the key out for MkDocs' default",
        path=BASE_CONFIG,
        line=_line_of(node, "plugins"),
    )


def _drafts(data: Mapping[str, Any], node: Node | None) -> tuple[str, ...]:
    """``extra: {dama_diagrams: {drafts: [pt]}}``: language codes, none by default."""
    extra = data.get("extra")
    ours = extra.get("dama_diagrams") if isinstance(extra, dict) else None
    if not isinstance(ours, dict):
        return ()
    if "draft_threshold" in ours:
        raise SiteError(
            "extra.dama_diagrams.draft_threshold is no longer read: a published language stays "
            "published, its untranslated text shown in English; list the languages to hold "
            f"back instead, as {DRAFTS_SETTING}: [pt]",
            path=BASE_CONFIG,
            line=_line_of(node, "extra", "dama_diagrams", "draft_threshold"),
        )
    value = ours.get("drafts", [])
    if not isinstance(value, list) or not all(
        isinstance(code, str) and LANGUAGE_CODE.fullmatch(code) for code in value
    ):
        raise SiteError(
            f"{DRAFTS_SETTING} must be a list of language codes, such as [pt], not "
            f"{shorten(repr(value))}",
            path=BASE_CONFIG,
            line=_line_of(node, "extra", "dama_diagrams", "drafts"),
        )
    return tuple(value)


def _line_of(node: Node | None, *keys: str) -> int | None:
    """The line of the value at ``keys`` in a composed YAML mapping, counted from 1."""
    for key in keys:
        if not isinstance(node, MappingNode):
            return None
        node = next((value for name, value in node.value if name.value == key), None)
    return None if node is None else node.start_mark.line + 1


def new_language(project_root: Path, language: str) -> Path:
    """Start a PO catalog for ``language``, only for a code the build will accept.

    A code Material cannot print is refused now rather than at the first build.
    """

    def printable(code: str) -> None:
        check_theme_language(BaseConfig.read(project_root), code, fix="use a code Material knows")

    return new_catalog(project_root, language, accept=printable)
