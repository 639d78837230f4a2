"""``dama-diagrams editor``: the board editor's page and its JSON API on 127.0.0.1.

:class:`Editor` answers one request at a time as data in, data out
(:meth:`Editor.respond`), so the tests call it without a socket; the HTTP
handler around it only reads the request and writes the answer.  Every
refusal is JSON, ``{"error": "..."}`` with a 4xx status, which the page shows;
never a traceback.

The API, all POST bodies JSON:

- ``GET /``: the page, in the editor's language or ``?lang=``'s (one of the
  six of the rules site); ``GET /assets/<file>``: its script and styles;
- ``GET /api/start?lang=``: the names of ``diagrams/*.yaml``, the rules, reasons
  and questions a diagram may name, and ``project``, the key the page keeps
  its unsaved draft under (one per project folder);
- ``POST /api/position`` ``{position, cycle?, move?}``: the board (the
  square ``cycle`` changed first), and what the engine says of it;
- ``POST /api/resolve`` ``{position, squares}``: the move the clicks mean;
- ``POST /api/preview`` ``{diagram}``: the file's text and its figure, or
  ``verify``'s refusal;
- ``POST /api/play`` ``{position, move, origin}``: the board after the move, and
  its origin (the moves from the start while the board is reached from it);
- ``POST /api/game`` ``{game, number?, after?}``: a game's moves, and the board
  after move ``after`` with its origin (:mod:`.origins`);
- ``POST /api/open`` ``{name}``: an existing file's fields and digest;
- ``POST /api/save`` ``{name, diagram, opened?, replace?}``: write
  ``diagrams/<name>.yaml``.  A name another file has is refused (409) with that
  file's digest as ``exists``, unless ``opened`` (the file being edited) or
  ``replace`` (that digest sent back: the author confirmed) says which bytes
  the save replaces.
"""

from __future__ import annotations

import http.server
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jinja2

from ...diagram.claims import VerifiedDiagram
from ...errors import DamaError
from .._common import TEMPLATES
from ..fence.assets import fence_css, fence_scripts
from ..servers.preview import bind, serve_until_stopped
from . import analysis, origins
from .checks import (
    EditorError,
    check_length,
    check_name,
    check_origin,
    header_fields,
    read_json,
)
from .drafts import PREVIEW_ID, Draft, checked, draft_from_json, preview, read_diagram
from .files import DiagramFiles, digest
from .words import (
    LanguageError,
    check_language,
    language_menu,
    page_text,
    script_words,
    tr,
)
from .yaml_text import draft_of, file_text, with_comment

DEFAULT_PORT = 8010
"""Not 8000, where ``preview`` and ``serve`` listen: the editor runs beside them."""

HOST = "127.0.0.1"
"""The editor writes files: it listens on this machine's loopback only, never on a network."""

STATIC = Path(__file__).resolve().parent / "static"

_ASSETS = {
    "editor.js": "text/javascript; charset=utf-8",
    "editor.css": "text/css; charset=utf-8",
}

SECURITY_HEADERS = {
    # inline styles only for the tables' column alignment, which Python-Markdown writes so
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
}

_PAGE = jinja2.Environment(
    autoescape=True, extensions=["jinja2.ext.i18n"], undefined=jinja2.StrictUndefined
)


def page_html(lang: str) -> str:
    """The page in ``lang``: ``static/editor.html``, its messages and its script's words."""
    template = _PAGE.from_string((STATIC / "editor.html").read_text(encoding="utf-8"))
    return template.render(
        lang=lang,
        _=lambda english: page_text(lang, english),
        gettext=lambda english: page_text(lang, english),
        ngettext=lambda one, many, count: page_text(lang, one if count == 1 else many),
        script_words=script_words(lang),
        languages=language_menu(lang),
    )


@dataclass(frozen=True)
class Response:
    status: int
    content_type: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


def json_response(status: int, data: object) -> Response:
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return Response(status, "application/json; charset=utf-8", body)


class Editor:
    """The editor of one project: what each request gets."""

    def __init__(self, project_root: Path, port: int, lang: str = "en"):
        self.root = project_root.resolve()
        self.lang = check_language(lang)  # the page's language unless ?lang= asks for another
        self.files = DiagramFiles.of(self.root)
        self.port = port
        # the page keeps its unsaved draft under this key: one per project folder, never a path
        self.project_key = digest(str(self.root).encode("utf-8"))[:16]

    def respond(
        self,
        method: str,
        target: str,
        headers: Mapping[str, str] | Iterable[tuple[str, str]],
        body: bytes,
    ) -> Response:
        """The answer to one request; a refusal is ``{"error": ...}`` with its status.

        ``headers``: the request's header lines, name and value, in any case.
        """
        try:
            return self._respond(method, target, header_fields(headers), body)
        except EditorError as error:
            return json_response(error.status, {**error.fields, "error": error.message})
        except DamaError as error:
            return json_response(422, {"error": str(error)})

    def _respond(self, method: str, target: str, headers: dict[str, str], body: bytes) -> Response:
        parts = urlsplit(target)
        path = parts.path
        check_origin(headers, self.port, writes=method == "POST")
        if method in ("GET", "HEAD"):
            return self._get(path, self._language(parse_qs(parts.query).get("lang", [None])[-1]))
        if method != "POST":
            raise EditorError(405, f"the editor takes GET and POST, not {method[:20]}")
        route = _POSTS.get(path)
        if route is None:
            raise EditorError(404, f"no such address: {path[:80]}")
        data = read_json(body)
        data["lang"] = self._language(data.get("lang"))
        return json_response(200, route(self, data))

    def _language(self, asked: object) -> str:
        """The language a request asks for (``lang``), else the editor's; 400 if not one of six."""
        if asked is None:
            return self.lang
        try:
            return check_language(asked)
        except LanguageError as error:
            raise EditorError(400, str(error)) from None

    def _get(self, path: str, lang: str) -> Response:
        if path == "/":
            return Response(200, "text/html; charset=utf-8", page_html(lang).encode("utf-8"))
        if path == "/api/start":
            names = self.files.names()
            return json_response(
                200,
                {
                    "diagrams": names,
                    "games": origins.game_files(self.root),
                    "project": self.project_key,
                    **analysis.choices(lang),
                },
            )
        name = path.removeprefix("/assets/")
        if name in _ASSETS:
            return Response(200, _ASSETS[name], (STATIC / name).read_bytes())
        if name == "favicon.svg":
            return Response(200, "image/svg+xml", (TEMPLATES / "favicon.svg").read_bytes())
        if name == "figure.css":
            return Response(200, "text/css; charset=utf-8", fence_css().encode("utf-8"))
        if name == "figure.js":
            return Response(200, "text/javascript; charset=utf-8", fence_scripts().encode())
        raise EditorError(404, f"no such address: {path[:80]}")

    # -- the API ---------------------------------------------------------------

    def position(self, data: dict[str, Any]) -> dict[str, object]:
        position = analysis.read_position(data.get("position"))
        refused: list[str] = []
        if data.get("cycle") is not None:
            square = analysis.square_number(data["cycle"])
            position, refused = analysis.cycle(position, square, data["lang"])
        move = analysis.read_move(data.get("move"))
        return {**analysis.analyse(position, move, data["lang"]), "refused": refused}

    def resolve(self, data: dict[str, Any]) -> dict[str, object]:
        position = analysis.read_position(data.get("position"))
        squares = data.get("squares")
        if not isinstance(squares, list) or len(squares) > 20:
            raise EditorError(400, "squares must be the list of squares clicked, start first")
        found = analysis.resolve(position, squares, data["lang"])
        move = analysis.read_move(found.get("move"))
        return {**found, "analysis": analysis.analyse(position, move, data["lang"])}

    def play(self, data: dict[str, Any]) -> dict[str, object]:
        return origins.play(self.root, data)

    def game(self, data: dict[str, Any]) -> dict[str, object]:
        return origins.game_moves(self.root, data)

    def preview(self, data: dict[str, Any]) -> dict[str, object]:
        draft = draft_from_json(data)
        name = data.get("name") or PREVIEW_ID
        name = check_name(name) if name != PREVIEW_ID else name
        text, verified = self._text(draft, self._opened_text(data), name)
        return {"yaml": text, **preview(verified, lang=data["lang"])}

    def open(self, data: dict[str, Any]) -> dict[str, object]:
        name = check_name(data.get("name"))
        raw = self.files.read(name)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise EditorError(422, f"{self.files.shown(name)} is not UTF-8 text") from None
        diagram = read_diagram(text, name, self.root)
        fields = draft_of(diagram, text)  # with its origin: how the file gives the board
        return {"name": name, "diagram": fields, "opened": digest(raw), "yaml": text}

    def save(self, data: dict[str, Any]) -> dict[str, object]:
        name = check_name(data.get("name"))
        draft = draft_from_json(data)
        opened = data.get("opened")
        if opened is not None and not isinstance(opened, str):
            raise EditorError(400, "opened must be the digest the editor gave when it opened")
        replace = data.get("replace")
        if replace is not None and not isinstance(replace, str):
            raise EditorError(400, "replace must be the digest the editor gave as exists")
        text, _ = self._text(draft, self._opened_text(data), name)  # verify's check first
        written = self.files.save(name, text.encode("utf-8"), opened, replace)
        shown = self.files.shown(name)
        lang = data["lang"]
        said = (
            tr(lang, "Saved {file}.", file=shown)
            if written
            else tr(lang, "{file} is unchanged: not rewritten.", file=shown)
        )
        after = tr(
            lang,
            "Its English title and caption enter the translation catalogs with the next "
            "dama-diagrams update-translations, like any diagram's; show it on a page with "
            "{call}.",
            call='figure("' + name + '")',
        )
        current = self.files.read(name)
        return {
            "saved": shown,
            "written": written,
            "message": f"{said} {after}",
            "opened": digest(current),
            "yaml": text,
        }

    def _text(self, draft: Draft, original: str | None, name: str) -> tuple[str, VerifiedDiagram]:
        """The file's text for ``draft`` and verify's verdict on it (a 422 if it refuses).

        A new file starts with the source note and the verdict as comments.
        """
        text = file_text(draft, original, self.root)
        verified = checked(text, name, self.root)
        if original is None:
            text = with_comment(text, verified.summary, draft.note)
            verified = checked(text, name, self.root)
        return text, verified

    def _opened_text(self, data: dict[str, Any]) -> str | None:
        """The opened file's text, when the request edits one (it names it and its digest)."""
        if data.get("opened") is None:
            return None
        raw = self.files.read(check_name(data.get("name")))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise EditorError(422, "the opened file is not UTF-8 text") from None


_POSTS = {
    "/api/position": Editor.position,
    "/api/resolve": Editor.resolve,
    "/api/play": Editor.play,
    "/api/game": Editor.game,
    "/api/preview": Editor.preview,
    "/api/open": Editor.open,
    "/api/save": Editor.save,
}


def handler_for(editor: Editor) -> type[http.server.BaseHTTPRequestHandler]:
    """The HTTP side: read the request, let :class:`Editor` answer, write the answer."""

    class EditorHandler(http.server.BaseHTTPRequestHandler):
        timeout = 30  # a client that stops sending mid-request frees its thread

        def version_string(self) -> str:
            return "dama-diagrams-editor"

        def do_GET(self) -> None:
            self._answer(b"")

        def do_HEAD(self) -> None:
            self._answer(b"")

        def do_POST(self) -> None:
            try:
                size = check_length(header_fields(self.headers.items()).get("content-length"))
            except EditorError as error:
                self._send(json_response(error.status, {"error": error.message}))
                self.close_connection = True  # the body is left unread
                return
            self._answer(self.rfile.read(size))

        def send_error(
            self, code: int, message: str | None = None, explain: str | None = None
        ) -> None:
            """The stdlib's own refusals (a bad request line, PUT, OPTIONS…) as JSON too."""
            said = message or self.responses.get(code, ("refused",))[0]
            self._send(json_response(code, {"error": f"the editor refuses this request: {said}"}))
            self.close_connection = True

        def _answer(self, body: bytes) -> None:
            try:
                response = editor.respond(self.command, self.path, self.headers.items(), body)
            except Exception as error:  # a bug: said in one line, never a traceback
                print(f"dama-diagrams editor: {type(error).__name__}: {error}", file=sys.stderr)
                response = json_response(500, {"error": f"the editor failed: {error}"})
            self._send(response)

        def _send(self, response: Response) -> None:
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
            for key, value in {**SECURITY_HEADERS, **response.headers}.items():
                self.send_header(key, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(response.body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the author looks at the page, not at a request log

    return EditorHandler


def listen_editor(
    project_root: Path, port: int = DEFAULT_PORT, lang: str = "en"
) -> http.server.ThreadingHTTPServer:
    """The editor's server, bound to 127.0.0.1:``port`` (0: any free port), in ``lang``."""
    editor = Editor(project_root, port, lang)
    server = bind((HOST, port), handler_for(editor), option="--port")
    if port == 0:  # the Host check needs the real port
        real = server.server_address[1]
        server.RequestHandlerClass = handler_for(Editor(project_root, real, lang))
    return server


def run_editor(project_root: Path, *, port: int = DEFAULT_PORT, lang: str = "en") -> None:
    """Serve the editor until Ctrl-C, printing where to open it."""
    server = listen_editor(project_root, port, lang)
    real = server.server_address[1]
    folder = DiagramFiles.of(project_root).folder
    said = f"the board editor is at http://{HOST}:{real}/ ; it writes to {folder}; Ctrl-C stops"
    serve_until_stopped(server, said)
