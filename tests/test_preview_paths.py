"""``preview`` answers every odd request path with a status, decodes it once, and stays quiet.

The server is the real command on a free port; the requests are sent byte for
byte with :mod:`http.client`, which neither normalises nor re-encodes a path.
The site is a small hand-made one: which file a path names is known exactly.
"""

from __future__ import annotations

import http.client
import socket
import struct
import time
from pathlib import Path

import pytest

from tests.conftest import copy_project, free_port, run_cli, running_cli

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


# ------------------------------------------------------------------------------
# Round 3 of the hostile review: S01-S03, SV01-SV03 and B06.
#
# A client that hangs up (a reset in the middle of a request, or of a download)
# is normal: the servers print nothing and keep serving.  Numbers are ASCII
# digits: ``²`` or Arabic digits in a port or in SOURCE_DATE_EPOCH are one line.


def _reset(port: int, data: bytes, host: str = "127.0.0.1") -> None:
    """Send ``data``, then hang up with a reset (SO_LINGER 0), as a stopped download does."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as client:
        client.connect((host, port))
        client.sendall(data)
        time.sleep(0.1)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def _status(port: int, path: str = "/", host: str = "127.0.0.1") -> int:
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


def _wait(port: int, host: str = "127.0.0.1", path: str = "/") -> None:
    """Until ``path`` is served: ``serve`` listens before its first build is done."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if _status(port, path, host) == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError("the server never answered")


def _hang_ups(port: int, big: str, host: str = "127.0.0.1") -> None:
    """Partial requests and unread downloads, each ended by a reset."""
    for _ in range(5):
        _reset(port, b"GET / HTTP/1.1\r\nHost: x", host)
        _reset(port, f"GET {big} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), host)


@pytest.mark.slow
def test_preview_prints_nothing_when_clients_hang_up(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    site = project / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><body>index</body></html>", encoding="utf-8")
    (site / "big.bin").write_bytes(b"x" * 20_000_000)  # more than any socket buffer
    port = free_port()
    printed = _printed_after_hang_ups(project, port, "/big.bin", "preview", "--port", str(port))
    assert "Traceback" not in printed and "Error" not in printed, printed[:2000]


@pytest.mark.slow
def test_serve_of_one_language_prints_nothing_when_clients_hang_up(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    port = free_port()
    address = f"127.0.0.1:{port}"
    printed = _printed_after_hang_ups(
        project,
        port,
        "/assets/javascripts/bundle.js",
        "serve",
        "--lang",
        "en",
        "--dev-addr",
        address,
    )
    assert "Traceback" not in printed, printed[:2000]


def _printed_after_hang_ups(project: Path, port: int, path: str, *command: str) -> str:
    """What a server printed on stderr while clients hung up on ``path``; it still serves."""
    with running_cli(*command, cwd=project) as cli:
        _wait(port)
        _hang_ups(port, path)
        time.sleep(0.5)
        assert _status(port) == 200
        cli.errors.seek(0)
        return str(cli.errors.read())


def _ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(not _ipv6(), reason="no IPv6 loopback on this machine")
def test_serve_of_every_language_on_ipv6(tmp_path: Path) -> None:
    """``--dev-addr [::1]:PORT`` serves there (before: "choose another --out")."""
    project = copy_project(tmp_path)
    port = free_port()
    with running_cli("serve", "--dev-addr", f"[::1]:{port}", cwd=project) as cli:
        _wait(port, host="::1", path="/en/")
        _hang_ups(port, "/en/", host="::1")
        assert _status(port, "/en/", host="::1") == 200
        cli.errors.seek(0)
        printed = cli.errors.read()
    assert "Traceback" not in printed, printed[:2000]


@pytest.mark.parametrize(
    "port", ["²", "1²", "\u0668\u0660\u0660\u0660", "8_000", "+8000", " 8000", "99999999999"]
)
def test_a_dev_addr_port_is_ascii_digits(tmp_path: Path, port: str) -> None:
    project = copy_project(tmp_path)
    for args in (["serve"], ["serve", "--lang", "en"]):
        result = run_cli(*args, "--dev-addr", f"127.0.0.1:{port}", cwd=project)
        assert result.returncode != 0 and "Traceback" not in result.stderr
        assert result.stderr.strip().splitlines() == [
            f"dama-diagrams: --dev-addr '127.0.0.1:{port}' is not HOST:PORT with a port from "
            "1 to 65535; for example --dev-addr 127.0.0.1:8000"
        ]


def test_a_dev_addr_in_mkdocs_yml_is_checked_too(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "dev_addr: '127.0.0.1:²'\n", "utf-8")
    result = run_cli("serve", cwd=project)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "is not HOST:PORT with a port from 1 to 65535" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "value", ["²", "1²", "\u0661\u0667" + "\u0660" * 8, "1_700_000_000", "-1", "1e9"]
)
def test_source_date_epoch_is_ascii_digits(tmp_path: Path, value: str) -> None:
    project = copy_project(tmp_path)
    result = run_cli(
        "booklet",
        "--lang",
        "en",
        "--out",
        tmp_path / "books",
        cwd=project,
        env={"SOURCE_DATE_EPOCH": value},
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"dama-diagrams: SOURCE_DATE_EPOCH={value!r} is not a time: set it to the whole seconds "
        "since 1970 (such as the last commit's: git log -1 --format=%ct), or unset it"
    ]


@pytest.mark.parametrize("value", ["²", "\u0668\u0660", "1_0", "9" * 5000, "08000000"])
def test_a_port_on_the_command_line_is_ascii_digits(tmp_path: Path, value: str) -> None:
    result = run_cli("preview", "--port", value, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].endswith("is not a port from 1 to 65535")


@pytest.mark.parametrize("value", ["1_0", "\u0661"])
def test_seconds_on_the_command_line_are_ascii(tmp_path: Path, value: str) -> None:
    result = run_cli("find", "--time", value, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "is not a number of seconds" in result.stderr.strip().splitlines()[-1]
