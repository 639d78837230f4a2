"""Faults during a build: what is on disk afterwards, with real signals and real processes.

Each test reproduces a finding of a hostile review (issue 9): an interrupt
between the two renames of the swap, one during the cleanup, a SIGKILLed build
whose workers lived on, a killed worker, a full disk, and a foreign MkDocs
site that a build replaced.  The swap's signal is sent by ``strace -e inject``
as the exchange is called, so it always lands inside the window.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from dama_diagrams.site import SITE_MARKER
from tests.conftest import copy_project, run_cli

pytestmark = pytest.mark.slow

STRACE = shutil.which("strace")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def _built(project: Path) -> Path:
    """A site from an earlier build, with a file to recognise it by."""
    assert run_cli("build", "--lang", "en", cwd=project).returncode == 0
    (project / "site" / "en" / "earlier.txt").write_text("the previous site")
    return project / "site"


def _leftovers(project: Path) -> list[str]:
    return sorted(p.name for p in project.iterdir() if "-build-" in p.name)


def _wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


def _sigterm_at_the_swap(project: Path) -> subprocess.CompletedProcess[str]:
    """``build --lang en`` under strace, which sends SIGTERM as the build calls renameat2:
    the one call that exchanges the old site and the new."""
    if STRACE is None:
        pytest.skip("needs strace (apt-get install strace)")
    return subprocess.run(
        [STRACE, "-f", "-o", os.devnull, "-e", "trace=renameat2",
         "-e", "inject=renameat2:signal=SIGTERM",
         sys.executable, "-m", "dama_diagrams", "build", "--lang", "en"],
        cwd=project, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_sigterm_during_the_swap_keeps_exactly_one_site(project: Path) -> None:
    """The old and new sites are exchanged in one step: SIGTERM during it changes nothing.

    The signal comes with the exchange itself (strace injects it into renameat2),
    so it cannot miss its moment on a busy machine, as a signal sent by the test
    while strace slowed the call sometimes did.
    """
    site = _built(project)
    result = _sigterm_at_the_swap(project)
    assert "Traceback" not in result.stderr
    assert result.returncode == 0, result.stderr  # the new site was published: a success
    assert (site / SITE_MARKER).is_file() and (site / "en" / "index.html").is_file()
    assert not (site / "en" / "earlier.txt").exists()
    assert _leftovers(project) == []


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def _workers(pid: int, project: Path) -> list[int]:
    """The build's worker processes, once it has handed one a language to build.

    Forked, so with the build's command line; and not before the first language
    is in the staging folder, when the only child may be the ``ldconfig`` that
    cairocffi runs to find the cairo library, forked but not yet replaced.
    """

    def command(process: int) -> bytes:
        try:
            return Path(f"/proc/{process}/cmdline").read_bytes()
        except OSError:
            return b""

    if not list(project.glob(".site-build-*/src/*/mkdocs.yml")):
        return []
    own = command(pid)
    return [child for child in _children(pid) if command(child) == own]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _build_in_background(project: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "dama_diagrams", "build"],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_workers_die_with_a_sigkilled_build(project: Path) -> None:
    build = subprocess.Popen(  # no pipes: a worker holding them open would delay the wait
        [sys.executable, "-m", "dama_diagrams", "build"],
        cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _wait_for(lambda: len(_workers(build.pid, project)) > 0, 60, "the workers to start")
    workers = _workers(build.pid, project)
    time.sleep(0.2)  # past their start-up: inside MkDocs
    build.kill()
    build.wait(timeout=30)
    # At once, not when their MkDocs run ends: a worker's job takes far longer than this.
    _wait_for(lambda: not any(map(_alive, workers)), 0.15, f"workers {workers} to exit")


def test_a_killed_worker_is_one_clear_line_and_the_old_site_stays(project: Path) -> None:
    site = _built(project)
    build = _build_in_background(project)
    _wait_for(lambda: len(_workers(build.pid, project)) > 0, 60, "the workers to start")
    os.kill(_workers(build.pid, project)[0], signal.SIGKILL)
    _, err = build.communicate(timeout=120)
    assert build.returncode == 1
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "worker process building it was killed (SIGKILL)" in err
    assert "if the system ran out of memory" in err  # SIGKILL is the OOM killer's signal
    assert (site / "en" / "earlier.txt").read_text() == "the previous site"
    assert _leftovers(project) == []


def test_a_full_disk_leaves_no_partial_card_in_the_cache(project: Path) -> None:
    """The card cache on a 150 kB disk of its own (a tmpfs in a private mount namespace)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs unshare (util-linux)")
    shutil.rmtree(project / ".cache", ignore_errors=True)  # every card is drawn and stored
    cards = project / ".cache" / "dama-diagrams" / "cards"
    cards.mkdir(parents=True)
    script = (
        f"mount -t tmpfs -o size=150k tmpfs {cards} || exit 99; "
        f'{sys.executable} -m dama_diagrams build --lang en; echo "exit=$?" >&2; '
        f"ls -a {cards} >&2"
    )
    result = subprocess.run(
        [unshare, "--map-root-user", "--mount", "sh", "-c", script],
        cwd=project, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert "exit=1" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert "No space left on device" in result.stderr
    assert ".tmp" not in result.stderr  # the listing of the cache: whole cards only
    assert _leftovers(project) == []
    assert not (project / "site").exists()


def test_a_build_never_replaces_another_mkdocs_site(project: Path) -> None:
    www = project / "www"
    for name in ("blog/post.html", "blog/search/search_index.json",
                 "wiki/search/search_index.json", "index.html"):  # fmt: skip
        (www / name).parent.mkdir(parents=True, exist_ok=True)
        (www / name).write_text("someone's")
    result = run_cli("build", "--lang", "en", "--out", "www", cwd=project)
    assert result.returncode == 1
    assert "was not made by dama-diagrams" in result.stderr
    assert (www / "blog" / "post.html").read_text() == "someone's"
    assert (www / "wiki" / "search" / "search_index.json").is_file()
