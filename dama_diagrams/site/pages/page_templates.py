"""The page templates' Jinja environment, and what a template says of itself (its meta).

Each template is parsed once per process: its ``title``, ``description`` and
``summary`` (and whether it goes into the printed book) are read from the
syntax tree that is then compiled, without rendering it, since the title of
every page is needed for links and the navigation before any page is done.
"""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import jinja2
from jinja2.loaders import split_template_path

from ...diagram._yaml import read_utf8
from .nav import PAGES_DIR, TEMPLATE_SUFFIX, PageError

_ENVIRONMENTS: dict[Path, jinja2.Environment] = {}


class _PageLoader(jinja2.FileSystemLoader):
    """Jinja's file loader, reading through the project's one door (:func:`read_utf8`).

    A template that links out of the project, is a FIFO or a device, is too
    large or is not UTF-8 is a PageError naming it, and is never published.
    Each template is parsed once: its meta (:func:`page_meta`) is read from
    the syntax tree that is then compiled.
    """

    def __init__(self, folder: Path, project_root: Path) -> None:
        super().__init__(folder)
        self.project_root = project_root

    def load(
        self,
        environment: jinja2.Environment,
        name: str,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        source, filename, uptodate = self.get_source(environment, name)
        tree = environment.parse(source, name, filename)
        code = environment.compile(tree, name, filename)
        template = environment.template_class.from_code(
            environment, code, environment.make_globals(globals), uptodate
        )
        _META[template] = _meta_of(tree)
        return template

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)  # refuses '..'
        path = Path(self.searchpath[0]).joinpath(*pieces)
        if not os.path.lexists(path):
            raise jinja2.TemplateNotFound(template)
        shown = (PAGES_DIR / template).as_posix()
        source = read_utf8(path, shown, PageError, inside=self.project_root)
        mtime = os.path.getmtime(path)

        def uptodate() -> bool:
            try:
                return os.path.getmtime(path) == mtime
            except OSError:
                return False

        return source, os.path.normpath(path), uptodate


def environment(project_root: Path) -> jinja2.Environment:
    """One Jinja environment per project, so each template compiles once.

    The loader checks file times, so an edited template is recompiled.
    """
    folder = (project_root / PAGES_DIR).resolve()
    if folder not in _ENVIRONMENTS:
        _ENVIRONMENTS[folder] = jinja2.Environment(
            loader=_PageLoader(folder, project_root.resolve()),
            undefined=jinja2.StrictUndefined,
            autoescape=False,  # the output is Markdown; helpers escape what they insert
            keep_trailing_newline=True,
            extensions=["jinja2.ext.i18n"],
        )
    return _ENVIRONMENTS[folder]


_META_NAMES = ("title", "description", "summary")
_META: weakref.WeakKeyDictionary[jinja2.Template, dict[str, str]] = weakref.WeakKeyDictionary()


def page_meta(env: jinja2.Environment, page: str) -> dict[str, str]:
    """The English ``title``, ``description`` and ``summary`` a page template sets.

    Read from the template's syntax tree, without rendering it: the title of
    every page is needed for links and the navigation before any page is done.
    """
    name = f"{page}{TEMPLATE_SUFFIX}"
    try:
        template = env.get_template(name)
    except jinja2.TemplateSyntaxError as exc:
        shown = (PAGES_DIR / name).as_posix()
        raise PageError(exc.message or "syntax error", path=shown, line=exc.lineno) from exc
    return _META.get(template, {})


def page_in_book(env: jinja2.Environment, page: str) -> bool:
    """Whether a page goes into the printed book: not when it is for the site's authors.

    Such a page sets ``{% set in_book = false %}`` at its top.
    """
    return page_meta(env, page).get(IN_BOOK) != "false"


IN_BOOK = "in_book"

_SECTION = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_HEADING_MESSAGE = re.compile(r'^\{\{\s*_\("((?:[^"\\]|\\.)*)"\)\s*\}\}$')


def section_heading(env: jinja2.Environment, page: str, section: str) -> str:
    """The English words of the heading of ``page`` that gives itself the id ``section``.

    Headings otherwise take their ids from their words, which differ in each
    language; an id written in the template (``## {{ _("Words") }} { #section }``)
    is the same in all of them.
    """
    name = f"{page}{TEMPLATE_SUFFIX}"
    if not _SECTION.fullmatch(section):
        raise PageError(
            f"link('{page}', '{section[:40]}'): a section is a heading's id, in lower-case "
            "letters, digits and hyphens"
        )
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, name)
    heading = re.search(rf"^#+ +(.*?) *\{{ *#{section} *\}}\s*$", source, re.MULTILINE)
    if heading is None:
        raise PageError(
            f"link('{page}', '{section}'): no heading of {page} has the id '{section}': "
            f"give it one with {{ #{section} }} at the end of its line in {PAGES_DIR / name}"
        )
    message = _HEADING_MESSAGE.match(heading[1])
    return re.sub(r"\\(.)", r"\1", message[1]) if message else heading[1]


def _meta_of(tree: jinja2.nodes.Template) -> dict[str, str]:
    found: dict[str, str] = {}
    for node in tree.find_all(jinja2.nodes.Assign):
        target, value = node.target, node.node
        if (
            isinstance(target, jinja2.nodes.Name)
            and target.name == IN_BOOK
            and isinstance(value, jinja2.nodes.Const)
            and value.value is False
        ):
            found[IN_BOOK] = "false"
        if (
            isinstance(target, jinja2.nodes.Name)
            and target.name in _META_NAMES
            and isinstance(value, jinja2.nodes.Call)
            and isinstance(value.node, jinja2.nodes.Name)
            and value.node.name in ("_", "gettext")
            and value.args
            and isinstance(value.args[0], jinja2.nodes.Const)
            and isinstance(value.args[0].value, str)
        ):
            found.setdefault(target.name, value.args[0].value)
    return found
