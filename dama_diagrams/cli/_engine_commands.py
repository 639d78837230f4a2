"""Commands on positions and PDN games: moves, perft, play, explain, game, render-game."""

from __future__ import annotations

import argparse
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
    """One line per game, checked move by move; exit 1 if any move of any game is refused."""
    from ..engine.games import load_games

    errors = errors_of(out)
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
    from ..engine.games import game_at
    from ..render.animation import animate, game_frames

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
