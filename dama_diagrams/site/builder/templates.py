"""MkDocs' theme templates, compiled once per process rather than once per language.

MkDocs makes a new Jinja environment for every build, so a worker that builds
three languages compiled Material's sixty templates three times: half a second
of processor time each, a third of a language's MkDocs run.
"""

from __future__ import annotations

from typing import Any

import jinja2
from jinja2.bccache import Bucket
from mkdocs.config.base import Config
from mkdocs.plugins import BasePlugin

PLUGIN_KEY = "dama-diagrams/compiled-templates"


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
"""One per process: every MkDocs build here makes its environment with the same settings."""


class _NoOptions(Config):  # type: ignore[no-untyped-call]
    """The plugin takes no options."""


class SharedTemplates(BasePlugin[_NoOptions]):  # type: ignore[no-untyped-call]
    """Gives each build's theme environment the process's compiled templates."""

    def on_env(self, env: jinja2.Environment, /, *, config: Any, files: Any) -> jinja2.Environment:
        env.bytecode_cache = _COMPILED
        return env
