"""The PDN commands: ``game`` checks every game of files and folders, one verdict
each; ``render-game`` animates one game, writing its frames as it makes them."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal, TextIO

from ..engine.games import Game, load_games, parse_label
from ..engine.pdn import PdnError
from ..errors import DamaError, counted
from ._context import errors_of

Kind = Literal["checked", "refused", "unread", "warning"]
Verdict = tuple[Kind, str]


def check_games(args: argparse.Namespace, out: TextIO) -> int:
    """One verdict per game, then a summary; exit 1 if any game or file is refused."""
    if args.fen_after is not None:
        parse_label(args.fen_after)  # a bad label is one message, before any file is read
    errors = errors_of(out)
    files = list(_pdn_files(args.files))
    options = (args.italian, args.fen_after)
    if args.jobs > 1 and len(files) > 1:
        verdicts = _in_processes(files, options, args.jobs)
    else:
        verdicts = (v for path in files for v in file_verdicts(path, *options))
    counts = {"checked": 0, "refused": 0, "unread": 0, "warning": 0}
    progress = _Progress(errors)
    for kind, text in verdicts:
        counts[kind] += 1
        progress.print(text, out if kind == "checked" else errors)
    progress.clear()
    checked, refused, unread = counts["checked"], counts["refused"], counts["unread"]
    summary = f"{counted(checked + refused, 'game')}: {checked} checked, {refused} refused"
    if unread:
        summary += f"; {counted(unread, 'file')} not read"
    print(summary, file=out)
    return 1 if refused or unread else 0


def file_verdicts(path: Path, italian: bool, fen_after: str | None) -> Iterator[Verdict]:
    """The verdicts of one file's games, each as soon as it is known."""
    notices: list[str] = []
    games = load_games(
        path, shown=str(path), italian=italian, notices=notices, keep=False, wanted=fen_after
    )
    for item in games:
        for notice in notices:
            yield "warning", f"warning: {notice}"
        notices.clear()
        if isinstance(item, PdnError):
            yield ("unread" if item.game is None else "refused"), str(item)
            continue
        line = _game_line(item, fen_after)
        if isinstance(line, DamaError):
            yield "refused", str(line)
            continue
        for warning in item.warnings:
            yield "warning", f"warning: {warning}"
        yield "checked", line


def _file_verdicts_list(job: tuple[Path, bool, str | None]) -> list[Verdict]:
    return list(file_verdicts(*job))


def _in_processes(
    files: list[Path], options: tuple[bool, str | None], jobs: int
) -> Iterator[Verdict]:
    """The verdicts of files checked ``jobs`` at a time, in the order of the files."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for verdicts in pool.map(_file_verdicts_list, [(path, *options) for path in files]):
            yield from verdicts


def _pdn_files(given: Iterable[Path]) -> Iterator[Path]:
    """The files given, and the ``.pdn`` files of each folder given, in name order."""
    for path in given:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdn" and p.is_file())
            if not found:
                raise DamaError(f"{path}: the folder holds no .pdn file")
            yield from found
        else:
            yield path


class _Progress:
    """A line on the terminal that counts the games of a long run; nothing when piped."""

    def __init__(self, errors: TextIO):
        self.errors = errors
        self.shown = errors is sys.stderr and errors.isatty()
        self.count = 0
        self.started = time.monotonic()
        self.drawn = False

    def print(self, line: str, stream: TextIO) -> None:
        self.clear()
        print(line, file=stream)
        self.count += 1
        if self.shown and self.count % 500 == 0 and time.monotonic() - self.started > 1:
            self.errors.write(f"\r{self.count} games read\u2026")
            self.errors.flush()
            self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            self.errors.write("\r\033[K")
            self.errors.flush()
            self.drawn = False


def _game_line(game: Game, fen_after: str | None) -> str | DamaError:
    """A checked game's line, or the error that it has no move ``fen_after``."""
    where = f"{game.path}:{game.line}: game {game.number}"
    if fen_after is not None:
        if game.found is None:
            return DamaError(
                f"{where} has no move {fen_after}: it has {counted(game.length, 'move')}"
            )
        return f"{where}, after {fen_after}: {game.found.to_fen()}"
    result = game.result or "*"
    moves = counted(game.length, "move")
    final = game.final.to_fen()
    players = f"{game.player('White')} \u2013 {game.player('Black')}"
    return f"{where} ({players}, {result}): {moves}, final position {final}"


def render_game(args: argparse.Namespace, out: TextIO) -> int:
    """One game of a PDN file as an animated GIF or WebP, move by move."""
    from ..engine.games import game_at
    from ..render.animation import game_frames, write_animation

    for label in (args.start, args.end):
        if label is not None:
            parse_label(label)
    if args.out.suffix.lower() not in (".gif", ".webp"):
        raise DamaError(f"--out {args.out}: name a .gif or a .webp file")
    chosen = game_at(args.file, args.game)
    first = 0 if args.start is None else chosen.played_by(args.start) - 1
    last = chosen.length if args.end is None else chosen.played_by(args.end)
    if last <= first and args.end is not None:
        raise DamaError(f"--to {args.end} comes before --from {args.start}")
    webp = args.out.suffix.lower() == ".webp"
    frames = game_frames(chosen, first=first, last=last)
    count = write_animation(frames, args.out, image_format="webp" if webp else "gif")
    print(f"{args.out}: game {chosen.number}, {counted(count, 'frame')}", file=out)
    return 0
