"""Imported first by the build's fork server: Ctrl-C is for the command, not for the server.

A terminal sends Ctrl-C to its whole process group, the fork server of
:mod:`.site.publish.workers` too.  multiprocessing's fork server ignores it
only once it has imported every preloaded module (MkDocs, Material: half a
second), and until then printed its own ``KeyboardInterrupt`` traceback under
the command's quiet exit 130.  This module is the first it imports, and it
imports nothing heavy: from here on the server ignores Ctrl-C, and the command
stops it and its workers.
"""

from __future__ import annotations

import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)
