"""Benchmark: PDN games read and checked per second, against pydraughts' PDNReader.

Writes an archive of random legal Italian games (played by this engine from a
fixed seed, captures in full) to a temporary folder, then times, best of rounds:

- pydraughts: ``draughts.PDN.PDNReader(filename=...)``, the baseline: it only
  splits the file into games and reads their tags and moves, checking none;
- read: :class:`dama_diagrams.engine.pdn.PdnReader`, the same work here;
- check: :func:`dama_diagrams.engine.games.load_games`, read and every move
  played by the engine (short captures expanded, legality checked), keeping
  only each game's final position, as ``dama-diagrams game`` does;
- game --jobs 2: ``dama-diagrams game --jobs 2 ARCHIVE``, the command as a user
  runs it, its files spread over two processes.

The archive is ``--games`` games (100,000) in ``--files`` files (100), made of
``--unique`` distinct random games (2,000) repeated, so that writing it is quick.
Run: ``python benchmarks/pdn.py [--games 100000] [--rounds 1]`` (pydraughts is
the ``bench`` extra: ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from dama_diagrams import Position
from dama_diagrams.engine.games import Game, load_games
from dama_diagrams.engine.pdn import PdnReader
from dama_diagrams.engine.pdn_lines import read_lines


def random_game(rng: random.Random, number: int) -> str:
    position, words = Position.initial(), []
    for ply in range(rng.randint(20, 100)):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(str(move))
        position = position.play(move)
    tags = f'[Event "Random {number}"]\n[White "A"]\n[Black "B"]\n[GameType "22"]\n'
    return f"{tags}\n{' '.join(words)} *\n\n"


def best_of(rounds: int, work: Callable[[], int]) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(rounds):
        started = time.perf_counter()
        count = work()
        best = min(best, time.perf_counter() - started)
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=100, help="the archive's files")
    parser.add_argument("--unique", type=int, default=2_000, help="distinct games, repeated")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "archive"
        archive.mkdir()
        started = time.perf_counter()
        pool = [random_game(rng, n) for n in range(args.unique)]
        per_file = args.games // args.files
        for index in range(args.files):
            games = (pool[(index * per_file + n) % len(pool)] for n in range(per_file))
            (archive / f"{index:04}.pdn").write_text("".join(games), "utf-8")
        files = sorted(archive.iterdir())
        total = per_file * args.files
        size = sum(path.stat().st_size for path in files) / 1e6
        took = time.perf_counter() - started
        print(
            f"{total} games ({args.unique} distinct) in {args.files} files, {size:.1f} MB, ", end=""
        )
        print(f"written in {took:.1f} s")

        results: dict[str, tuple[float, int]] = {}
        try:
            from draughts.PDN import PDNReader

            results["pydraughts"] = best_of(
                args.rounds, lambda: sum(len(PDNReader(filename=str(p)).games) for p in files)
            )
        except ImportError:
            print("pydraughts is not installed (pip install -e '.[bench]'): no baseline")
        results["read"] = best_of(
            args.rounds,
            lambda: sum(
                event.kind == "start"
                for path in files
                for event in PdnReader(read_lines(path, "x"), "x")
            ),
        )
        results["check"] = best_of(
            args.rounds,
            lambda: sum(
                isinstance(g, Game) for path in files for g in load_games(path, keep=False)
            ),
        )
        command = [sys.executable, "-m", "dama_diagrams", "game", "--jobs", str(args.jobs)]
        results[f"game --jobs {args.jobs}"] = best_of(
            args.rounds,
            lambda: _checked_by_cli([*command, str(archive)]),
        )
    baseline = results.get("pydraughts")
    for name, (seconds, count) in results.items():
        assert count == total, (name, count)
        rate = count / seconds
        ratio = f"  {baseline[0] / seconds:.2f}x pydraughts" if baseline else ""
        print(f"  {name:<16} {seconds:7.2f} s  {rate:9.0f} games/s{ratio}")


def _checked_by_cli(command: list[str]) -> int:
    """How many games ``dama-diagrams game`` says it checked, run as a user runs it."""
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    summary = done.stdout.splitlines()[-1]  # "100000 games: 100000 checked, 0 refused"
    return int(summary.split(": ")[1].split()[0])


if __name__ == "__main__":
    main()
