"""Positions: the pieces on the board and the side to move, with PDN FEN I/O."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from ..errors import IllegalMoveError, PositionError, shorten
from . import _rules as rules
from .board import (
    BIT,
    BLACK_CROWN_ROW,
    SQUARE_OF_BIT,
    WHITE_CROWN_ROW,
    Bitboard,
    Color,
    Square,
    bitboard_of,
    squares_of,
)
from .move import Move
from .pictures import picture

MAX_PIECES = 12

_FEN_SQUARE = re.compile(r"(K?)([0-9]{1,3})(?:-([0-9]{1,3}))?")  # ASCII; 3 digits: 100+ is off


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on a square: its side, and whether it is a king (else a man)."""

    color: Color
    king: bool = False


class GameOverReason(Enum):
    """Why the side to move has lost: it has no piece left, or none of its pieces can move."""

    NO_PIECES = "no-pieces"
    BLOCKED = "blocked"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the side to move has lost."""

    winner: Color
    reason: GameOverReason


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable, hashable position.  Build it with a class method.

    The bitboards use the layout of :mod:`dama_diagrams.engine.board`; the
    constructor trusts them, so use :meth:`from_fen`, :meth:`from_squares` or
    :meth:`initial`, which validate.
    """

    turn: Color
    white_men: Bitboard
    white_kings: Bitboard
    black_men: Bitboard
    black_kings: Bitboard

    # -- construction -------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """Black on 1-12, White on 21-32, White to move (made once: a position never changes)."""
        return _initial_position()

    @classmethod
    def empty(cls, turn: Color = Color.WHITE) -> Position:
        return cls(turn, 0, 0, 0, 0)

    @classmethod
    def from_squares(
        cls,
        turn: Color,
        *,
        white_men: Iterable[Square] = (),
        white_kings: Iterable[Square] = (),
        black_men: Iterable[Square] = (),
        black_kings: Iterable[Square] = (),
    ) -> Position:
        """A position from square numbers, checked like a FEN would be."""
        groups = {
            (Color.WHITE, False): list(white_men),
            (Color.WHITE, True): list(white_kings),
            (Color.BLACK, False): list(black_men),
            (Color.BLACK, True): list(black_kings),
        }
        seen: set[Square] = set()
        for (color, king), squares in groups.items():
            for square in squares:
                validate_square(square)
                if square in seen:
                    raise PositionError(
                        f"square {square} is given twice; a square holds at most one piece"
                    )
                seen.add(square)
                if not king:
                    _check_man_row(color, square)
        for color in Color:
            count = len(groups[color, False]) + len(groups[color, True])
            if count > MAX_PIECES:
                raise PositionError(
                    f"{color.value} has {count} pieces; a side has at most {MAX_PIECES}"
                )
        return cls(
            turn,
            bitboard_of(groups[Color.WHITE, False]),
            bitboard_of(groups[Color.WHITE, True]),
            bitboard_of(groups[Color.BLACK, False]),
            bitboard_of(groups[Color.BLACK, True]),
        )

    @classmethod
    def from_pieces(cls, turn: Color, pieces: Mapping[Square, Piece]) -> Position:
        groups: dict[tuple[Color, bool], list[Square]] = {}
        for square, piece in pieces.items():
            groups.setdefault((piece.color, piece.king), []).append(square)
        return cls.from_squares(
            turn,
            white_men=groups.get((Color.WHITE, False), []),
            white_kings=groups.get((Color.WHITE, True), []),
            black_men=groups.get((Color.BLACK, False), []),
            black_kings=groups.get((Color.BLACK, True), []),
        )

    @classmethod
    def from_fen(cls, fen: str) -> Position:
        """Read PDN FEN such as ``W:W21,22,K14:B1-3,K30``."""
        text = fen.strip().rstrip(".")
        fields = text.split(":")
        if len(fields) != 3 or fields[0].upper() not in ("W", "B"):
            raise PositionError(
                f"FEN {shorten(fen)} is not of the form W:W21,22,K14:B1,2 "
                "(side to move, then White's and Black's squares)"
            )
        turn = Color.WHITE if fields[0].upper() == "W" else Color.BLACK
        sides: dict[str, tuple[list[Square], list[Square]]] = {}
        for field in fields[1:]:
            letter = field[:1].upper()
            if letter not in ("W", "B") or letter in sides:
                raise PositionError(
                    f"FEN {shorten(fen)}: each side's field starts with W or B, once each, "
                    f"but found {shorten(field)}"
                )
            sides[letter] = _parse_fen_squares(fen, field[1:])
        white_men, white_kings = sides["W"]
        black_men, black_kings = sides["B"]
        try:
            return cls.from_squares(
                turn,
                white_men=white_men,
                white_kings=white_kings,
                black_men=black_men,
                black_kings=black_kings,
            )
        except PositionError as error:
            raise PositionError(f"FEN {shorten(fen)}: {error.message}") from None

    # -- reading ------------------------------------------------------------

    def to_fen(self) -> str:
        """Canonical PDN FEN: squares in ascending order, no ranges."""
        white = _fen_field(self.white_men, self.white_kings)
        black = _fen_field(self.black_men, self.black_kings)
        return f"{'W' if self.turn is Color.WHITE else 'B'}:W{white}:B{black}"

    def piece_at(self, square: Square) -> Piece | None:
        bit = BIT[square]
        if bit & self.white_men:
            return Piece(Color.WHITE)
        if bit & self.white_kings:
            return Piece(Color.WHITE, king=True)
        if bit & self.black_men:
            return Piece(Color.BLACK)
        if bit & self.black_kings:
            return Piece(Color.BLACK, king=True)
        return None

    def pieces(self) -> dict[Square, Piece]:
        """Every piece on the board, by ascending square."""
        found = {}
        for bitboard, piece in (
            (self.white_men, Piece(Color.WHITE)),
            (self.white_kings, Piece(Color.WHITE, king=True)),
            (self.black_men, Piece(Color.BLACK)),
            (self.black_kings, Piece(Color.BLACK, king=True)),
        ):
            for square in squares_of(bitboard):
                found[square] = piece
        return dict(sorted(found.items()))

    def squares(self, color: Color, *, king: bool) -> list[Square]:
        if color is Color.WHITE:
            return squares_of(self.white_kings if king else self.white_men)
        return squares_of(self.black_kings if king else self.black_men)

    # -- the rules ----------------------------------------------------------

    @property
    def state(self) -> rules.State:
        """The engine's view: the side to move's pieces first."""
        if self.turn is Color.WHITE:
            return (True, self.white_men, self.white_kings, self.black_men, self.black_kings)
        return (False, self.black_men, self.black_kings, self.white_men, self.white_kings)

    @classmethod
    def from_state(cls, state: rules.State) -> Position:
        white, own_men, own_kings, their_men, their_kings = state
        if white:
            return cls(Color.WHITE, own_men, own_kings, their_men, their_kings)
        return cls(Color.BLACK, their_men, their_kings, own_men, own_kings)

    def legal_moves(self) -> list[Move]:
        """Every legal move, sorted: captures when one is possible (it is compulsory)."""
        state = self.state
        if rules.has_capture(state):
            moves = [capture_move(sequence) for sequence in rules.legal_captures(state)]
        else:
            moves = [
                Move((SQUARE_OF_BIT[origin], SQUARE_OF_BIT[to]))
                for origin, to in rules.quiet_steps(state)
            ]
        return sorted(moves)

    def capture_sequences(self) -> list[rules.CaptureSequence]:
        """Every complete capture, before the priority rules choose among them."""
        return rules.capture_sequences(self.state)

    def is_legal(self, move: Move | str) -> bool:
        return _as_move(move) in self.legal_moves()

    def play(self, move: Move | str) -> Position:
        """The position after ``move``; this position is left unchanged."""
        wanted = _as_move(move)
        state = self.state
        if wanted.is_capture:
            for sequence in rules.legal_captures(state):
                if capture_move(sequence) == wanted:
                    return Position.from_state(rules.after_capture(state, sequence))
        elif not rules.has_capture(state):
            origin, to = BIT[wanted.origin], BIT[wanted.destination]
            if (origin, to) in rules.quiet_steps(state):
                return Position.from_state(rules.after_step(state, origin, to))
        legal = " ".join(map(str, self.legal_moves())) or "none"
        raise IllegalMoveError(
            f"{wanted} is not legal in {self.to_fen()}; the legal moves are: {legal}"
        )

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on; else who won and why."""
        _, own_men, own_kings, _, _ = self.state
        if not own_men | own_kings:
            return Outcome(self.turn.opponent, GameOverReason.NO_PIECES)
        if rules.count_moves(self.state) == 0:
            return Outcome(self.turn.opponent, GameOverReason.BLOCKED)
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def perft(self, depth: int) -> int:
        """The number of distinct legal move sequences of ``depth`` plies."""
        return rules.perft(self.state, depth)

    def divide(self, depth: int) -> dict[Move, int]:
        """Perft split by first move, for finding where two engines disagree."""
        return {move: self.play(move).perft(depth - 1) for move in self.legal_moves()}

    def __str__(self) -> str:
        return self.to_fen()

    def __repr__(self) -> str:
        return f"Position.from_fen({self.to_fen()!r})"

    def _repr_svg_(self) -> str | None:
        """The board, for Jupyter (see :mod:`.pictures`)."""
        return picture("position", self)


def validate_square(square: object) -> Square:
    """Return the square if it is a square number 1-32, else explain the problem."""
    if not isinstance(square, int) or isinstance(square, bool):
        raise PositionError(f"{square!r} is not a square number (squares are 1-32)")
    if not 1 <= square <= 32:
        raise PositionError(f"square {square} is off the board (squares are 1-32)")
    return square


def _check_man_row(color: Color, square: Square) -> None:
    crown_row = WHITE_CROWN_ROW if color is Color.WHITE else BLACK_CROWN_ROW
    if BIT[square] & crown_row:
        rows = "1-4" if color is Color.WHITE else "29-32"
        raise PositionError(
            f"a {color.value} man cannot stand on {square}: squares {rows} are its crowning "
            f"row, where it would already be a king; write K{square} or move it"
        )


def _parse_fen_squares(fen: str, text: str) -> tuple[list[Square], list[Square]]:
    men: list[Square] = []
    kings: list[Square] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        match = _FEN_SQUARE.fullmatch(item.upper())
        if not match:
            raise PositionError(
                f"FEN {shorten(fen)}: {shorten(item)} is not a square; "
                "write 21, K14 or a range like 21-32"
            )
        first = int(match.group(2))
        last = int(match.group(3) or first)
        validate_square(first)
        validate_square(last)
        if last < first:
            raise PositionError(f"FEN {shorten(fen)}: the range {shorten(item)} runs backwards")
        (kings if match.group(1) else men).extend(range(first, last + 1))
    return men, kings


def _fen_field(men: Bitboard, kings: Bitboard) -> str:
    return ",".join(
        f"K{square}" if BIT[square] & kings else str(square) for square in squares_of(men | kings)
    )


def capture_move(sequence: rules.CaptureSequence) -> Move:
    """The notation of one of the engine's capture sequences."""
    path = (sequence.origin, *sequence.landings)
    return Move(tuple(SQUARE_OF_BIT[bit] for bit in path), is_capture=True)


def _as_move(move: Move | str) -> Move:
    return Move.parse(move) if isinstance(move, str) else move


@functools.cache
def _initial_position() -> Position:
    """Checked once: a game file starts each of its thousands of games from it."""
    return Position.from_squares(Color.WHITE, white_men=range(21, 33), black_men=range(1, 13))
