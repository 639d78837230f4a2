"""The build's worker pool: never more busy processes than cores, every job's result back."""

from __future__ import annotations

import faulthandler
import os
import signal
import time

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
