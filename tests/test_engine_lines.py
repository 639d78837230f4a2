"""The "Checked by the engine" line under a figure says what the engine checked, as a sentence.

The expected sentences are the fourth native review's wording (G4, G6, G15), worked
out by hand from the positions: they are not copied from the code's output.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from dama_diagrams.site.i18n import load_catalog
from dama_diagrams.site.pages.figures import engine_sentence, load_figures

from .conftest import ROOT

FIGURES = load_figures(ROOT)


@pytest.mark.parametrize(
    ("language", "wanted"),
    [
        ("en", "after 32-28 Black has no legal move, and has lost."),
        ("it", "dopo 32-28 il Nero non ha nessuna mossa regolare e ha perso."),
        ("es", "tras 32-28, las negras no tienen ninguna jugada válida y han perdido."),
    ],
)
def test_a_winning_exercise_vouches_for_the_win_not_only_for_legality(
    language: str, wanted: str
) -> None:
    """Exercise 12, W:W31,32:B24: after 32-28 the man on 24 can neither step to 28 nor jump it."""
    view = FIGURES["exercise-block-the-opponent"].view
    assert engine_sentence(view, load_catalog(ROOT, language)) == wanted


def test_a_compulsory_capture_names_what_it_is_one_of() -> None:
    """After 1. 22-18 11-14 2. 18x11 Black captures back with 6x15 or 7x14: two captures."""
    view = FIGURES["notation-example"].view
    assert engine_sentence(view, load_catalog(ROOT, "en")) == (
        "every legal move here is a capture, so a capture must be played; "
        "7x14 is one of the 2 possible captures."
    )


def test_a_crowning_capture_line_says_what_the_caption_says() -> None:
    view = FIGURES["promotion-ends-capture"].view
    line = engine_sentence(view, load_catalog(ROOT, "en"))
    assert line.endswith("although a king could go on capturing.")


def test_the_english_says_forwards_and_backwards_for_the_adverb() -> None:
    """Review F17: 'forwards'/'backwards' throughout; 'a backward capture' is an adjective."""
    with (ROOT / "docs/locales/messages.pot").open("rb") as file:
        english = [str(message.id) for message in read_po(file) if message.id]
    adverb = re.compile(r"\b(?:forward|backward)\b(?! capture)", re.IGNORECASE)
    assert [text for text in english if adverb.search(text)] == []
