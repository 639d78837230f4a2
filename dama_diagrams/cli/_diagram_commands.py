"""Commands on diagram files: verify their claims, render them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import DamaError, counted, visible
from . import _arguments
from ._context import default_diagrams, errors_of, need_site_extra, project_root_or_none
from ._findings import Finding, Format, add_format_option, print_findings, summary_stream

if TYPE_CHECKING:
    from ._context import Commands


def _verify(args: argparse.Namespace, out: TextIO) -> int:
    """One line per diagram, then the totals; exit 1 if a claim fails, 2 if a path is missing.

    Markdown files (and those of folders) bring the diagrams of their ``dama``
    fences; a folder's own YAML files that are configuration are counted, not
    checked (:func:`~dama_diagrams.diagram.report.folder_files`).  ``--format``
    prints the refusals as JSON or GitHub annotations instead of text; the
    diagrams' own lines then go to stderr (JSON) or stay.
    """
    from ..diagram import VerifiedDiagram, verify_paths

    style: Format = args.output_format
    errors = errors_of(out)
    lines = summary_stream(style, out, errors)
    root = project_root_or_none()
    try:
        given = args.paths or default_diagrams()
    except DamaError as refused:  # diagrams/ leads out of the project: nothing read
        print_findings([Finding.of(refused)], style, out=out, errors=errors)
        return 1
    missing = [path for path in given if not path.exists()]
    if missing:
        found = [Finding("no such file or folder", str(path)) for path in missing]
        print_findings(found, style, out=out, errors=errors)
        return 2
    report = verify_paths(given)
    names = [visible(result.id) for result in report.results]  # a failed file's id is its name
    width = max(map(len, names), default=0)
    books = _prints_books(root)
    for name, result in zip(names, report.results, strict=True):
        if isinstance(result, VerifiedDiagram):
            line = f"{name:<{width}}  {result.claim.value:<13}  holds: {result.summary}"
            print(line, file=lines)
            if books and not result.diagram.path.endswith(".md"):  # a fence is in no book
                warned = [Finding.of(w, "warning") for w in result.diagram.book_warnings()]
                print_findings(warned, style, out=out, errors=errors)
        else:
            print(f"{name:<{width}}  {result.claim:<13}  FAILS", file=lines)
            print_findings([Finding.of(result.error)], style, out=out, errors=errors)
    for left_out in report.left_out:  # a folder's configuration: said, never skipped unsaid
        print(left_out.line(), file=lines)
    print(report.totals(), file=lines)
    translations_ok = (
        _check_translations(root, style, out, errors) if root and not args.paths else True
    )
    return 0 if report.ok and translations_ok else 1


def _prints_books(root: Path | None) -> bool:
    """Whether the diagrams go into printed books: a rules site's project (it has babel.cfg)."""
    from ..site.i18n.extract import BABEL_CFG

    return root is not None and (root / BABEL_CFG).is_file()


def _check_translations(root: Path, style: Format, out: TextIO, errors: TextIO) -> bool:
    """In a site project, every broken, outdated or missing translation, one line each."""
    from ..site.i18n import available_languages, translation_problems
    from ..site.i18n.extract import BABEL_CFG

    if not (root / BABEL_CFG).is_file():
        return True
    problems, warnings = translation_problems(root, available_languages(root))
    found = [Finding.of(problem) for problem in problems]
    found += [Finding.of(warning, "warning") for warning in warnings]
    if style == "text":  # as it always printed them: a warning is a line like an error
        found = [Finding(f.message, f.path, f.line, f.col) for f in found]
    print_findings(found, style, out=out, errors=errors)
    return not problems


def _render(args: argparse.Namespace, out: TextIO) -> int:
    if args.format != "svg":  # PNG, GIF and WebP are drawn by cairo (and Pillow)
        need_site_extra("render", "cairosvg", *(() if args.format == "png" else ("PIL",)))
    from ..render.files import render_files

    paths = args.paths or default_diagrams()
    missing = [visible(str(path)) for path in paths if not path.exists()]
    if missing:
        print(
            f"dama-diagrams render: no such file or folder: {', '.join(missing)}", file=sys.stderr
        )
        return 2
    report = render_files(paths, args.out, image_format=args.format, scale=args.scale)
    errors = errors_of(out)
    for failure in report.failures:
        print(str(failure.error), file=errors)
    refused = f", {len(report.failures)} refused" if report.failures else ""
    rendered = counted(len(report.written), "diagram")
    print(f"{rendered} rendered to {visible(str(report.out_dir))}{refused}", file=out)
    return 0 if report.ok else 1


def add_verify(commands: Commands) -> None:
    verify = commands.add_parser("verify", help="check every diagram's claim (default: diagrams/)")
    verify.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="diagram files, Markdown pages (their dama fences) or folders of either",
    )
    add_format_option(verify)
    verify.set_defaults(handler=_verify)


def _schema(args: argparse.Namespace, out: TextIO) -> int:
    from ..diagram.json_schema import schema_text

    out.write(schema_text())
    return 0


def add_schema(commands: Commands) -> None:
    schema = commands.add_parser(
        "schema", help="print the JSON Schema of diagram files, for editors and other tools"
    )
    schema.set_defaults(handler=_schema)


def add_render(commands: Commands) -> None:
    render = commands.add_parser("render", help="verify, then draw diagrams as SVG or PNG")
    render.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="files or folders")
    render.add_argument("--out", type=Path, required=True, metavar="DIR", help="output folder")
    render.add_argument(
        "--format",
        choices=("svg", "png", "gif", "webp"),
        default="svg",
        help="svg or png: the diagram; gif or webp: its capture, animated landing by landing",
    )
    render.add_argument(
        "--scale", type=_arguments.scale, default=1.0, help="PNG/GIF/WebP scale (default 1)"
    )
    render.set_defaults(handler=_render)
