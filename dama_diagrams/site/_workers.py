"""Worker processes that never outlive the build, and whose death is never silent.

Each job runs in a process of its own, at most one per core.  If the build is
interrupted (Ctrl-C, SIGTERM, an error), the workers are terminated before the
exception goes on, so that none writes into a staging folder that is being
removed.  A worker that dies (the OOM killer, ``kill -9``) is reported as a
:class:`WorkerDiedError` naming its job.  A worker whose parent dies is killed by
the kernel (Linux: ``PR_SET_PDEATHSIG``), so a SIGKILLed build leaves no
orphans.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from ._common import SiteError

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")

WORKERS = 2
_PR_SET_PDEATHSIG = 1


class WorkerDiedError(SiteError):
    """A worker process ended without a result: it was killed, or crashed."""


@dataclass
class _Task(Generic[_Result]):
    name: str
    work: Callable[[Any], _Result]
    job: Any
    process: multiprocessing.process.BaseProcess | None = None
    receiver: Connection | None = None
    done: bool = False
    result: _Result | None = field(default=None, repr=False)


class WorkerPool:
    """Runs submitted jobs in worker processes, at most ``size`` at a time."""

    def __init__(self, size: int) -> None:
        # fork is fast; once threads run (a test server, a browser driver) it is unsafe.
        self._forks = threading.active_count() == 1
        self._context: Any = multiprocessing.get_context("fork" if self._forks else "forkserver")
        self._size = size
        self._tasks: list[_Task[Any]] = []

    def submit(
        self, name: str, work: Callable[[_Job], _Result], job: _Job
    ) -> Callable[[], _Result]:
        """Queue ``work(job)``; the returned function waits for its result.

        ``work`` and ``job`` must be picklable.  An exception in ``work`` comes
        back as a :class:`SiteError` with its one-line text, named by ``name``.
        """
        task: _Task[_Result] = _Task(name, work, job)
        self._tasks.append(task)
        self._start_queued()
        return lambda: self._wait(task)

    def terminate(self) -> None:
        """Stop every worker: SIGTERM, then SIGKILL for any still running a second later."""
        running = [t.process for t in self._tasks if t.process is not None and not t.done]
        for process in running:
            process.terminate()
        for process in running:
            process.join(1.0)
            if process.is_alive():
                process.kill()
                process.join(1.0)

    def _start_queued(self) -> None:
        running = sum(1 for t in self._tasks if t.process is not None and not t.done)
        for task in self._tasks:
            if running >= self._size:
                return
            if task.process is None:
                receiver, sender = self._context.Pipe(duplex=False)
                # Under forkserver the worker's parent is the fork server, which ends
                # with this process: the worker then dies with it all the same.
                parent = os.getpid() if self._forks else None
                task.process = self._context.Process(
                    target=_run, args=(task.work, task.job, sender, parent), daemon=True
                )
                task.process.start()
                sender.close()
                task.receiver = receiver
                running += 1

    def _wait(self, task: _Task[_Result]) -> _Result:
        while not task.done:
            running = [t for t in self._tasks if t.process is not None and not t.done]
            ready = wait([t.receiver for t in running if t.receiver is not None])
            for other in running:
                if other.receiver in ready:
                    self._collect(other)
            self._start_queued()
        return task.result  # type: ignore[return-value]  # set by _collect

    def _collect(self, task: _Task[Any]) -> None:
        assert task.process is not None and task.receiver is not None
        try:
            failed, task.result = task.receiver.recv()
        except EOFError:
            task.process.join()
            code = task.process.exitcode or 0
            how = f"was killed (signal {-code})" if code < 0 else f"exited with status {code}"
            raise WorkerDiedError(
                f"{task.name}: the worker process building it {how}; the previous site is "
                f"kept; run the build again (if the system ran out of memory, close other "
                f"programs first)"
            ) from None
        finally:
            task.receiver.close()
            task.done = True
        task.process.join()
        if failed:
            raise SiteError(f"{task.name}: {task.result}")


@contextmanager
def worker_pool(jobs: int) -> Iterator[WorkerPool]:
    """A pool sized for ``jobs`` jobs and this machine; terminated on any exception."""
    pool = WorkerPool(max(1, min(WORKERS, jobs, os.cpu_count() or 1)))
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise


def _run(work: Callable[[Any], Any], job: Any, sender: Connection, parent: int | None) -> None:
    """A worker: dies with its parent, leaves signals to the parent, sends back one result."""
    _die_with_parent(parent)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        outcome = (False, work(job))
    except Exception as exc:  # sent back as text: exceptions with fields do not pickle intact
        outcome = (True, f"{type(exc).__name__}: {exc}")
    sender.send(outcome)
    sender.close()


def _die_with_parent(parent: int | None) -> None:
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:  # it died before prctl took effect
        os._exit(1)
