"""Exercises on a page: the question, a board to answer on, and the answer behind a summary.

Everything the page's script needs is worked out here, at build time, in the
page's language: every try the reader may make with the engine's verdict on
it, the words the script says, and where each square sits on the picture.  The
script (``dama-exercises.js``) only compares the reader's squares with those
tries, so it needs no rules and no server.  Without JavaScript the question and
a "show the answer" section remain.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...diagram import VerifiedDiagram
from ...render.figure import exercise_squares
from ..i18n import Catalog, used_values
from ..i18n.safe_text import attribute_html, catalog_html, plain_html, text_of
from ..messages import MESSAGES

__all__ = [
    "ExerciseView",
    "TryView",
    "exercise_data",
    "exercise_html",
    "exercise_view",
    "progress_html",
]

UI_KEYS = (
    "board",
    "check",
    "undo",
    "again",
    "solved",
    "chosen",
    "landed",
    "go_on",
    "unreachable",
    "only_jump",
    "taken_back",
    "cleared",
)
"""The script's own words (``exercise.<key>``), with ``{square}``-style blanks it fills."""


@dataclass(frozen=True)
class TryView:
    """One try on the board and the verdict's message key (``exercise.<verdict>``)."""

    path: tuple[int, ...]
    capture: bool
    right: bool
    verdict: str
    values: Mapping[str, str]


@dataclass(frozen=True)
class ExerciseView:
    """The language-independent facts of one exercise."""

    question: str
    """The English question, from the file; the catalogs translate it."""
    side: str
    tries: tuple[TryView, ...]
    squares: tuple[tuple[int, tuple[float, float, float, float], str], ...]
    """Each square: its number, where it sits on the picture (left, top, width and
    height, in percent) and what stands on it (``empty``, ``white_man`` ...)."""


def exercise_view(verified: VerifiedDiagram) -> ExerciseView | None:
    """The exercise of a verified diagram; ``None`` when it is no exercise."""
    key, exercise = verified.exercise, verified.diagram.exercise
    if key is None or exercise is None:
        return None
    position = verified.diagram.position
    occupants = {
        square: f"{piece.color.value}_{'king' if piece.king else 'man'}"
        for square, piece in position.pieces().items()
    }
    squares = tuple(
        (square, box, occupants.get(square, "empty"))
        for square, box in sorted(exercise_squares(verified).items())
    )
    tries = tuple(
        TryView(each.move.squares, each.move.is_capture, each.right, each.verdict, each.values)
        for each in key.attempts
    )
    return ExerciseView(exercise.question, position.turn.value, tries, squares)


def exercise_data(view: ExerciseView, catalog: Catalog) -> dict[str, Any]:
    """What the page's script reads: tries with their verdicts, squares, and its words."""

    def plain(key: str, **values: str) -> str:
        """A message with its blanks filled, as plain text: the script writes it as text."""
        english = MESSAGES[f"exercise.{key}"]
        message = catalog.text(f"exercise.{key}", **used_values(english, values))
        return text_of(catalog_html(message, inline=True))

    return {
        "side": view.side,
        "tries": [
            {
                "path": list(each.path),
                "capture": each.capture,
                "right": each.right,
                "text": plain(each.verdict, **each.values),
            }
            for each in view.tries
        ],
        "squares": [
            {
                "square": square,
                "box": list(box),
                "piece": occupant,
                "label": plain(f"square_{occupant}", square=str(square)),
            }
            for square, box, occupant in view.squares
        ],
        "words": {key: _blank(catalog, key) for key in UI_KEYS}
        | {"choose": plain(f"choose_{view.side}")},
    }


def exercise_html(
    diagram_id: str,
    view: ExerciseView,
    catalog: Catalog,
    *,
    board: str,
    answer: str,
    playable: bool = True,
) -> str:
    """The exercise's block: question, board picture, and the answer in a ``<details>``.

    ``board`` is the Markdown of the board's picture; ``answer`` that of the
    diagram's figure, shown once the reader answers (or asks).  Only a
    ``playable`` exercise carries what the page's script needs to judge a try:
    a printed one has no script.
    """
    question = catalog_html(catalog.message(view.question), inline=True)
    summary = plain_html(catalog.text("exercise.show_answer"))
    script_data = ""
    if playable:
        data = json.dumps(exercise_data(view, catalog), ensure_ascii=False, sort_keys=True)
        script_data = f' data-exercise="{attribute_html(data)}"'
    return "\n".join(
        [
            f'<div class="dama-exercise" data-exercise-id="{diagram_id}"{script_data} markdown>',
            f'<p class="dama-exercise-question">{question}</p>',
            "",
            board,
            "",
            '<details class="dama-answer" markdown>',
            f"<summary>{summary}</summary>",
            "",
            answer,
            "",
            "</details>",
            "</div>",
        ]
    )


def progress_html(catalog: Catalog) -> str:
    """The line "Solved in this browser: 3 of 12", which the script fills and shows.

    Hidden without JavaScript: there is no progress to show then.  What the
    page offers without it is said instead, in a ``<noscript>``: the page's
    words about playing on the board sit in a ``dama-needs-script`` block,
    which the page hides then.
    """
    words = {key: _blank(catalog, key) for key in ("progress", "forget")}
    data = json.dumps(words, ensure_ascii=False, sort_keys=True)
    without = catalog_html(catalog.text("exercise.no_script"), inline=True)
    return (
        f'<noscript><p class="dama-exercise-no-script">{without}</p></noscript>\n'
        f'<div class="dama-exercise-progress" data-progress="{attribute_html(data)}" hidden></div>'
    )


def _blank(catalog: Catalog, key: str) -> str:
    """A message whose ``{placeholders}`` the script fills: kept as the catalog has them."""
    message = catalog.raw(MESSAGES[f"exercise.{key}"], f"exercise.{key}")
    return text_of(catalog_html(message, inline=True))
