"""Benchmark: PDN games read and checked per second, against pydraughts' PDNReader.

Writes N random legal Italian games (played by this engine from a fixed seed,
captures in full) to a temporary PDN file, then times, best of several rounds:

- pydraughts: ``draughts.PDN.PDNReader(filename=...)``, the baseline: it only
  splits the file into games and reads their tags and moves, checking none;
- read: :class:`dama_diagrams.engine.pdn.PdnReader`, the same work here;
- check: :func:`dama_diagrams.engine.games.load_games`, read and every move
  played by the engine (short captures expanded, legality checked), keeping
  only each game's final position, as ``dama-diagrams game`` does.

Run: ``python benchmarks/pdn.py [--games 10000] [--rounds 3]`` (pydraughts is
the ``bench`` extra: ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import random
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
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "random.pdn"
        started = time.perf_counter()
        path.write_text("".join(random_game(rng, n) for n in range(args.games)), "utf-8")
        size = path.stat().st_size / 1e6
        took = time.perf_counter() - started
        print(f"{args.games} games, {size:.1f} MB, written in {took:.1f} s")

        results: dict[str, tuple[float, int]] = {}
        try:
            from draughts.PDN import PDNReader

            results["pydraughts"] = best_of(
                args.rounds, lambda: len(PDNReader(filename=str(path)).games)
            )
        except ImportError:
            print("pydraughts is not installed (pip install -e '.[bench]'): no baseline")
        results["read"] = best_of(
            args.rounds,
            lambda: sum(event.kind == "start" for event in PdnReader(read_lines(path, "x"), "x")),
        )
        results["check"] = best_of(
            args.rounds, lambda: sum(isinstance(g, Game) for g in load_games(path, keep=False))
        )
    baseline = results.get("pydraughts")
    for name, (seconds, count) in results.items():
        assert count == args.games, (name, count)
        rate = count / seconds
        ratio = f"  {baseline[0] / seconds:.2f}x pydraughts" if baseline else ""
        print(f"  {name:<11} {seconds:7.2f} s  {rate:9.0f} games/s{ratio}")


if __name__ == "__main__":
    main()
