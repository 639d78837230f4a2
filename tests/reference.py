"""A slow, obviously-correct move generator written straight from the FID rules.

It shares no code with the engine: it works on (row, column) coordinates and
dictionaries, so that the tests can compare two independent implementations.
"""

from __future__ import annotations

Coord = tuple[int, int]
Board = dict[Coord, tuple[str, bool]]  # (colour "w"/"b", is_king)


def square_to_coord(square: int) -> Coord:
    row, index = divmod(square - 1, 4)
    return row, 2 * index + (row % 2)


def coord_to_square(coord: Coord) -> int:
    row, column = coord
    return row * 4 + column // 2 + 1


def on_board(coord: Coord) -> bool:
    return 0 <= coord[0] < 8 and 0 <= coord[1] < 8


def board_from_fen(fen: str) -> tuple[str, Board]:
    turn, *fields = fen.split(":")
    board: Board = {}
    for field in fields:
        colour = field[0].lower()
        for item in filter(None, field[1:].split(",")):
            king = item.startswith("K")
            board[square_to_coord(int(item.lstrip("K")))] = (colour, king)
    return turn.lower(), board


def _forward(colour: str) -> int:
    return -1 if colour == "w" else 1


def _captures_from(
    board: Board, start: Coord, colour: str, king: bool
) -> list[tuple[list[Coord], list[Coord]]]:
    """All complete capture sequences of one piece: (landings, captured)."""
    results: list[tuple[list[Coord], list[Coord]]] = []
    directions = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    if not king:
        directions = [(d_row, d_col) for d_row, d_col in directions if d_row == _forward(colour)]
    last_row = 0 if colour == "w" else 7

    def search(at: Coord, landings: list[Coord], captured: list[Coord]) -> None:
        extended = False
        if king or at[0] != last_row or not captured:
            for d_row, d_col in directions:
                over = (at[0] + d_row, at[1] + d_col)
                land = (at[0] + 2 * d_row, at[1] + 2 * d_col)
                if not on_board(land) or over in captured:
                    continue
                victim = board.get(over)
                if victim is None or victim[0] == colour or (victim[1] and not king):
                    continue
                if land != start and land in board:
                    continue
                extended = True
                search(land, [*landings, land], [*captured, over])
        if not extended and captured:
            results.append((landings, captured))

    search(start, [], [])
    return results


def legal_moves(fen: str) -> list[str]:
    """Every legal move in the notation 22-19 / 29x22x15x6, sorted like the engine."""
    turn, board = board_from_fen(fen)
    sequences = []
    for coord, (colour, king) in board.items():
        if colour != turn:
            continue
        for landings, captured in _captures_from(board, coord, colour, king):
            places = tuple(i for i, c in enumerate(captured, 1) if board[c][1])
            key = (len(captured), king, len(places), tuple(-p for p in places))
            path = [coord_to_square(c) for c in [coord, *landings]]
            sequences.append((key, path))
    if sequences:
        best = max(key for key, _ in sequences)
        paths = [path for key, path in sequences if key == best]
        return ["x".join(map(str, path)) for path in sorted(paths)]
    moves = []
    for coord, (colour, king) in board.items():
        if colour != turn:
            continue
        for d_row in (-1, 1):
            if not king and d_row != _forward(colour):
                continue
            for d_col in (-1, 1):
                to = (coord[0] + d_row, coord[1] + d_col)
                if on_board(to) and to not in board:
                    moves.append((coord_to_square(coord), coord_to_square(to)))
    return [f"{a}-{b}" for a, b in sorted(moves)]
