"""``preview`` answers every odd request path with a status, decodes it once, and stays quiet.

The server is the real command on a free port; the requests are sent byte for
byte with :mod:`http.client`, which neither normalises nor re-encodes a path.
The site is a small hand-made one: which file a path names is known exactly.
"""

from __future__ import annotations

import http.client
import time
from pathlib import Path

import pytest

from .conftest import copy_project, free_port, running_cli

PAGES = {
    "index.html": "root index",
    "404.html": "root 404",
    "en/index.html": "english index",
    "en/404.html": "english 404",
    "en/%00/index.html": "a folder named %00",
}


def make_site(folder: Path) -> Path:
    """A site whose every file says which it is."""
    for name, text in PAGES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(f"<html><body>{text}</body></html>", encoding="utf-8")
    return folder


def request(port: int, path: str, method: str = "GET") -> tuple[int, str]:
    """Status and body of ``path``, sent exactly as given."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", f"127.0.0.1:{port}")
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def wait_until_served(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if request(port, "/")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the preview never answered")


ODD_PATHS = [
    ("/%00", 404, "root 404"),  # a NUL: no file has it (before: no reply at all)
    ("/%2500", 404, "root 404"),  # decoded once: a file named %00, which there is not
    ("/en/%2500/", 200, "a folder named %00"),  # ... and which is served where there is one
    ("/" + "a" * 300, 404, "root 404"),  # longer than any file name (before: no reply)
    ("/en/" + "a" * 300 + "/x", 404, "english 404"),
    ("/" + "a" * 300 + "/", 404, "root 404"),
    ("/en/%3f/../../", 404, "english 404"),  # %3f is a file named ?, not a query
    ("/en/%0a", 404, "english 404"),
    ("/en/%7f", 404, "english 404"),
    ("/en/%ff%fe", 404, "english 404"),
    ("/../../etc/passwd", 404, "root 404"),
    ("/en/", 200, "english index"),
]


@pytest.mark.slow
def test_odd_request_paths_get_404_and_nothing_is_printed(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    make_site(project / "site")
    port = free_port()
    with running_cli("preview", "--port", str(port), cwd=project) as cli:
        wait_until_served(port)
        answers = [(path, *request(port, path)) for path, _, _ in ODD_PATHS]
        head = request(port, "/%00", method="HEAD")
        cli.errors.seek(0)
        printed = cli.errors.read()
    for (path, status, body), (_, wanted, text) in zip(answers, ODD_PATHS, strict=True):
        assert (status, text in body) == (wanted, True), (path[:40], status, body[:80])
    assert head == (404, "")
    assert printed == ""


@pytest.mark.slow
def test_serve_of_one_language_answers_odd_paths_with_404(tmp_path: Path) -> None:
    """``serve --lang`` is MkDocs' own server, with the same guard in front of it."""
    project = copy_project(tmp_path)
    port = free_port()
    address = f"127.0.0.1:{port}"
    with running_cli("serve", "--lang", "en", "--dev-addr", address, cwd=project) as cli:
        wait_until_served(port)
        odd = ["/%00", "/%2500", "/" + "a" * 300, "/en/%3f/../../", "/man/../../", "/%ff", "/%0a"]
        answers = {path[:20]: request(port, path)[0] for path in odd}
        assert request(port, "/man/")[0] == 200
        cli.errors.seek(0)
        printed = cli.errors.read()
    assert set(answers.values()) == {404}, answers
    assert "Traceback" not in printed and "ERROR" not in printed, printed
