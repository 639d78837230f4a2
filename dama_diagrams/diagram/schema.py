"""Diagram files: ``diagrams/<id>.yaml`` read safely and strictly into :class:`Diagram`.

A diagram file is small, hand-written and published, so the loader is strict: a
typo, a duplicate key or a value of the wrong type is an error, never a silent
default.  It is also safe: only plain YAML values are read (no tags that build
objects, no aliases that could expand into a bomb), and every error names the
file and the line of the YAML node it concerns, as ``path:line: message``.
The YAML reading itself is shared with the site, in :mod:`._yaml`.

The schema (documented for authors in ``diagrams/README.md``)::

    position: "W:WK21,31:B10,18,27"   # PDN FEN, or {turn: white, white: [K21, 31], black: [10]},
                                      # or {moves: [22-18, 11-14]}: played from the start
    claim: priority                   # setup | move | capture | multi-capture | illegal
                                      # | priority | free-choice | promotion | game-over
    move: 31x22x13x6                  # the move the diagram shows
    moves: [22-18, 22-19]             # several moves (claim move, or free-choice)
    rule: most-pieces                 # priority: most-pieces | with-king | most-kings | king-first
    rejected: [21x14x5]               # moves shown as not allowed (priority, capture)
    reason: backward                  # illegal: why the move is illegal; game-over: why it ended
    show: {numbers: marked, arrows: true, flip: false}   # display options, all optional
                                      # (also turn: true, steps: true)
    exercise: {ask: move, question: "White to play: which capture?"}   # optional:
                                      # the reader plays the answer on the site

Whether the claim holds is the business of :mod:`dama_diagrams.diagram.claims`; this
module only checks that the file is well formed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

from .._book_text import blank_problem, glyph_problem, is_blank
from .._files import open_project_file
from .._markdown_text import english_problem
from .._project import link_outside
from ..engine.legality import IllegalReason
from ..engine.move import Move
from ..engine.position import GameOverReason, Position
from ..engine.priority import PriorityRule
from ..errors import DiagramError
from ._reader import PositionReader, listed, suggest
from ._yaml import YamlError, YamlValue, compose_yaml, diagram_text
from .options import (
    _NO_MOVE_CLAIMS,
    _STEPS_CLAIMS,
    EXERCISE_KEYS,
    SHOW_KEYS,
    Ask,
    Claim,
    Exercise,
    Numbers,
    Show,
    _has_steps,
    show_options,
)

MAX_FILE_BYTES = 64 * 1024
"""A diagram file is a few lines; anything this large is a mistake or an attack."""

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")


# == The schema ===============================================================


KEYS = (
    "position",
    "claim",
    "move",
    "moves",
    "rule",
    "rejected",
    "reason",
    "show",
    "title",
    "caption",
    "exercise",
)
"""Every key a diagram file may have, in the order the files write them."""

_CLAIM_KEYS: dict[Claim, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # claim: (required keys, optional keys), besides position, claim and show
    Claim.SETUP: ((), ()),
    Claim.MOVE: ((), ("move", "moves")),  # exactly one of the two
    Claim.CAPTURE: (("move",), ("rejected",)),
    Claim.MULTI_CAPTURE: (("move",), ()),
    Claim.ILLEGAL: (("move", "reason"), ()),
    Claim.PRIORITY: (("move", "rule", "rejected"), ()),
    Claim.FREE_CHOICE: (("moves",), ()),
    Claim.PROMOTION: (("move",), ()),
    Claim.GAME_OVER: (("reason",), ()),
}

_HOW_TO_ADD = {
    "move": "add move: with the move in notation, as 22-19 or 29x22x15",
    "moves": "add moves: [...] with every legal capture, as [31x22x13, 31x24x15]",
    "rule": "add rule: most-pieces, with-king, most-kings or king-first",
    "rejected": "add rejected: [...] with the captures that the priority rules forbid",
    "position": 'add position: with a FEN such as "W:W21-32:B1-12"',
    "exercise.ask": "add ask: move (the one allowed move), any-move (any allowed move) "
    "or win (a move that leaves the opponent no move)",
    "exercise.question": 'add question: "White to play: which capture must White make?"',
    "claim": "add claim: setup, move, capture, multi-capture, illegal, priority, "
    "free-choice, promotion or game-over",
}

_CLAIM_NAMES = tuple(claim.value for claim in Claim)
_RULE_NAMES = tuple(rule.value for rule in PriorityRule)
_GAME_OVER_REASONS = tuple(reason.value for reason in GameOverReason)
_ILLEGAL_REASONS = tuple(reason.value for reason in IllegalReason)
_ASKS = tuple(ask.value for ask in Ask)

Reason: TypeAlias = IllegalReason | GameOverReason


@dataclass(frozen=True, slots=True)
class Diagram:
    """A well-formed diagram file, not yet checked by the engine.

    ``lines`` maps a key (``"move"``, ``"rejected"``, ``"rejected[1]"``,
    ``"position"``, ``"white[2]"`` ...) to its line in the file, so that the
    verifier can point at the node a refused claim is about.
    """

    id: str
    path: str
    position: Position
    claim: Claim
    move: Move | None = None
    moves: tuple[Move, ...] = ()
    rule: PriorityRule | None = None
    rejected: tuple[Move, ...] = ()
    reason: Reason | None = None
    show: Show = field(default_factory=Show)
    title: str | None = None
    """The English title, for the site; translations live in the PO catalogs."""
    caption: str | None = None
    """The English caption; may hold Markdown and named placeholders such as ``{move}``."""
    history: tuple[Move, ...] = ()
    """The moves from the starting position that lead to ``position``, when the file gives them."""
    exercise: Exercise | None = None
    """The question the site asks about the position, when the diagram is an exercise."""
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)

    @property
    def steps(self) -> bool:
        """Whether a page may step through the capture: it takes two or more pieces."""
        return self.show.steps and (_has_steps(self.claim, self.move) or self.game_steps)

    @property
    def game_steps(self) -> bool:
        """A setup reached by moves from the start (or a game): its steps are those moves."""
        return self.claim is Claim.SETUP and bool(self.history)

    def line(self, key: str) -> int:
        """The line of ``key``; an item falls back to its list, anything to line 1."""
        if key in self.lines:
            return self.lines[key]
        return self.lines.get(key.split("[", maxsplit=1)[0], self.lines.get("claim", 1))

    def error(self, key: str, message: str) -> DiagramError:
        """An error located at ``key``'s line in this diagram's file."""
        return DiagramError(message, path=self.path, line=self.line(key))

    def book_warnings(self) -> list[DiagramError]:
        """A warning for each text the printed book cannot set whole, at its line.

        The book shows the replacement character for a character its fonts lack
        (:func:`.._book_text.glyph_problem`); ``verify`` says so before any build.
        """
        question = self.exercise.question if self.exercise is not None else None
        texts = (("title", self.title), ("caption", self.caption), ("exercise.question", question))
        return [
            self.error(key, f"the {key.rpartition('.')[2]} {problem}; write it another way")
            for key, text in texts
            if text is not None and (problem := glyph_problem(text)) is not None
        ]


def load_diagram(path: Path | str) -> Diagram:
    """Read and check one diagram file.

    Raises :class:`DamaError` (a :class:`DiagramError`, or the engine's
    :class:`PositionError` / :class:`MoveNotationError`), always with the path
    and the line of the node it concerns.
    """
    name = str(path)
    outside = link_outside(Path(path))
    if outside is not None:
        # Nothing outside the project is read, published or quoted (as for game files).
        raise DiagramError(
            f"is a symbolic link to a file outside {outside}; "
            f"keep diagram files inside {outside} (copy the file in)",
            path=name,
        )
    # the one door: a folder, a FIFO or a device is refused, never waited on
    with open_project_file(Path(path), name, DiagramError) as file:
        data = file.read(MAX_FILE_BYTES + 1)  # more is refused at line 1, by diagram_text
    return parse_diagram(data, name)


def parse_diagram(
    data: bytes,
    path: str,
    *,
    libyaml: bool | None = None,
    id: str | None = None,
    base: Path | None = None,
    games: str | None = None,
) -> Diagram:
    """Check the bytes of a diagram file; ``path`` names it (its stem is the id, unless ``id``).

    A diagram written in a Markdown page names the page as its ``path``,
    brings its own ``id`` and reads the games it names from ``base``, the
    site's folder (:mod:`.markdown`); else from the project ``path`` is in.
    ``games``, when given, is why no game may be read at all.
    """
    _check_id(path if id is None else f"{id}.yaml")
    try:
        root = compose_yaml(diagram_text(data, MAX_FILE_BYTES), libyaml=libyaml)
    except YamlError as problem:
        raise DiagramError(problem.message, path=path, line=problem.line) from None
    return _Reader(path, id, base, games).diagram(root)


def diagram_from_yaml(
    text: str, *, id: str = "diagram", name: str = "<string>", base: str | Path | None = None
) -> Diagram:
    """A diagram from the text of a diagram file, in a notebook or a script: no file needed.

    ``id`` names it (lowercase letters, digits and '-'); ``name`` stands for the
    file in messages; ``base`` is the folder ``position: {game: ...}`` reads
    games from, which no name may leave (without it, games are refused: a
    text may come from anyone).  Errors are those of :func:`load_diagram`, at
    their line of ``text``: ``<string>:3: unknown key 'captoin': did you mean
    'caption'? …``.
    """
    if not ID_PATTERN.fullmatch(id):
        raise DiagramError(
            f"id={id!r} is no diagram id: use lowercase letters, digits and '-'", path=name
        )
    if base is None:
        games = "a game is read from a folder: give it, as diagram_from_yaml(text, base=...)"
        return parse_diagram(text.encode("utf-8"), name, id=id, games=games)
    return parse_diagram(text.encode("utf-8"), name, id=id, base=Path(base))


def diagram_id(path: str) -> str:
    """The id a file's name gives: its name without folder and extension."""
    return os.path.splitext(os.path.basename(path))[0]


def _check_id(path: str) -> None:
    stem = diagram_id(path)
    if not ID_PATTERN.fullmatch(stem):
        raise DiagramError(
            f"{stem!r} is not a valid diagram id: the file name is the id, and it is made of "
            "lowercase letters, digits and '-' (rename it, for example to man-capture.yaml)",
            path=path,
            line=1,
        )


class _Reader(PositionReader):
    """Turns the located YAML of one file into a Diagram, one key at a time."""

    def __init__(
        self,
        path: str,
        id: str | None = None,
        base: Path | None = None,
        games: str | None = None,
    ):
        super().__init__(path)
        self.id = diagram_id(path) if id is None else id
        self.base = base
        self.games = games

    def diagram(self, root: YamlValue | None) -> Diagram:
        if root is None or root.data is None:
            raise self.fail(1, "the file is empty; a diagram needs at least position: and claim:")
        if not isinstance(root.data, dict):
            raise self.fail(
                root.line,
                f"the file is {root.type_name}, but a diagram file is a mapping of keys "
                "such as position: and claim:",
            )
        entries = root.data
        self.lines.update((key, value.line) for key, value in entries.items())
        self.refuse_unknown(
            entries,
            KEYS,
            lambda key: (
                f"unknown key {key!r}: {suggest(key, KEYS)}a diagram file takes {listed(KEYS)}"
            ),
        )
        self.require(
            entries,
            ("claim", "position"),
            root.line,
            lambda key: f"the key {key!r} is missing: {_HOW_TO_ADD[key]}",
        )
        claim = self.claim(entries["claim"])
        position, history = self.position(entries["position"])
        self.check_claim_keys(claim, entries)
        moves = self.move_list(entries["moves"], "moves") if "moves" in entries else ()
        rejected = self.move_list(entries["rejected"], "rejected") if "rejected" in entries else ()
        move = self.move(entries["move"], "move") if "move" in entries else None
        if move is not None and move in rejected:
            raise self.fail(self.lines["rejected"], f"{move} is both the move and rejected")
        rule = self.rule(entries["rule"]) if "rule" in entries else None
        reason = self.reason(claim, entries["reason"]) if "reason" in entries else None
        show = self.show(entries["show"]) if "show" in entries else Show()
        # Only now, with the claim and the move read whatever their order in the file.
        self.check_show(claim, move, show, played=bool(history))
        return Diagram(
            id=self.id,
            path=self.path,
            position=position,
            claim=claim,
            move=move,
            moves=moves,
            rule=rule,
            rejected=rejected,
            reason=reason,
            show=show,
            title=self.words(entries["title"], "title") if "title" in entries else None,
            caption=self.words(entries["caption"], "caption") if "caption" in entries else None,
            history=history,
            exercise=self.exercise(entries["exercise"]) if "exercise" in entries else None,
            lines=self.lines,
        )

    # -- the claim and its keys ----------------------------------------------

    def one_of(
        self, value: YamlValue, key: str, names: tuple[str, ...], listing: str, context: str = ""
    ) -> str:
        """A word from ``names``; otherwise the nearest name, then all of them."""
        word = self.text(value, f"{key} must be one of {listed(names)}")
        if word not in names:
            raise self.fail(
                value.line,
                f"unknown {key} {word!r}{context}: {suggest(word, names)}{listing} {listed(names)}",
            )
        return word

    def words(self, value: YamlValue, key: str) -> str:
        """A text for readers (title, caption, question): a string with something in it.

        It goes into Markdown on every page that shows it, so the limits of any
        such text bind it (:func:`.english_problem`): length, ``[``, nesting,
        control and bidi characters.  One that shows nothing (U+2028, U+3000,
        a zero-width space) is refused as an empty one is: a page and the book
        would have an empty heading or caption.
        """
        if not isinstance(value.data, str) or is_blank(value.data):
            shown = "empty" if isinstance(value.data, str) else value.type_name
            if isinstance(value.data, str) and value.data.strip():  # U+200B, U+3164...
                shown = f"blank text (it {blank_problem(value.data).removeprefix('is blank: it ')})"
            raise self.fail(
                value.line, f'{key} must be English text in quotes, not {shown}: {key}: "…"'
            )
        problem = english_problem(value.data.strip())
        if problem is not None:
            raise self.fail(value.line, f"{key} {problem}")
        return value.data.strip()

    def claim(self, value: YamlValue) -> Claim:
        return Claim(self.one_of(value, "claim", _CLAIM_NAMES, "the claims are"))

    def check_claim_keys(self, claim: Claim, entries: dict[str, YamlValue]) -> None:
        required, optional = _CLAIM_KEYS[claim]
        allowed = (
            *("position", "claim", "show", "title", "caption", "exercise"),
            *required,
            *optional,
        )
        takes = listed(required + optional) if required + optional else "no other key"
        self.refuse_unknown(
            entries,
            allowed,
            lambda key: (
                f"{key!r} does not belong in {_a(claim)} claim, which takes {takes}; "
                "remove it or change the claim"
            ),
        )
        self.require(
            entries,
            required,
            entries["claim"].line,
            lambda key: f"{_a(claim)} claim needs {key!r}: {self.how_to_add(claim, key)}",
        )
        if claim is Claim.MOVE and ("move" in entries) == ("moves" in entries):
            line = entries["moves"].line if "moves" in entries else entries["claim"].line
            raise self.fail(
                line,
                "a move claim shows either one move (move: 22-18) or several "
                "(moves: [22-18, 22-19]); give exactly one of the two",
            )

    @staticmethod
    def how_to_add(claim: Claim, key: str) -> str:
        if key == "reason":
            reasons = _reasons(claim)
            return f"add reason: {listed(reasons)}"
        return _HOW_TO_ADD[key]

    # -- moves, rule and reason -----------------------------------------------

    def move_list(self, value: YamlValue, key: str) -> tuple[Move, ...]:
        items = value.data
        if not isinstance(items, list) or not items:
            found = "an empty list" if isinstance(items, list) else value.type_name
            raise self.fail(
                value.line, f"{key} must be a list of moves, such as [22-18, 22-19], not {found}"
            )
        moves: list[Move] = []
        for index, item in enumerate(items):
            move = self.move(item, f"{key}[{index}]")
            if move in moves:
                raise self.fail(item.line, f"{move} is listed twice under {key}")
            moves.append(move)
        return tuple(moves)

    def rule(self, value: YamlValue) -> PriorityRule:
        listing = "the priority rules are, in order,"
        return PriorityRule(self.one_of(value, "rule", _RULE_NAMES, listing))

    def reason(self, claim: Claim, value: YamlValue) -> Reason:
        context = f" for {_a(claim)} claim"
        word = self.one_of(value, "reason", _reasons(claim), "the reasons are", context)
        if claim is Claim.GAME_OVER:
            return GameOverReason(word)
        return IllegalReason(word)

    def nested(
        self,
        value: YamlValue,
        key: str,
        keys: tuple[str, ...],
        example: str,
        names: str,
        takes: str,
    ) -> dict[str, YamlValue]:
        """A mapping under ``key`` (``show:``, ``exercise:``) whose own keys are ``keys``.

        Its keys' lines are kept as ``key.name``, for errors about them later.
        """
        if not isinstance(value.data, dict):
            raise self.fail(
                value.line, f"{key} must be a mapping such as {example}, not {value.type_name}"
            )
        entries = value.data
        self.lines.update((f"{key}.{name}", entry.line) for name, entry in entries.items())
        self.refuse_unknown(
            entries,
            keys,
            lambda name: f"unknown {names} {name!r}: {suggest(name, keys)}{takes} {listed(keys)}",
        )
        return entries

    def exercise(self, value: YamlValue) -> Exercise:
        example = '{ask: move, question: "White to play: which capture?"}'
        entries = self.nested(
            value, "exercise", EXERCISE_KEYS, example, "exercise key", "an exercise takes"
        )
        self.require(
            entries,
            EXERCISE_KEYS,
            value.line,
            lambda key: f"the exercise needs {key!r}: {_HOW_TO_ADD[f'exercise.{key}']}",
        )
        listing = "an exercise asks for"
        ask = Ask(self.one_of(entries["ask"], "ask", _ASKS, listing))
        return Exercise(ask, self.words(entries["question"], "question"))

    # -- display options --------------------------------------------------------

    def show(self, value: YamlValue) -> Show:
        options = self.nested(
            value, "show", SHOW_KEYS, "{numbers: all}", "display option", "show takes"
        )
        defaults = Show()
        return Show(
            numbers=self.numbers(options["numbers"]) if "numbers" in options else defaults.numbers,
            arrows=self.flag(options, "arrows", defaults.arrows),
            flip=self.flag(options, "flip", defaults.flip),
            turn=self.flag(options, "turn", defaults.turn),
            steps=self.flag(options, "steps", defaults.steps),
        )

    def check_show(
        self, claim: Claim, move: Move | None, show: Show, *, played: bool = False
    ) -> None:
        """Fail at the first ``show`` option, in file order, that does not apply to the claim.

        ``played``: the position is reached by moves from the start, which a setup
        claim may step through.
        """
        setup_played = claim is Claim.SETUP
        given = [key.removeprefix("show.") for key in self.lines if key.startswith("show.")]
        takes = ", ".join(show_options(claim, move))
        for key in given:
            line = self.lines[f"show.{key}"]
            if key == "arrows" and claim in _NO_MOVE_CLAIMS:
                raise self.fail(
                    line,
                    f"show.arrows does not apply to {_a(claim)} claim: it draws no move. "
                    f"Remove it; {_a(claim)} claim takes show: {takes}",
                )
            if key == "numbers" and show.numbers == "marked" and claim in _NO_MOVE_CLAIMS:
                raise self.fail(
                    line,
                    f"show.numbers: marked does not apply to {_a(claim)} claim: it shows no "
                    "move, so no square is marked. Use numbers: all for the 32 numbers, "
                    "or numbers: none",
                )
            if key == "steps" and not (_has_steps(claim, move) or (setup_played and played)):
                raise self.fail(line, self.no_steps(claim, move, takes))

    @staticmethod
    def no_steps(claim: Claim, move: Move | None, takes: str) -> str:
        """Why ``show.steps`` does not apply: the claim, or the move it shows."""
        steps = "steps go through a capture of two or more pieces (as 31x24x15x8)"
        if claim not in _STEPS_CLAIMS or move is None:
            return (
                f"show.steps does not apply to {_a(claim)} claim: {steps} that a "
                f"{listed(tuple(each.value for each in _STEPS_CLAIMS))} claim shows. "
                f"Remove it; {_a(claim)} claim takes show: {takes}"
            )
        what = "captures only one piece" if move.is_capture else "is not a capture"
        return (
            f"show.steps does not apply to {move}: it {what}, and {steps}. "
            f"Remove it; with {move}, {_a(claim)} claim takes show: {takes}"
        )

    def numbers(self, value: YamlValue) -> Numbers:
        data = value.data
        if data is True or data == "all":
            return "all"
        if data is False or data == "none":
            return "none"
        if data == "marked":
            return "marked"
        raise self.fail(
            value.line,
            f"numbers must be all, marked or none (or true/false), not {data!r}",
        )

    def flag(self, options: dict[str, YamlValue], key: str, default: bool) -> bool:
        if key not in options:
            return default
        value = options[key]
        if not isinstance(value.data, bool):
            raise self.fail(value.line, f"{key} must be true or false, not {value.data!r}")
        return value.data


def _a(claim: Claim) -> str:
    """'a priority', 'an illegal': the claim's name with its article."""
    return f"{'an' if claim.value[0] in 'aeiou' else 'a'} {claim.value}"


def _reasons(claim: Claim) -> tuple[str, ...]:
    return _GAME_OVER_REASONS if claim is Claim.GAME_OVER else _ILLEGAL_REASONS
