"""Figures: what a page shows about a verified diagram, and its picture in each language.

A :class:`FigureView` is the one view of a :class:`~dama_diagrams.diagram.VerifiedDiagram`
that the pages need: the moves its file names, the legend entries of its picture
and of each step picture, and the engine's finding as a message key (``engine.<finding>``) with its
values.  It holds no text of any language; the pages phrase it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..._files import relative_to_cwd
from ...diagram import VerifiedDiagram, verify_directory
from ...diagram.captions import caption_items
from ...diagram.options import Ask, Claim, Show
from ...engine.games import move_label
from ...engine.move import Move
from ...engine.position import GameOverReason, Position
from ...engine.priority import Explanation
from ...render.figure import diagram_markers, diagram_svg, exercise_svg
from ...render.legend import LEGEND_KEYS
from ...render.markers import Markers
from ...render.steps import capture_steps
from ...render.svg import SvgPicture
from .._common import DIAGRAM_SIZE, DIAGRAMS_DIR, SiteError
from ..i18n import Catalog
from ..i18n.safe_text import catalog_html, text_of
from .descriptions import describe_picture
from .exercises import ExerciseView, exercise_view

FindingValue = str | int | tuple[str, ...]


@dataclass(frozen=True)
class ExplainRow:
    """One candidate capture and its value on each priority rule."""

    move: str
    pieces: int
    by_king: bool
    kings: int
    king_places: tuple[int, ...]
    rejected_by: str | None


@dataclass(frozen=True)
class StepLine:
    """One step of a capture, as its message key (``steps.<key>``) and values.

    A step of a game also has the engine's finding on the position it shows
    (``engine.<finding>`` and its values), since the figure's own line is
    about the final position only.
    """

    key: str
    values: Mapping[str, str]
    finding: str | None = None
    finding_values: Mapping[str, FindingValue] = field(default_factory=dict)


@dataclass(frozen=True)
class FigureView:
    """The language-independent facts a page shows about one verified diagram.

    ``finding`` names the engine's sentence (``engine.<finding>`` in the
    catalogs) and ``finding_values`` holds exactly the values that sentence
    uses (``move``, ``moves``, ``count``, ``rule``, ``reason``, ``side``), so
    that the catalog's placeholders and the values always match one to one.
    """

    id: str
    move: str | None
    moves: tuple[str, ...]
    rejected: tuple[str, ...]
    start: int | None
    end: int | None
    captured: tuple[int, ...]
    legend: tuple[str, ...]
    """The legend entries of the figure's own picture: what it draws, nothing more."""
    finding: str
    finding_values: Mapping[str, FindingValue] = field(default_factory=dict)
    explain: tuple[ExplainRow, ...] = ()
    rejected_by: str | None = None
    """The priority rule that rules out every move in ``rejected`` (a priority claim)."""
    title: str | None = None
    """The diagram's English title, from its file (the PO catalogs translate it)."""
    caption: str | None = None
    """The diagram's English caption, with placeholders such as ``{move}``."""
    steps: tuple[StepLine, ...] = ()
    """What the page's step controls show: start, each landing, final; empty for none."""
    step_legends: tuple[tuple[str, ...], ...] = ()
    """The legend entries of each step picture, aligned with ``steps``."""
    history: tuple[str, ...] = ()
    """The moves from the starting position to this one, when the diagram's file gives them."""
    exercise: ExerciseView | None = None
    """The question, and every try's verdict, when the diagram is an exercise."""
    caption_items: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each caption placeholder's items (:func:`..diagram.captions.caption_items`)."""


@dataclass(frozen=True)
class DrawnFigure:
    """A figure's picture in one language, and the words that describe it."""

    picture: SvgPicture
    alt: str
    """The picture read aloud: also its SVG ``<desc>``, so the two always agree."""


@dataclass(frozen=True)
class Figure:
    """A verified diagram and its view, ready to draw and show in any language."""

    verified: VerifiedDiagram
    view: FigureView

    def draw(self, catalog: Catalog) -> DrawnFigure:
        """The diagram in ``catalog``'s language: its title and what it shows."""
        title = self.view.title
        return self._draw(catalog, self.view.id if title is None else catalog.message(title))

    def step_pictures(self, catalog: Catalog) -> list[SvgPicture]:
        """The capture (or the game) step by step, each picture titled by what happens in it."""
        texts = step_texts(self.view, catalog)
        if not texts:
            return []
        steps = _steps(self.verified)
        return [
            self._draw(catalog, text, position, markers).picture
            for (position, markers), text in zip(steps, texts, strict=True)
        ]

    def draw_exercise(self, catalog: Catalog) -> DrawnFigure | None:
        """An exercise's board in ``catalog``'s language, titled by its question."""
        exercise = self.view.exercise
        if exercise is None:
            return None
        position = self.verified.diagram.position
        alt = describe_picture(position, Markers(), catalog, arrows=False)
        title = text_of(catalog_html(catalog.message(exercise.question), inline=True))
        picture = exercise_svg(self.verified, title=title, description=alt, size=DIAGRAM_SIZE)
        return DrawnFigure(picture, alt)

    def _draw(
        self,
        catalog: Catalog,
        title: str,
        position: Position | None = None,
        markers: Markers | None = None,
    ) -> DrawnFigure:
        show = self.verified.diagram.show
        position = position or self.verified.diagram.position
        markers = markers or diagram_markers(self.verified)
        alt = describe_picture(position, markers, catalog, arrows=show.arrows)
        picture = diagram_svg(
            self.verified,
            title=title,
            description=alt,
            size=DIAGRAM_SIZE,
            position=position,
            markers=markers,
        )
        return DrawnFigure(picture, alt)


def load_figures(project_root: Path) -> dict[str, Figure]:
    """Verify every diagram of ``diagrams/``; the first claim that fails is raised."""
    folder = project_root / DIAGRAMS_DIR
    if not folder.is_dir():
        raise SiteError(f"no diagrams folder at {folder}")
    report = verify_directory(relative_to_cwd(folder))
    for failure in report.failures:
        raise failure.error
    return {verified.id: Figure(verified, figure_view(verified)) for verified in report.verified}


def figure_view(verified: VerifiedDiagram) -> FigureView:
    """The view of one verified diagram."""
    diagram = verified.diagram
    named = diagram.move  # the move played, or the one an illegal claim refuses
    first = named or (diagram.moves[0] if diagram.moves else None)
    finding, values = _finding(verified)
    steps = _step_lines(verified)
    return FigureView(
        id=diagram.id,
        move=None if named is None else str(named),
        moves=tuple(map(str, diagram.moves)),
        rejected=tuple(map(str, diagram.rejected)),
        start=None if first is None else first.origin,
        end=None if first is None else first.destination,
        captured=() if first is None else first.captured,
        legend=picture_legend(diagram.position, diagram_markers(verified), diagram.show),
        finding=finding,
        finding_values=values,
        explain=explain_rows(verified.explanation) if diagram.claim in _EXPLAINED else (),
        rejected_by=None if verified.rule is None else verified.rule.value,
        title=diagram.title,
        caption=diagram.caption,
        steps=steps,
        step_legends=_step_legends(verified) if steps else (),
        history=tuple(map(str, diagram.history)),
        exercise=exercise_view(verified),
        caption_items=caption_items(diagram),
    )


def game_steps(history: Sequence[Move]) -> list[tuple[Position, Markers]]:
    """The starting position, then the position after each move with its squares marked."""
    position = Position.initial()
    steps = [(position, Markers())]
    for move in history:
        position = position.play(move)
        steps.append((position, dataclasses.replace(Markers.from_move(move), captured=())))
    return steps


def _step_lines(verified: VerifiedDiagram) -> tuple[StepLine, ...]:
    """What each step of the capture shows, as message keys (``steps.<key>``) and values."""
    if verified.diagram.game_steps:
        return _game_lines(verified.diagram.history) if verified.diagram.steps else ()
    move = verified.move
    position = verified.diagram.position
    mover = None if move is None else position.piece_at(move.origin)
    if move is None or mover is None or not verified.diagram.steps:
        return ()
    captured = move.captured
    total = str(len(captured))
    lines = [StepLine("start", {"move": str(move), "count": total})]
    for index, (square, taken) in enumerate(zip(move.landings, captured, strict=True), 1):
        victim = position.piece_at(taken)
        key = f"{_kind(mover.king)}_takes_{_kind(victim is not None and victim.king)}"
        values = {"square": str(square), "captured": str(taken), "n": str(index), "total": total}
        lines.append(StepLine(key, values))
    landed = position.play(move).piece_at(move.destination)
    crowned = not mover.king and landed is not None and landed.king
    final = {"captured": ", ".join(map(str, captured))}
    lines.append(StepLine("final_crowned" if crowned else "final", final))
    return tuple(lines)


def _game_lines(history: Sequence[Move]) -> tuple[StepLine, ...]:
    """The start, then each move with its number: ``Move 2... 7x14.``

    Each step carries what the engine says of the position it shows: the
    starting position's legal moves, then whose turn it is after each move.
    """
    position = Position.initial()
    count = len(position.legal_moves())
    lines = [StepLine("game_start", {}, "setup_initial", {"count": count})]
    for ply, played in enumerate(history):
        position = position.play(played)
        values = {"label": move_label(ply), "move": str(played)}
        lines.append(StepLine("game_move", values, f"setup_{position.turn.value}", {}))
    return tuple(lines)


def step_texts(view: FigureView, catalog: Catalog) -> list[str]:
    """The steps in the catalog's language, e.g. "The king lands on 13, taking the man on 18"."""
    return [catalog.text(f"steps.{line.key}", **line.values) for line in view.steps]


RULE_IDS = ("most-pieces", "with-king", "most-kings", "king-first")


def rule_label(rule: str, catalog: Catalog) -> str:
    """'rule 1 (most pieces)' in the catalog's language."""
    number = RULE_IDS.index(rule) + 1
    return catalog.text("rules.numbered", number=str(number), name=catalog.text(f"rules.{rule}"))


def engine_sentence(view: FigureView, catalog: Catalog) -> str:
    """The 'checked by the engine' sentence for one diagram."""
    return finding_sentence(view.finding, view.finding_values, catalog)


def finding_sentence(finding: str, values: Mapping[str, FindingValue], catalog: Catalog) -> str:
    """The engine's finding ``engine.<finding>``, its values put in the catalog's words."""
    params: dict[str, str] = {}
    for name, value in values.items():
        if isinstance(value, tuple):
            params[name] = catalog.join(value)
        elif name == "rule":
            params[name] = rule_label(str(value), catalog)
        elif name == "reason":
            params[name] = catalog.text(f"engine.reason_{value}")
        elif name == "side":
            params[name] = catalog.text(f"position.{value}")
        else:
            params[name] = str(value)
    return catalog.text(f"engine.{finding}", **params)


def _kind(king: bool) -> str:
    return "king" if king else "man"


_EXPLAINED = (Claim.PRIORITY, Claim.FREE_CHOICE)
"""The claims whose figure can show the engine's table of candidate captures."""


def picture_legend(position: Position, markers: Markers, show: Show) -> tuple[str, ...]:
    """The legend entries of one picture: every mark it draws, and only those.

    Each picture gets its own, since without JavaScript, and in print, a
    figure shows its main picture alone.
    """
    sequences = markers.landing_sequences
    present = {
        "start": markers.start is not None,
        "landing": bool(sequences),
        "order": any(len(landings) > 1 for landings in sequences),
        "captured": bool(markers.captured),
        "king": any(piece.king for piece in position.pieces().values()),
        "rejected": bool(markers.rejected),
        f"{position.turn.value}_to_move": show.turn and bool(position.pieces()),
    }
    return tuple(key for key in LEGEND_KEYS if present.get(key, False))


def _step_legends(verified: VerifiedDiagram) -> tuple[tuple[str, ...], ...]:
    """The legend entries of each step picture (a man crowned in the last one brings the king)."""
    show = verified.diagram.show
    return tuple(picture_legend(position, markers, show) for position, markers in _steps(verified))


def _steps(verified: VerifiedDiagram) -> list[tuple[Position, Markers]]:
    """The pictures of the figure's step controls: the game's moves, or the capture's landings."""
    if verified.diagram.game_steps:
        return game_steps(verified.diagram.history)
    return [(step.position, step.markers) for step in capture_steps(verified)]


def _finding(verified: VerifiedDiagram) -> tuple[str, dict[str, FindingValue]]:
    """What the engine found: the message key of the figure's proof line, and its values."""
    diagram, found = verified.diagram, verified
    move = "" if diagram.move is None else str(diagram.move)
    legal = len(verified.legal_moves)
    side = diagram.position.turn.value
    match diagram.claim:
        case Claim.SETUP:
            if not diagram.position.pieces() and diagram.show.numbers == "all":
                return "setup_empty", {}  # it says that every number is printed
            if found.initial:
                return "setup_initial", {"count": legal}
            return f"setup_{side}", {}  # its own sentence per side: "las negras", not "las Negras"
        case Claim.MOVE:
            if diagram.move is None:
                return "moves", {"moves": tuple(map(str, verified.moves))}
            if diagram.exercise is not None and diagram.exercise.ask is Ask.WIN:
                after = diagram.position.play(diagram.move)
                if after.is_game_over():  # the line vouches for the win, not only for legality
                    return f"move_wins_{after.turn.value}", {"move": move}
            if legal > 1:
                return "move", {"move": move, "count": legal}
            return "move_only", {"move": move}
        case Claim.CAPTURE:
            if legal > 1:
                return "capture", {"move": move, "count": legal}
            return "capture_only", {"move": move}
        case Claim.MULTI_CAPTURE:
            return "multi_capture", {"move": move, "count": found.captured}
        case Claim.ILLEGAL:
            assert found.reason is not None  # the verifier names why a move is illegal
            return "illegal", {"move": move, "reason": found.reason.value}
        case Claim.PRIORITY | Claim.FREE_CHOICE:
            return _priority_finding(verified)
        case Claim.PROMOTION:
            return "promotion", {"move": move}
        case Claim.GAME_OVER:
            reason = "no_pieces" if found.reason is GameOverReason.NO_PIECES else "blocked"
            return f"{reason}_{side}", {}


def _priority_finding(verified: VerifiedDiagram) -> tuple[str, dict[str, FindingValue]]:
    legal = tuple(map(str, verified.legal_moves))
    rule = verified.deciding_rule
    if verified.claim is Claim.FREE_CHOICE or rule is None:
        # "both" for two captures; three or more tie as "all of them"
        return "free_choice" if len(legal) == 2 else "free_choice_many", {"moves": legal}
    if len(legal) == 1:
        return "priority", {"move": legal[0], "rule": rule.value}
    return "priority_many", {"moves": legal, "rule": rule.value}


def explain_rows(explanation: Explanation) -> tuple[ExplainRow, ...]:
    """Every candidate capture of the engine's explanation, as the pages' table shows it."""
    return tuple(
        ExplainRow(
            move=str(candidate.move),
            pieces=candidate.pieces_captured,
            by_king=candidate.by_king,
            kings=candidate.kings_captured,
            king_places=candidate.king_places,
            rejected_by=None if candidate.rejected_by is None else candidate.rejected_by.value,
        )
        for candidate in explanation.candidates
    )
