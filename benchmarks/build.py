"""How long the site takes to build, and how much of it is our own work.

    python benchmarks/build.py [--cold] [--runs N]

A full build (every language) is split into verify, render, page generation,
MkDocs and the printed books (booklet); render, pages, mkdocs and booklet are
summed over the languages, which build in parallel, and "wall" is the elapsed
time.  The goals are measured in processor seconds (``BuildReport.cpu``): the
languages, the cards and the books share two cores, so each step's wall time
grows with what runs beside it, while its processor time does not.  Imports
are outside both, ours as MkDocs' (the build loads them before its clock
starts).

The first goal is that verify, render and pages together stay under 15% of
the HTML's summed total (MkDocs' own time is the floor); the wall-time share
is printed too.  The second is that all six books together take less
processor time than MkDocs takes for the six languages' HTML: the books'
processor time (laid out by Typst in the workers, summed over the languages)
is printed beside MkDocs', with their ratio and whether the goal is met.
``dama-diagrams booklet`` alone is timed against the build.  ``--cold`` first
empties the social-card and book caches, as on a fresh clone, so that every
book is laid out; warm, the books come from the cache, and the second goal
says so.

Then it times what ``dama-diagrams serve`` does after one diagram changes:
verify, regenerate and rebuild one language through the MkDocs plugin.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dama_diagrams.site._common import OVERRIDES, PLUGIN_NAME  # noqa: E402
from dama_diagrams.site.booklet.jobs import BOOK_CACHE  # noqa: E402
from dama_diagrams.site.pages.cards import CARD_CACHE  # noqa: E402

CACHES = (CARD_CACHE, BOOK_CACHE)

OURS = ("verify", "render", "pages")


def full_build(project: Path, out: Path) -> tuple[dict[str, float], list[str]]:
    """One ``dama-diagrams build`` in a fresh process, as from the command line.

    Its timings (processor seconds as ``cpu <step>``) and the languages it built.
    """
    code = (
        "import json, sys; from pathlib import Path; from dama_diagrams.site import build_site; "
        "r = build_site(Path(sys.argv[1]), out=Path(sys.argv[2])); "
        "print(json.dumps({'languages': r.languages, "
        "'timings': {**r.timings, **{f'cpu {k}': v for k, v in r.cpu.items()}}}))"
    )
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", code, str(project), str(out)],
        check=True,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "NO_MKDOCS_2_WARNING": "1",
            "DAMA_DIAGRAMS_BOOKS": "1",  # the books are part of what this measures
        },
    )
    report = json.loads(result.stdout.strip().splitlines()[-1])
    timings: dict[str, float] = report["timings"]
    timings["wall"] = timings.pop("total")
    timings["process"] = time.perf_counter() - started  # with Python's start and imports
    return timings, report["languages"]


def booklet_alone(project: Path, out: Path) -> dict[str, float]:
    """One ``dama-diagrams booklet`` (every language) in a fresh process.

    Its processor seconds by step (``total`` holds its workers'), and ``wall``.
    """
    code = (
        "import json, sys; from pathlib import Path; "
        "from dama_diagrams.site.publish.booklets import build_booklets; "
        "print(json.dumps(build_booklets(Path(sys.argv[1]), out=Path(sys.argv[2])).timings))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(project), str(out)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    timings: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return timings


def books_against_mkdocs(median: dict[str, float], languages: list[str], *, cold: bool) -> str:
    """The books' processor time beside MkDocs' for the same languages, and the goal's verdict."""
    if "cpu booklet" not in median:
        raise SystemExit("the build measured no processor time for its books (cpu['booklet'])")
    books, mkdocs = median["cpu booklet"], median["cpu mkdocs"]
    count = "six" if len(languages) == 6 else str(len(languages))
    verdict = "met" if books < mkdocs else "not met"
    if not cold:
        verdict += " (warm: the books came from the cache; --cold lays them out)"
    return (
        f"the {count} books ({', '.join(languages)}): {books:.2f} processor seconds; "
        f"MkDocs for the {count} languages' HTML: {mkdocs:.2f} processor seconds; "
        f"ratio {books / mkdocs:.2f} (wall, summed: {median['booklet']:.2f}s against "
        f"{median['mkdocs']:.2f}s)\n"
        f"goal: all {count} books together in less processor time than MkDocs takes for "
        f"the {count} languages' HTML: {verdict}"
    )


def serve_rebuild(project: Path, language: str) -> float:
    """One rebuild as ``serve`` does it, after an edit to a diagram."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config_file = project / "serve.yml"
    config_file.write_text(
        yaml.safe_dump(
            {
                "INHERIT": str(project / "mkdocs.yml"),
                "site_dir": str(project / "serve-site"),
                "theme": {"language": language, "custom_dir": str(OVERRIDES)},
                "plugins": [{PLUGIN_NAME: {"lang": language}}, "search"],
            }
        )
    )
    build(load_config(config_file=str(config_file)))  # first build: warm caches, as serve has
    diagram = project / "diagrams" / "man-move.yaml"
    diagram.write_text(diagram.read_text() + "\n# edited\n")
    started = time.perf_counter()
    build(load_config(config_file=str(config_file)))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--cold", action="store_true", help="empty the social-card and book caches first"
    )
    parser.add_argument("--runs", type=int, default=3, help="full builds to time (median)")
    parser.add_argument("--lang", default="nl", help="language of the serve rebuild")
    args = parser.parse_args()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    logging.getLogger("mkdocs").setLevel(logging.ERROR)

    with tempfile.TemporaryDirectory(prefix="dama-bench-") as scratch:
        project = Path(scratch) / "project"
        project.mkdir()
        for name in ("diagrams", "docs", "games"):
            shutil.copytree(ROOT / name, project / name)
        shutil.copy(ROOT / "mkdocs.yml", project)
        shutil.copy(ROOT / "babel.cfg", project)
        for cache in CACHES:
            if not args.cold and (ROOT / cache).is_dir():
                shutil.copytree(ROOT / cache, project / cache)

        runs = []
        languages: list[str] = []
        for run in range(args.runs):
            if args.cold:
                for cache in CACHES:
                    shutil.rmtree(project / cache, ignore_errors=True)
            timings, languages = full_build(project, project / "site")
            runs.append(timings)
            print(f"run {run + 1}: " + ", ".join(f"{k} {v:.2f}s" for k, v in timings.items()))
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        ours = sum(median[key] for key in OURS)
        share = ours / (ours + median["mkdocs"])
        cpu_ours = sum(median[f"cpu {key}"] for key in OURS)
        cpu_share = cpu_ours / (cpu_ours + median["cpu mkdocs"])
        caches = "cold" if args.cold else "warm"
        print(
            f"\nfull build ({caches} card and book caches, median of {args.runs}): "
            + ", ".join(f"{key} {value:.2f}s" for key, value in median.items())
        )
        print(
            f"our work (verify + render + pages): {cpu_ours:.2f} processor seconds = "
            f"{cpu_share:.1%} of the summed total (goal: at most 15%); "
            f"wall {ours:.2f}s = {share:.1%}"
        )
        print(books_against_mkdocs(median, languages, cold=args.cold))
        if args.cold:
            shutil.rmtree(project / BOOK_CACHE, ignore_errors=True)
        alone = booklet_alone(project, project / "booklet")
        print(
            f"dama-diagrams booklet alone: {alone['total']:.2f} processor seconds (the PDFs "
            f"laid out {alone['booklet']:.2f}, their pages {alone['pages']:.2f}), wall "
            f"{alone['wall']:.2f}s; the whole build: wall {median['wall']:.2f}s"
        )
        seconds = serve_rebuild(project, args.lang)
        print(f"serve rebuild after one diagram changed ({args.lang}): {seconds:.2f}s")


if __name__ == "__main__":
    main()
