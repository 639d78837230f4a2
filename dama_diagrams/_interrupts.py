"""Ctrl-C and SIGTERM held off while a step must finish: a swap, a fork, a file's write.

Stage-neutral, like :mod:`.errors`: the site's publish and workers, and every
file the toolkit writes (:mod:`._files`), hold interrupts the same way.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

INTERRUPTS = frozenset({signal.SIGINT, signal.SIGTERM})


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
