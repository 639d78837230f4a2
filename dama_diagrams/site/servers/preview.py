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
import io
import os
import re
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ..._files import relative_to_cwd
from ..._interrupts import interrupted
from ...errors import visible
from .._common import SiteError
from ..builder.config import BaseConfig
from ..builder.root import site_path
from .rebuild import with_banner

DEFAULT_ADDRESS = ("127.0.0.1", 8000)


@dataclass
class Notice:
    """One line to show above every page served (why the last rebuild failed), or None."""

    text: str | None = None


NAME_MAX = 255
"""No file name is longer (in bytes) on the file systems a site is built on."""


def servable(word: str) -> bool:
    """A path segment that can name a file: no control character, not too long."""
    return len(word.encode("utf-8", "surrogateescape")) <= NAME_MAX and not any(
        ord(char) < 0x20 or ord(char) == 0x7F for char in word
    )


def handler_for(
    site: Path, base: str, notice: Notice | None = None
) -> type[http.server.SimpleHTTPRequestHandler]:
    """A request handler that serves ``site`` under ``base`` (``/`` or ``/rules/``).

    The request path is percent-decoded once, as a static host does (``%2500``
    is a file named ``%00``); a path no file can have is a 404, never an error.
    """
    site = site.resolve()
    shown = notice or Notice()

    class PreviewHandler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def translate_path(self, path: str) -> str:
            wanted = unquote(urlsplit(path).path)
            words = wanted[len(base) :].split("/")
            if not wanted.startswith(base) or not all(map(servable, words)):
                return str(site / ".not-under-the-site-path")
            kept = [word for word in words if word not in ("", ".", "..")]
            return os.path.join(site, *kept) + ("/" if wanted.endswith("/") else "")

        def send_head(self) -> Any:
            """The file, as the stdlib serves it; a page with the notice while there is one."""
            text = shown.text
            path = self.translate_path(self.path)
            if os.path.isdir(path) and path.endswith("/"):
                path = os.path.join(path, "index.html")
            if text is None or not path.endswith(".html") or not os.path.isfile(path):
                return super().send_head()
            try:
                body = with_banner(Path(path).read_text(encoding="utf-8"), text).encode()
            except (OSError, UnicodeError):
                return super().send_head()
            return self._send_page(200, body)

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
            named = re.fullmatch(r"[A-Za-z0-9_-]{1,64}", first) is not None  # never ../404.html
            try:
                page = own if named and own.is_file() else site / "404.html"
                body = page.read_bytes() if page.is_file() else b"Not found"
            except OSError:
                body = b"Not found"
            if shown.text is not None:
                body = with_banner(body.decode("utf-8", "replace"), shown.text).encode()
            body_file = self._send_page(404, body)
            if self.command != "HEAD":
                self.wfile.write(body_file.getvalue())

        def _send_page(self, code: int, body: bytes) -> io.BytesIO:
            self.send_response(code)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: the reader looks at the browser, not at a request log

    return PreviewHandler


def address_text(host: str, port: int) -> str:
    """``host:port`` as a URL writes it: an IPv6 host in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def hung_up() -> bool:
    """Whether the error being handled is a client hanging up (reset, broken pipe, aborted).

    A browser that stops a download or closes a tab resets its connection:
    that is normal, and the stdlib's ``handle_error`` would print a traceback.
    """
    return isinstance(sys.exc_info()[1], ConnectionError)


class _Server(http.server.ThreadingHTTPServer):
    """The preview's server: on an IPv6 address too; a client hanging up prints nothing.

    A browser that stops a download or closes a tab resets its connection:
    that is normal, so no traceback (the stdlib prints one for each).
    """

    def __init__(self, address: tuple[str, int], handler: type[http.server.BaseHTTPRequestHandler]):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not hung_up():
            super().handle_error(request, client_address)

    def service_actions(self) -> None:
        """Between two requests: a Ctrl-C whose exception was lost in a finalizer still stops it."""
        if interrupted() and threading.current_thread() is threading.main_thread():
            raise KeyboardInterrupt


@contextmanager
def running(
    site: Path,
    base: str,
    address: tuple[str, int],
    *,
    option: str = "--port",
    notice: Notice | None = None,
) -> Iterator[http.server.HTTPServer]:
    """A preview server in a background thread, for as long as the block runs."""
    server = listen(site, base, address, option=option, notice=notice)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def listen(
    site: Path,
    base: str,
    address: tuple[str, int],
    *,
    option: str = "--port",
    notice: Notice | None = None,
) -> http.server.ThreadingHTTPServer:
    """The server, bound; a port in use or a bad address is a :class:`SiteError`.

    ``option`` is the command-line option that chooses the port, for the message.
    """
    return bind(address, handler_for(site, base, notice), option=option)


def bind(
    address: tuple[str, int],
    handler: type[http.server.BaseHTTPRequestHandler],
    *,
    option: str = "--port",
) -> http.server.ThreadingHTTPServer:
    """A threading server for ``handler`` on ``address``; a port in use is a :class:`SiteError`.

    ``option`` is the command-line option that chooses the port, for the message.
    """
    host, port = address
    shown = address_text(host, port)
    try:
        return _Server(address, handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else 8001
            example = shown.rpartition(":")[0] + f":{other}" if option == "--dev-addr" else other
            raise SiteError(
                f"port {port} is in use; choose another with {option}, such as {option} {example}"
            ) from exc
        reason = exc.strerror or str(exc)
        raise SiteError(
            f"cannot listen on {shown}: {reason}; choose another address with {option}"
        ) from exc


def preview_site(project_root: Path, site: Path, *, port: int = DEFAULT_ADDRESS[1]) -> None:
    """Serve the built ``site`` until Ctrl-C, printing where to look."""
    if not (site / "index.html").is_file():
        raise SiteError(f"no built site in {relative_to_cwd(site)}: run dama-diagrams build first")
    base = site_path(BaseConfig.read(project_root).site_url)
    server = listen(site, base, (DEFAULT_ADDRESS[0], port))
    said = f"serving {relative_to_cwd(site)} at http://{DEFAULT_ADDRESS[0]}:{port}{base} "
    serve_until_stopped(server, said + "as it will be published; Ctrl-C stops")


def serve_until_stopped(server: http.server.HTTPServer, said: str) -> None:
    """Print where to look, then serve until Ctrl-C; the port is always given back.

    ``said`` is one line, whatever folder it names (``--site``, the project's
    ``diagrams/``): a line feed in a name shows as ``\\n`` on it.
    """
    print(visible(said), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
