"""The build's worker pool: never more busy processes than cores, every job's result back."""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dama_diagrams.site.publish.workers import WorkerDiedError, worker_pool


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores")
def test_one_worker_fewer_while_this_process_works_too() -> None:
    with worker_pool(4) as pool:
        with pool.sharing_the_cores():
            results = [pool.submit(f"job {n}", _pid_after, 0.2) for n in range(4)]
            time.sleep(0.1)
            pool.poll()
            busy = [worker for worker in pool._workers if worker.task is not None]
            assert len(pool._workers) == 1 and len(busy) == 1  # this process is the other
        # the block is over: the second core gets a worker at once
        assert sum(worker.task is not None for worker in pool._workers) == 2
        pids = [result() for result in results]
    assert len(set(pids)) == 2 and os.getpid() not in pids


def _die_by(number: int) -> None:
    faulthandler.disable()  # pytest's would print this job's stack first
    if number != signal.SIGKILL:  # which has no handler to reset
        signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)
    time.sleep(30)


@pytest.mark.parametrize(
    ("number", "how", "advice"),
    [
        (signal.SIGKILL, "was killed (SIGKILL)", "if the system ran out of memory"),
        (signal.SIGSEGV, "crashed (SIGSEGV)", "a crash of a library it uses: report it as a bug"),
        (signal.SIGTERM, "was stopped (SIGTERM)", "run the build again"),
    ],
)
def test_a_dead_worker_says_how_it_died_and_names_memory_only_for_sigkill(
    number: int, how: str, advice: str
) -> None:
    with pytest.raises(WorkerDiedError) as error, worker_pool(1) as pool:
        pool.submit("en", _die_by, number)()
    message = str(error.value)
    assert message.startswith(f"en: the worker process building it {how}; "), message
    assert advice in message
    assert ("memory" in message) == (number == signal.SIGKILL), message


def test_a_temporary_folder_too_long_for_a_socket_is_named_with_the_fix(tmp_path: Path) -> None:
    """With threads running the pool uses a fork server, whose socket lives in TMPDIR."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    probe = (
        "import threading, time\n"
        "from dama_diagrams.errors import DamaError\n"
        "from dama_diagrams.site.publish.workers import worker_pool\n"
        "threading.Thread(target=time.sleep, args=(2,), daemon=True).start()\n"
        "try:\n"
        "    with worker_pool(1) as pool:\n"
        "        pool.submit('en', abs, -1)()\n"
        "except DamaError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(deep)},
        timeout=60,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert "the temporary folder's path is too long" in done.stdout, (done.stdout, done.stderr)
    assert "set TMPDIR to a shorter folder" in done.stdout
