"""Ctrl-C while the command line starts: exit 130 and not a word, at any moment.

The command imports a lot (the engine, MkDocs, Babel) before it runs; a
Ctrl-C in that time once printed Python's traceback.  Python reports each
import as it completes (``PYTHONPROFILEIMPORTTIME``), so the test sends SIGINT
exactly when a given module has just been imported and the next are loading.
A server, which runs until Ctrl-C, also stops on one whose exception Python
lost in a finalizer.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from .conftest import copy_project, free_port

pytestmark = pytest.mark.slow

STAGES = [
    "dama_diagrams._start",  # the command line itself is still to be imported
    "dama_diagrams.cli._site_commands",  # the arguments are still to be read
    "dama_diagrams.site.publish.build",  # inside the command, its own imports
    "mkdocs.plugins",  # the first build has begun (serve's too: it is still starting)
]


def test_ctrl_c_while_the_fork_server_starts_exits_130_quietly(tmp_path: Path) -> None:
    """``serve`` runs threads, so its build's workers come from a fork server.

    Ctrl-C reaches the whole process group, the fork server too, which once
    printed its own traceback while it imported MkDocs.  The command has
    imported ``mkdocs.commands.build`` already: only the fork server prints it.
    """
    project = copy_project(tmp_path)
    args = ["serve", "--dev-addr", f"127.0.0.1:{free_port()}"]
    _exits_130_quietly_after_ctrl_c_at(project, args, "mkdocs.commands.build")


def _exits_130_quietly_after_ctrl_c_at(project: Path, args: list[str], stage: str) -> None:
    """Send Ctrl-C to the command's group once ``stage`` is imported: exit 130, no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "dama_diagrams", *args],
        cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}, start_new_session=True,
    )  # fmt: skip
    assert process.stderr is not None
    with process, process.stderr:
        seen = []
        for line in process.stderr:
            seen.append(line)
            if line.rstrip().endswith(f" {stage}"):
                os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole group
                break
        else:
            pytest.fail(f"{stage} was never imported:\n{''.join(seen)[-2000:]}")
        # A command that goes on after Ctrl-C (a lost signal) must fail the test, not hang it.
        watchdog = threading.Timer(120, os.killpg, (process.pid, signal.SIGKILL))
        watchdog.start()
        rest = process.stderr.read()
        process.wait()
        watchdog.cancel()
    if process.returncode == -signal.SIGKILL:
        pytest.fail(f"{' '.join(args)} still ran 120 s after Ctrl-C at {stage}:\n{rest[-2000:]}")
    said = "\n".join(line for line in rest.splitlines() if not line.startswith("import time:"))
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said
    assert process.returncode == 130, said


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("command", ["build", "serve"])
def test_ctrl_c_while_starting_exits_130_quietly(tmp_path: Path, command: str, stage: str) -> None:
    project = copy_project(tmp_path)
    args = [command] + (["--dev-addr", f"127.0.0.1:{free_port()}"] if command == "serve" else [])
    _exits_130_quietly_after_ctrl_c_at(project, args, stage)


_LOST_IN_A_FINALIZER = """
import os, signal, sys
from dama_diagrams._interrupts import interrupt, interrupted, quiet_lost_interrupts

signal.signal(signal.SIGINT, interrupt)
sys.unraisablehook = quiet_lost_interrupts


class Finalized:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(10**6):  # Python runs the handler here, inside __del__
            pass


Finalized()  # dropped at once: its KeyboardInterrupt is "ignored", as Python does in __del__
print("went on;", "interrupted" if interrupted() else "not interrupted", flush=True)
"""


def _run_python(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip


def test_a_ctrl_c_lost_in_a_finalizer_is_remembered_and_prints_nothing(tmp_path: Path) -> None:
    """Python loses a KeyboardInterrupt raised while a ``__del__`` runs: the flag keeps it."""
    result = _run_python(_LOST_IN_A_FINALIZER, tmp_path)
    assert result.stdout == "went on; interrupted\n"  # Python's own behaviour: it went on
    assert result.stderr == ""  # without the hook: "Exception ignored in ... KeyboardInterrupt"
    assert result.returncode == 0


@pytest.mark.parametrize(
    "stop",
    [
        "from dama_diagrams.site.servers.preview import listen, serve_until_stopped\n"
        "server = listen(Path('.'), '/', ('127.0.0.1', 0))\n"
        "serve_until_stopped(server, 'serving')",
        "from dama_diagrams.site.servers.serve import _rebuild_on_edits\n"
        "_rebuild_on_edits(Path('.'), None, Path('.'), ())",
    ],
    ids=["preview", "serve"],
)
def test_a_server_stops_after_a_ctrl_c_lost_in_a_finalizer(tmp_path: Path, stop: str) -> None:
    """The servers run until Ctrl-C: one whose exception was lost must still stop them."""
    script = f"{_LOST_IN_A_FINALIZER}\nfrom pathlib import Path\n{stop}\nprint('stopped')\n"
    result = _run_python(script, tmp_path)
    assert result.stdout.startswith("went on; interrupted\n"), result.stdout
    assert result.stdout.endswith("stopped\n"), result.stdout
    assert result.stderr == "" and result.returncode == 0


_INTERRUPT_INSIDE_A_LOCK = """
import os, signal, threading, time


def interrupted_inside_a_lock(*args):
    # Condition.wait (Thread.start waits on one) releases its lock; an interrupt that comes
    # before its with statement ends makes that release the lock again: a RuntimeError
    lock = threading.Lock()
    with lock:
        lock.release()
        os.kill(os.getpid(), signal.{signal})
        time.sleep(5)
"""

_TERMINATED = """
from dama_diagrams._interrupts import terminate_as_interrupt

with terminate_as_interrupt():
    interrupted_inside_a_lock()
"""

_COMMAND_INTERRUPTED = """
import argparse, sys
from dama_diagrams import cli
from dama_diagrams._interrupts import interrupt

signal.signal(signal.SIGINT, interrupt)
parser = argparse.ArgumentParser()
parser.set_defaults(handler=interrupted_inside_a_lock)
cli.build_parser = lambda: parser
sys.exit(cli.main([]))
"""


@pytest.mark.parametrize(
    ("script", "code"),
    [
        (_INTERRUPT_INSIDE_A_LOCK.format(signal="SIGTERM") + _TERMINATED, 128 + signal.SIGTERM),
        (_INTERRUPT_INSIDE_A_LOCK.format(signal="SIGINT") + _COMMAND_INTERRUPTED, 130),
    ],
    ids=["sigterm", "ctrl-c"],
)
def test_an_interrupt_inside_pythons_lock_code_is_still_a_quiet_interrupt(
    tmp_path: Path, script: str, code: int
) -> None:
    """``serve`` printed "RuntimeError: release unlocked lock" for a SIGTERM in ``Thread.start``."""
    result = _run_python(script, tmp_path)
    assert (result.returncode, result.stderr) == (code, "")
