"""Where the printed books' time goes, step by step, against MkDocs' for the same languages.

    python benchmarks/books.py [--runs N]

In one process, one language after the other, so that no step waits for a core
(``build.py`` measures the same in a real, parallel build): each language is
generated as ``build`` does it; then MkDocs builds its HTML (the baseline) and
its book is made in the steps of :mod:`dama_diagrams.site.booklet`, each timed
in processor seconds:

- ``pages``: the pages written for print (``printed_pages``, in ``generate_language``),
- ``sources``: the book's sources (``book_job``: templates' lines, catalog words),
- ``markdown``: each page's Markdown read into an element tree (``tree.page_tree``),
- ``markup``: the rest of the book's Typst markup (``printable_document`` less the above),
- ``typst``: Typst lays the book out (``pdf.book_pdf``: one Typst world for all six).

Each run is made twice, each time in a new process: as the books are made now,
and with Typst as it was used before, a new world for each book, given each
diagram's SVG as drawn for its language.  The PDFs of the two are checked to be
the same bytes.  The figures are the median of ``--runs`` runs; the ratio is the
books' total against MkDocs' total in the same process.

``--floor`` adds a third way, a book that is not worth printing, to show how far
the goal is: every diagram a blank square, no hyphenation, no page references,
no running header or page number, and ``markdown`` the time Python-Markdown takes
to read the same pages with no extension at all (the books still read them as
now, uncounted).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STEPS = ("pages", "sources", "markdown", "markup", "typst")


_BLANK = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 860 860" width="400" height="400">'
    '<rect width="860" height="860" fill="#ccc"/></svg>'
)


def floor_markup(markup: str) -> str:
    """The book's markup without hyphenation, page references, running header and footer."""
    markup = markup.replace("hyphenate: true,", "hyphenate: false,")
    markup = re.sub(r"#context counter\(page\)\.at\(<[^>]+>\)\.first\(\)", "0", markup)
    return re.sub(
        r"header: context \{.*?\n    \},\n    footer: context \{.*?\n    \},\n",
        "",
        markup,
        flags=re.DOTALL,
    )


def one_run(project: Path, *, alone: bool, floor: bool = False) -> dict[str, float]:
    """Every language's MkDocs run and book, in this process: processor seconds by step.

    With ``alone``, each book is laid out in a Typst world of its own, as before;
    with ``floor``, as the module's ``--floor`` says.
    """
    import markdown as python_markdown
    import typst

    from dama_diagrams.site.booklet import assemble, tree
    from dama_diagrams.site.booklet.jobs import book_job
    from dama_diagrams.site.booklet.pdf import STANDARD, book_pdf, printable_document
    from dama_diagrams.site.builder.config import BaseConfig, language_config
    from dama_diagrams.site.builder.run import run_mkdocs, write_config, write_files
    from dama_diagrams.site.i18n import available_languages
    from dama_diagrams.site.pages.figures import load_figures
    from dama_diagrams.site.publish.language import generate_language

    base = BaseConfig.read(project)
    figures = load_figures(project)
    languages = available_languages(project)
    seconds = dict.fromkeys(("mkdocs", *STEPS), 0.0)
    markdown = [0.0]
    page_tree = tree.page_tree

    def timed_tree(text: str) -> object:
        started = time.process_time()
        try:
            return page_tree(text)
        finally:
            markdown[0] += time.process_time() - started

    tree.page_tree = timed_tree  # type: ignore[assignment]
    assemble.page_tree = timed_tree  # type: ignore[assignment]
    for code in languages:
        sources = generate_language(
            project, code, figures, base=base, languages=languages, book=True
        )
        seconds["pages"] += sources.cpu["booklet"]
        folder = project / "build" / code
        write_files(sources.files, folder / "docs")
        config = language_config(base, code, folder / "docs", folder / "site")
        started = time.process_time()
        warnings = run_mkdocs(write_config(config, folder / "mkdocs.yml"), sources.settings)
        seconds["mkdocs"] += time.process_time() - started
        if warnings:
            raise SystemExit(f"{code}: MkDocs: {warnings[0]}")

        started = time.process_time()
        job = book_job(project, sources, figures, folder / "book.pdf", author=base.site_author)
        seconds["sources"] += time.process_time() - started
        markdown[0], started = 0.0, time.process_time()
        document = printable_document(job.book, paper=job.paper)
        seconds["markup"] += time.process_time() - started - markdown[0]
        seconds["markdown"] += markdown[0]
        if floor:
            started = time.process_time()
            for text in sources.book_pages.values():
                python_markdown.Markdown().convert(text)
            seconds["markdown"] += time.process_time() - started - markdown[0]
            pictures = dict.fromkeys(document.images, _BLANK)
            document = dataclasses.replace(
                document, markup=floor_markup(document.markup), images=pictures
            )
        started = time.process_time()
        if alone:
            with tempfile.TemporaryDirectory() as empty:
                pdf = typst.Compiler(root=empty, ignore_system_fonts=True).compile(
                    document.markup.encode("utf-8"),
                    format="pdf",
                    sys_inputs=document.images,
                    pdf_standards=[STANDARD],
                    timestamp=job.book.epoch,
                )
        else:
            pdf = book_pdf(job.book, paper=job.paper, document=document)
        seconds["typst"] += time.process_time() - started
        (project / f"{code}.pdf").write_bytes(pdf)
    seconds["books"] = sum(seconds[step] for step in STEPS)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs, each in a new process")
    parser.add_argument("--one", metavar="PROJECT", help=argparse.SUPPRESS)  # a run's process
    parser.add_argument("--alone", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--floor", action="store_true", help="also a book stripped of what costs (see above)"
    )
    args = parser.parse_args()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    if args.one:
        print(json.dumps(one_run(Path(args.one), alone=args.alone, floor=args.floor)))
        return

    runs: dict[str, list[dict[str, float]]] = {"now": [], "before": []}
    if args.floor:
        runs["floor"] = []
    with tempfile.TemporaryDirectory(prefix="dama-bench-") as scratch:
        for run in range(args.runs):
            made = {}
            for way, done in runs.items():
                project = Path(scratch) / f"{way}-{run}"
                project.mkdir()
                for name in ("diagrams", "docs", "games"):
                    shutil.copytree(ROOT / name, project / name)
                shutil.copy(ROOT / "mkdocs.yml", project)
                shutil.copy(ROOT / "babel.cfg", project)
                command = [sys.executable, __file__, "--one", str(project)]
                flags = {"before": ["--alone"], "floor": ["--floor"]}.get(way, [])
                result = subprocess.run(
                    command + flags,
                    check=True,
                    capture_output=True,
                    text=True,
                    env={**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1700000000"},
                )
                done.append(json.loads(result.stdout.strip().splitlines()[-1]))
                made[way] = {pdf.name: pdf.read_bytes() for pdf in project.glob("*.pdf")}
                shown = ", ".join(f"{k} {v:.2f}" for k, v in done[-1].items())
                print(f"run {run + 1}, {way}: {shown}")
            if made["now"] != made["before"] or len(made["now"]) != 6:
                raise SystemExit("the books laid out in one world differ from those laid out alone")
    titles = {
        "now": "one Typst world",
        "before": "a Typst world for each book",
        "floor": "the floor: blank diagrams, no hyphenation, references or headers, bare Markdown",
    }
    for way, title in titles.items():
        if way not in runs:
            continue
        median = {key: statistics.median(run[key] for run in runs[way]) for key in runs[way][0]}
        books, mkdocs = median["books"], median["mkdocs"]
        print(
            f"\n{title}: processor seconds, the six languages one after the other "
            f"(median of {args.runs}):"
        )
        for step in STEPS:
            print(f"  {step:10s} {median[step]:5.2f}  {median[step] / books:4.0%} of the books")
        print(
            f"  the books  {books:5.2f}\n  MkDocs     {mkdocs:5.2f}\n"
            f"  ratio {books / mkdocs:.2f} (goal: under 1)"
        )
    print("the six PDFs are the same bytes both ways")


if __name__ == "__main__":
    main()
