"""Why a capture is the one to play: the four priority rules, candidate by candidate.

:func:`explain` returns data, not text, so that the command line, the
verifier and the rules site can all present the same findings in their own
way (and in their own language).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from . import _rules as rules
from .move import Move
from .position import Position, capture_move


class PriorityRule(Enum):
    """The FID priority rules, in the order they are applied."""

    MOST_PIECES = "most-pieces"
    WITH_KING = "with-king"
    MOST_KINGS = "most-kings"
    KING_FIRST = "king-first"

    @property
    def number(self) -> int:
        return _RULE_ORDER.index(self) + 1

    @property
    def summary(self) -> str:
        """A short English name, for the command line."""
        return _SUMMARIES[self]

    @classmethod
    def from_number(cls, number: int) -> PriorityRule:
        return _RULE_ORDER[number - 1]


_RULE_ORDER = tuple(PriorityRule)
_SUMMARIES = {
    PriorityRule.MOST_PIECES: "most pieces",
    PriorityRule.WITH_KING: "capture with a king",
    PriorityRule.MOST_KINGS: "most kings",
    PriorityRule.KING_FIRST: "king met first",
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One complete capture and its value on each priority rule."""

    move: Move
    pieces_captured: int
    by_king: bool
    kings_captured: int
    king_places: tuple[int, ...]
    rejected_by: PriorityRule | None
    """The rule that rules this capture out, or ``None`` if it is legal."""

    @property
    def legal(self) -> bool:
        return self.rejected_by is None

    def rule_value(self, rule: PriorityRule) -> int | bool | tuple[int, ...]:
        """What ``rule`` compares for this capture."""
        if rule is PriorityRule.MOST_PIECES:
            return self.pieces_captured
        if rule is PriorityRule.WITH_KING:
            return self.by_king
        if rule is PriorityRule.MOST_KINGS:
            return self.kings_captured
        return self.king_places


@dataclass(frozen=True, slots=True)
class Explanation:
    """Every candidate capture of a position and the rules that choose among them."""

    position: Position
    candidates: tuple[Candidate, ...]

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        return tuple(candidate.move for candidate in self.candidates if candidate.legal)

    @property
    def rejected(self) -> tuple[Candidate, ...]:
        return tuple(candidate for candidate in self.candidates if not candidate.legal)

    @property
    def deciding_rules(self) -> tuple[PriorityRule, ...]:
        """Each rule that rules out at least one capture, in rule order."""
        used = {candidate.rejected_by for candidate in self.rejected}
        return tuple(rule for rule in PriorityRule if rule in used)

    @property
    def deciding_rule(self) -> PriorityRule | None:
        """The rule that makes the final choice; ``None`` if no rule had to choose."""
        rules_used = self.deciding_rules
        return rules_used[-1] if rules_used else None

    @property
    def free_choice(self) -> bool:
        """Several captures stay legal after all four rules."""
        return len(self.legal_moves) > 1

    def candidate(self, move: Move) -> Candidate | None:
        for candidate in self.candidates:
            if candidate.move == move:
                return candidate
        return None

    def text(self) -> str:
        """The explanation as a plain-text table, for the command line."""
        if not self.candidates:
            return f"{self.position.to_fen()}: no capture is possible"
        header = ("capture", "pieces", "with king", "kings", "king places", "verdict")
        rows = [header]
        for candidate in self.candidates:
            rule = candidate.rejected_by
            verdict = "legal" if rule is None else f"rejected: rule {rule.number} ({rule.summary})"
            rows.append(
                (
                    str(candidate.move),
                    str(candidate.pieces_captured),
                    "yes" if candidate.by_king else "no",
                    str(candidate.kings_captured),
                    ",".join(map(str, candidate.king_places)) or "-",
                    verdict,
                )
            )
        widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
        lines = [
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows
        ]
        lines.append(self.summary())
        return "\n".join(lines)

    def summary(self) -> str:
        """One English sentence: which rule decides and what stays legal."""
        legal = ", ".join(map(str, self.legal_moves))
        rule = self.deciding_rule
        if len(self.candidates) == 1:
            return f"{legal} is the only capture."
        if rule is None:
            return f"All captures tie on the four rules: free choice between {legal}."
        decided = f"rule {rule.number} ({rule.summary}) decides"
        if self.free_choice:
            return f"{decided}; the rest tie, free choice between {legal}."
        return f"{decided}: {legal} is the only legal capture."


def separating_rule(first: Candidate, second: Candidate) -> PriorityRule | None:
    """The first rule on which two captures differ; ``None`` if they tie on all four."""
    for rule in PriorityRule:
        if first.rule_value(rule) != second.rule_value(rule):
            return rule
    return None


def explain(position: Position) -> Explanation:
    """Apply the priority rules one at a time to every complete capture."""
    found = sorted(
        (capture_move(sequence), sequence.priority_key, sequence)
        for sequence in rules.capture_sequences(position.state)
    )
    remaining = [(move, key) for move, key, _ in found]
    rejected_by: dict[Move, PriorityRule] = {}
    for rule_index, rule in enumerate(PriorityRule):
        if not remaining:
            break
        best = max(key[: rule_index + 1] for _, key in remaining)
        for move, key in remaining:
            if key[: rule_index + 1] != best:
                rejected_by[move] = rule
        remaining = [(move, key) for move, key in remaining if move not in rejected_by]
    return Explanation(
        position,
        tuple(
            Candidate(
                move=move,
                pieces_captured=sequence.pieces_captured,
                by_king=sequence.by_king,
                kings_captured=sequence.kings_captured,
                king_places=sequence.king_places,
                rejected_by=rejected_by.get(move),
            )
            for move, _, sequence in found
        ),
    )
