"""The PDN commands: ``game`` checks every game of files and folders, one verdict
each; ``render-game`` animates one game, writing its frames as it makes them."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Literal, TextIO

from ..engine.game_check import RefusedGameError, move_label, moves_and_plies, ply_of
from ..engine.games import Game, load_games, parse_label
from ..engine.pdn import PdnError
from ..errors import DamaError, counted, visible
from ._context import errors_of, need_site_extra
from ._findings import Finding, Format, print_findings, summary_stream
from ._output import write_controls

Kind = Literal["checked", "refused", "unread", "warning", "position"]
Verdict = tuple[Kind, str, Finding | None]
"""What a game's check found: its kind, its line of text, and the problem it reports, if any."""


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
    counts = {"checked": 0, "refused": 0, "unread": 0, "warning": 0, "position": 0}
    style: Format = args.output_format
    progress = _Progress(errors)
    lines = summary_stream(style, out, errors)
    for kind, text, finding in verdicts:
        counts[kind] += 1
        if finding is not None and style != "text":
            progress.clear()
            print_findings([finding], style, out=out, errors=errors)
            continue
        progress.print(text, lines if kind in ("checked", "position") else errors)
    progress.clear()
    checked, refused, unread = counts["checked"], counts["refused"], counts["unread"]
    summary = f"{counted(checked + refused, 'game')}: {checked} checked, {refused} refused"
    if unread:
        summary += f"; {counted(unread, 'file')} not read"
    print(summary, file=lines)
    return 1 if refused or unread else 0


def file_verdicts(path: Path, italian: bool, fen_after: str | None) -> Iterator[Verdict]:
    """The verdicts of one file's games, each as soon as it is known."""
    notices: list[str] = []
    games = load_games(
        path, shown=str(path), italian=italian, notices=notices, keep=False, wanted=fen_after
    )
    for item in games:
        for notice in map(_warning, notices):
            yield "warning", notice.text(), notice
        notices.clear()
        if isinstance(item, PdnError):
            if isinstance(item, RefusedGameError) and fen_after is not None:
                yield from _found_before(item, fen_after)
            yield ("unread" if item.game is None else "refused"), str(item), Finding.of(item)
            continue
        line = _game_line(item, fen_after)
        for warning in map(_warning, item.warnings):
            yield "warning", warning.text(), warning
        yield "checked", line, None


_LOCATED = re.compile(r"(?P<path>.+?):(?P<line>[0-9]+): (?P<message>.*)", re.DOTALL)


def _warning(text: str) -> Finding:
    """A reader's warning (``path:line: message``) as a finding, for JSON and annotations."""
    match = _LOCATED.fullmatch(text)
    if match is None:
        return Finding(text, severity="warning")
    return Finding(match["message"], match["path"], int(match["line"]), severity="warning")


CHUNK = 256
"""Verdicts a worker sends at once."""

AHEAD = 32
"""Chunks the parent keeps from a worker whose file is not printed yet: then it waits."""

Message = list[Verdict] | tuple[str, str | None, int | None] | EOFError | None
"""From a worker: a chunk, its file's error, its end (EOF), or the end of its file."""


class _Worker:
    """A process that checks one file at a time; what it sent, not yet printed."""

    def __init__(self) -> None:
        import multiprocessing

        self.connection, theirs = multiprocessing.Pipe()
        self.process = multiprocessing.Process(target=_worker, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()
        self.received: deque[Message] = deque()
        self.ended = False
        self.busy = False
        """Whether it may still be checking a file: its file's end is not taken yet."""

    def give(self, path: Path, options: tuple[bool, str | None]) -> None:
        self.busy = True
        self.connection.send((path, *options))

    def take(self) -> None:
        """One message, which :func:`wait` says is there."""
        try:
            message = self.connection.recv()
        except EOFError as error:
            self.ended = True
            self.received.append(error)
            return
        if not isinstance(message, list):  # its file's end, or its file's error
            self.busy = False
        self.received.append(message)

    def stop(self) -> None:
        """An idle worker is told to end; one still checking a file is killed.

        Closing the pipe is not enough: a forked worker holds this end of it
        too, so it would never see the pipe close (each run waited five seconds
        per worker for it).  A busy one's verdicts are not wanted any more, and
        checking a file leaves nothing to clean up.
        """
        if self.busy:
            self.process.kill()
        elif not self.ended:
            with contextlib.suppress(OSError):  # it died meanwhile: join() collects it
                self.connection.send(None)
        self.connection.close()
        self.process.join()


def _in_processes(
    files: list[Path], options: tuple[bool, str | None], jobs: int
) -> Iterator[Verdict]:
    """The verdicts of files checked ``jobs`` at a time, in the order of the files.

    Each worker checks one file at a time and sends its verdicts in chunks.
    The parent prints the files in order and keeps at most :data:`AHEAD`
    chunks of each file it has not reached; a worker further ahead blocks on
    its full pipe.  So memory stays flat however many games the files hold.
    """
    waiting = iter(files)
    workers = [_Worker() for _ in range(min(jobs, len(files)))]
    order: deque[_Worker] = deque()
    try:
        for worker, path in zip(workers, waiting, strict=False):
            worker.give(path, options)
            order.append(worker)
        while order:
            message = _next_message(order)
            if isinstance(message, list):
                yield from message
                continue
            if isinstance(message, EOFError):
                raise DamaError(
                    "a --jobs worker stopped before its file was checked (its error is "
                    "above); run without --jobs to see it"
                )
            if message is not None:
                text, path_shown, line = message
                raise DamaError(text, path=path_shown, line=line)
            done = order.popleft()
            following = next(waiting, None)
            if following is not None:
                done.give(following, options)
                order.append(done)
    finally:
        for worker in workers:
            worker.stop()


def _next_message(order: deque[_Worker]) -> Message:
    """The next message of the file being printed; meanwhile, those of the files ahead."""
    from multiprocessing.connection import wait

    current = order[0]
    while not current.received:
        listening = {
            worker.connection: worker
            for worker in order
            if worker is current or (len(worker.received) < AHEAD and not worker.ended)
        }
        for connection in wait(list(listening)):
            listening[connection].take()  # type: ignore[index]
    return current.received.popleft()


def _worker(connection: Connection) -> None:
    """Check each file the parent sends, until it sends ``None``; quiet when stopped."""
    try:
        while (job := connection.recv()) is not None:
            chunk: list[Verdict] = []
            try:
                for verdict in file_verdicts(*job):
                    chunk.append(verdict)
                    if len(chunk) == CHUNK:
                        connection.send(chunk)
                        chunk = []
            except DamaError as error:
                connection.send(chunk)
                connection.send((error.message, error.path, error.line))
                continue
            connection.send(chunk)
            connection.send(None)
    except (KeyboardInterrupt, EOFError, OSError):
        pass  # Ctrl-C, or the parent stopped reading: it reports what happened


def _pdn_files(given: Iterable[Path]) -> Iterator[Path]:
    """The files given, and the ``.pdn`` files of each folder given, in name order."""
    for path in given:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdn" and p.is_file())
            if not found:
                raise DamaError("the folder holds no .pdn file", path=str(path))
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
            write_controls(self.errors, f"\r{self.count} games read\u2026")
            self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            write_controls(self.errors, "\r\033[K")
            self.drawn = False


def _found_before(refused: RefusedGameError, fen_after: str) -> Iterator[Verdict]:
    """The position after ``fen_after`` when that move came before the refused one.

    It is printed like a checked game's, and not counted: the refusal that
    follows counts the game.
    """
    if refused.found is not None:
        where = f"{visible(str(refused.path))}:{refused.first_line}: game {refused.game}"
        yield "position", f"{where}, after {fen_after}: {refused.found.to_fen()}", None


def _game_line(game: Game, fen_after: str | None) -> str:
    """A checked game's line: its final position, or the one after ``fen_after``.

    A game that ends before ``fen_after`` is a legal game all the same: its
    line says where it ends.  Moves are counted as players count them, a move
    of White's and Black's reply, with the half-moves (plies) beside them.
    """
    where = f"{visible(game.path)}:{game.line}: game {game.number}"
    moves = moves_and_plies(game.start.turn, game.length)
    if fen_after is not None:
        if game.found is not None:
            return f"{where}, after {fen_after}: {game.found.to_fen()}"
        if not game.length:
            return f"{where} has no move, so there is no position after {fen_after}"
        ended = move_label(ply_of(1, game.start.turn) + game.length - 1)
        return (
            f"{where} has only {moves}: it ends with move {ended}, "
            f"so there is no position after {fen_after}"
        )
    result = game.result or "*"
    final = game.final.to_fen()
    players = f"{game.player('White')} \u2013 {game.player('Black')}"
    return f"{where} ({players}, {result}): {moves}, final position {final}"


def render_game(args: argparse.Namespace, out: TextIO) -> int:
    """One game of a PDN file as an animated GIF or WebP, move by move."""
    need_site_extra("render-game", "cairosvg", "PIL")
    from ..engine.games import game_at
    from ..render.animation import game_frames, write_animation

    for label in (args.start, args.end):
        if label is not None:
            parse_label(label)
    if args.out.suffix.lower() not in (".gif", ".webp"):
        raise DamaError(f"--out {visible(str(args.out))}: name a .gif or a .webp file")
    chosen = game_at(args.file, args.game)
    first = 0 if args.start is None else chosen.played_by(args.start) - 1
    last = chosen.length if args.end is None else chosen.played_by(args.end)
    if last <= first and args.end is not None:
        raise DamaError(f"--to {args.end} comes before --from {args.start}")
    webp = args.out.suffix.lower() == ".webp"
    frames = game_frames(chosen, first=first, last=last)
    count = write_animation(frames, args.out, image_format="webp" if webp else "gif")
    print(f"{visible(str(args.out))}: game {chosen.number}, {counted(count, 'frame')}", file=out)
    return 0
