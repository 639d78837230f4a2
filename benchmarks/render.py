"""Rendering speed: SVG, PNG and GIF renders per second, against baselines in the same run.

    python benchmarks/render.py [--positions 1000] [--png-positions 1000] [--seconds 2]

Two workloads:

- the diagram set: every ``diagrams/*.yaml`` (through the project's loader),
  or, while there is none, the FID rulebook examples with their moves;
- ``--positions`` generated positions: seeded random games from the initial
  position, each shown with one of its legal moves.

The baseline is ``chess.svg.board()`` (``pip install chess``, the ``bench``
extra) on a board of comparable content: the 32 chess pieces with a last move
and an arrow, at the same pixel size.  SVG is measured warm (the normal case:
the background is cached per options; the whole board is not, though a site
draws each one again in every language) and cold (every cache cleared before
each render).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dama_diagrams import Position
from dama_diagrams.render import Markers, render_svg, svg_to_png
from dama_diagrams.render.svg import clear_cache

ROOT = Path(__file__).resolve().parent.parent
SIZE = 400

RULEBOOK = {
    "5-6": ("W:W30:B27", "30x23", ()),
    "5-7": ("W:W31:B12,20,28", "31x24x15x8", ()),
    "5-8": ("W:WK22:B18,19,27", "22x13", ()),
    "5-9": ("W:WK27:B5,6,13,15,21,23", "27x20x11x2x9x18x25", ()),
    "6-6": ("W:WK21,31:B10,18,27", "31x22x13x6", ("21x14x5",)),
    "6-7": ("W:WK23,31:B19,26,27", "23x30x21", ("31x22",)),
    "6-8": ("W:WK23:B19,K28", "23x32", ("23x14",)),
    "6-9": ("W:WK30:B10,12,18,K20,K26,27", "30x21x14x5", ()),
    "6-10": ("W:WK31:B18,20,K27,K28", "31x22x13", ()),
    "initial": ("W:W21-32:B1-12", None, ()),
}


@dataclass(frozen=True)
class Job:
    """One diagram to render: the arguments of render_svg."""

    position: Position
    options: dict[str, Any] = field(default_factory=dict)


def diagram_set() -> tuple[str, list[Job]]:
    """The project's diagrams if there are any, else the rulebook examples."""
    paths = sorted((ROOT / "diagrams").glob("*.yaml"))
    if paths:
        try:
            from dama_diagrams.diagram.schema import load_diagram
        except ImportError:
            paths = []
        else:
            jobs: list[Job] = []
            for path in paths:
                diagram = load_diagram(path)
                markers = None
                shown = diagram.move or (diagram.moves[0] if diagram.moves else None)
                if shown is not None:
                    markers = Markers.from_move(shown, diagram.rejected)
                options = {
                    "diagram_id": diagram.id,
                    "markers": markers,
                    "numbers": diagram.show.numbers,
                    "arrows": diagram.show.arrows,
                    "flipped": diagram.show.flip,
                }
                jobs.append(Job(diagram.position, options))
            return f"diagrams/ ({len(jobs)} files)", jobs
    jobs = []
    for name, (fen, move, rejected) in RULEBOOK.items():
        markers = Markers.from_move(move, rejected) if move else None
        jobs.append(Job(Position.from_fen(fen), {"diagram_id": name, "markers": markers}))
    return f"rulebook examples ({len(jobs)})", jobs


def generated(count: int, seed: int = 2024) -> list[Job]:
    """Positions from seeded random games, each with one of its legal moves marked."""
    rng = random.Random(seed)
    jobs: list[Job] = []
    while len(jobs) < count:
        position = Position.initial()
        for _ in range(rng.randrange(0, 70)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        moves = position.legal_moves()
        markers = Markers.from_move(rng.choice(moves)) if moves else None
        jobs.append(Job(position, {"markers": markers, "numbers": "marked"}))
    return jobs


def rate(render: Callable[[], object], seconds: float, minimum: int = 1) -> float:
    """Calls per second of ``render``, run for about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    while True:
        render()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and calls >= minimum:
            return calls / elapsed


def cycle(jobs: Sequence[Job], action: Callable[[Job], object]) -> Callable[[], object]:
    state = {"index": 0}

    def step() -> object:
        job = jobs[state["index"] % len(jobs)]
        state["index"] += 1
        return action(job)

    return step


def svg_of(job: Job) -> str:
    clear_cache(keep_backgrounds=True)  # a new position each time, as the jobs cycle
    return render_svg(job.position, size=SIZE, **job.options)


def cold_svg_of(job: Job) -> str:
    clear_cache()
    return svg_of(job)


def chess_baseline(seconds: float) -> float | None:
    try:
        import chess
        import chess.svg
    except ImportError:
        return None
    board = chess.Board()
    move = chess.Move.from_uci("e2e4")
    board.push(move)
    arrows = [chess.svg.Arrow(chess.G1, chess.F3)]
    return rate(lambda: chess.svg.board(board, size=SIZE, lastmove=move, arrows=arrows), seconds)


def animation_rates() -> tuple[float, float, int]:
    """GIF frames per second for the diagram set's captures, and PNG frames/s on the same frames.

    The baseline is the PNG path measured in the same run: every frame drawn
    as a PNG on its own.  The difference is what the GIF adds (decoding each
    PNG, one palette per frame, and the GIF encoder).
    """
    from dama_diagrams.diagram import load_diagram, verify
    from dama_diagrams.render import animate, capture_frames

    verified = [verify(load_diagram(path)) for path in sorted((ROOT / "diagrams").glob("*.yaml"))]
    animations = [capture_frames(v) for v in verified if v.move and v.move.is_capture]
    frames = sum(len(animation) for animation in animations)
    start = time.perf_counter()
    for animation in animations:
        animate(animation)
    gif = frames / (time.perf_counter() - start)
    start = time.perf_counter()
    for animation in animations:
        for frame in animation:
            svg_to_png(frame.picture.svg)
    png = frames / (time.perf_counter() - start)
    return gif, png, frames


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="generated positions")
    parser.add_argument(
        "--png-positions", type=int, default=1000, help="of those, how many to draw as PNG"
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time per SVG measurement")
    args = parser.parse_args()

    label, diagrams = diagram_set()
    positions = generated(args.positions)
    chess_rate = chess_baseline(args.seconds)

    print(f"SVG and PNG at {SIZE} px; python-chess baseline: chess.svg.board(), 32 pieces")
    print(f"{'workload':34} {'SVG warm/s':>11} {'SVG cold/s':>11} {'PNG/s':>8} {'vs chess':>9}")
    for name, jobs, png_count in (
        (label, diagrams, len(diagrams)),
        (f"generated positions ({len(positions)})", positions, args.png_positions),
    ):
        for job in jobs:  # warm the caches, and fail early on a bad diagram
            svg_of(job)
        warm = rate(cycle(jobs, svg_of), args.seconds, minimum=len(jobs))
        cold = rate(cycle(jobs, cold_svg_of), args.seconds, minimum=len(jobs))
        svgs = [svg_of(job) for job in jobs[: max(1, png_count)]]
        start = time.perf_counter()
        for svg in svgs:
            svg_to_png(svg)
        png = len(svgs) / (time.perf_counter() - start)
        ratio = f"{warm / chess_rate:8.1f}x" if chess_rate else "      n/a"
        print(f"{name:34} {warm:11.0f} {cold:11.0f} {png:8.1f} {ratio}")
    if chess_rate:
        print(f"{'chess.svg.board()':34} {chess_rate:11.0f}")
    else:
        print("python-chess is not installed (pip install chess): no baseline")
    gif, png, frames = animation_rates()
    print(
        f"\nanimated captures ({frames} frames): GIF {gif:.1f} frames/s, "
        f"PNG path {png:.1f} frames/s (baseline): GIF at {gif / png:.2f}x the PNG rate"
    )


if __name__ == "__main__":
    main()
