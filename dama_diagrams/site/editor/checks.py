"""What the editor checks before it acts on a request: who asks, how much, and which file.

The editor writes files, so a web page open in the author's browser must not
be able to drive it: a request whose ``Host`` is not the editor's own address
(DNS rebinding) or whose ``Origin`` is another site's is refused with 403; a
POST must say it sends JSON, which a plain cross-origin form cannot (it would
need a CORS preflight, which the editor never grants).  Header names are
read as HTTP says, whatever their case (``origin:`` is ``Origin:``), and a
header the editor reads that comes twice is refused: which one would count is
a guess.  Names of diagrams are checked against the ids the project accepts,
so a write never leaves ``diagrams/``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from ...diagram.schema import ID_PATTERN

MAX_BODY = 256 * 1024
"""A request body is a diagram's fields: a few hundred bytes; far more is a mistake or an attack."""

MAX_NAME = 64
"""The longest diagram id the editor writes: the project's longest is about 35 characters."""

MAX_DIGITS = 100
"""The longest number a request may hold: the editor's numbers are squares (1 to 32)."""

LOCAL_HOSTS = ("127.0.0.1", "localhost")

READ_HEADERS = ("host", "origin", "sec-fetch-site", "content-type", "content-length")
"""Every header the editor reads, by its name in lower case."""


class EditorError(Exception):
    """A request the editor refuses: an HTTP status and one sentence for the page.

    ``fields``: what the page may act on besides the sentence, sent beside
    ``error`` (the digest of a file a save would replace, say).
    """

    def __init__(self, status: int, message: str, fields: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.fields = fields or {}


def own_hosts(port: int) -> frozenset[str]:
    """The ``Host`` values that name this editor: its own address, nothing else."""
    return frozenset(f"{host}:{port}" for host in LOCAL_HOSTS)


def header_fields(headers: Mapping[str, str] | Iterable[tuple[str, str]]) -> dict[str, str]:
    """The headers the editor reads, by their names in lower case: HTTP names ignore case.

    RFC 9110, 5.1: ``origin:`` is ``Origin:``.  Each of these headers is sent
    once; a request that sends one twice, in any case, is refused (400).
    """
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    fields: dict[str, str] = {}
    for name, value in pairs:
        key = name.lower()
        if key not in READ_HEADERS:
            continue
        if key in fields:
            raise EditorError(400, f"the request sends the {name[:40]} header twice; send it once")
        fields[key] = value
    return fields


def check_origin(headers: Mapping[str, str], port: int, *, writes: bool) -> None:
    """Refuse (403) a request for another host, or from another site's page.

    ``headers`` are :func:`header_fields`, by lower-case name.  ``writes``: a
    POST, which must also say ``Content-Type: application/json`` (415
    otherwise), the one thing a cross-origin form or image cannot send.
    """
    hosts = own_hosts(port)
    host = headers.get("host")
    if host not in hosts:
        raise EditorError(
            403,
            f"this editor answers only requests for http://127.0.0.1:{port}/, not for the host "
            f"{_shown(host)}; open http://127.0.0.1:{port}/ in the browser",
        )
    origin = headers.get("origin")
    if origin is not None and origin not in {f"http://{each}" for each in hosts}:
        raise EditorError(
            403,
            f"requests from {_shown(origin)} are refused: only the editor's own page, "
            f"http://127.0.0.1:{port}/, may use it",
        )
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise EditorError(403, f"a {site} request is refused: only the editor's own page may ask")
    if writes:
        kind = (headers.get("content-type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise EditorError(
                415, f"the editor takes JSON (Content-Type: application/json), not {_shown(kind)}"
            )


def read_json(body: bytes) -> dict[str, Any]:
    """The request's JSON object, or a 400 saying what is wrong with it."""
    try:
        data = json.loads(body.decode("utf-8"), parse_int=_whole_number)
    except UnicodeDecodeError:
        raise EditorError(400, "the request is not UTF-8 text") from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        message = getattr(error, "msg", "too deeply nested")
        raise EditorError(400, f"the request is not valid JSON: {message}") from None
    if not isinstance(data, dict):
        raise EditorError(400, 'the request must be a JSON object, such as {"position": "..."}')
    return data


def _whole_number(digits: str) -> int:
    """A JSON whole number, refused (400) past :data:`MAX_DIGITS` digits.

    Python converts at most 4,300 digits, and slowly near that; no field needs 100.
    """
    count = len(digits.lstrip("-"))
    if count > MAX_DIGITS:
        raise EditorError(
            400,
            f"the request holds a number of {count:,} digits, longer than any field takes "
            f"(at most {MAX_DIGITS}; a square is 1 to 32); send the field's real value",
        )
    return int(digits)


def check_length(length: str | None) -> int:
    """The body's length from ``Content-Length``: 411 without one, 413 over :data:`MAX_BODY`."""
    if length is None or not (length.isascii() and length.isdigit()) or len(length) > 12:
        raise EditorError(411, "the request needs a Content-Length header with its size")
    size = int(length)
    if size > MAX_BODY:
        raise EditorError(
            413, f"the request is {size} bytes; the editor takes at most {MAX_BODY // 1024} KiB"
        )
    return size


_NAME_HINT = (
    "a diagram's name is its file name without .yaml: lowercase letters, digits and '-', "
    f"starting with a letter or digit, at most {MAX_NAME} characters (as king-first-capture)"
)


def check_name(name: object) -> str:
    """A diagram id the editor may write as ``diagrams/<name>.yaml``, or a 400 saying why not.

    The id pattern of diagram files (:data:`~dama_diagrams.diagram.schema.ID_PATTERN`)
    already leaves out ``/``, ``..``, a leading dot and every control character.
    """
    if not isinstance(name, str) or not name:
        raise EditorError(400, f"give the diagram a name: {_NAME_HINT}")
    if len(name) > MAX_NAME:
        raise EditorError(400, f"the name is {len(name)} characters long; {_NAME_HINT}{_try(name)}")
    if not ID_PATTERN.fullmatch(name):
        raise EditorError(
            400, f"{_shown(name)} cannot be a diagram's name: {_NAME_HINT}{_try(name)}"
        )
    if name.split(".")[0].upper() in WINDOWS_RESERVED:
        raise EditorError(
            400,
            f"{name!r} cannot be a diagram's name: Windows reserves it for a device, so a "
            f"checkout of the project there would fail; try '{name}-diagram'",
        )
    return name


WINDOWS_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL"]
    + [f"{port}{number}" for port in ("COM", "LPT") for number in range(1, 10)]
)
"""File names Windows keeps for devices, whatever their extension: diagrams/con.yaml is one."""


def suggested_name(text: str) -> str:
    """A diagram id made of ``text``: accents dropped, other signs as '-' (``regola-2-e``)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:MAX_NAME].rstrip("-")


def _try(name: str) -> str:
    suggestion = suggested_name(name)
    return f"; try {suggestion!r}" if suggestion and ID_PATTERN.fullmatch(suggestion) else ""


def text_field(data: Mapping[str, Any], key: str, *, limit: int = 4000) -> str | None:
    """An optional text of the request, or a 400; ``None`` when absent, empty or blank."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise EditorError(400, f"{key} must be text")
    if len(value) > limit:
        raise EditorError(400, f"{key} is {len(value)} characters long; at most {limit}")
    return value.strip() or None


def _shown(text: str | None) -> str:
    """User input quoted in a message, short and without control characters."""
    if text is None:
        return "(none)"
    clean = "".join(char if char.isprintable() else "?" for char in text)
    return repr(clean if len(clean) <= 60 else f"{clean[:57]}...")
