"""Commands on positions and PDN games: moves, perft, play, explain, game, render-game."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..engine.games import Game
from ..engine.position import Position
from ..engine.priority import explain
from ..errors import DamaError, counted
from . import _arguments
from ._context import errors_of

if TYPE_CHECKING:
    from ._context import Commands


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


def _game(args: argparse.Namespace, out: TextIO) -> int:
    """One verdict per game, then a summary; exit 1 if any game is refused."""
    from ..engine.games import load_games, parse_label

    if args.fen_after is not None:
        parse_label(args.fen_after)  # a bad label is one message, before any file is read
    errors = errors_of(out)
    progress = _Progress(errors)
    checked = refused = unread = 0
    for path in _pdn_files(args.files):
        notices: list[str] = []
        games = load_games(
            path,
            shown=str(path),
            italian=args.italian,
            notices=notices,
            keep=False,
            wanted=args.fen_after,
        )
        for item in games:
            for notice in notices:
                progress.print(f"warning: {notice}", errors)
            notices.clear()
            verdict = item if isinstance(item, DamaError) else _game_line(item, args.fen_after)
            if isinstance(verdict, DamaError):
                whole_file = getattr(verdict, "game", 0) is None
                refused += not whole_file
                unread += whole_file
                progress.print(str(verdict), errors)
                continue
            checked += 1
            for warning in item.warnings:  # type: ignore[union-attr]
                progress.print(f"warning: {warning}", errors)
            progress.print(verdict, out)
    progress.done()
    total = checked + refused
    summary = f"{counted(total, 'game')}: {checked} checked, {refused} refused"
    if unread:
        summary += f"; {counted(unread, 'file')} not read"
    print(summary, file=out)
    return 1 if refused or unread else 0


def _pdn_files(given: list[Path]) -> Iterator[Path]:
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
        self.shown = errors.isatty()
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
            self.drawn = False

    def done(self) -> None:
        self.clear()


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


def _render_game(args: argparse.Namespace, out: TextIO) -> int:
    """One game of a PDN file as an animated GIF or WebP, move by move."""
    from ..engine.games import game_at, parse_label
    from ..render.animation import game_frames, write_animation

    for label in (args.start, args.end):
        if label is not None:
            parse_label(label)
    chosen = game_at(args.file, args.game)
    first = 0 if args.start is None else chosen.played_by(args.start) - 1
    last = chosen.length if args.end is None else chosen.played_by(args.end)
    if last <= first and args.end is not None:
        raise DamaError(f"--to {args.end} comes before --from {args.start}")
    if args.out.suffix.lower() not in (".gif", ".webp"):
        raise DamaError(f"--out {args.out}: name a .gif or a .webp file")
    webp = args.out.suffix.lower() == ".webp"
    frames = game_frames(chosen, first=first, last=last)
    count = write_animation(frames, args.out, image_format="webp" if webp else "gif")
    print(f"{args.out}: game {chosen.number}, {counted(count, 'frame')}", file=out)
    return 0


def add_commands(commands: Commands) -> None:
    moves = commands.add_parser("moves", help="list the legal moves of positions")
    moves.add_argument("fen", nargs="+", metavar="FEN", help="PDN FEN, e.g. W:W31:B12,20,28")
    moves.set_defaults(handler=_moves)

    perft = commands.add_parser("perft", help="count move sequences to a depth")
    perft.add_argument("fen", metavar="FEN")
    perft.add_argument("depth", type=_arguments.depth, metavar="DEPTH")
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


def add_game_commands(commands: Commands) -> None:
    game = commands.add_parser("game", help="check every move of PDN games")
    game.add_argument(
        "files",
        nargs="+",
        type=Path,
        metavar="FILE.pdn",
        help="PDN files, or folders whose .pdn files are all read",
    )
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
    render_game.add_argument(
        "--game", type=_arguments.whole(1, 999_999), default=1, help="which game (default: 1)"
    )
    render_game.add_argument(
        "--from", dest="start", default=None, metavar="N", help="the first move: 12 or 12..."
    )
    render_game.add_argument(
        "--to", dest="end", default=None, metavar="N", help="the last move: 20 or 20..."
    )
    render_game.set_defaults(handler=_render_game)
