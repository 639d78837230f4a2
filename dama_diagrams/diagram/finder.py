"""The finder: search random positions for a claim, so that authors need not compose them.

``dama-diagrams find`` asks for a claim shape (a priority rule, an illegal
move's reason, ...) and gets positions that show it, simplest first: the
fewest pieces, then the shortest move.  The generator only proposes; each
position found is written as a diagram and confirmed by :func:`.claims.verify`,
so what the finder prints, ``verify`` accepts as it is.

The search is deterministic for a seed: it tries a fixed number of positions
of each size, from the fewest pieces up, and stops after the first size at
which it has enough.  The time limit only cuts a search short.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .._files import make_output_folder, write_text_atomically
from ..engine.board import Color
from ..engine.legality import IllegalReason
from ..engine.move import Move
from ..engine.position import MAX_PIECES, GameOverReason, Position
from ..engine.priority import PriorityRule
from ..errors import DamaError, DiagramError, counted
from . import _proposals as proposals
from ._finder_words import diagram_text
from .claims import VerifiedDiagram, verify
from .options import Claim
from .schema import Reason, parse_diagram

CLAIMS = (
    Claim.CAPTURE,
    Claim.MULTI_CAPTURE,
    Claim.PRIORITY,
    Claim.FREE_CHOICE,
    Claim.PROMOTION,
    Claim.GAME_OVER,
    Claim.ILLEGAL,
)
"""The claims the finder can look for: every claim that a position alone can show."""

TRIES_PER_SIZE = 2000
"""Positions tried at each number of pieces before moving on to one more piece."""

# == The request ==============================================================


class QueryError(DamaError, ValueError):
    """A request that contradicts itself, whatever the search would find."""


@dataclass(frozen=True, slots=True)
class Query:
    """What to look for: a claim shape and the filters the positions must pass."""

    claim: Claim
    rule: PriorityRule | None = None
    reason: Reason | None = None
    min_captured: int | None = None
    max_pieces: int = 7
    kings: bool | None = None
    """``True``: at least one king on the board; ``False``: none; ``None``: either."""
    side: Color | None = None

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise QueryError(problem)

    def _problem(self) -> str | None:
        claim = self.claim
        if claim not in CLAIMS:
            return f"the finder looks for {', '.join(c.value for c in CLAIMS)}, not {claim.value}"
        if (self.rule is not None) != (claim is Claim.PRIORITY):
            return "a priority claim needs --rule" if self.rule is None else _only("--rule")
        reasons = {Claim.ILLEGAL: IllegalReason, Claim.GAME_OVER: GameOverReason}.get(claim)
        if reasons is None and self.reason is not None:
            return "--reason goes with --claim illegal or --claim game-over only"
        if reasons is not None and not isinstance(self.reason, reasons):
            names = ", ".join(reason.value for reason in reasons)
            return f"{_a(claim)} claim needs --reason: {names}"
        captures = (Claim.CAPTURE, Claim.MULTI_CAPTURE)
        if self.min_captured is not None and claim not in captures:
            return "--min-captured goes with --claim capture or --claim multi-capture only"
        if self.min_captured is not None and not 1 <= self.min_captured <= MAX_PIECES:
            return f"--min-captured must be from 1 to {MAX_PIECES}"
        if self.kings is False and self._needs_king():
            return f"{self.describe()} needs a king: drop --no-kings"
        if self.max_pieces < self.min_pieces:
            return (
                f"{self.describe()} needs at least {counted(self.min_pieces, 'piece')}; "
                f"raise --max-pieces"
            )
        if self.max_pieces > 2 * MAX_PIECES:
            return f"--max-pieces must be at most {2 * MAX_PIECES}, the pieces of both sides"
        return None

    def _needs_king(self) -> bool:
        by_king = (
            PriorityRule.WITH_KING,
            PriorityRule.MOST_KINGS,
            PriorityRule.KING_FIRST,
            IllegalReason.MAN_TAKES_KING,
            IllegalReason.JUMPED_TWICE,
        )
        return self.rule in by_king or self.reason in by_king

    @property
    def captured(self) -> int:
        """The fewest pieces the move must capture (capture and multi-capture)."""
        least = 2 if self.claim is Claim.MULTI_CAPTURE else 1
        return max(least, self.min_captured or 1)

    @property
    def min_pieces(self) -> int:
        """The fewest pieces that could show the claim: where the search starts."""
        if self.reason is GameOverReason.NO_PIECES:
            return 1
        if self.claim in (Claim.CAPTURE, Claim.MULTI_CAPTURE):
            return 1 + self.captured
        if self.claim in (Claim.PRIORITY, Claim.FREE_CHOICE, Claim.PROMOTION):
            return 3
        if self.reason is IllegalReason.PRIORITY:
            return 3
        return 2

    @property
    def slug(self) -> str:
        """A name for the files written: ``priority-king-first``, ``illegal-backward``."""
        detail = self.rule or self.reason
        return self.claim.value + (f"-{detail.value}" if detail else "")

    def options(self) -> str:
        """The command-line options that ask for this query again."""
        words = [f"--claim {self.claim.value}"]
        if self.rule is not None:
            words.append(f"--rule {self.rule.value}")
        if self.reason is not None:
            words.append(f"--reason {self.reason.value}")
        if self.min_captured is not None:
            words.append(f"--min-captured {self.min_captured}")
        words.append(f"--max-pieces {self.max_pieces}")
        if self.kings is not None:
            words.append("--kings" if self.kings else "--no-kings")
        if self.side is not None:
            words.append(f"--side {self.side.value}")
        return " ".join(words)

    def describe(self) -> str:
        """The request in words, for messages: 'a priority claim decided by king-first'."""
        text = f"{_a(self.claim)} claim"
        if self.rule is not None:
            text += f" decided by rule {self.rule.number} ({self.rule.value})"
        elif self.reason is not None:
            text += f" for the reason {self.reason.value}"
        elif self.claim in (Claim.CAPTURE, Claim.MULTI_CAPTURE) and self.min_captured:
            text += f" capturing at least {counted(self.captured, 'piece')}"
        return text

    def filters(self) -> str:
        """The filters in words: 'at most 7 pieces, with a king, White to move'."""
        words = [f"at most {counted(self.max_pieces, 'piece')}"]
        if self.kings is not None:
            words.append("with a king" if self.kings else "without kings")
        if self.side is not None:
            words.append(f"{self.side.value.capitalize()} to move")
        return ", ".join(words)

    def matcher(self) -> proposals.Matcher:
        if self.claim is Claim.PRIORITY:
            assert self.rule is not None
            return proposals.match_priority(self.rule)
        if self.claim is Claim.FREE_CHOICE:
            return proposals.match_free_choice
        if self.claim is Claim.PROMOTION:
            return proposals.match_promotion
        if isinstance(self.reason, GameOverReason):
            return proposals.match_game_over(self.reason)
        if isinstance(self.reason, IllegalReason):
            return proposals.match_illegal(self.reason)
        return proposals.match_capture(self.captured)

    def accepts(self, position: Position) -> bool:
        """Whether a position passes the filters (the generator aims for them already)."""
        board = position.white_men | position.white_kings | position.black_men
        if (board | position.black_kings).bit_count() > self.max_pieces:
            return False
        if self.side is not None and position.turn is not self.side:
            return False
        has_king = bool(position.white_kings | position.black_kings)
        return self.kings is None or has_king is self.kings


def query_from_words(
    claim: str,
    *,
    rule: str | None = None,
    reason: str | None = None,
    min_captured: int | None = None,
    max_pieces: int = 7,
    kings: bool | None = None,
    side: str | None = None,
) -> Query:
    """A query from the command line's words; a :class:`QueryError` says what does not fit."""
    names = {c.value: c for c in CLAIMS}
    if claim not in names:
        raise QueryError(f"unknown claim {claim!r}: the finder looks for {', '.join(names)}")
    chosen = names[claim]
    reasons = GameOverReason if chosen is Claim.GAME_OVER else IllegalReason
    words = tuple(each.value for each in reasons)
    if reason is not None and chosen in (Claim.ILLEGAL, Claim.GAME_OVER) and reason not in words:
        raise QueryError(
            f"{reason!r} is not a reason for {_a(chosen)} claim: choose {', '.join(words)}"
        )
    return Query(
        chosen,
        rule=None if rule is None else PriorityRule(rule),
        reason=None if reason is None else _reason(reason),
        min_captured=min_captured,
        max_pieces=max_pieces,
        kings=kings,
        side=None if side is None else Color(side),
    )


def _reason(word: str) -> Reason:
    """A reason word: game-over reasons and illegal reasons share no word."""
    try:
        return GameOverReason(word)
    except ValueError:
        return IllegalReason(word)


def _a(claim: Claim) -> str:
    return f"{'an' if claim.value[0] in 'aeiou' else 'a'} {claim.value}"


def _only(option: str) -> str:
    return f"{option} goes with --claim priority only"


# == What the search finds ====================================================


@dataclass(frozen=True, slots=True)
class Found:
    """A position that shows the claim, as the diagram the engine confirmed."""

    verified: VerifiedDiagram
    explanation: str
    """The engine's one-line explanation."""
    text: str
    """The diagram file, without its comment lines."""

    @property
    def position(self) -> Position:
        return self.verified.diagram.position

    @property
    def fen(self) -> str:
        return self.position.to_fen()

    @property
    def shown(self) -> tuple[Move, ...]:
        """The moves the diagram shows: its move, or its moves."""
        diagram = self.verified.diagram
        return (diagram.move,) if diagram.move is not None else diagram.moves

    @property
    def simplicity(self) -> tuple[int, int, bool, str, str]:
        """Smaller is simpler: the fewest pieces, then the shortest move, then White to move."""
        length = max((len(move.squares) for move in self.shown), default=0)
        black = self.position.turn is Color.BLACK
        return (len(self.position.pieces()), length, black, self.fen, self.moves_text)

    @property
    def moves_text(self) -> str:
        return " ".join(map(str, self.shown)) or "-"

    def line(self) -> str:
        """One line: the FEN, the move and the engine's explanation."""
        return f"{self.fen}  {self.moves_text}  {self.explanation}"

    def diagram_file(self, header: Sequence[str] = ()) -> str:
        """The diagram file: comment lines, the explanation, then the keys."""
        comments = [*header, self.explanation]
        return "".join(f"# {line}\n" for line in comments) + self.text


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a search stands, for a progress line."""

    examined: int
    found: int
    pieces: int
    elapsed: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    found: tuple[Found, ...]
    examined: int
    elapsed: float
    complete: bool
    """The search found as many as asked; otherwise the time limit stopped it."""


def find(
    query: Query,
    *,
    count: int = 1,
    seed: int = 0,
    time_limit: float = 10.0,
    progress: Callable[[Progress], None] | None = None,
    tries_per_size: int = TRIES_PER_SIZE,
) -> SearchResult:
    """Search positions for ``query``; the simplest ``count`` found, simplest first.

    From the fewest pieces up, ``tries_per_size`` random positions of each size
    are tried; the search stops after the first size at which ``count`` have
    been found, and otherwise starts again from the fewest pieces until
    ``time_limit`` seconds have passed.  ``progress`` is called about once a
    second.
    """
    rng = random.Random(seed)
    match = query.matcher()
    shape = proposals.Shape(
        side=query.side,
        kings=query.kings,
        mover_has_pieces=query.reason is not GameOverReason.NO_PIECES,
    )
    found: dict[str, Found] = {}
    seen: set[Position] = set()
    started = time.monotonic()
    deadline = started + time_limit
    next_report = started + 1.0
    examined = 0
    while True:
        for pieces in range(query.min_pieces, query.max_pieces + 1):
            for _ in range(tries_per_size):
                now = time.monotonic()
                if now >= deadline:
                    return _result(found, count, examined, now - started, complete=False)
                if progress is not None and now >= next_report:
                    progress(Progress(examined, len(found), pieces, now - started))
                    next_report = now + 1.0
                position = proposals.random_position(rng, pieces, shape)
                examined += 1
                if position in seen or not query.accepts(position):
                    continue
                seen.add(position)
                proposal = match(position)
                if proposal is not None:
                    result = _confirm(query, position, proposal)
                    if result is not None:
                        found[result.fen] = result
            if len(found) >= count:
                elapsed = time.monotonic() - started
                return _result(found, count, examined, elapsed, complete=True)


def _result(
    found: dict[str, Found], count: int, examined: int, elapsed: float, *, complete: bool
) -> SearchResult:
    best = sorted(found.values(), key=lambda item: item.simplicity)[:count]
    return SearchResult(tuple(best), examined, elapsed, complete)


# == Diagram files ============================================================


def _confirm(query: Query, position: Position, proposal: proposals.Proposal) -> Found | None:
    """The diagram the proposal makes, if the verifier accepts it (it is the judge)."""
    text = diagram_text(query.claim, query.rule, query.reason, position, proposal)
    try:
        verified = verify(parse_diagram(text.encode(), "found.yaml"))
    except DiagramError:
        return None
    if query.claim in (Claim.PRIORITY, Claim.FREE_CHOICE):
        explanation = verified.explanation.summary()  # worked out by verify already
    else:
        explanation = verified.summary
    return Found(verified, explanation, text)


def write_diagrams(
    results: Sequence[Found],
    folder: Path,
    stem: str,
    *,
    header: Sequence[str] = (),
    force: bool = False,
) -> list[Path]:
    """Write ``folder/<stem>-<n>.yaml`` for each result; refuse to overwrite unless ``force``.

    Each file is written whole (an interrupted run leaves whole files only).  A
    symbolic link in the way, even a dangling one, is never followed: it is
    refused, and ``force`` replaces the link itself, never the file it points to.
    Anything else but a regular file there (a FIFO, a device) is refused even then.
    """
    if results:  # a file or a FIFO of that name: one line, left as it is
        make_output_folder(folder)
    paths = [folder / f"{stem}-{number}.yaml" for number in range(1, len(results) + 1)]
    existing = [path for path in paths if path.is_symlink() or path.exists()]
    if existing and not force:
        first = existing[0]
        what = "is a symbolic link" if first.is_symlink() else "exists"
        raise DamaError(
            f"{first} {what}; choose another folder, or use --force to replace it"
            + (" (the link, not the file it points to)" if first.is_symlink() else "")
        )
    for path, result in zip(paths, results, strict=True):
        # a link there was refused above, unless --force asked to replace it (never its target)
        write_text_atomically(path, result.diagram_file(header), replace_link=True)
    return paths
