"""Exercises in Debian's headless Chromium: answered right and wrong, by mouse and keyboard.

The worked examples, checked by hand on the board:

- ``exercise-rule-most-pieces`` (W:W30,K24:B18,20,26): the man on 30 takes 26
  and 18 (30x21x14, two pieces); the king on 24 takes only 20 (24x15, one
  piece), so rule 1 rules the king's capture out.
- ``exercise-capture-compulsory`` (W:W23,29,30:B12,19): 23x14 takes the man on
  19, and every other move is forbidden.

The arrow keys move over the dark squares as drawn: from 23 (row 6, column 6
counted from 1), ArrowUp reaches 19 or 20 and keeps nearest the starting
column (a tie goes left: 19), ArrowUp again reaches 15, ArrowLeft then 14.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.site.i18n import load_catalog
from tests.conftest import PageOpener
from tests.test_browser_site import LANGUAGES

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
RULE_1 = '[data-exercise-id="exercise-rule-most-pieces"]'
COMPULSORY = '[data-exercise-id="exercise-capture-compulsory"]'
WRONG_EN = (
    "Not allowed: 30x21x14 takes more pieces than 24x15 (2 against 1), "
    "and the capture of the most pieces comes first (rule 1)."
)
RIGHT_EN = "Right: 30x21x14 is the only move the rules allow."


DESKTOP = {"width": 1280, "height": 900}


def _open(
    new_page: PageOpener, site_url: str, language: str = "en", viewport: dict[str, int] = DESKTOP
) -> Any:
    """The exercises page in a fresh page: its own localStorage, its script errors kept."""
    page = new_page(viewport=viewport)
    page.goto(f"{site_url}/{language}/exercises/")
    page.wait_for_selector(".dama-exercise-grid")
    page.errors = new_page.errors
    return page


def _expected(language: str, key: str, **values: str) -> str:
    """The catalog's sentence with the hand-worked values (the page must show exactly this)."""
    return load_catalog(ROOT, language).text(f"exercise.{key}", **values)


def _click(exercise: Any, *squares: int) -> None:
    for square in squares:
        exercise.locator(f'[data-square="{square}"]').click()


@pytest.mark.parametrize("language", LANGUAGES)
def test_mouse_wrong_then_right_with_the_explanation(
    new_page: PageOpener, site_url: str, language: str, shots: Path
) -> None:
    page = _open(new_page, site_url, language)
    exercise = page.locator(RULE_1)
    answer = exercise.locator("details.dama-answer")
    assert not answer.evaluate("details => details.open")

    _click(exercise, 24, 15)
    verdict = exercise.locator(".dama-exercise-verdict")
    wrong = _expected(
        language, "wrong_most_pieces", move="24x15", best="30x21x14", count="1", best_count="2"
    )
    assert verdict.text_content() == wrong
    if language == "en":
        assert wrong == WRONG_EN
    assert "is-wrong" in (verdict.get_attribute("class") or "")
    # The answer stays closed: the reader tries again first.
    assert not answer.evaluate("details => details.open")
    exercise.screenshot(path=str(shots / f"exercise-wrong-{language}.png"))

    exercise.get_by_role("button", name=_expected(language, "again")).click()
    assert verdict.text_content() == ""
    _click(exercise, 30, 21)
    status = exercise.locator(".dama-exercise-status").text_content() or ""
    assert "21" in status and "30x21" in status
    _click(exercise, 14)
    right = _expected(language, "right_move", move="30x21x14")
    assert verdict.text_content() == right
    if language == "en":
        assert right == RIGHT_EN
    # Right: the answer opens, with the step controls of the capture.
    assert answer.evaluate("details => details.open")
    assert answer.locator(".dama-steps button").count() == 4
    assert exercise.locator(".dama-exercise-solved").is_visible()
    exercise.screenshot(path=str(shots / f"exercise-right-{language}.png"))
    assert page.errors == []


def test_keyboard_right_and_wrong(new_page: PageOpener, site_url: str) -> None:
    page = _open(new_page, site_url)
    exercise = page.locator(COMPULSORY)
    verdict = exercise.locator(".dama-exercise-verdict")
    first = exercise.locator('.dama-exercise-square[tabindex="0"]')
    assert first.get_attribute("data-square") == "23"  # White's first piece
    first.focus()

    def focused() -> str:
        return str(page.evaluate("document.activeElement.getAttribute('data-square')"))

    page.keyboard.press("Enter")
    assert focused() == "23"
    assert exercise.locator('[data-square="23"]').get_attribute("aria-pressed") == "true"
    for key, square in (("ArrowUp", "19"), ("ArrowUp", "15"), ("ArrowLeft", "14")):
        page.keyboard.press(key)
        assert focused() == square, key
    page.keyboard.press("Enter")
    assert verdict.text_content() == "Right: 23x14 is the only move the rules allow."

    # Escape starts again; then a quiet move while a capture is possible.
    page.keyboard.press("Escape")
    assert verdict.text_content() == ""
    walk = (
        ("ArrowDown", "18"),  # from 14: 18 and 19 are as near; a tie goes left
        ("ArrowRight", "19"),
        ("ArrowDown", "22"),
        ("ArrowRight", "23"),
        ("Enter", "23"),
        ("ArrowUp", "19"),
        ("ArrowRight", "20"),
    )
    for key, square in walk:
        page.keyboard.press(key)
        assert focused() == square, key
    page.keyboard.press("Enter")
    assert verdict.text_content() == (
        "Not allowed: capturing is compulsory, and 23x14 is a capture."
    )
    assert page.errors == []


def test_escape_takes_back_and_every_step_is_announced(new_page: PageOpener, site_url: str) -> None:
    page = _open(new_page, site_url)
    exercise = page.locator(COMPULSORY)
    status = exercise.locator(".dama-exercise-status")
    assert status.get_attribute("aria-live") == "polite"
    assert exercise.locator(".dama-exercise-verdict").get_attribute("role") == "status"
    grid = exercise.locator(".dama-exercise-grid")
    assert grid.get_attribute("role") == "group"
    assert grid.get_attribute("aria-label") == (
        "Board of the exercise: choose a piece, then where it lands"
    )
    assert exercise.locator('[data-square="19"]').get_attribute("aria-label") == "19, black man"
    assert exercise.locator('[data-square="23"]').get_attribute("aria-label") == "23, white man"
    assert exercise.locator('[data-square="14"]').get_attribute("aria-label") == "14, empty"

    _click(exercise, 19)
    assert status.text_content() == "Choose one of White's pieces: White is to play."
    _click(exercise, 23)
    assert status.text_content() == "The piece on 23 is chosen. Now choose where it lands."
    _click(exercise, 11)
    assert status.text_content() == (
        "The piece cannot reach 11 from 23: it steps one square diagonally, "
        "or jumps over an opposing piece."
    )
    exercise.locator('[data-square="23"]').press("Escape")
    assert status.text_content() == "Nothing is chosen."
    assert exercise.locator('[aria-pressed="true"]').count() == 0


def test_progress_is_kept_in_this_browser_only(new_page: PageOpener, site_url: str) -> None:
    page = _open(new_page, site_url)
    requests: list[str] = []

    def sent(request: Any) -> None:
        requests.append(request.url)

    page.on("request", sent)
    exercise = page.locator(COMPULSORY)
    assert not exercise.locator(".dama-exercise-solved").is_visible()
    _click(exercise, 23, 14)
    assert [url for url in requests if not url.startswith(site_url)] == []
    stored = page.evaluate("window.localStorage.getItem('dama-diagrams:solved-exercises')")
    assert json.loads(stored) == {"exercise-capture-compulsory": True}
    page.reload()
    page.wait_for_selector(".dama-exercise-grid")
    assert page.locator(COMPULSORY).locator(".dama-exercise-solved").is_visible()
    assert not page.locator(RULE_1).locator(".dama-exercise-solved").is_visible()
    progress = page.locator(".dama-exercise-progress")
    total = len(list((ROOT / "diagrams").glob("exercise-*.yaml")))
    assert progress.text_content() == f"Solved in this browser: 1 of {total}.Forget my progress"

    progress.get_by_role("button", name="Forget my progress").click()
    assert progress.locator(".dama-exercise-progress-text").text_content() == (
        f"Solved in this browser: 0 of {total}."
    )
    assert not page.locator(COMPULSORY).locator(".dama-exercise-solved").is_visible()
    stored = page.evaluate("window.localStorage.getItem('dama-diagrams:solved-exercises')")
    assert json.loads(stored) == {}
    page.remove_listener("request", sent)


def test_without_javascript_the_question_and_the_answer_remain(browser: Any, site_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site_url}/en/exercises/")
        exercise = page.locator(RULE_1)
        assert (exercise.locator(".dama-exercise-question").text_content() or "").startswith(
            "White to play. The man and the king can both capture."
        )
        assert exercise.locator(".dama-exercise-grid").count() == 0
        assert not page.locator(".dama-exercise-progress").is_visible()
        assert exercise.locator("img.dama-exercise-board").is_visible()
        summary = exercise.locator("details.dama-answer summary")
        assert summary.text_content() == "Show the answer"
        summary.click()
        assert exercise.locator(
            "figure#figure-exercise-rule-most-pieces img.dama-board"
        ).is_visible()
        # The intro says what the page can do without a script, not how to play on the board.
        assert not page.get_by_text("Choose a piece on the board").is_visible()
        assert not page.get_by_text("the arrow keys move over the board").is_visible()
        without = page.locator(".dama-exercise-no-script")
        assert without.is_visible()
        assert "“Show the answer”" in (without.text_content() or "")
    finally:
        context.close()


def test_the_squares_sit_on_the_picture_at_phone_width(new_page: PageOpener, site_url: str) -> None:
    """At 390 px the buttons still cover their squares: 24's centre is at (780, 580) of 860."""
    page = _open(new_page, site_url, viewport={"width": 390, "height": 844})
    exercise = page.locator(RULE_1)
    image = exercise.locator("img.dama-exercise-board").bounding_box()
    square = exercise.locator('[data-square="24"]').bounding_box()
    assert image is not None and square is not None
    assert image["width"] <= 390
    centre_x = square["x"] + square["width"] / 2
    centre_y = square["y"] + square["height"] / 2
    assert abs(centre_x - (image["x"] + image["width"] * 780 / 860)) < 1
    assert abs(centre_y - (image["y"] + image["height"] * 580 / 860)) < 1
    assert abs(square["width"] - image["width"] * 100 / 860) < 1


def test_a_capture_that_could_go_on_is_checked_and_focus_stays_in_the_exercise(
    new_page: PageOpener, site_url: str
) -> None:
    """10x3 crowns the man on 3, which ends the move; 10x3x12 would go on as a king."""
    page = _open(new_page, site_url)
    exercise = page.locator('[data-exercise-id="exercise-crowned-and-stopped"]')
    verdict = exercise.locator(".dama-exercise-verdict")
    check = exercise.get_by_role("button", name="Check")
    assert check.is_disabled()
    _click(exercise, 10, 3)
    assert verdict.text_content() == ""
    assert exercise.locator(".dama-exercise-status").text_content() == (
        "It lands on 3: 10x3. Choose the next landing square, or press Check."
    )
    _click(exercise, 12)
    assert verdict.text_content() == (
        "Not allowed: the man is crowned on 3, and that ends the move."
    )
    # Wrong: the verdict says why, the answer stays closed, and "Try again" comes
    # first, with the keyboard on it; "Show the answer" is still there to open.
    answer = exercise.locator("details.dama-answer")
    assert not answer.evaluate("details => details.open")
    again = exercise.get_by_role("button", name="Try again")
    assert again.is_visible()
    assert page.evaluate("document.activeElement.textContent") == "Try again"
    summary = answer.locator("summary")
    assert summary.is_visible() and summary.text_content() == "Show the answer"
    following = again.evaluate(
        "(button, summary) => Boolean(button.compareDocumentPosition(summary) & 4)",
        summary.element_handle(),
    )
    assert following  # Node.DOCUMENT_POSITION_FOLLOWING: the summary comes after the button

    again.click()
    assert not answer.evaluate("details => details.open")
    _click(exercise, 10, 3)
    check.focus()
    page.keyboard.press("Enter")
    assert verdict.text_content() == "Right: 10x3 is the only move the rules allow."
    # Check is disabled now; the keyboard is on "Try again", not lost on the page.
    assert page.evaluate("document.activeElement.textContent") == "Try again"

    page.keyboard.press("Enter")  # try again
    assert page.evaluate("document.activeElement.getAttribute('data-square')") is not None
    _click(exercise, 10)
    undo = exercise.get_by_role("button", name="Undo")
    undo.focus()
    page.keyboard.press("Enter")
    assert undo.is_disabled()
    assert page.evaluate("document.activeElement.getAttribute('data-square')") == "10"


def test_mid_capture_a_step_is_refused_and_another_piece_can_be_chosen(
    new_page: PageOpener, site_url: str
) -> None:
    page = _open(new_page, site_url)
    exercise = page.locator(RULE_1)
    status = exercise.locator(".dama-exercise-status")
    _click(exercise, 30, 21, 17)  # 17 is one step from 21, but after a jump only a jump goes on
    assert status.text_content() == (
        "The piece cannot reach 17 from 21: after a jump, it can only jump again, "
        "over an opposing piece."
    )
    _click(exercise, 24)  # White's king: the reader switches pieces
    assert status.text_content() == "The piece on 24 is chosen. Now choose where it lands."
    pressed = exercise.locator('[aria-pressed="true"]')
    assert [pressed.nth(n).get_attribute("data-square") for n in range(pressed.count())] == ["24"]


def test_the_arrow_keys_start_from_a_clicked_square(new_page: PageOpener, site_url: str) -> None:
    """29 is in the second column (counting from 1 at the left); up from it are 25 and 26."""
    page = _open(new_page, site_url)
    exercise = page.locator(COMPULSORY)
    _click(exercise, 29)
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.getAttribute('data-square')") == "25"


def test_the_same_words_twice_are_announced_twice(new_page: PageOpener, site_url: str) -> None:
    """A live region only speaks when its text changes: it empties first, then speaks again."""
    page = _open(new_page, site_url)
    exercise = page.locator(COMPULSORY)
    exercise.locator(".dama-exercise-status").evaluate(
        """status => {
            window.heard = [];
            new MutationObserver(() => window.heard.push(status.textContent))
                .observe(status, {childList: true, characterData: true, subtree: true});
        }"""
    )
    _click(exercise, 19, 19)  # Black's man, twice: not a piece White may choose
    page.wait_for_function("window.heard.length >= 3")
    choose = "Choose one of White's pieces: White is to play."
    assert page.evaluate("window.heard") == [choose, "", choose]
