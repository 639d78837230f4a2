"""Commands on positions and PDN games: moves, perft, play, explain, game, render-game."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..engine.position import Position
from ..engine.priority import explain
from . import _arguments, _game_commands
from ._findings import add_format_option

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
        "--jobs",
        type=_arguments.whole(1, 64),
        default=1,
        metavar="N",
        help="check N files at a time, each in its own process (default: 1)",
    )
    game.add_argument(
        "--italian",
        action="store_true",
        help="read games without a GameType tag as Italian draughts",
    )
    add_format_option(game)
    game.set_defaults(handler=_game_commands.check_games)

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
    render_game.set_defaults(handler=_game_commands.render_game)
