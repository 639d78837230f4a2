"""``dama-diagrams preview``: the built site on 127.0.0.1, as it will be published.

The site is served under the path of ``site_url`` (``/`` without one), so a
site built for ``https://example.org/rules/`` is tried at
``http://127.0.0.1:8000/rules/``.  A missing page gets the 404 page a host
would serve (the language's own, or the root one) with status 404; folders
are never listed, as no host lists them.
"""

from __future__ import annotations

import errno
import http.server
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ._common import SiteError, os_error, relative_to_cwd
from .config import BaseConfig
from .root import site_path

DEFAULT_ADDRESS = ("127.0.0.1", 8000)


def handler_for(site: Path, base: str) -> type[http.server.SimpleHTTPRequestHandler]:
    """A request handler that serves ``site`` under ``base`` (``/`` or ``/rules/``)."""
    site = site.resolve()

    class PreviewHandler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def translate_path(self, path: str) -> str:
            wanted = unquote(urlsplit(path).path)
            if not wanted.startswith(base):
                return str(site / ".not-under-the-site-path")
            return super().translate_path("/" + wanted[len(base) :])

        def list_directory(self, path: str | Any) -> None:
            self.send_error(404)

        def send_error(
            self, code: int, message: str | None = None, explain: str | None = None
        ) -> None:
            if code != 404:
                super().send_error(code, message, explain)
                return
            wanted = unquote(urlsplit(self.path).path)
            first = wanted[len(base) :].split("/")[0] if wanted.startswith(base) else ""
            own = site / first / "404.html"  # a language's own 404 page, when there is one
            named = re.fullmatch(r"[A-Za-z0-9_-]+", first) is not None  # never ../404.html
            page = own if named and own.is_file() else site / "404.html"
            body = page.read_bytes() if page.is_file() else b"Not found"
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: the reader looks at the browser, not at a request log

    return PreviewHandler


@contextmanager
def running(
    site: Path, base: str, address: tuple[str, int], *, option: str = "--port"
) -> Iterator[http.server.HTTPServer]:
    """A preview server in a background thread, for as long as the block runs."""
    server = listen(site, base, address, option=option)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def listen(
    site: Path, base: str, address: tuple[str, int], *, option: str = "--port"
) -> http.server.ThreadingHTTPServer:
    """The server, bound; a port in use or a bad address is a :class:`SiteError`.

    ``option`` is the command-line option that chooses the port, for the message.
    """
    try:
        return http.server.ThreadingHTTPServer(address, handler_for(site, base))
    except OSError as exc:
        host, port = address
        if exc.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else 8001
            example = f"{host}:{other}" if option == "--dev-addr" else str(other)
            raise SiteError(
                f"port {port} is in use; choose another with {option}, such as {option} {example}"
            ) from exc
        raise os_error(exc, f"cannot listen on {host}:{port}") from exc


def preview_site(project_root: Path, site: Path, *, port: int = DEFAULT_ADDRESS[1]) -> None:
    """Serve the built ``site`` until Ctrl-C, printing where to look."""
    if not (site / "index.html").is_file():
        raise SiteError(f"no built site in {relative_to_cwd(site)}: run dama-diagrams build first")
    base = site_path(BaseConfig.read(project_root).site_url)
    server = listen(site, base, (DEFAULT_ADDRESS[0], port))
    print(
        f"serving {relative_to_cwd(site)} at http://{DEFAULT_ADDRESS[0]}:{port}{base} "
        "as it will be published; Ctrl-C stops",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
