"""Live preview: ``mkdocs serve`` of one language, or the whole site, rebuilt on every edit.

``serve --lang L`` runs ``mkdocs serve`` with the plugin, which regenerates the
pages on every edit and reloads the browser; its language menu says which
languages it does not serve.  ``serve`` alone builds every language into a
temporary folder, serves it as it will be published (:mod:`.preview`), and
builds again when a diagram, template, catalog or ``mkdocs.yml`` changes.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from ..._interrupts import interrupted, terminate_as_interrupt
from .._common import OVERRIDES, PLUGIN_NAME, SOURCES, SiteError, os_error
from ..builder.config import BaseConfig
from ..builder.root import site_path
from ..publish.build import build_site, choose_languages
from ..publish.output import sweep_stale
from .preview import Notice, address_text, hung_up, running
from .rebuild import failure_text

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

    _quiet_hang_ups()
    logger = logging.getLogger("mkdocs")
    if not logger.handlers:  # the mkdocs command sets this up; we are called as a library
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    project_root = project_root.resolve()
    base = BaseConfig.read(project_root)
    address = dev_addr or base.dev_addr or DEFAULT_DEV_ADDR
    port = _check_dev_addr(address)  # before the catalogs are read: a typo fails at once
    choose_languages(project_root, base, [language], drafts=True)  # a preview is for drafts
    folder = _serve_folder()
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


def _quiet_hang_ups() -> None:
    """MkDocs' server prints nothing when a client hangs up, as the preview's does.

    A browser that stops a download or closes a tab resets its connection;
    the stdlib's ``handle_error`` would print a traceback for each.
    """
    from mkdocs.livereload import LiveReloadServer

    original = LiveReloadServer.handle_error
    if getattr(original, "quiet_hang_ups", False):
        return

    def handle_error(server: LiveReloadServer, request: Any, client_address: Any) -> None:
        if not hung_up():
            original(server, request, client_address)

    handle_error.quiet_hang_ups = True  # type: ignore[attr-defined]
    LiveReloadServer.handle_error = handle_error  # type: ignore[method-assign,assignment]


def serve_all(project_root: Path, *, dev_addr: str | None = None) -> None:
    """Every language, served as published from a temporary build, rebuilt on every edit.

    Drafts are included.  A change that does not build is reported, and the
    site from before it stays served.  Ctrl-C or SIGTERM stops the server and
    removes the temporary folder.
    """
    with terminate_as_interrupt():
        project_root = project_root.resolve()
        base = BaseConfig.read(project_root)
        address = dev_addr or base.dev_addr or DEFAULT_DEV_ADDR
        port = _check_dev_addr(address)
        host = address.rpartition(":")[0].strip("[]")
        folder = _serve_folder()
        site, path = folder / "site", site_path(base.site_url)
        try:
            notice = Notice()  # why the last change does not build, on every page
            with running(site, path, (host, port), option="--dev-addr", notice=notice):
                report = build_site(project_root, out=site, drafts=True)
                if interrupted():  # its exception was lost in a finalizer: still a Ctrl-C
                    raise KeyboardInterrupt
                stamp = _inputs_stamp(project_root)
                print(
                    f"serving {', '.join(report.languages)} at http://{address_text(host, port)}"
                    f"{path}; "
                    "an edit rebuilds the site (reload the page); Ctrl-C stops",
                    flush=True,
                )
                # Ctrl-C during the first build is an interrupted start (exit 130, like every
                # command's); once serving, it is how the server stops, as said above (exit 0)
                with contextlib.suppress(KeyboardInterrupt):
                    _rebuild_on_edits(project_root, notice, site, stamp)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def _rebuild_on_edits(
    project_root: Path, notice: Notice, site: Path, stamp: tuple[tuple[str, int, int], ...]
) -> None:
    """Build the site again after each edit, until Ctrl-C; a failed build keeps the last one."""
    while not interrupted():
        time.sleep(1)
        if (now := _inputs_stamp(project_root)) == stamp:
            continue
        stamp = now
        try:
            build_site(project_root, out=site, drafts=True)
        except Exception as exc:  # a full disk too: the site from before stays
            notice.text = failure_text(exc)
            print(f"the last change does not build: {notice.text}", flush=True)
        else:
            notice.text = None
            print("rebuilt the site", flush=True)


def _serve_folder() -> Path:
    """A temporary folder named with this PID, after removing those of servers that are gone."""
    sweep_stale(Path(tempfile.gettempdir()), SERVE_PREFIX)
    return Path(tempfile.mkdtemp(prefix=f"{SERVE_PREFIX}{os.getpid()}-"))


def _inputs_stamp(project_root: Path) -> tuple[tuple[str, int, int], ...]:
    """Every input file with its time and size: when this changes, the site is built again."""
    files: list[Path] = []
    for name in SOURCES:
        source = project_root / name
        found = sorted(source.rglob("*")) if source.is_dir() else [source]
        files.extend(path for path in found if path.is_file())
    stamp = []
    for path in files:
        try:
            info = path.stat()
        except OSError:
            continue
        stamp.append((str(path), info.st_mtime_ns, info.st_size))
    return tuple(stamp)


def _check_dev_addr(address: str) -> int:
    """The port of a ``HOST:PORT`` address, or a :class:`SiteError` saying what is wrong."""
    host, colon, text = address.rpartition(":")
    digits = text.isascii() and text.isdigit() and len(text) <= 5  # not "²" or Arabic digits
    if not colon or not host or not digits or not 1 <= int(text) <= 65535:
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
