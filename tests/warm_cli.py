"""Tests only: each ``dama-diagrams`` command in a new process, forked from a warm interpreter.

A test runs the command as a user does: a process of its own, in its folder,
with its environment, its exit code and its output.  A new interpreter spends
most of a small command's time starting and importing (MkDocs, Material,
Babel, Jinja), and the suite runs some five hundred commands.  This server
imports all that once, then forks a child per command; the child runs
``python -m dama_diagrams`` as the interpreter would (:func:`runpy.run_module`)
and ends as the interpreter does, through ``SystemExit``.

:func:`tests.conftest.run_cli` is its client.  What a fork cannot give, the
client gets from a new interpreter: an environment that changes how Python
starts, and a hash seed of the command's own.

The protocol: one JSON line each way on the server's stdin and stdout.  The
request is ``{"args", "cwd", "env", "stdout", "stderr", "timeout"}``: the
interpreter's arguments (``-m dama_diagrams ...``), and the two files that get
the command's output.  The answer is ``{"status", "timed_out"}``; a command
still running after ``timeout`` seconds is killed.  A request with a
``status`` file instead of a ``timeout`` starts the command in the background
(:func:`tests.conftest.running_cli`), in a session of its own: the answer is
its ``{"pid"}`` at once, and the server writes its exit status to that file
when it ends.  A ``serve`` so started skips the imports and the compiling of
the theme, two to three processor-seconds each.  The server ends with its
stdin: when the test worker that started it ends.
"""

from __future__ import annotations

import gc
import json
import os
import runpy
import select
import signal
import sys
import time
from typing import IO, Any

PRELOAD = (
    "dama_diagrams.cli",
    "dama_diagrams.site.publish.build",
    "dama_diagrams.site.i18n.status",
    "dama_diagrams.site.builder.compiled_theme",  # the theme's templates, compiled
    "mkdocs.commands.build",
    "mkdocs.livereload",
    "material.plugins.search.plugin",
    "markdown.extensions.attr_list",
    "markdown.extensions.codehilite",
    "pymdownx.quotes",
    "pygments.lexers.templates",
    "pygments.formatters.html",
    "multiprocessing.connection",
    "ctypes",
    "_strptime",
)
"""What the commands import: every child starts with it in memory."""


def _fork_per_request(requests: int, answers: IO[str]) -> dict[str, Any]:
    """Run each request in a child; return the request in the child, exit when stdin ends.

    A command in the background gets its pid at once; its exit status goes to
    its ``status`` file when it ends, whatever else the server is doing then.
    """
    background: dict[int, tuple[int, str]] = {}  # pidfd: (pid, status file)
    pending = b""

    def reap(ready: list[int]) -> None:
        for pidfd in ready:
            if pidfd in background:
                pid, status_file = background.pop(pidfd)
                os.close(pidfd)
                code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                with open(f"{status_file}.part", "w", encoding="utf-8") as status:
                    status.write(str(code))
                os.replace(f"{status_file}.part", status_file)  # whole, or not there yet

    while True:
        if b"\n" not in pending:
            ready = select.select([requests, *background], [], [])[0]
            reap(ready)
            if requests in ready:
                chunk = os.read(requests, 1 << 16)
                if not chunk:
                    raise SystemExit(0)
                pending += chunk
            continue
        line, pending = pending.split(b"\n", 1)
        request: dict[str, Any] = json.loads(line)
        pid = os.fork()
        if pid == 0:
            for pidfd in background:
                os.close(pidfd)
            if request.get("status"):
                os.setsid()  # as Popen(start_new_session=True): a group of its own
            return request
        if request.get("status"):
            background[os.pidfd_open(pid)] = (pid, request["status"])
            answers.write(json.dumps({"pid": pid}) + "\n")
            answers.flush()
            continue
        ended = os.pidfd_open(pid)
        deadline = time.monotonic() + request["timeout"]
        timed_out = False
        while True:
            left = deadline - time.monotonic()
            ready = select.select([ended, *background], [], [], max(left, 0))[0]
            reap(ready)
            if ended in ready:
                break
            if left <= 0:
                timed_out = True
                os.kill(pid, signal.SIGKILL)
                break
        os.close(ended)
        _, status = os.waitpid(pid, 0)
        answer = {"status": os.waitstatus_to_exitcode(status), "timed_out": timed_out}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def _become(request: dict[str, Any]) -> str:
    """The child takes the command's folder, environment and files; returns the module to run."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    for fd, path, flags in (
        (0, os.devnull, os.O_RDONLY),
        (1, request["stdout"], os.O_WRONLY),
        (2, request["stderr"], os.O_WRONLY),
    ):
        opened = os.open(path, flags)
        os.dup2(opened, fd)
        os.close(opened)
    option, module, *args = request["args"]
    assert option == "-m", request["args"]
    sys.argv = [module, *args]  # run_module puts the module's path first, as -m does
    sys.path[0] = os.getcwd()  # as -m puts it
    return str(module)


def _check_translations() -> None:
    """Check the checkout's catalogs once: a child starts with what the checks remembered.

    The English, each measured catalog and its checks are remembered by their
    bytes (:func:`dama_diagrams.site.i18n.extract.extract_messages`,
    :func:`dama_diagrams.site.i18n.load_catalog`), so a command in a copy of the
    project reads every file again but extracts, measures and checks only what
    the test changed, as a second check in one process does.  What a command
    reports is the same.
    """
    import contextlib
    from pathlib import Path

    from dama_diagrams.errors import DamaError
    from dama_diagrams.site.i18n import available_languages
    from dama_diagrams.site.i18n.status import translation_problems

    root = Path(__file__).resolve().parent.parent
    with contextlib.suppress(DamaError):  # a checkout being edited: its commands report it
        translation_problems(root, available_languages(root))


def main() -> None:
    for name in PRELOAD:
        __import__(name)
    _check_translations()
    gc.freeze()  # a child's collections skip what it shares: its pages stay shared
    # The protocol moves off fds 0 and 1, which each child gives to its command.
    requests = os.dup(0)
    with os.fdopen(os.dup(1), "w", encoding="utf-8") as answers:
        request = _fork_per_request(requests, answers)
    os.close(requests)
    module = _become(request)
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
