"""Perft speed of the engine, against pydraughts measured in the same run.

    python benchmarks/perft.py [--depth 9] [--baseline-depth 4]

pydraughts (``pip install pydraughts``, Italian variant) is the baseline: a
well-known pure-Python draughts library.  Both sides bulk-count at the last
ply, so the rates compare like with like.  pydraughts is a benchmark-only
dependency (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from dama_diagrams import Position

POSITIONS = {
    "initial": "W:W21-32:B1-12",
    # A king-heavy middle game: four kings a side among men.
    "kings": "W:WK9,K23,26,27,30,31,32:BK2,7,K16,K17,1,5,12",
}


def _timed(count: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    nodes = count()
    return nodes, time.perf_counter() - start


def _pydraughts_perft(fen: str, depth: int) -> int:
    import draughts

    board = draughts.Board(variant="italian", fen=fen)

    def perft(depth: int) -> int:
        moves = board.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += perft(depth - 1)
            board.pop()
        return total

    return perft(depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9, help="engine depth from the start")
    parser.add_argument("--kings-depth", type=int, default=8, help="engine depth, king game")
    parser.add_argument("--baseline-depth", type=int, default=4, help="pydraughts depth")
    args = parser.parse_args()

    print(f"{'position':8} {'engine':>28} {'pydraughts':>28} {'ratio':>8}")
    for name, fen in POSITIONS.items():
        position = Position.from_fen(fen)
        depth = args.depth if name == "initial" else args.kings_depth
        nodes, seconds = _timed(lambda: position.perft(depth))  # noqa: B023
        rate = nodes / seconds
        base_nodes, base_seconds = _timed(
            lambda: _pydraughts_perft(fen, args.baseline_depth)  # noqa: B023
        )
        base_rate = base_nodes / base_seconds
        check = position.perft(args.baseline_depth)
        agree = "" if check == base_nodes else f"  (perft {args.baseline_depth} differs: {check})"
        print(
            f"{name:8} {f'd{depth} {nodes} in {seconds:.2f}s':>18} {rate:>9,.0f}/s "
            f"{f'd{args.baseline_depth} {base_nodes} in {base_seconds:.2f}s':>18} "
            f"{base_rate:>9,.0f}/s {rate / base_rate:>7,.0f}x{agree}"
        )


if __name__ == "__main__":
    main()
