"""Worker processes, one per core, that never outlive the build.

If the build is interrupted (Ctrl-C, SIGTERM, an error), the queued jobs are
dropped and the workers terminated before the exception goes on, so that no
worker writes into a staging folder that is being removed.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol, TypeVar

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")

WORKERS = 2


class Submit(Protocol):
    """Start ``work(job)``; the returned function waits for its result."""

    def __call__(self, work: Callable[[_Job], _Result], job: _Job) -> Callable[[], _Result]: ...


@contextmanager
def worker_pool(jobs: int) -> Iterator[Submit]:
    """A pool for ``jobs`` jobs: in this process when one worker is all there can be."""
    workers = max(1, min(WORKERS, jobs, os.cpu_count() or 1))
    if workers == 1:
        yield _run_here
        return
    # fork is fast; once threads run (a test server, a browser driver) it is unsafe.
    method = "fork" if threading.active_count() == 1 else "forkserver"
    pool = multiprocessing.get_context(method).Pool(workers, initializer=_worker_init)

    def submit(work: Callable[[_Job], _Result], job: _Job) -> Callable[[], _Result]:
        return pool.apply_async(work, (job,)).get

    try:
        yield submit
    except BaseException:
        pool.terminate()
        raise
    pool.close()
    pool.join()


def _run_here(work: Callable[[_Job], _Result], job: _Job) -> Callable[[], _Result]:
    result = work(job)
    return lambda: result


def _worker_init() -> None:
    """A worker dies on SIGTERM and ignores Ctrl-C: the main process cleans up for both."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
