"""``find``: search positions that show a claim, to start a new diagram from."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..engine.legality import IllegalReason
from ..engine.position import MAX_PIECES, GameOverReason
from ..engine.priority import PriorityRule
from ..errors import counted, visible
from . import _arguments
from ._context import errors_of
from ._output import write_controls

if TYPE_CHECKING:
    from ..diagram.finder import Progress
    from ._context import Commands

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


def _find(args: argparse.Namespace, out: TextIO) -> int:
    """Positions that show a claim, one line each; exit 1 if none is found in time."""
    from ..diagram.finder import QueryError, find, query_from_words, write_diagrams

    errors = errors_of(out)
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
            print(f"wrote {visible(str(path))}", file=errors)
    return 0


class _ProgressLine:
    """A progress line on stderr, rewritten in place about once a second."""

    def __init__(self, errors: TextIO):
        self.errors = errors
        self.shown = False

    def __call__(self, progress: Progress) -> None:
        found = counted(progress.found, "position")
        write_controls(
            self.errors,
            f"\rfind: {progress.elapsed:.0f} s, {progress.examined:,} examined, {found} found, "
            f"now trying {progress.pieces} pieces\x1b[K",  # erase what a longer line left
        )
        self.shown = True

    def finish(self) -> None:
        """End the line, so that what follows starts on a line of its own."""
        if self.shown:
            print(file=self.errors)


def add_find(commands: Commands) -> None:
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
        type=_arguments.whole(1, MAX_PIECES),
        metavar="N",
        help="capture, multi-capture: the move takes at least N pieces",
    )
    find.add_argument(
        "--max-pieces", type=_arguments.whole(1, 2 * MAX_PIECES), default=7, help="default: 7"
    )
    find.add_argument(
        "--kings",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="at least one king on the board (--no-kings: none)",
    )
    find.add_argument("--side", choices=("white", "black"), help="the side to move")
    find.add_argument(
        "--count", type=_arguments.whole(1, 100), default=1, help="positions (default: 1)"
    )
    find.add_argument("--seed", type=_arguments.whole(0, 999_999), default=0, help="default: 0")
    find.add_argument(
        "--time", type=_arguments.seconds, default=10.0, help="seconds at most (default: 10)"
    )
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
