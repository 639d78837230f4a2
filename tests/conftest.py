"""Shared fixtures: the system Chromium, for every browser test."""

from __future__ import annotations

import compileall
import json
import locale
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from dama_diagrams.site.booklet import BookSources

ROOT = Path(__file__).resolve().parent.parent

# The many small builds of the suite leave the printed books out (they take longer than the
# HTML); tests/test_booklet.py builds them, and checks a build that includes them.
os.environ.setdefault("DAMA_DIAGRAMS_BOOKS", "0")

MEMORY_DISK = Path("/dev/shm")
MEMORY_NEEDED = 4 << 30
"""Room the suite's temporary files need on the memory disk: a run writes some 1.6 GB."""


def keep_temporary_files_in_memory(disk: Path = MEMORY_DISK) -> None:
    """Put the suite's temporary files (TMPDIR, so pytest's folders too) on a memory disk.

    The tests copy the project, build sites and write caches, and the code syncs
    each file it writes whole (``_files.atomic_file``): on this project's virtual
    disk each sync waits for the device, and a single test file spent a fifth of
    its time waiting.  The tests are the same on either disk.  A TMPDIR of the
    user's own is kept, and so is the disk when the memory disk lacks the room.
    """
    if "TMPDIR" in os.environ or not os.access(disk, os.W_OK | os.X_OK):
        return
    room = os.statvfs(disk)
    if room.f_bavail * room.f_frsize < MEMORY_NEEDED:
        return
    os.environ["TMPDIR"] = str(disk)  # for the commands the tests run, and their workers
    tempfile.tempdir = None  # tempfile.gettempdir() reads TMPDIR again


keep_temporary_files_in_memory()


CARDS = Path(".cache") / "dama-diagrams" / "cards"
"""The social cards' cache, as the build keeps it in a project (``site/pages/cards.py``)."""


def copy_project(folder: Path, *, cards: bool = True) -> Path:
    """A copy of the project's inputs (diagrams, pages, catalogs, config) that a test may break.

    ``babel.cfg`` says where the English text lives.  The code's own messages
    (``dama_diagrams/site/messages.py``) are not copied: a ``dama_diagrams``
    folder in the copy would shadow the package for commands run there, and
    extraction reads them from the installed package when the project has none.

    With ``cards``, the checkout's cache of social cards comes along when it has
    one (the session's ``built_site`` and ``.ci/run``'s build fill it), as a
    second build on an author's machine has it: a build in the copy then draws
    only the cards of what the test changed.  A cached card is the drawn card's
    bytes, keyed by the hash of what it shows, so no page differs; the tests of
    drawing itself pass ``cards=False`` or empty the cache.
    """
    copy = folder / "project"
    copy.mkdir()
    for name in ("diagrams", "docs", "games"):
        shutil.copytree(ROOT / name, copy / name)
    for name in ("mkdocs.yml", "babel.cfg"):
        shutil.copy(ROOT / name, copy / name)
    if cards and (ROOT / CARDS).is_dir():
        shutil.copytree(ROOT / CARDS, copy / CARDS, ignore=shutil.ignore_patterns("*.tmp"))
    return copy


def book_sources(
    pages: dict[str, str],
    assets: dict[str, bytes] | None = None,
    templates: dict[str, str] | None = None,
    messages: dict[str, tuple[tuple[str, int], ...]] | None = None,
) -> BookSources:
    """A small English book of hand-written pages (and their pictures); ``templates`` the
    text of each page's template (where a warning finds its line), ``messages`` its
    catalog's lines."""
    from dama_diagrams.site.booklet import BookSources
    from dama_diagrams.site.booklet.places import TemplatePlaces

    places = {
        name: TemplatePlaces(
            f"docs/pages/{name}.md.j2",
            tuple(text.splitlines()),
            (messages or {}).get(name, ()),
        )
        for name, text in (templates or {}).items()
    }
    return BookSources(
        language="en",
        title="Rules & more",
        language_name="English",
        date="November 14, 2023",
        contents="Contents",
        solutions="Solutions",
        pages=tuple(pages.items()),
        assets=assets or {},
        games=frozenset(),
        places=places,
    )


def book_markup(pages: dict[str, str], assets: dict[str, bytes] | None = None) -> str:
    """The Typst markup of a small English book of hand-written pages (and their pictures)."""
    from dama_diagrams.site.booklet import book_document

    return book_document(book_sources(pages, assets)).markup


def run_cli(
    *args: str | Path,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    fresh: bool = False,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """Run ``dama-diagrams`` as a user does: a new process, its exit code and its output.

    ``env`` adds variables to this process's environment.  The process is
    forked from a warm interpreter (``tests/warm_cli.py``), which saves the
    start and the imports; a new interpreter runs it instead when the
    environment changes how Python starts (``PYTHONPATH``, the locale...), when
    ``DAMA_TESTS_FRESH`` is set (to run the whole suite so), or when ``fresh``
    asks for one.  ``fresh`` is for a command that needs a hash seed of its
    own: the forks share their server's, so a set would iterate alike in all.
    """
    command = [sys.executable, "-m", "dama_diagrams", *map(str, args)]
    environment = {**os.environ, **(env or {})}
    server = None if fresh else _warm_server_for(environment)
    if server is not None:
        return server.run(command, Path(cwd or os.getcwd()), environment, timeout)
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        timeout=timeout,
        env=environment,
    )


def fails_cleanly(result: subprocess.CompletedProcess[str], where: str) -> str:
    """A refusal as bad input must get one: exit non-zero, no traceback, ``where`` on stderr.

    Returns stderr, for the test's own checks of the message.  At most three lines:
    argparse adds its usage line to a bad command line's one.
    """
    stderr = result.stderr
    assert result.returncode != 0, stderr
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) <= 3, stderr
    assert where in stderr, stderr
    return stderr


def _warm_server_for(environment: dict[str, str]) -> _WarmServer | None:
    """The warm interpreter, if a command in ``environment`` may be forked from it."""
    if os.environ.get("DAMA_TESTS_FRESH"):
        return None
    server = _warm_server()
    return server if server.startup == _startup(environment) else None


def _startup(environment: dict[str, str]) -> dict[str, str]:
    """The variables Python reads as it starts (its paths, flags and locale): a fork has them."""
    return {
        name: value
        for name, value in environment.items()
        if name.startswith(("PYTHON", "LC_")) or name == "LANG"
    }


@dataclass
class _WarmServer:
    """This worker's ``tests/warm_cli.py``, and the start-up environment its forks have."""

    process: subprocess.Popen[str]
    startup: dict[str, str]

    def run(
        self, command: list[str], cwd: Path, env: dict[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        """What ``subprocess.run(command, capture_output=True, text=True)`` gives."""
        with tempfile.TemporaryDirectory() as folder:
            out, err = Path(folder) / "stdout", Path(folder) / "stderr"
            out.touch()
            err.touch()
            answer = self._ask(command, cwd, env, out, err, timeout=timeout)
            if answer["timed_out"]:
                raise subprocess.TimeoutExpired(command, timeout)
            # as subprocess decodes text: the locale's encoding, universal newlines
            encoding = locale.getpreferredencoding(False)
            output, errors = out.read_text(encoding), err.read_text(encoding)
        return subprocess.CompletedProcess(command, answer["status"], output, errors)

    def start(
        self, command: list[str], cwd: Path, env: dict[str, str], errors: Path, status: Path
    ) -> _Forked:
        """What ``Popen(command, stdout=DEVNULL, stderr=errors, start_new_session=True)`` gives."""
        answer = self._ask(command, cwd, env, Path(os.devnull), errors, status=str(status))
        return _Forked(answer["pid"], status)

    def _ask(
        self,
        command: list[str],
        cwd: Path,
        env: dict[str, str],
        stdout: Path,
        stderr: Path,
        **how: float | str,
    ) -> dict[str, Any]:
        """One request line to the server, and its answer line (see ``tests/warm_cli.py``).

        ``how`` is the ``timeout`` of a command waited for, or the ``status``
        file of one started in the background.
        """
        assert self.process.stdin and self.process.stdout
        request = {"args": command[1:], "cwd": str(cwd), "env": env,
                   "stdout": str(stdout), "stderr": str(stderr), **how}  # fmt: skip
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer


@dataclass
class _Forked:
    """A command the warm server forked in the background: the little of ``Popen`` tests use.

    The server is its parent: it writes the exit status to ``status`` when it ends.
    """

    pid: int
    status: Path
    returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None and self.status.exists():
            self.returncode = int(self.status.read_text(encoding="utf-8"))
        return self.returncode

    def wait(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while (code := self.poll()) is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout)
            time.sleep(0.02)
        return code

    def send_signal(self, number: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, number)


_warm: list[_WarmServer] = []
"""This worker's warm server, started by the first command."""


def _warm_server() -> _WarmServer:
    if not _warm or _warm[0].process.poll() is not None:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.warm_cli"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        _warm[:] = [_WarmServer(process, _startup(dict(os.environ)))]
    return _warm[0]


def warm_server_pid() -> int:
    """This process's warm interpreter, started if need be: its forks are its children."""
    return _warm_server().process.pid


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Background:
    """A command running in the background, with its error output kept in a file."""

    process: subprocess.Popen[str] | _Forked
    errors: IO[str]

    def stop_with_sigterm(self) -> str:
        """Send SIGTERM: the command must stop as killed by it, without a traceback."""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)
        self.errors.seek(0)
        text = self.errors.read()
        assert self.process.returncode == 128 + signal.SIGTERM, text
        assert "Traceback" not in text
        return text


@contextmanager
def running_cli(*args: str, cwd: Path) -> Iterator[Background]:
    """``dama-diagrams`` in the background; whatever happens, it is gone afterwards.

    Its error output goes to a file, so a chatty server can never fill a pipe and block.
    Like :func:`run_cli`, it is forked from the warm interpreter when it can be.
    """
    command = [sys.executable, "-m", "dama_diagrams", *args]
    with (
        tempfile.TemporaryDirectory() as folder,
        open(Path(folder) / "stderr", "w+", encoding=locale.getpreferredencoding(False)) as errors,
    ):
        process: subprocess.Popen[str] | _Forked
        environment = dict(os.environ)
        server = _warm_server_for(environment)
        if server is not None:
            status = Path(folder) / "status"
            process = server.start(command, cwd, environment, Path(errors.name), status)
        else:
            process = subprocess.Popen(
                command,
                cwd=cwd,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                text=True,
                start_new_session=True,
            )
        try:
            yield Background(process, errors)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)  # lets it clean up after itself
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=15)


CHROMIUM = Path(
    shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium"
)
"""Debian's Chromium; Playwright never downloads a browser of its own here.

Its headless shell (``apt-get install chromium-headless-shell``) is preferred:
the same build of Chromium's engine, without the desktop browser around it,
as Playwright itself runs headless tests.  It takes about a sixth less
processor time for the same tests.  Without it, the full ``chromium`` runs them.
"""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    # This machine has no internet: keep Chromium from trying to reach it.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session; in CI a missing browser fails, never skips."""
    if not CHROMIUM.exists() and not os.environ.get("CI"):
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


DEFAULT_VIEWPORT = {"width": 1280, "height": 720}
"""Playwright's viewport for a new page."""


@dataclass
class _Tab:
    """The worker's one browser tab, and what the current test left in it."""

    browser: Any
    context: Any = None
    page: Any = None
    origins: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)

    def open(self) -> None:
        """A new tab, in a context of its own: at first, and after a test broke the last one."""
        self.context = self.browser.new_context()
        self.page = self.context.new_page()
        self.page.on("framenavigated", lambda frame: _remember_origin(self, frame.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def forget(self) -> None:
        """Leave nothing a new page would not have: cookies, storage, script errors.

        localStorage, IndexedDB and the like go for every origin the test
        visited; sessionStorage, which belongs to the tab, for the page it ended on.
        A tab that cannot be cleared (its page crashed, say) is replaced.
        """
        from playwright.sync_api import Error

        try:
            if self.page.url.startswith(("http://", "https://")):
                self.page.evaluate("sessionStorage.clear()")
            self.page.goto("about:blank")
            session = self.context.new_cdp_session(self.page)
            for origin in sorted(self.origins):
                clear = {"origin": origin, "storageTypes": "all"}
                session.send("Storage.clearDataForOrigin", clear)
            session.detach()
            self.context.clear_cookies()
        except Error:
            self.context.close()
            self.open()
        self.origins.clear()
        self.errors.clear()


@pytest.fixture(scope="session")
def _worker_tab(browser: Any) -> Iterator[_Tab]:
    tab = _Tab(browser)
    tab.open()
    yield tab
    tab.context.close()


def _remember_origin(tab: _Tab, url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        tab.origins.add(f"{parts.scheme}://{parts.netloc}")


@dataclass
class PageOpener:
    """Opens the test's page: the worker's one tab, as a new page would be."""

    tab: _Tab

    def __call__(
        self,
        *,
        viewport: dict[str, int] | None = None,
        color_scheme: str = "light",
        reduced_motion: str = "no-preference",
    ) -> Any:
        self.tab.page.set_viewport_size(viewport or DEFAULT_VIEWPORT)
        self.tab.page.emulate_media(color_scheme=color_scheme, reduced_motion=reduced_motion)
        return self.tab.page

    @property
    def errors(self) -> list[str]:
        """The script errors of the test's pages so far."""
        return self.tab.errors


@pytest.fixture
def new_page(_worker_tab: _Tab) -> Iterator[PageOpener]:
    """A fresh page for a test that needs no browser settings of its own.

    Chromium takes about 0.6 processor seconds to open and close a tab, more
    than most browser tests take, so each worker keeps one, and after each
    test clears what a new page would not have: its cookies, the storage of
    every origin it visited (localStorage keeps the exercises solved), its
    script errors.  The viewport and the emulated media are set on opening.
    A test that adds a listener removes it; none may close the page.
    """
    yield PageOpener(_worker_tab)
    _worker_tab.forget()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where browser tests save screenshots for a person to look at: $DAMA_SCREENSHOTS."""
    folder = Path(os.environ.get("DAMA_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object]) -> Path:
    """A folder that ``make`` fills once per test run, however many xdist workers ask for it.

    Only for what tests read and never change (a built site, the books): the
    first worker to ask makes it under a lock, in the folder all workers share,
    and the others wait for it and read the same files.  Without xdist it is
    simply made in this session's temporary folder.
    """
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        folder = factory.mktemp(name)
        make(folder)
        return folder
    from filelock import FileLock

    shared = factory.getbasetemp().parent / "made-once"
    shared.mkdir(exist_ok=True)
    folder, done = shared / name, shared / f"{name}.done"
    with FileLock(shared / f"{name}.lock"):
        if not done.exists():
            if folder.exists():  # a worker failed while making it: its error was reported
                shutil.rmtree(folder)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's site, drafts too, built once for every test that only reads or serves it."""
    from dama_diagrams.site import build_site

    def build(folder: Path) -> None:
        build_site(ROOT, out=folder / "site", drafts=True)

    return made_once(tmp_path_factory, "built-site", build) / "site"


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """A static server of ``folder`` on localhost, in a thread: its address."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            """Keep the test output clean."""

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            """A page closed while its pictures load resets its connections: no traceback."""
            if not isinstance(sys.exc_info()[1], ConnectionError):
                super().handle_error(request, client_address)

    handler = functools.partial(Quiet, directory=str(folder))
    server = Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The project's site, served on localhost for the browser tests."""
    with serving(built_site) as address:
        yield address


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """Let pytest cache the test modules it rewrites, even under ``PYTHONDONTWRITEBYTECODE``.

    With it set (as on this project's machines) each worker rewrote and compiled
    every test module on every run: 2.2 s of its 3.6 s of collection.  Only the
    collection writes; the tests and their commands keep the setting Python started with.
    """
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = bool(sys.flags.dont_write_bytecode)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the package's bytecode once, as pip does when it installs a wheel.

    An editable install leaves that to the first import, and with
    ``PYTHONDONTWRITEBYTECODE`` set (as on this project's machines) no import
    writes it: each of the suite's ~500 ``dama-diagrams`` processes then
    compiled the package again, a tenth of a second each.  A source edited
    later is compiled afresh, as always (the bytecode records its source's time).
    """
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # once, in the process that leads
        import dama_diagrams

        compileall.compile_dir(Path(dama_diagrams.__file__).parent, quiet=2)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules with long tests first, then those with slow tests, each kept whole.

    Under ``-n auto`` a long test that starts last keeps one core busy while the
    others wait; started first, the short tests fill the other cores around it.
    xdist's worksteal hands each worker a contiguous half of this order, and a
    worker that runs out takes from the end of another's: the modules of the
    tests marked ``long`` (ten seconds or more alone) are done before that end.
    A module is kept whole, so its module fixtures are made once.
    """
    long_modules = {item.path for item in items if item.get_closest_marker("long")}
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    # sort is stable: within each group, the order pytest collected
    items.sort(key=lambda item: (item.path not in long_modules, item.path not in slow_modules))
