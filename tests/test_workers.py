"""The build's worker pool: never more busy processes than cores, every job's result back."""

from __future__ import annotations

import os
import time

import pytest

from dama_diagrams.site._workers import worker_pool


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
