"""The ``dama-diagrams`` command line: a thin shell around the library.

Exit codes: 0 when everything holds, 1 when a claim or an input is wrong
(printed as one ``path:line: message`` line each), 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .engine.games import Game
from .engine.legality import IllegalReason
from .engine.position import MAX_PIECES, GameOverReason, Position
from .engine.priority import PriorityRule, explain
from .errors import DamaError, counted, shorten

if TYPE_CHECKING:
    from .diagram.finder import Progress

Handler = Callable[[argparse.Namespace, TextIO], int]

MAX_DEPTH = 40
"""Perft 10 already takes a minute; far deeper would only exhaust the stack."""

MAX_SECONDS = 3600
"""The longest search ``find`` accepts: an hour finds what a minute does not, or nothing."""

FIND_CLAIMS = (
    "capture",
    "multi-capture",
    "priority",
    "free-choice",
    "promotion",
    "game-over",
    "illegal",
)
"""The claims ``find`` searches for (the diagram stage is only imported when it runs)."""


def _moves(args: argparse.Namespace, out: TextIO) -> int:
    for fen in args.fen:
        moves = Position.from_fen(fen).legal_moves()
        print(" ".join(map(str, moves)), file=out)
    return 0


def _perft(args: argparse.Namespace, out: TextIO) -> int:
    position = Position.from_fen(args.fen)
    if args.divide and args.depth >= 1:
        counts = position.divide(args.depth)
        for move, count in counts.items():
            print(f"{move} {count}", file=out)
        print(sum(counts.values()), file=out)
    else:
        print(position.perft(args.depth), file=out)
    return 0


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    print(explain(Position.from_fen(args.fen)).text(), file=out)
    return 0


def _play(args: argparse.Namespace, out: TextIO) -> int:
    position = Position.from_fen(args.fen)
    for text in args.moves:
        position = position.play(text)
        print(position.to_fen(), file=out)
    return 0


def _verify(args: argparse.Namespace, out: TextIO) -> int:
    """One line per diagram, then the totals; exit 1 if a claim fails, 2 if a path is missing."""
    from .diagram import VerifiedDiagram, verify_paths

    errors = sys.stderr if out is sys.stdout else out
    root = _project_root_or_none()
    given = args.paths or [_shown(root / "diagrams") if root else Path("diagrams")]
    missing = [path for path in given if not path.exists()]
    if missing:
        for path in missing:
            print(f"{path}: no such file or folder", file=errors)
        return 2
    report = verify_paths(given)
    width = max((len(result.id) for result in report.results), default=0)
    for result in report.results:
        if isinstance(result, VerifiedDiagram):
            line = f"{result.id:<{width}}  {result.claim.value:<13}  holds: {result.summary}"
            print(line, file=out)
        else:
            print(f"{result.id:<{width}}  {result.claim:<13}  FAILS", file=out)
            print(str(result.error), file=errors)
    print(report.totals(), file=out)
    translations_ok = _check_translations(root, errors) if root and not args.paths else True
    return 0 if report.ok and translations_ok else 1


def _check_translations(root: Path, errors: TextIO) -> bool:
    """In a site project, every broken, outdated or missing translation, one line each."""
    from .site.extract import BABEL_CFG
    from .site.translations import available_languages, translation_problems

    if not (root / BABEL_CFG).is_file():
        return True
    problems, warnings = translation_problems(root, available_languages(root))
    for problem in (*problems, *warnings):
        print(str(problem), file=errors)
    return not problems


def _game(args: argparse.Namespace, out: TextIO) -> int:
    """One line per game, checked move by move; exit 1 if any move of any game is refused."""
    from .engine.games import load_games

    errors = sys.stderr if out is sys.stdout else out
    ok = True
    for path in args.files:
        notices: list[str] = []
        for item in load_games(path, shown=str(path), italian=args.italian, notices=notices):
            for notice in notices:
                print(f"warning: {notice}", file=errors)
            notices.clear()
            if not isinstance(item, Game):
                print(str(item), file=errors)
                ok = False
                continue
            for warning in item.warnings:
                print(f"warning: {warning}", file=errors)
            print(_game_line(item, args.fen_after), file=out)
    return 0 if ok else 1


def _game_line(game: Game, fen_after: str | None) -> str:
    where = f"{game.path}:{game.line}: game {game.number}"
    if fen_after is not None:
        return f"{where}, after {fen_after}: {game.after(fen_after).to_fen()}"
    white, black = game.tags.get("White", "?"), game.tags.get("Black", "?")
    result = game.result or "*"
    moves = counted(len(game.moves), "move")
    final = game.final.to_fen()
    return f"{where} ({white} \u2013 {black}, {result}): {moves}, final position {final}"


def _render_game(args: argparse.Namespace, out: TextIO) -> int:
    """One game of a PDN file as an animated GIF or WebP, move by move."""
    from .engine.games import game_at
    from .render.animation import animate, game_frames

    chosen = game_at(args.file, args.game)
    first = 0 if args.start is None else chosen.played_by(args.start) - 1
    last = None if args.end is None else chosen.played_by(args.end)
    if last is not None and last <= first:
        raise DamaError(f"--to {args.end} comes before --from {args.start}")
    frames = game_frames(chosen, first=first, last=last)
    webp = args.out.suffix.lower() == ".webp"
    args.out.write_bytes(animate(frames, image_format="webp" if webp else "gif"))
    print(f"{args.out}: game {chosen.number}, {counted(len(frames), 'frame')}", file=out)
    return 0


def _render(args: argparse.Namespace, out: TextIO) -> int:
    from .render.figure import render_files

    root = _project_root_or_none()
    paths = args.paths or [_shown(root / "diagrams") if root else Path("diagrams")]
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        print(
            f"dama-diagrams render: no such file or folder: {', '.join(missing)}", file=sys.stderr
        )
        return 2
    report = render_files(paths, args.out, image_format=args.format, scale=args.scale)
    errors = sys.stderr if out is sys.stdout else out
    for failure in report.failures:
        print(str(failure.error), file=errors)
    refused = f", {len(report.failures)} refused" if report.failures else ""
    rendered = counted(len(report.written), "diagram")
    print(f"{rendered} rendered to {report.out_dir}{refused}", file=out)
    return 0 if report.ok else 1


def _build(args: argparse.Namespace, out: TextIO) -> int:
    from .site.build import build_site

    out_dir = args.out.resolve() if args.out else None  # from where the user stands
    report = build_site(
        _project_root(),
        languages=args.lang or None,
        out=out_dir,
        drafts=args.drafts,
        strict_translations=args.strict_translations,
    )
    print(report.summary(), file=out)
    return 0


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    from .site.serve import serve_all, serve_site

    if args.lang is None:
        serve_all(_project_root(), dev_addr=args.dev_addr)
    else:
        serve_site(_project_root(), args.lang, dev_addr=args.dev_addr)
    return 0


def _preview(args: argparse.Namespace, out: TextIO) -> int:
    from .site.preview import preview_site

    root = _project_root()
    preview_site(root, args.site.resolve() if args.site else root / "site", port=args.port)
    return 0


def _new_language(args: argparse.Namespace, out: TextIO) -> int:
    from .site.translations import native_name, new_language

    path = new_language(_project_root(), args.code)
    print(
        f"wrote {_shown(path)} ({native_name(args.code)}): translate it with Poedit, Weblate "
        "or any PO editor; it is built as a draft until it is complete",
        file=out,
    )
    return 0


def _status(args: argparse.Namespace, out: TextIO) -> int:
    from .site.translations import catalog_status, format_status

    statuses = catalog_status(_project_root(), args.lang or None)
    print(format_status(statuses, verbose=args.verbose), file=out)
    return 0


def _update_translations(args: argparse.Namespace, out: TextIO) -> int:
    from .site.translations import update_translations

    for path in update_translations(_project_root(), args.lang or None):
        print(f"wrote {_shown(path)}", file=out)
    return 0


def _find(args: argparse.Namespace, out: TextIO) -> int:
    """Positions that show a claim, one line each; exit 1 if none is found in time."""
    from .diagram.finder import QueryError, find, query_from_words, write_diagrams

    errors = sys.stderr if out is sys.stdout else out
    try:
        query = query_from_words(
            args.claim,
            rule=args.rule,
            reason=args.reason,
            min_captured=args.min_captured,
            max_pieces=args.max_pieces,
            kings=args.kings,
            side=args.side,
        )
    except QueryError as error:
        print(f"dama-diagrams find: error: {error}", file=errors)
        return 2
    show = args.progress if args.progress is not None else errors.isatty()
    line = _ProgressLine(errors)
    result = find(
        query,
        count=args.count,
        seed=args.seed,
        time_limit=args.time,
        progress=line if show else None,
    )
    line.finish()
    wanted = f"{query.describe()}, {query.filters()}"
    examined = counted(result.examined, "position")
    if not result.found:
        print(
            f"dama-diagrams find: no position found in {args.time:g} s for {wanted} "
            f"(examined {examined}); try more pieces or a longer --time",
            file=errors,
        )
        return 1
    for item in result.found:
        print(item.line(), file=out)
    if len(result.found) < args.count:
        print(
            f"dama-diagrams find: found {len(result.found)} of {args.count} in {args.time:g} s "
            f"(examined {examined}); a longer --time may find more",
            file=errors,
        )
    elif not result.complete:
        print(
            f"dama-diagrams find: stopped at the time limit ({args.time:g} s) before the search "
            "was complete, so another run may print other positions; a longer --time makes "
            "the result the same on every run",
            file=errors,
        )
    if args.yaml is not None:
        again = f"{query.options()} --count {args.count} --seed {args.seed}"
        if not result.complete:
            again += f" --time {args.time:g} (stopped at the time limit)"
        header = [f"Found by: dama-diagrams find {again}"]
        paths = write_diagrams(result.found, args.yaml, query.slug, header=header, force=args.force)
        for path in paths:
            print(f"wrote {path}", file=errors)
    return 0


class _ProgressLine:
    """A progress line on stderr, rewritten in place about once a second."""

    def __init__(self, errors: TextIO):
        self.errors = errors
        self.shown = False

    def __call__(self, progress: Progress) -> None:
        found = counted(progress.found, "position")
        print(
            f"\rfind: {progress.elapsed:.0f} s, {progress.examined:,} examined, {found} found, "
            f"now trying {progress.pieces} pieces\x1b[K",  # erase what a longer line left
            end="",
            file=self.errors,
            flush=True,
        )
        self.shown = True

    def finish(self) -> None:
        """End the line, so that what follows starts on a line of its own."""
        if self.shown:
            print(file=self.errors)


def _project_root() -> Path:
    """The project the command runs in, from any folder inside it."""
    from .site._common import find_project_root

    return find_project_root(Path.cwd())


def _project_root_or_none() -> Path | None:
    """The project, for commands that also work on plain folders of diagrams."""
    try:
        return _project_root()
    except DamaError:
        return None


def _shown(path: Path) -> Path:
    """``path`` as the user would type it where they stand (``../diagrams``)."""
    return Path(os.path.relpath(path))


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{shorten(text)} is not a port from 1 to 65535")
    return int(text)


def _decimal(what: str, within: Callable[[float], bool], bounds: str) -> Callable[[str], float]:
    """A decimal number in ASCII (float() would also take other digits), that ``within`` accepts.

    ``what`` names it when it is no number at all, ``bounds`` says what range it must be in.
    """

    def read(text: str) -> float:
        try:
            if not text.isascii():
                raise ValueError(text)
            number = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shorten(text)} is not {what}") from None
        if not within(number):
            raise argparse.ArgumentTypeError(bounds)
        return number

    return read


_scale = _decimal(
    "a number", lambda scale: 0.1 <= scale <= 10, "the scale must be between 0.1 and 10"
)
_seconds = _decimal(
    "a number of seconds",
    lambda seconds: 0 < seconds <= MAX_SECONDS,
    f"the time must be more than 0 and at most {MAX_SECONDS} s",
)


def _depth(text: str) -> int:
    """Plain ASCII digits only: Python's int() would also take ``1_0`` and Arabic digits."""
    if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
        raise argparse.ArgumentTypeError("the depth cannot be negative")
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{shorten(text)} is not a whole number")
    if len(text) > 3 or int(text) > MAX_DEPTH:
        raise argparse.ArgumentTypeError(
            f"depth {text if len(text) <= 12 else shorten(text, 12)} would never finish; "
            f"choose at most {MAX_DEPTH}"
        )
    return int(text)


def _whole(least: int, most: int) -> Callable[[str], int]:
    """A whole number from ``least`` to ``most``, in plain ASCII digits."""

    def read(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or len(text) > 6:
            raise argparse.ArgumentTypeError(f"{shorten(text)} is not a whole number")
        if not least <= int(text) <= most:
            raise argparse.ArgumentTypeError(f"{text} is not from {least} to {most}")
        return int(text)

    return read


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dama-diagrams",
        description="Engine-checked Italian draughts diagrams and their rules site.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    moves = commands.add_parser("moves", help="list the legal moves of positions")
    moves.add_argument("fen", nargs="+", metavar="FEN", help="PDN FEN, e.g. W:W31:B12,20,28")
    moves.set_defaults(handler=_moves)

    perft = commands.add_parser("perft", help="count move sequences to a depth")
    perft.add_argument("fen", metavar="FEN")
    perft.add_argument("depth", type=_depth, metavar="DEPTH")
    perft.add_argument("--divide", action="store_true", help="show the count for each move")
    perft.set_defaults(handler=_perft)

    play = commands.add_parser("play", help="play moves and print each position's FEN")
    play.add_argument("fen", metavar="FEN")
    play.add_argument("moves", nargs="+", metavar="MOVE", help="e.g. 22-19 or 31x24x15x8")
    play.set_defaults(handler=_play)

    explain_parser = commands.add_parser(
        "explain", help="show every capture and which priority rule decides"
    )
    explain_parser.add_argument("fen", metavar="FEN")
    explain_parser.set_defaults(handler=_explain)

    verify = commands.add_parser("verify", help="check every diagram's claim (default: diagrams/)")
    verify.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="files or folders")
    verify.set_defaults(handler=_verify)

    game = commands.add_parser("game", help="check every move of PDN games")
    game.add_argument("files", nargs="+", type=Path, metavar="FILE.pdn")
    game.add_argument(
        "--fen-after",
        default=None,
        metavar="N",
        help="print the position after move N instead: 12 for White's, 12... for Black's",
    )
    game.add_argument(
        "--italian",
        action="store_true",
        help="read games without a GameType tag as Italian draughts",
    )
    game.set_defaults(handler=_game)

    render_game = commands.add_parser(
        "render-game", help="animate a PDN game, or part of it, as a GIF or WebP"
    )
    render_game.add_argument("file", type=Path, metavar="FILE.pdn")
    render_game.add_argument("--out", type=Path, required=True, help="x.gif or x.webp")
    render_game.add_argument("--game", type=int, default=1, help="which game (default: 1)")
    render_game.add_argument(
        "--from", dest="start", default=None, metavar="N", help="the first move: 12 or 12..."
    )
    render_game.add_argument(
        "--to", dest="end", default=None, metavar="N", help="the last move: 20 or 20..."
    )
    render_game.set_defaults(handler=_render_game)

    render = commands.add_parser("render", help="verify, then draw diagrams as SVG or PNG")
    render.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="files or folders")
    render.add_argument("--out", type=Path, required=True, metavar="DIR", help="output folder")
    render.add_argument(
        "--format",
        choices=("svg", "png", "gif", "webp"),
        default="svg",
        help="svg or png: the diagram; gif or webp: its capture, animated landing by landing",
    )
    render.add_argument("--scale", type=_scale, default=1.0, help="PNG/GIF/WebP scale (default 1)")
    render.set_defaults(handler=_render)

    build = commands.add_parser("build", help="verify, render and build the site into site/")
    build.add_argument(
        "--lang", action="append", metavar="L", help="only this language (repeatable)"
    )
    build.add_argument("--out", type=Path, default=None, metavar="DIR", help="default: site/")
    build.add_argument(
        "--drafts", action="store_true", help="also build languages below the draft threshold"
    )
    build.add_argument(
        "--strict-translations",
        action="store_true",
        help="fail on any outdated or missing translation (for releases)",
    )
    build.set_defaults(handler=_build)

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
    preview.add_argument("--port", type=_port, default=8000, help="the port (default: 8000)")
    preview.add_argument(
        "--site", type=Path, default=None, metavar="DIR", help="the built site (default: site/)"
    )
    preview.set_defaults(handler=_preview)

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
    status.set_defaults(handler=_status)

    _add_find(commands)

    update = commands.add_parser(
        "update-translations", help="bring the PO catalogs up to date with the English sources"
    )
    update.add_argument("--lang", action="append", metavar="L", help="only this language")
    update.set_defaults(handler=_update_translations)
    return parser


def _add_find(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    find = commands.add_parser(
        "find", help="search positions that show a claim, to start a new diagram from"
    )
    find.add_argument("--claim", required=True, choices=FIND_CLAIMS, help="the claim to show")
    find.add_argument(
        "--rule", choices=[rule.value for rule in PriorityRule], help="priority: the rule"
    )
    reasons = [reason.value for reason in (*IllegalReason, *GameOverReason)]
    find.add_argument(
        "--reason", choices=reasons, metavar="REASON", help="illegal or game-over: why"
    )
    find.add_argument(
        "--min-captured",
        type=_whole(1, MAX_PIECES),
        metavar="N",
        help="capture, multi-capture: the move takes at least N pieces",
    )
    find.add_argument("--max-pieces", type=_whole(1, 2 * MAX_PIECES), default=7, help="default: 7")
    find.add_argument(
        "--kings",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="at least one king on the board (--no-kings: none)",
    )
    find.add_argument("--side", choices=("white", "black"), help="the side to move")
    find.add_argument("--count", type=_whole(1, 100), default=1, help="positions (default: 1)")
    find.add_argument("--seed", type=_whole(0, 999_999), default=0, help="default: 0")
    find.add_argument("--time", type=_seconds, default=10.0, help="seconds at most (default: 10)")
    find.add_argument(
        "--yaml", type=Path, metavar="DIR", help="also write each as DIR/<claim>-<n>.yaml"
    )
    find.add_argument(
        "--force",
        action="store_true",
        help="replace existing --yaml files (files of an earlier, larger --count stay)",
    )
    find.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress line on stderr (default: when stderr is a terminal)",
    )
    find.set_defaults(handler=_find)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    stream = out if out is not None else sys.stdout
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, stream)
    except DamaError as error:
        print(f"dama-diagrams: {error}" if error.path is None else str(error), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (as with `| head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as error:
        # A folder that cannot be written, a file where a folder should be, ...
        print(f"dama-diagrams: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
