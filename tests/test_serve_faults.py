"""The live previews keep serving when a rebuild fails for any reason, a full disk included.

The disk is real: the servers' temporary folders are on a tmpfs of their own
(``unshare``, a private mount namespace), which the test fills up between two
edits, then empties again.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from .conftest import copy_project, free_port, running_cli

pytestmark = pytest.mark.slow


def _get(url: str, timeout: float = 10) -> tuple[int, str]:
    """Status and text of ``url``; a hung request fails the test (TimeoutError)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read().decode("utf-8", "replace")


def _wait_for(what: str, condition: object, errors: IO[str] | None = None) -> None:
    seconds = 240
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if callable(condition) and condition():
                return
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}\n{_log(errors) if errors else ''}")


@contextmanager
def _serving_on_a_small_disk(project: Path, *args: str) -> Iterator[tuple[str, IO[str], Path]]:
    """``dama-diagrams serve ARGS`` with TMPDIR on a 300 MB tmpfs of its own; the test fills it.

    Touch ``fill`` in the project to fill the disk (``filled`` appears when it
    is), and ``free`` to empty it again (``freed`` appears).  The disk is
    mounted at a short path: the fork server's socket lives there, and a
    socket's path holds at most 107 bytes (a longer one has its own test in
    ``test_workers.py``).
    """
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs unshare (util-linux)")
    port = free_port()
    disk = Path(tempfile.mkdtemp(prefix="dama-disk-", dir="/tmp"))
    script = (
        f"mount -t tmpfs -o size=300m tmpfs {disk} || exit 99; "
        f"TMPDIR={disk} {sys.executable} -m dama_diagrams serve {' '.join(args)} "
        f"--dev-addr 127.0.0.1:{port} & "
        "while [ ! -e fill ]; do sleep 0.1; done; "
        f"dd if=/dev/zero of={disk}/fill bs=1M 2>/dev/null; touch filled; "
        "while [ ! -e free ]; do sleep 0.1; done; "
        f"rm {disk}/fill; touch freed; wait"
    )
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(
            [unshare, "--map-root-user", "--mount", "sh", "-c", script],
            cwd=project, stdout=errors, stderr=errors, text=True, start_new_session=True,
        )  # fmt: skip
        try:
            yield f"http://127.0.0.1:{port}", errors, project
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            shutil.rmtree(disk, ignore_errors=True)  # the tmpfs went with its namespace


def _log(errors: IO[str]) -> str:
    errors.seek(0)
    return errors.read()


def _flag(project: Path, name: str, answer: str) -> None:
    (project / name).touch()
    _wait_for(answer, (project / answer).exists)


def _edit(project: Path, title: str) -> None:
    diagram = project / "diagrams" / "man-move.yaml"
    text = diagram.read_text(encoding="utf-8")
    edited = re.sub(r'(?m)^title: ".*"$', f'title: "{title}"', text)
    assert edited != text
    diagram.write_text(edited, encoding="utf-8")


@pytest.mark.long
def test_serve_keeps_the_last_good_site_on_a_full_disk_and_says_so(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    with _serving_on_a_small_disk(project) as (root, errors, _):
        page, svg = f"{root}/en/man/", f"{root}/en/assets/diagrams/man-move.svg"
        _wait_for("the first build", lambda: _get(page)[0] == 200, errors)
        assert "dama-build-error" not in _get(page)[1]
        _flag(project, "fill", "filled")
        _edit(project, "An edit on a full disk")
        _wait_for("the failed rebuild", lambda: "does not build" in _log(errors))
        status, text = _get(page)
        assert status == 200, _log(errors)
        assert "dama-build-error" in text and "No space left on device" in text
        assert '<html lang="en"' in text and "</html>" in text  # the page from before, whole
        assert "A man moves" in _get(svg)[1]  # the diagram from before
        assert _get(f"{root}/it/")[0] == 200  # every language is still served
        _flag(project, "free", "freed")
        _edit(project, "An edit with room again")
        # MkDocs copies the diagrams before it writes the pages: wait for both.
        _wait_for(
            "the rebuild, without the banner",
            lambda: (
                "An edit with room again" in _get(svg)[1]
                and "dama-build-error" not in _get(page)[1]
            ),
            errors,
        )
        log = _log(errors)
    assert "Traceback" not in log, log


def test_serve_of_one_language_never_hangs_after_a_failed_rebuild(tmp_path: Path) -> None:
    """A rebuild that MkDocs itself fails (a broken mkdocs.yml): before, every request hung."""
    project = copy_project(tmp_path)
    port = free_port()
    with running_cli(
        "serve", "--lang", "en", "--dev-addr", f"127.0.0.1:{port}", cwd=project
    ) as cli:
        root = f"http://127.0.0.1:{port}"
        svg = f"{root}/assets/diagrams/man-move.svg"
        _wait_for("the first build", lambda: _get(svg)[0] == 200)
        config = project / "mkdocs.yml"
        good = config.read_text(encoding="utf-8")
        config.write_text(good + "theme: [\n", encoding="utf-8")
        _edit(project, "An edit while mkdocs.yml is broken")
        _wait_for("the failed rebuild", lambda: "does not build" in _log(cli.errors), cli.errors)
        assert "mkdocs.yml" in _log(cli.errors)
        started = time.monotonic()
        status, text = _get(f"{root}/king/", timeout=5)
        assert status == 200 and time.monotonic() - started < 5
        assert '<html lang="en"' in text
        config.write_text(good, encoding="utf-8")
        _edit(project, "An edit with mkdocs.yml mended")
        _wait_for("the rebuild", lambda: "mkdocs.yml mended" in _get(svg)[1], cli.errors)
        log = _log(cli.errors)
    assert "Traceback" not in log, log
