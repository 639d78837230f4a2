"""Worker processes that never outlive the build, and whose death is never silent.

At most one worker per core; each stays for the whole build and takes one job
after another, so that what it warms up (MkDocs' templates) serves every
language it builds.  If the build is interrupted (Ctrl-C, SIGTERM, an error),
the workers are terminated before the exception goes on, so that none writes
into a staging folder that is being removed.  A worker that dies (the OOM
killer, ``kill -9``) is reported as a :class:`WorkerDiedError` naming its job.
A worker whose parent dies is killed by the kernel (Linux: ``PR_SET_PDEATHSIG``),
so a SIGKILLed build leaves no orphans.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from ..._interrupts import INTERRUPTS, interrupts_held
from .._common import SiteError

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")

WORKERS = 2
QUIET_FORK_SERVER = "dama_diagrams._quiet_fork_server"
"""The fork server's first import: it then ignores Ctrl-C, which its command handles."""
_PR_SET_PDEATHSIG = 1


class WorkerDiedError(SiteError):
    """A worker process ended without a result: it was killed, or crashed."""


@dataclass
class _Task:
    name: str
    work: Callable[[Any], Any]
    job: Any
    done: bool = False
    result: Any = field(default=None, repr=False)


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    connection: Connection
    task: _Task | None = None


class WorkerPool:
    """Runs submitted jobs in at most ``size`` worker processes."""

    def __init__(self, size: int, preload: Sequence[str] = ()) -> None:
        # fork is fast; once threads run (a test server, a browser driver) it is unsafe.
        self._forks = threading.active_count() == 1
        self._context: Any = multiprocessing.get_context("fork" if self._forks else "forkserver")
        if not self._forks:
            # The fork server imports these once; each worker it forks starts warm, as a
            # forked one does (a later pool in this process shares the same server).
            self._context.set_forkserver_preload([QUIET_FORK_SERVER, *preload])
        self._size = size
        self._queue: list[_Task] = []
        self._workers: list[_Worker] = []

    def submit(
        self, name: str, work: Callable[[_Job], _Result], job: _Job
    ) -> Callable[[], _Result]:
        """Queue ``work(job)``; the returned function waits for its result.

        ``work`` and ``job`` must be picklable.  An exception in ``work`` comes
        back as a :class:`SiteError` with its one-line text, named by ``name``.
        """
        task = _Task(name, work, job)
        self._queue.append(task)
        self._dispatch()
        return lambda: self._wait(task)

    def poll(self) -> None:
        """Collect the jobs that are done and hand out queued ones, without waiting."""
        busy = [worker for worker in self._workers if worker.task is not None]
        ready = wait([worker.connection for worker in busy], timeout=0)
        for worker in busy:
            if worker.connection in ready:
                self._collect(worker)
        self._dispatch()

    def close(self) -> None:
        """Let every worker finish and exit."""
        for worker in self._workers:
            with contextlib.suppress(OSError):  # one that died idle has nothing left to do
                worker.connection.send(None)
            worker.connection.close()
        for worker in self._workers:
            worker.process.join()

    def terminate(self) -> None:
        """Stop every worker at once.

        SIGKILL, not SIGTERM: a worker has nothing to clean up (the build
        removes its staging folder), and one that was forked a moment ago still
        has this process's SIGTERM handler, which would print a traceback.
        """
        for worker in self._workers:
            worker.process.kill()
        for worker in self._workers:
            worker.process.join(5.0)

    @contextmanager
    def sharing_the_cores(self) -> Iterator[None]:
        """One worker fewer while the block works here: never more busy processes than cores.

        A third busy process on two cores only slows the other two down, and
        makes every step's time depend on what runs beside it.
        """
        full = self._size
        self._size = max(1, full - 1)
        try:
            yield
        finally:
            self._size = full
            self._dispatch()

    def _dispatch(self) -> None:
        while self._queue:
            if sum(worker.task is not None for worker in self._workers) >= self._size:
                return
            idle = next((worker for worker in self._workers if worker.task is None), None)
            if idle is None and len(self._workers) < self._size:
                idle = self._start_worker()
            if idle is None:
                return
            idle.task = self._queue.pop(0)
            try:
                idle.connection.send((idle.task.work, idle.task.job))
            except OSError:  # the worker died while idle
                raise _died(idle, idle.task) from None

    def _start_worker(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        # Under forkserver the worker's parent is the fork server, which ends with this
        # process: the worker then dies with it all the same.
        parent = os.getpid() if self._forks else None
        process = self._context.Process(target=_serve, args=(theirs, parent), daemon=True)
        # A signal during fork() would interrupt Python's at-fork hooks, where it is lost
        # with a traceback; held here, it arrives once start() has returned.
        with interrupts_held(drop=False):
            try:
                process.start()
            except OSError as exc:
                raise _no_start(exc) from None
        theirs.close()
        worker = _Worker(process, ours)
        self._workers.append(worker)
        return worker

    def _wait(self, task: _Task) -> Any:
        while not task.done:
            wait([worker.connection for worker in self._workers if worker.task is not None])
            self.poll()
        return task.result

    def _collect(self, worker: _Worker) -> None:
        task = worker.task
        assert task is not None
        try:
            failed, task.result = worker.connection.recv()
        except (EOFError, OSError):  # OSError: a reset connection, when a job was unread
            raise _died(worker, task) from None
        worker.task = None
        task.done = True
        if failed:
            raise SiteError(f"{task.name}: {task.result}")


_CRASHES = frozenset(
    {signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT, signal.SIGSYS}
)
"""Signals a process gets from its own failing code: a crash, never a lack of memory."""
_REPORT = "report it as a bug, with the command that failed"


def _died(worker: _Worker, task: _Task) -> WorkerDiedError:
    """The error for a worker that ended without a result; memory is named only for SIGKILL."""
    worker.process.join(5.0)
    code = worker.process.exitcode or 0
    if code >= 0:
        how = f"exited with status {code}"
        advice = f"a library it uses ended it: {_REPORT}"
    elif -code == signal.SIGKILL:  # the OOM killer's signal (or kill -9)
        how = "was killed (SIGKILL)"
        advice = "run the build again (if the system ran out of memory, close other programs first)"
    elif -code in _CRASHES:
        how = f"crashed ({_signal_name(-code)})"
        advice = f"this is a crash of a library it uses: {_REPORT}"
    else:
        how = f"was stopped ({_signal_name(-code)})"
        advice = "run the build again"
    return WorkerDiedError(
        f"{task.name}: the worker process building it {how}; the previous site is kept; {advice}"
    )


def _signal_name(number: int) -> str:
    """SIGSEGV, SIGTERM...: the name a reader can look up."""
    try:
        return signal.Signals(number).name
    except ValueError:  # a real-time signal has no name of its own
        return f"signal {number}"


@contextmanager
def worker_pool(jobs: int, preload: Sequence[str] = ()) -> Iterator[WorkerPool]:
    """A pool sized for ``jobs`` jobs and this machine; terminated on any exception.

    ``preload`` names the modules the jobs need, for the workers to import only once.
    """
    pool = WorkerPool(max(1, min(WORKERS, jobs, os.cpu_count() or 1)), preload)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise
    pool.close()


def _serve(connection: Connection, parent: int | None) -> None:
    """A worker: dies with its parent, leaves signals to it, runs jobs until told to stop."""
    _die_with_parent(parent)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, INTERRUPTS)  # held while it was forked
    while True:
        try:
            message = connection.recv()
        except EOFError:  # the build went away (Ctrl-C): nothing is left to do, or to say
            return
        if message is None:
            return
        work, job = message
        try:
            outcome = (False, work(job))
        except Exception as exc:  # sent back as text: exceptions with fields do not pickle intact
            outcome = (True, f"{type(exc).__name__}: {exc}")
        connection.send(outcome)


def _die_with_parent(parent: int | None) -> None:
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:  # it died before prctl took effect
        os._exit(1)


def _no_start(exc: OSError) -> SiteError:
    """Why no worker could start, in words a user can act on.

    The fork server listens on a socket in the temporary folder, and a socket's
    path holds at most 107 bytes: a long ``TMPDIR`` is the usual cause.
    """
    if "AF_UNIX path too long" in str(exc):
        return SiteError(
            f"the build's worker processes cannot start: the temporary folder's path is too long "
            f"for their socket ({tempfile.gettempdir()}); set TMPDIR to a shorter folder, such "
            "as /tmp"
        )
    return SiteError(f"the build's worker processes cannot start: {exc.strerror or exc}")
