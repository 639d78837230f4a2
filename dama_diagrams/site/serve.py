"""Live preview: ``mkdocs serve`` of one language, regenerated on every edit."""

from __future__ import annotations

import errno
import logging
import os
import shutil
import socket
import tempfile
from pathlib import Path

import yaml

from ._common import OVERRIDES, PLUGIN_NAME, SiteError, os_error
from ._signals import terminate_as_interrupt
from .build import choose_languages
from .config import BaseConfig
from .output import sweep_stale

SERVE_PREFIX = "dama-diagrams-serve-"


DEFAULT_DEV_ADDR = "127.0.0.1:8000"


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
    base = BaseConfig.read(project_root)
    choose_languages(project_root, base, [language], drafts=True)  # a preview is for drafts
    address = dev_addr or base.dev_addr or DEFAULT_DEV_ADDR
    port = _check_dev_addr(address)
    temp = Path(tempfile.gettempdir())
    sweep_stale(temp, SERVE_PREFIX)
    folder = Path(tempfile.mkdtemp(prefix=f"{SERVE_PREFIX}{os.getpid()}-"))
    try:
        config = {
            "INHERIT": str(base.path),
            "docs_dir": str(project_root / "docs"),
            "theme": {"language": language, "custom_dir": str(OVERRIDES)},
            "plugins": [
                {PLUGIN_NAME: {"lang": language, "project_root": str(project_root)}},
                *base.plugins_without_ours(),
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
            raise os_error(exc, "the preview server stopped") from exc
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
