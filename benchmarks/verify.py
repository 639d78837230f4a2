"""Benchmark: loading diagram files versus verifying their claims.

Goal: verification costs no more time than parsing the YAML, so the engine is
never the slow part of a build.  This writes N diagram files of mixed kinds
(every claim kind, FEN and mapping positions) to a temporary folder, then
times, separately and best of several rounds:

- safe_load: PyYAML's stock ``yaml.load(text, SafeLoader)`` (``CSafeLoader``
  with libyaml), the plain cost of parsing YAML, for reference;
- yaml: :func:`compose_yaml`, the loader's strict parse into located values;
- load: :func:`load_diagram` (read the file, yaml, schema, position and moves);
- verify: :func:`verify` on the loaded diagrams (the engine checks each claim).

Run: ``python benchmarks/verify.py [--count 1000] [--rounds 5]``
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from dama_diagrams.diagram import _yaml as yaml_module
from dama_diagrams.diagram import verify
from dama_diagrams.diagram._yaml import compose_yaml
from dama_diagrams.diagram.schema import Diagram, load_diagram

# One template per claim kind and then some: the rulebook's examples and the
# project's own diagrams, with positions both as FEN and as mappings.
TEMPLATES = (
    'position: "W:W21-32:B1-12"\nclaim: setup\n',
    "position: {turn: white, white: [], black: []}\nclaim: setup\nshow: {numbers: all}\n",
    'position: "W:W22:B4"\nclaim: move\nmoves: [22-18, 22-19]\n',
    'position: "W:WK18:B4"\nclaim: move\nmoves: [18-13, 18-14, 18-21, 18-22]\n',
    'position: "W:W30:B27"\nclaim: capture\nmove: 30x23\n',
    'position: "W:W22,24:B18"\nclaim: capture\nmove: 22x13\nrejected: [24-20]\n',
    'position: "W:W31:B12,20,28"\nclaim: multi-capture\nmove: 31x24x15x8\n',
    'position: "W:WK29:B10,11,18,19,26"\nclaim: multi-capture\nmove: 29x22x13x6x15x22\n',
    'position: "W:W18:B22"\nclaim: illegal\nmove: 18x27\nreason: backward\n',
    "position:\n  turn: white\n  white: [22]\n  black: [K18]\n"
    "claim: illegal\nmove: 22x13\nreason: man-takes-king\n",
    'position: "W:WK21,31:B10,18,27"\nclaim: priority\nmove: 31x22x13x6\n'
    "rule: most-pieces\nrejected: [21x14x5]\n",
    "position:\n  turn: white\n  white: [K23, 31]\n  black: [19, 26, 27]\n"
    "claim: priority\nmove: 23x30x21\nrule: with-king\nrejected: [31x22x15]\n",
    'position: "W:WK23:B19,K28"\nclaim: priority\nmove: 23x32\nrule: most-kings\n'
    "rejected: [23x14]\n",
    'position: "W:WK30:B10,12,18,K20,K26,27"\nclaim: priority\nmove: 30x21x14x5\n'
    "rule: king-first\nrejected: [30x23x16x7]\n",
    'position: "W:WK31:B18,20,K27,K28"\nclaim: free-choice\nmoves: [31x22x13, 31x24x15]\n',
    'position: "W:W11:B5,6"\nclaim: promotion\nmove: 11x2\n',
    'position: "B:W13,22:B"\nclaim: game-over\nreason: no-pieces\n',
    'position: "B:W28,31:B24"\nclaim: game-over\nreason: blocked\n',
    'position: "W:W30,K24:B18,20,26"\nclaim: priority\nmove: 30x21x14\nrule: most-pieces\n'
    'rejected: [24x15]\nexercise: {ask: move, question: "Which capture?"}\n',
)


def write_diagrams(folder: Path, count: int, seed: int = 1) -> list[Path]:
    """``count`` files cycling through the templates, each with its own comment."""
    rng = random.Random(seed)
    paths = []
    for index in range(count):
        text = TEMPLATES[index % len(TEMPLATES)]
        path = folder / f"diagram-{index:04d}.yaml"
        path.write_text(f"# generated diagram {index}, seed {rng.random():.6f}\n{text}")
        paths.append(path)
    return paths


def best_of(rounds: int, work: Callable[[], object]) -> float:
    """The fastest of several runs: the least disturbed by other processes."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def measure(paths: list[Path], rounds: int) -> dict[str, float]:
    texts = [path.read_text() for path in paths]
    diagrams: list[Diagram] = [load_diagram(path) for path in paths]
    stock = yaml.CSafeLoader if yaml_module.USE_LIBYAML else yaml.SafeLoader
    return {
        "safe_load": best_of(rounds, lambda: [yaml.load(text, stock) for text in texts]),
        "yaml": best_of(rounds, lambda: [compose_yaml(text) for text in texts]),
        "load": best_of(rounds, lambda: [load_diagram(path) for path in paths]),
        "verify": best_of(rounds, lambda: [verify(diagram) for diagram in diagrams]),
    }


def report(label: str, count: int, times: dict[str, float]) -> None:
    print(f"{label}: {count} diagrams")
    for step in ("safe_load", "yaml", "load", "verify"):
        per_file = times[step] / count * 1e6
        print(f"  {step:<10}{times[step] * 1000:9.1f} ms  {per_file:7.1f} us/diagram")
    for base in ("safe_load", "yaml", "load"):
        print(f"  verify / {base} = {times['verify'] / times[base]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = write_diagrams(Path(folder), args.count)
        loaders = [True, False] if yaml_module.USE_LIBYAML else [False]
        for libyaml in loaders:
            yaml_module.USE_LIBYAML = libyaml
            label = "libyaml loader" if libyaml else "pure-Python loader"
            report(label, args.count, measure(paths, args.rounds))


if __name__ == "__main__":
    main()
