"""Benchmark: the finder's positions examined per second, and its time to a rule 4 example.

Goal: the finder costs little more per position than the engine itself, and
finds a king-first (rule 4) example with at most 7 pieces within seconds.
Times, in one run:

- engine: the baseline, the raw engine on uniformly random valid positions
  of 2 to 7 pieces: ``legal_moves()`` and ``explain()`` for each, and how many
  of them would make a rule 4 example (a naive search's yield);
- finder: :func:`find` looking for a rule 4 example with at most 7 pieces,
  asked for more than it can find so that it runs the whole time: positions
  generated, examined and, when they match, verified, per second;
- first: the time :func:`find` takes to its first rule 4 example with at most
  7 pieces, for several seeds (median and worst).

Run: ``python benchmarks/find.py [--seconds 3] [--seeds 10]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dama_diagrams.diagram.finder import Query, find
from dama_diagrams.diagram.options import Claim
from dama_diagrams.engine import Color, Position, PriorityRule, explain

KING_FIRST = Query(Claim.PRIORITY, rule=PriorityRule.KING_FIRST, max_pieces=7)


def random_position(rng: random.Random) -> Position:
    """Uniformly placed pieces, a random side to move: what a naive search would try."""
    count = rng.randint(2, 7)
    squares = rng.sample(range(1, 33), count)
    white = rng.randint(1, count - 1)
    groups: dict[str, list[int]] = {"wm": [], "wk": [], "bm": [], "bk": []}
    for index, square in enumerate(squares):
        is_white = index < white
        crown = range(1, 5) if is_white else range(29, 33)
        king = square in crown or rng.random() < 0.35
        groups[("w" if is_white else "b") + ("k" if king else "m")].append(square)
    return Position.from_squares(
        rng.choice((Color.WHITE, Color.BLACK)),
        white_men=groups["wm"],
        white_kings=groups["wk"],
        black_men=groups["bm"],
        black_kings=groups["bk"],
    )


def engine_rate(seconds: float) -> tuple[float, float]:
    """Random positions per second through legal_moves() and explain(), and the share of
    them that a rule 4 example would be: rule 4 alone decides, one capture is left."""
    rng = random.Random(1)
    positions = [random_position(rng) for _ in range(30_000)]
    done, hits, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for position in positions[done % 30_000 : done % 30_000 + 2000]:
            position.legal_moves()
            explanation = explain(position)
            if done < 30_000 and len(explanation.legal_moves) == 1:
                hits += explanation.deciding_rules == (PriorityRule.KING_FIRST,)
        done += 2000
    return done / (time.perf_counter() - started), hits / min(done, 30_000)


def finder_rate(seconds: float) -> tuple[float, int]:
    """Positions examined per second, and how many rule 4 examples were found meanwhile."""
    result = find(KING_FIRST, count=10_000, seed=1, time_limit=seconds)
    return result.examined / result.elapsed, len(result.found)


def first_example(seeds: int) -> list[float]:
    """Seconds to the first rule 4 example, for each seed."""
    times = []
    for seed in range(seeds):
        result = find(KING_FIRST, count=1, seed=seed, time_limit=60)
        assert result.found, f"seed {seed}: no rule 4 example in 60 s"
        times.append(result.elapsed)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()
    engine, share = engine_rate(args.seconds)
    finder, found = finder_rate(args.seconds)
    times = first_example(args.seeds)
    print(f"engine   {engine:10,.0f} random positions/s (legal_moves + explain)")
    print(f"  rule 4 examples among them: {share:.5%}, {engine * share:.2f}/s")
    print(f"finder   {finder:10,.0f} positions examined/s")
    print(f"  rule 4 examples: {found / args.seconds:.2f}/s (distinct)")
    print(f"  finder / engine = {finder / engine:.2f} (positions per second)")
    median, worst = statistics.median(times), max(times)
    print(
        f"first rule 4 example, at most 7 pieces: median {median:.2f} s, worst {worst:.2f} s "
        f"({args.seeds} seeds)"
    )
    print(f"  engine positions in that median time: {engine * median:,.0f}")


if __name__ == "__main__":
    main()
