"""Ctrl-C and SIGTERM: handled alike, and held off while a step must finish.

Stage-neutral, like :mod:`.errors`: the site's publish and workers, and every
file the toolkit writes (:mod:`._files`), hold interrupts the same way, and
every command cleans up after SIGTERM as after Ctrl-C.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

INTERRUPTS = frozenset({signal.SIGINT, signal.SIGTERM})

_RECEIVED: set[int] = set()
"""The interrupts this process has had (never a lock here: a handler may run inside one)."""


def interrupt(signum: int, frame: Any) -> None:
    """Ctrl-C's handler: Python's own (a :class:`KeyboardInterrupt`), but remembered.

    Python runs a signal's handler between two steps of the main thread, and
    that may be inside an object's finalizer (``__del__``, a weakref callback,
    the garbage collector): there the exception is printed as "Exception
    ignored" and lost, and a command that runs until Ctrl-C (``serve``) could
    go on running.  Such a command also asks :func:`interrupted`, which a lost
    exception cannot fool.
    """
    _RECEIVED.add(signum)
    raise KeyboardInterrupt


def interrupted() -> bool:
    """Whether Ctrl-C or SIGTERM came, even if its exception was lost in a finalizer."""
    return bool(_RECEIVED)


def set_off_by_interrupt(error: BaseException) -> bool:
    """Whether an interrupt started this exception, though it is another one now.

    Python's handler may raise between two steps of its own lock code: the
    ``with`` around a ``threading.Condition`` (``Thread.start`` waits on one)
    then releases a lock already released, and the KeyboardInterrupt becomes
    "RuntimeError: release unlocked lock", with the interrupt as its context.
    """
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__context__
    return False


def quiet_lost_interrupts(unraisable: Any) -> None:
    """``sys.unraisablehook``: an interrupt lost in a finalizer is not printed.

    :func:`interrupted` remembers it, and the command stops; anything else is
    printed as Python prints it.
    """
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)


@contextmanager
def interrupts_held(*, drop: bool) -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is over (this thread's signal mask).

    With ``drop``, one that came meanwhile is then discarded: the block
    finished the work it would have stopped.  Without, it arrives as the block
    ends.
    """
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, INTERRUPTS)
    try:
        yield
    finally:
        while drop and signal.sigtimedwait(INTERRUPTS, 0) is not None:
            pass
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM like Ctrl-C inside the block, then exit with status 143.

    SIGTERM (``kill``, a CI timeout, a process manager) would otherwise end the
    process at once, skipping every ``finally``: temporary folders and worker
    processes would stay behind.  Inside the block it raises
    :class:`KeyboardInterrupt` in the main thread, so the cleanup written for
    Ctrl-C runs (ours, and that of ``mkdocs serve``); when the block is left
    that way, :class:`SystemExit` (128 + SIGTERM) replaces the interrupt.  A
    second SIGTERM during the cleanup is ignored.  Only the main thread can
    install a handler, and a handler that someone else installed (or
    SIG_IGN) is left alone; the previous handler is restored afterwards.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous not in (signal.SIG_DFL, None):
        yield
        return
    received = False

    def handler(signum: int, frame: Any) -> None:
        nonlocal received
        received = True
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        interrupt(signum, frame)

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    except (KeyboardInterrupt, Exception) as error:
        if received and set_off_by_interrupt(error):
            raise SystemExit(128 + signal.SIGTERM) from None
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
    if received:  # the block itself handled the interrupt (mkdocs serve does)
        raise SystemExit(128 + signal.SIGTERM)
