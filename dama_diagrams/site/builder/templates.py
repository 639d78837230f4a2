"""MkDocs' theme, read once per process rather than once per Jinja environment.

MkDocs makes a new Jinja environment for every build, and Material's search
plugin three more, each for one template.  So a worker that builds three
languages compiled Material's sixty templates three times (half a second of
processor time each, a third of a language's MkDocs run), compiled the search
plugin's language templates nine times, and listed the theme's 14,000 files
(its icons included) three times to find the few it copies.
"""

from __future__ import annotations

import jinja2
from jinja2.bccache import Bucket
from mkdocs.theme import Theme


class _InMemory(jinja2.BytecodeCache):
    """Compiled templates by name; Jinja compiles again any whose source changed.

    In memory only: compiled code read back from a file (Jinja's
    ``FileSystemBytecodeCache``) would run whatever a checkout planted there.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # checks the source's checksum

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _InMemory()
"""One per process: every MkDocs build here makes its environments with the same settings."""

_LISTED: dict[tuple[str, ...], list[str]] = {}
"""The theme's files by theme folders, listed once per process (a worker lives for one build)."""


def _hidden(name: str) -> bool:
    """A path in or of a dot folder or file: MkDocs never copies one from a theme."""
    return name.startswith(".") or "/." in name


class _ThemeLoader(jinja2.FileSystemLoader):
    """The theme's templates; lists its files once, without those MkDocs never copies.

    MkDocs lists the theme only to copy its static files, and its own filter
    drops every path with a dot folder or file in it, such as Material's 14,000
    icons in ``.icons``: the list leaves them out before that filter reads it.
    """

    def list_templates(self) -> list[str]:
        key = tuple(map(str, self.searchpath))
        if key not in _LISTED:
            _LISTED[key] = [name for name in super().list_templates() if not _hidden(name)]
        return list(_LISTED[key])


def share_theme(theme: Theme) -> None:
    """Give every Jinja environment made from ``theme`` the process's compiled templates.

    MkDocs' build and Material's search plugin both make theirs with
    ``theme.get_env()``; each then also lists the theme's files only once.
    """
    make = theme.get_env

    def get_env() -> jinja2.Environment:
        env = make()
        env.loader = _ThemeLoader(theme.dirs)  # the folders of MkDocs' own loader, in its order
        env.bytecode_cache = _COMPILED
        return env

    theme.get_env = get_env  # type: ignore[method-assign]


def compile_theme(custom_dir: str) -> None:
    """Compile the site's theme (Material under ``custom_dir``) into this process's cache.

    Importing :mod:`.compiled_theme` calls it, so it runs once per process.  A
    build's workers are forked from this process (or from its fork server,
    which imports that module too): each then finds the templates compiled
    instead of compiling all of them for its first language, and a second
    build in the same process (``serve``, a test) compiles none.  A template
    whose source differs from the one compiled here is compiled again.
    """
    theme = Theme(name="material", custom_dir=custom_dir, language="en")
    share_theme(theme)
    environment = theme.get_env()
    for name in environment.list_templates(extensions=["html", "xml"]):
        try:
            environment.get_template(name)
        except jinja2.TemplateError:  # one of a plugin this site leaves off (the blog's)
            continue
