"""Move generation for Italian draughts on raw bitboards.

This module is the engine's hot path, so it works on plain tuples of ints,
always from the point of view of the side to move::

    state = (white_to_move, own_men, own_kings, their_men, their_kings)

:class:`dama_diagrams.Position` wraps it with a friendly API.  The rules are the
FID's technical rules of Italian draughts; the manual's "The rules engine" (manual/docs/engine.md)
lists them, and tests/test_rules.py checks each one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from .board import (
    ALL_STEPS,
    BLACK_CROWN_ROW,
    BOARD,
    DOWN_STEPS,
    SQUARE_OF_BIT,
    UP_STEPS,
    WHITE_CROWN_ROW,
    Bitboard,
    shift,
)

State: TypeAlias = tuple[bool, Bitboard, Bitboard, Bitboard, Bitboard]


def _jump_table(steps: tuple[int, ...]) -> dict[Bitboard, tuple[tuple[Bitboard, Bitboard], ...]]:
    """For every square: the (jumped square, landing square) pairs along ``steps``."""
    table = {}
    for bit in SQUARE_OF_BIT:
        pairs = []
        for step in steps:
            over = shift(bit, step)
            land = shift(over, step)
            if over and land:
                pairs.append((over, land))
        table[bit] = tuple(pairs)
    return table


_Found: TypeAlias = list[tuple[tuple[Bitboard, ...], tuple[Bitboard, ...], tuple[int, ...]]]
"""Complete captures as (path from the origin, captured pieces, places of captured kings)."""

KING_JUMPS = _jump_table(ALL_STEPS)
WHITE_MAN_JUMPS = _jump_table(UP_STEPS)
BLACK_MAN_JUMPS = _jump_table(DOWN_STEPS)


@dataclass(frozen=True, slots=True)
class CaptureSequence:
    """One complete capture, with what the four priority rules look at.

    ``king_places`` holds the 1-based places, within the sequence, of the
    captured kings: rule 4 compares these lexicographically.
    """

    origin: Bitboard
    landings: tuple[Bitboard, ...]
    captured: tuple[Bitboard, ...]
    by_king: bool
    king_places: tuple[int, ...]

    @property
    def pieces_captured(self) -> int:
        return len(self.captured)

    @property
    def kings_captured(self) -> int:
        return len(self.king_places)

    @property
    def priority_key(self) -> PriorityKey:
        return priority_key(len(self.captured), self.by_king, self.king_places)


PriorityKey: TypeAlias = tuple[int, bool, int, tuple[int, ...]]


def priority_key(pieces: int, by_king: bool, king_places: tuple[int, ...]) -> PriorityKey:
    """Greater is preferred: rules 1-4 in order.  Rule 4 wants earlier king places."""
    return (pieces, by_king, len(king_places), tuple(-place for place in king_places))


def _follow_captures(
    at: Bitboard,
    jumps: dict[Bitboard, tuple[tuple[Bitboard, Bitboard], ...]],
    targets: Bitboard,
    kings: Bitboard,
    empty: Bitboard,
    crown_row: Bitboard,
    path: list[Bitboard],
    captured: list[Bitboard],
    captured_mask: Bitboard,
    found: _Found,
) -> None:
    """Depth-first search of every way to continue a capture from ``at``.

    Captured pieces stay on the board until the move ends, so they still block
    a landing square, and ``captured_mask`` stops them being jumped twice.
    A man that lands on its crown row stops there: ``crown_row`` is 0 for kings.
    """
    extended = False
    for over, land in jumps[at]:
        if over & targets and not over & captured_mask and land & empty:
            extended = True
            path.append(land)
            captured.append(over)
            if land & crown_row:
                found.append(_record(path, captured, kings))
            else:
                _follow_captures(
                    land, jumps, targets, kings, empty, crown_row,
                    path, captured, captured_mask | over, found,
                )  # fmt: skip
            path.pop()
            captured.pop()
    if not extended and captured:
        found.append(_record(path, captured, kings))


def _record(
    path: list[Bitboard], captured: list[Bitboard], kings: Bitboard
) -> tuple[tuple[Bitboard, ...], tuple[Bitboard, ...], tuple[int, ...]]:
    places = tuple(place for place, over in enumerate(captured, 1) if over & kings)
    return tuple(path), tuple(captured), places


def _jumpers(state: State) -> tuple[Bitboard, Bitboard]:
    """The men and the kings of the side to move that can capture: shifts only."""
    white, own_men, own_kings, their_men, their_kings = state
    empty = BOARD ^ (own_men | own_kings | their_men | their_kings)
    if white:
        men = own_men & ((their_men << 5) & (empty << 10) | (their_men << 4) & (empty << 8))
    else:
        men = own_men & ((their_men >> 4) & (empty >> 8) | (their_men >> 5) & (empty >> 10))
    if not own_kings:
        return men, 0
    theirs = their_men | their_kings
    kings = own_kings & (
        (theirs << 5) & (empty << 10)
        | (theirs << 4) & (empty << 8)
        | (theirs >> 4) & (empty >> 8)
        | (theirs >> 5) & (empty >> 10)
    )
    return men, kings


def _raw_sequences(state: State) -> tuple[_Found, _Found]:
    """Every complete capture of the men, and of the kings, as raw tuples."""
    white, own_men, own_kings, their_men, their_kings = state
    empty = BOARD ^ (own_men | own_kings | their_men | their_kings)
    man_jumpers, king_jumpers = _jumpers(state)
    if white:
        man_jumps, crown_row = WHITE_MAN_JUMPS, WHITE_CROWN_ROW
    else:
        man_jumps, crown_row = BLACK_MAN_JUMPS, BLACK_CROWN_ROW
    by_men: _Found = []
    by_kings: _Found = []
    while man_jumpers:
        origin = man_jumpers & -man_jumpers
        man_jumpers ^= origin
        # The origin is vacated for the whole move (it may be landed on again).
        _follow_captures(
            origin, man_jumps, their_men, their_kings, empty | origin, crown_row,
            [origin], [], 0, by_men,
        )  # fmt: skip
    targets = their_men | their_kings
    while king_jumpers:
        origin = king_jumpers & -king_jumpers
        king_jumpers ^= origin
        _follow_captures(
            origin, KING_JUMPS, targets, their_kings, empty | origin, 0,
            [origin], [], 0, by_kings,
        )  # fmt: skip
    return by_men, by_kings


def capture_sequences(state: State) -> list[CaptureSequence]:
    """Every complete capture sequence, before the priority rules are applied."""
    by_men, by_kings = _raw_sequences(state)
    return [
        CaptureSequence(path[0], path[1:], captured, by_king, places)
        for found, by_king in ((by_men, False), (by_kings, True))
        for path, captured, places in found
    ]


def _man_capture_tree(
    at: Bitboard,
    jumps: dict[Bitboard, tuple[tuple[Bitboard, Bitboard], ...]],
    targets: Bitboard,
    empty: Bitboard,
    crown_row: Bitboard,
) -> tuple[int, int]:
    """(longest length, how many sequences have it) of a man's captures from ``at``.

    A man only moves forward, so it can neither revisit a square nor meet a
    piece it has already jumped: no bookkeeping of the path is needed.
    """
    longest, count = 0, 1
    for over, land in jumps[at]:
        if over & targets and land & empty:
            if land & crown_row:
                length, ways = 1, 1
            else:
                length, ways = _man_capture_tree(land, jumps, targets, empty, crown_row)
                length += 1
            if length > longest:
                longest, count = length, ways
            elif length == longest:
                count += ways
    return longest, count


def _count_man_captures(
    man_jumpers: Bitboard,
    jumps: dict[Bitboard, tuple[tuple[Bitboard, Bitboard], ...]],
    targets: Bitboard,
    empty: Bitboard,
    crown_row: Bitboard,
) -> int:
    """How many captures rule 1 allows when only men can capture.

    Men never capture kings, so rules 2-4 cannot separate their captures.
    """
    longest, count = 0, 0
    while man_jumpers:
        origin = man_jumpers & -man_jumpers
        man_jumpers ^= origin
        length, ways = _man_capture_tree(origin, jumps, targets, empty, crown_row)
        if length > longest:
            longest, count = length, ways
        elif length == longest:
            count += ways
    return count


def _count_mixed_captures(state: State) -> int:
    """How many captures the priority rules allow when a king can capture."""
    by_men, by_kings = _raw_sequences(state)
    keys = [priority_key(len(captured), False, ()) for _, captured, _ in by_men]
    keys += [priority_key(len(captured), True, places) for _, captured, places in by_kings]
    return keys.count(max(keys))


def select_by_priority(sequences: list[CaptureSequence]) -> list[CaptureSequence]:
    """The captures that the four priority rules allow (all of them if they tie)."""
    if len(sequences) < 2:
        return sequences
    best = max(sequence.priority_key for sequence in sequences)
    return [sequence for sequence in sequences if sequence.priority_key == best]


def legal_captures(state: State) -> list[CaptureSequence]:
    return select_by_priority(capture_sequences(state))


def has_capture(state: State) -> bool:
    """Whether the side to move must capture."""
    men, kings = _jumpers(state)
    return bool(men or kings)


def quiet_steps(state: State) -> list[tuple[Bitboard, Bitboard]]:
    """Every (from, to) step of a piece when no capture is possible."""
    white, own_men, own_kings, their_men, their_kings = state
    empty = BOARD ^ (own_men | own_kings | their_men | their_kings)
    steps = []
    for pieces, directions in (
        (own_men, UP_STEPS if white else DOWN_STEPS),
        (own_kings, ALL_STEPS),
    ):
        for step in directions:
            targets = (pieces >> step if step > 0 else pieces << -step) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                steps.append((to << step if step > 0 else to >> -step, to))
    return steps


def after_step(state: State, origin: Bitboard, to: Bitboard) -> State:
    """The position after a quiet step, seen from the opponent's side."""
    white, own_men, own_kings, their_men, their_kings = state
    if own_kings & origin:
        return (not white, their_men, their_kings, own_men, own_kings ^ origin ^ to)
    crown_row = WHITE_CROWN_ROW if white else BLACK_CROWN_ROW
    if to & crown_row:
        return (not white, their_men, their_kings, own_men ^ origin, own_kings | to)
    return (not white, their_men, their_kings, own_men ^ origin ^ to, own_kings)


def after_capture(state: State, sequence: CaptureSequence) -> State:
    """The position after a capture: captured pieces come off at the end."""
    white, own_men, own_kings, their_men, their_kings = state
    gone = 0
    for over in sequence.captured:
        gone |= over
    origin, to = sequence.origin, sequence.landings[-1]
    their_men &= ~gone
    their_kings &= ~gone
    if sequence.by_king:
        own_kings = own_kings ^ origin | to
    else:
        own_men ^= origin
        if to & (WHITE_CROWN_ROW if white else BLACK_CROWN_ROW):
            own_kings |= to
        else:
            own_men |= to
    return (not white, their_men, their_kings, own_men, own_kings)


def _count(white: bool, own_men: int, own_kings: int, their_men: int, their_kings: int) -> int:
    """How many legal moves there are: bulk counting, no move is made.

    This is perft's innermost function, so the capture test of :func:`_jumpers`
    is repeated here inline rather than called.
    """
    empty = BOARD ^ (own_men | own_kings | their_men | their_kings)
    if own_kings:
        theirs = their_men | their_kings
        if own_kings & (
            (theirs << 5) & (empty << 10)
            | (theirs << 4) & (empty << 8)
            | (theirs >> 4) & (empty >> 8)
            | (theirs >> 5) & (empty >> 10)
        ):
            return _count_mixed_captures((white, own_men, own_kings, their_men, their_kings))
    movers = own_men | own_kings
    if white:
        jumpers = own_men & ((their_men << 5) & (empty << 10) | (their_men << 4) & (empty << 8))
        if jumpers:
            return _count_man_captures(jumpers, WHITE_MAN_JUMPS, their_men, empty, WHITE_CROWN_ROW)
        count = ((movers >> 5) & empty).bit_count() + ((movers >> 4) & empty).bit_count()
        if own_kings:
            count += ((own_kings << 4) & empty).bit_count() + ((own_kings << 5) & empty).bit_count()
        return count
    jumpers = own_men & ((their_men >> 4) & (empty >> 8) | (their_men >> 5) & (empty >> 10))
    if jumpers:
        return _count_man_captures(jumpers, BLACK_MAN_JUMPS, their_men, empty, BLACK_CROWN_ROW)
    count = ((movers << 4) & empty).bit_count() + ((movers << 5) & empty).bit_count()
    if own_kings:
        count += ((own_kings >> 5) & empty).bit_count() + ((own_kings >> 4) & empty).bit_count()
    return count


def count_moves(state: State) -> int:
    """How many legal moves the side to move has."""
    return _count(*state)


def _perft(
    white: bool, own_men: int, own_kings: int, their_men: int, their_kings: int, depth: int
) -> int:
    state = (white, own_men, own_kings, their_men, their_kings)
    men_jumpers, king_jumpers = _jumpers(state)
    below = _count if depth == 2 else None
    if men_jumpers or king_jumpers:
        kids = [after_capture(state, sequence) for sequence in legal_captures(state)]
        if below:
            return sum(below(*kid) for kid in kids)
        return sum(_perft(*kid, depth - 1) for kid in kids)
    # Quiet moves are made inline: this loop runs once per interior node.
    empty = BOARD ^ (own_men | own_kings | their_men | their_kings)
    total = 0
    opponent = not white
    if white:
        crown_row = WHITE_CROWN_ROW
        man_moves = ((own_men >> 5) & empty, 5), ((own_men >> 4) & empty, 4)
    else:
        crown_row = BLACK_CROWN_ROW
        man_moves = ((own_men << 4) & empty, -4), ((own_men << 5) & empty, -5)
    for targets, step in man_moves:
        while targets:
            to = targets & -targets
            targets ^= to
            origin = to << step if step > 0 else to >> -step
            if to & crown_row:
                men, kings = own_men ^ origin, own_kings | to
            else:
                men, kings = own_men ^ origin ^ to, own_kings
            if below:
                total += below(opponent, their_men, their_kings, men, kings)
            else:
                total += _perft(opponent, their_men, their_kings, men, kings, depth - 1)
    if own_kings:
        for step in ALL_STEPS:
            targets = (own_kings >> step if step > 0 else own_kings << -step) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                kings = own_kings ^ to ^ (to << step if step > 0 else to >> -step)
                if below:
                    total += below(opponent, their_men, their_kings, own_men, kings)
                else:
                    total += _perft(opponent, their_men, their_kings, own_men, kings, depth - 1)
    return total


def perft(state: State, depth: int) -> int:
    """Count the distinct legal move sequences of ``depth`` plies."""
    if depth <= 0:
        return 1
    if depth == 1:
        return _count(*state)
    return _perft(*state, depth)
