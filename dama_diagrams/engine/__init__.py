"""The rules of Italian draughts (dama italiana), as the FID writes them.

The first stage, and the only one that decides anything: whether a move is
legal, which capture the priority rules choose, why a move is illegal, when
the game is over.  Everything after it (diagrams, pictures, the site) asks the
engine and never judges a position itself.  It imports nothing else of the
package except the shared errors.
"""

from .board import Color, Square
from .legality import Illegality, IllegalReason, illegal_reason
from .move import Move
from .position import GameOverReason, Outcome, Piece, Position
from .priority import Candidate, Explanation, PriorityRule, explain, separating_rule

__all__ = [
    "Candidate",
    "Color",
    "Explanation",
    "GameOverReason",
    "IllegalReason",
    "Illegality",
    "Move",
    "Outcome",
    "Piece",
    "Position",
    "PriorityRule",
    "Square",
    "explain",
    "illegal_reason",
    "separating_rule",
]
