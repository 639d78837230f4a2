"""The ``dama-diagrams`` command's first step: Ctrl-C is quiet from the very start.

The command line imports much (the engine, MkDocs, Babel) before its own
handler of Ctrl-C is in place; an interrupt then would print Python's
traceback.  This module imports nothing of the package, and, imported only by
the console script and ``python -m``, makes Ctrl-C a quiet exit 130 at once;
:func:`run` then hands Ctrl-C back to Python (a KeyboardInterrupt, which the
commands clean up after) and exits 130 on one that nothing else handled.
What is left is Python's own start-up, before any line of the package runs.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from types import FrameType
from typing import NoReturn

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C, as shells report it (128 + SIGINT)."""


def _quiet_exit(number: int, frame: FrameType | None) -> None:
    raise SystemExit(INTERRUPTED)


with contextlib.suppress(ValueError):  # imported outside the main thread: not the command
    signal.signal(signal.SIGINT, _quiet_exit)


def run() -> NoReturn:
    """Import and run the command line; exit with its code, 130 on Ctrl-C, 143 on SIGTERM.

    SIGTERM runs the same cleanup as Ctrl-C, in every command: a ``kill`` never
    leaves a temporary file behind.
    """
    try:
        from ._interrupts import interrupt, quiet_lost_interrupts, terminate_as_interrupt

        signal.signal(signal.SIGINT, interrupt)
        sys.unraisablehook = quiet_lost_interrupts

        with terminate_as_interrupt():
            from .cli import main

            code = main()
    except KeyboardInterrupt:
        code = INTERRUPTED
    sys.exit(code)
