"""Round 3 of the hostile review, P06: ``game --jobs`` streams.

Workers send their verdicts in chunks and the parent keeps a bounded number of
them, so the output is the serial one and memory does not grow with the games.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dama_diagrams.cli._game_commands import CHUNK
from tests.conftest import run_cli

MOVES = ["22-18", "22-17", "23-19", "24-20", "21-17"]


def _games(path: Path, count: int, *, name: str = "") -> None:
    """``count`` short games, every seventh refused, with a warning now and then."""
    with path.open("w", encoding="utf-8") as out:
        for number in range(count):
            if number % 7 == 3:
                out.write('[GameType "22"]\n1. 22-15 *\n\n')
            elif number % 11 == 5:
                out.write('[GameType "22"]\n[Result "2-0"]\n1. 22-18 0-2\n\n')
            else:
                move = MOVES[number % len(MOVES)]
                out.write(f'[White "{name}{number}"]\n[GameType "22"]\n1. {move} 11-14 *\n\n')


def test_jobs_print_what_the_serial_run_prints(tmp_path: Path) -> None:
    """Files of several chunks of games, an unreadable one and a Latin-1 one: the same bytes."""
    counts = [3 * CHUNK + 7, 1, 2 * CHUNK + 3, CHUNK - 1]  # chunk ends inside every big file
    for index, count in enumerate(counts):
        _games(tmp_path / f"{index}.pdn", count)
    (tmp_path / "1b.pdn").write_text("")
    (tmp_path / "2b.pdn").write_bytes(
        '[GameType "22"]\n[White "Nicolò"]\n1. 22-18 *\n'.encode("latin-1")
    )
    alone = run_cli("game", tmp_path)
    for jobs in ("2", "3"):
        shared = run_cli("game", "--jobs", jobs, tmp_path)
        assert (shared.returncode, shared.stdout, shared.stderr) == (
            alone.returncode,
            alone.stdout,
            alone.stderr,
        )
    assert alone.returncode == 1 and "Traceback" not in alone.stderr
    # the Latin-1 file holds one game more; the empty one holds none
    assert alone.stdout.splitlines()[-1].startswith(f"{sum(counts) + 1} games: ")
    assert "1 file not read" in alone.stdout.splitlines()[-1]


def _peak_kb(*args: str | Path) -> int:
    """The largest resident size, in kB, of the CLI or any of its workers (a fresh parent)."""
    measure = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    command = [sys.executable, "-c", measure, sys.executable, "-m", "dama_diagrams", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    return int(done.stdout)


@pytest.mark.slow
@pytest.mark.long
def test_jobs_memory_does_not_grow_with_the_games(tmp_path: Path) -> None:
    """Two files of 25,000 games: collecting each file's verdicts took 30 MB more than serial.

    The peak of any one process is compared with the serial run's on the same
    files, so the test holds on any machine: streaming stays within a few MB.
    """
    long_name = "Giocatore " * 30
    files = [tmp_path / "a.pdn", tmp_path / "b.pdn"]
    for path in files:
        _games(path, 25_000, name=long_name)
    serial = _peak_kb("game", *files)
    shared = _peak_kb("game", "--jobs", "2", *files)
    assert shared < serial + 15_000, (serial, shared)


def test_an_idle_worker_ends_when_told_and_a_busy_one_is_stopped(tmp_path: Path) -> None:
    """Each `game --jobs` run waited five seconds per worker: it never saw its pipe close.

    A forked worker holds the parent's end of its pipe too, so closing it told
    the worker nothing; it was terminated after a timeout, and the run took ten
    seconds more than the checking.  Now an idle worker exits by itself (exit
    code 0), and one still checking a file is killed at once.
    """
    from dama_diagrams.cli._game_commands import _Worker

    small, big = tmp_path / "small.pdn", tmp_path / "big.pdn"
    _games(small, 3)
    _games(big, 50 * CHUNK)
    idle = _Worker()
    idle.give(small, (False, None))
    while not idle.received or idle.received[-1] is not None:
        idle.take()
    idle.stop()
    assert idle.process.exitcode == 0

    busy = _Worker()
    busy.give(big, (False, None))
    busy.take()  # its first chunk: it is checking the rest
    busy.stop()
    assert busy.process.exitcode == -signal.SIGKILL
