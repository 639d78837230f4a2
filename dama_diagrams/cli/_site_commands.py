"""Commands on the rules site and its translations."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import visible
from . import _arguments
from ._context import errors_of, need_site_extra, project_root, shown
from ._findings import Finding, Format, add_format_option, print_findings, summary_stream

if TYPE_CHECKING:
    from ._context import Commands


def _build(args: argparse.Namespace, out: TextIO) -> int:
    need_site_extra("build", "mkdocs", "material")
    from ..site.publish.build import build_site

    out_dir = args.out.resolve() if args.out else None  # from where the user stands
    report = build_site(
        project_root(),
        languages=args.lang or None,
        out=out_dir,
        drafts=args.drafts,
        strict_translations=args.strict_translations,
    )
    return _reported(report.summary(), report.warnings(), out)


def _reported(summary: str, left_out: list[str], out: TextIO) -> int:
    """What was made, on stdout; each language or book left out, with why, on stderr."""
    print(summary, file=out)
    for line in left_out:
        print(f"dama-diagrams: {line}", file=errors_of(out))
    return 0


def _booklet(args: argparse.Namespace, out: TextIO) -> int:
    from ..site.publish.booklets import build_booklets

    report = build_booklets(
        project_root(),
        languages=args.lang or None,
        out=args.out.resolve() if args.out else None,
        paper=args.paper,
        drafts=args.drafts,
    )
    return _reported(report.summary(), report.left_out, out)


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    need_site_extra("serve", "mkdocs", "material")
    from ..site.servers.serve import serve_all, serve_site

    if args.lang is None:
        serve_all(project_root(), dev_addr=args.dev_addr)
    else:
        serve_site(project_root(), args.lang, dev_addr=args.dev_addr)
    return 0


def _preview(args: argparse.Namespace, out: TextIO) -> int:
    from ..site.servers.preview import preview_site

    root = project_root()
    preview_site(root, args.site.resolve() if args.site else root / "site", port=args.port)
    return 0


def _editor(args: argparse.Namespace, out: TextIO) -> int:
    from ..site.editor import run_editor

    run_editor(project_root(), port=args.port, lang=args.lang)
    return 0


def _new_language(args: argparse.Namespace, out: TextIO) -> int:
    from ..site.builder.config import new_language
    from ..site.i18n import DRAFTS_SETTING, native_name

    path = new_language(project_root(), args.code)
    written = visible(str(shown(path)))
    print(
        f"wrote {written} ({native_name(args.code)}): translate it with Poedit, Weblate "
        "or any PO editor. It is a draft, left out of the site, until its first message is "
        f"translated; to hold it back longer, list it in mkdocs.yml as {DRAFTS_SETTING}: "
        f"[{args.code}]. build --drafts and serve --lang {args.code} show it meanwhile.",
        file=out,
    )
    return 0


def _status(args: argparse.Namespace, out: TextIO) -> int:
    """Each language's line; every problem a build would refuse, at its line; exit 1 if any."""
    from ..site.builder.config import BaseConfig
    from ..site.i18n import available_languages, catalog_status, check_drafts, format_status
    from ..site.i18n import translation_problems as problems_of
    from ..site.i18n.quality import QualityError
    from ..site.i18n.reading import check_languages

    root = project_root()
    base = BaseConfig.read(root)
    check_drafts(root, base.drafts, line=base.drafts_line)
    if args.lang:
        check_languages(root, args.lang)
    languages = args.lang or available_languages(root)
    checked = {
        code: problems_of(root, [code], strict=args.strict_translations) for code in languages
    }
    problems = {code: errors for code, (errors, _) in checked.items()}
    statuses = catalog_status(root, languages, drafts=base.drafts)
    broken = [code for code, found in problems.items() if found]
    # what every build refuses; the rest of --strict-translations' errors only it refuses
    refused_always = [code for code in broken if problems_of(root, [code])[0]]
    style: Format = args.output_format
    errors = errors_of(out)
    text = format_status(statuses, broken=refused_always, strict=broken, verbose=args.verbose)
    print(text, file=summary_stream(style, out, errors))
    # dict.fromkeys: a fault of a file that every language reads (docs/terms.yaml), once
    refused = dict.fromkeys(
        Finding.of(problem) for listed in problems.values() for problem in listed
    )
    # The quality checks' findings: warnings here, errors above with --strict-translations.
    warned = (
        Finding.of(warning, "warning")
        for _, warnings in checked.values()
        for warning in warnings
        if isinstance(warning, QualityError)
    )
    print_findings([*refused, *warned], style, out=out, errors=errors)
    return 1 if broken else 0


def _terms(args: argparse.Namespace, out: TextIO) -> int:
    """The terminology base as TBX: to a file, or to stdout."""
    from .._files import write_atomically
    from ..site.i18n.catalog import CatalogError
    from ..site.i18n.tbx import terms_tbx, translated_definitions
    from ..site.i18n.terms import TERMS_FILE, load_terms

    root = project_root()
    terms = load_terms(root)
    if terms is None:
        raise CatalogError(f"there is no terminology file {TERMS_FILE.as_posix()} to export")
    data = terms_tbx(terms, translated_definitions(root, terms))
    if args.out is None:
        out.write(data.decode())
    else:
        write_atomically(args.out, data)
        print(f"wrote {visible(str(shown(args.out)))}", file=out)
    return 0


def _update_translations(args: argparse.Namespace, out: TextIO) -> int:
    from ..site.i18n import update_translations

    update_translations(
        project_root(),
        args.lang or None,
        on_written=lambda path: print(f"wrote {visible(str(shown(path)))}", file=out, flush=True),
    )
    return 0


def add_site_commands(commands: Commands) -> None:
    build = commands.add_parser("build", help="verify, render and build the site into site/")
    build.add_argument(
        "--lang", action="append", metavar="L", help="only this language (repeatable)"
    )
    build.add_argument("--out", type=Path, default=None, metavar="DIR", help="default: site/")
    build.add_argument(
        "--drafts",
        action="store_true",
        help="also build the draft languages (new ones, and those mkdocs.yml lists as drafts)",
    )
    build.add_argument(
        "--strict-translations",
        action="store_true",
        help="fail on any outdated or missing translation, or finding of the quality checks "
        "(for releases)",
    )
    build.set_defaults(handler=_build)

    booklet = commands.add_parser(
        "booklet", help="the rules as a printed book: DIR/<lang>.pdf for each language"
    )
    booklet.add_argument(
        "--lang", action="append", metavar="L", help="only this language (repeatable)"
    )
    booklet.add_argument("--out", type=Path, default=None, metavar="DIR", help="default: booklet/")
    booklet.add_argument(
        "--paper",
        choices=("a4", "letter", "a5"),
        default="a4",
        help="the paper size (default: a4; a5: a booklet folded from A4 sheets)",
    )
    booklet.add_argument(
        "--drafts", action="store_true", help="also the draft languages, as build --drafts"
    )
    booklet.set_defaults(handler=_booklet)

    serve = commands.add_parser("serve", help="live preview of one language, or of all")
    serve.add_argument(
        "--lang",
        default=None,
        metavar="L",
        help="one language, reloaded live (default: every language, rebuilt on each edit)",
    )
    serve.add_argument("--dev-addr", default=None, metavar="HOST:PORT")
    serve.set_defaults(handler=_serve)

    preview = commands.add_parser(
        "preview", help="serve the built site on 127.0.0.1, as it will be published"
    )
    preview.add_argument(
        "--port", type=_arguments.port, default=8000, help="the port (default: 8000)"
    )
    preview.add_argument(
        "--site", type=Path, default=None, metavar="DIR", help="the built site (default: site/)"
    )
    preview.set_defaults(handler=_preview)

    editor = commands.add_parser(
        "editor",
        help="the board editor on 127.0.0.1: set up a position, ask the engine, save a diagram",
    )
    editor.add_argument(
        "--port", type=_arguments.port, default=8010, help="the port (default: 8010)"
    )
    editor.add_argument(
        "--lang",
        default="en",
        metavar="L",
        help="the page's language: nl, it, en, de, fr or es (default: en); "
        "its menu switches to another",
    )
    editor.set_defaults(handler=_editor)

    new_language = commands.add_parser(
        "new-language", help="start a PO catalog for a language, from the English sources"
    )
    new_language.add_argument("code", metavar="CODE", help="a language code such as pt")
    new_language.set_defaults(handler=_new_language)

    status = commands.add_parser("status", help="how complete each language is")
    status.add_argument("--lang", action="append", metavar="L", help="only this language")
    status.add_argument(
        "-v", "--verbose", action="store_true", help="list each outdated or missing message"
    )
    status.add_argument(
        "--strict-translations",
        action="store_true",
        help="fail on outdated or missing translations and on the quality checks' findings "
        "(terminology, consistency, typography...), as build --strict-translations does",
    )
    add_format_option(status)
    status.set_defaults(handler=_status)

    terms = commands.add_parser(
        "terms", help="export docs/terms.yaml as TBX, for Weblate, Crowdin or Poedit"
    )
    terms.add_argument(
        "--out", type=Path, default=None, metavar="FILE", help="default: standard output"
    )
    terms.set_defaults(handler=_terms)


def add_update_translations(commands: Commands) -> None:
    update = commands.add_parser(
        "update-translations", help="bring the PO catalogs up to date with the English sources"
    )
    update.add_argument("--lang", action="append", metavar="L", help="only this language")
    update.set_defaults(handler=_update_translations)
