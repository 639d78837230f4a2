"""Imported before a build forks its workers: the site's theme, compiled once for all of them.

A module, not a function, because a fork server (the workers' parent when the
build runs beside threads, see ``publish.workers``) warms up by importing
modules.  Compiling is only a head start: should it fail, each worker compiles
what it needs and reports the errors itself.
"""

from __future__ import annotations

import contextlib

from .._common import OVERRIDES
from .templates import compile_theme

with contextlib.suppress(Exception):
    compile_theme(str(OVERRIDES))
