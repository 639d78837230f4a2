"""What the tests' warm interpreter saves on the commands the suite runs most.

    python benchmarks/tests.py [--runs N]

The test suite runs some five hundred ``dama-diagrams`` commands.  Each is
forked from a warm interpreter (``tests/warm_cli.py``), which imported MkDocs
and the rest once; the baseline is what ``DAMA_TESTS_FRESH=1`` does, a new
interpreter per command.  Both run the same commands in a copy of the project,
alternately, so that this machine's drift reaches both alike.  Measured in
processor seconds: the command's own, and its workers'.  A figure below 1 in
the last column is what the warm interpreter saves.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import copy_project, run_cli, warm_server_pid  # noqa: E402

COMMANDS = (
    ("build", "--lang", "en"),
    ("build", "--lang", "xx"),  # refused at once, as many of the suite's hostile inputs are
    ("status",),
    ("verify",),
    ("game", "check", "games/example.pdn"),
    ("--help",),
)
"""The suite's commonest kinds of command: a build, a refused build, the checks, a game."""


def _children_cpu(pid: int | None = None) -> float:
    """Processor seconds of the reaped children: this process's, or ``pid``'s."""
    if pid is None:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def measure(project: Path, command: tuple[str, ...], *, warm: bool) -> float:
    """One run's processor seconds; fails loudly if the command fails unexpectedly."""
    server = warm_server_pid() if warm else None
    before = _children_cpu(server)
    result = run_cli(*command, cwd=project, fresh=not warm)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr}")
    return _children_cpu(server) - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ["DAMA_DIAGRAMS_BOOKS"] = "0"  # as in the suite
    os.environ.pop("DAMA_TESTS_FRESH", None)
    with tempfile.TemporaryDirectory() as folder:
        project = copy_project(Path(folder))
        run_cli("build", cwd=project)  # a site to keep, and the cards drawn, as in most tests
        print(f"{'command':28} {'new (s)':>8} {'warm (s)':>9} {'warm/new':>9}")
        totals = {True: 0.0, False: 0.0}
        for command in COMMANDS:
            times: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(args.runs):
                for warm in (False, True):
                    times[warm].append(measure(project, command, warm=warm))
            new, warm_time = statistics.median(times[False]), statistics.median(times[True])
            totals[False] += new
            totals[True] += warm_time
            print(f"{' '.join(command):28} {new:8.2f} {warm_time:9.2f} {warm_time / new:9.2f}")
        print(
            f"{'all of them':28} {totals[False]:8.2f} {totals[True]:9.2f} "
            f"{totals[True] / totals[False]:9.2f}"
        )


if __name__ == "__main__":
    main()
