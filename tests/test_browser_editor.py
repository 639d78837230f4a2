"""The board editor in a real Chromium: an author makes the rule 4 diagram, by mouse and by keys.

One editor serves the module, on a small copy of the project.  The position is
FID Art. 6.9 (ordering), set up square by square as an author would; the FID
rules say which capture is legal (30x21x14x5) and which rule decides (rule 4,
king met first), and ``verify`` must accept what the editor saved.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.diagram import verify_paths
from dama_diagrams.diagram.captions import CAPTION_PLACEHOLDERS
from tests.conftest import PageOpener
from tests.test_browser_accessibility import _findings
from tests.test_editor_api import serving, small_project

pytestmark = pytest.mark.slow

RULE_4_PIECES = {30: "white king", 10: "black man", 12: "black man", 18: "black man"}
RULE_4_PIECES |= {27: "black man", 20: "black king", 26: "black king"}
CYCLE = ["empty", "white man", "white king", "black man", "black king"]
"""What a click puts on an empty square, in turn: how many clicks each piece takes."""


@pytest.fixture(scope="module")
def editor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    project = small_project(tmp_path_factory.mktemp("editor-browser"))
    with serving(project) as port:
        yield f"http://127.0.0.1:{port}/", project


def show_rule_4_capture(page: Any) -> None:
    """The rule 4 position typed in, its capture chosen: the page at its fullest."""
    page.fill("#fen", "W:WK30:B10,12,18,K20,K26,27")
    page.click("#fen-form button")
    page.locator("#moves button", has_text="30x21x14x5").click()
    page.wait_for_function(
        "() => document.querySelector('#chosen').textContent.includes('30x21x14x5')"
    )


@pytest.fixture
def page(new_page: PageOpener, editor: tuple[str, Path]) -> Iterator[Any]:
    opened = new_page(viewport={"width": 1280, "height": 900})
    opened.goto(editor[0])
    opened.wait_for_selector("#moves button")  # the start position, analysed
    yield opened
    assert new_page.errors == []


def square(page: Any, number: int) -> Any:
    return page.locator(f'[data-square="{number}"]')


def wait_for_piece(page: Any, number: int, content: str) -> None:
    page.wait_for_function(
        '([n, label]) => document.querySelector(`[data-square="${n}"]`)'
        ".getAttribute('aria-label') === `square ${n}, ${label}`",
        arg=[number, content],
    )


def empty_board(page: Any) -> None:
    page.click("#empty-board")
    page.wait_for_function("() => document.querySelector('#fen').value === 'W:W:B'")


def finish_and_save(page: Any, name: str) -> None:
    """Choose the priority claim, words and a name, then save; the page says it saved."""
    label = page.locator("#claim option", has_text="priority").first.text_content()
    page.select_option("#claim", label=label)
    page.fill("#title", "Rule 4: king met first")
    page.fill("#caption", "{move} meets its king sooner than {rejected}.")
    page.fill("#name", name)
    page.click("#save")
    page.wait_for_selector("#save-result:not(:empty)")


def test_the_rule_4_diagram_set_up_by_clicks(page: Any, editor: tuple[str, Path]) -> None:
    empty_board(page)
    for number, content in RULE_4_PIECES.items():
        for _ in range(CYCLE.index(content)):
            square(page, number).click()
            page.wait_for_timeout(0)
            page.wait_for_load_state()
        wait_for_piece(page, number, content)
    page.wait_for_function(
        "() => document.querySelector('#fen').value === 'W:WK30:B10,12,18,K20,K26,27'"
    )
    table = page.locator("#explain table")
    assert (
        "ruled out by rule 4 (king met first)"
        in table.locator("tr", has_text="30x23x16x7").inner_text()
    )
    assert page.locator("#moves button").all_text_contents() == ["30x21x14x5"]
    # what a screen reader hears: each square by its name, the engine's answer in a live line
    assert page.get_by_role("gridcell", name="square 30, white king").count() == 1
    assert page.get_by_role("gridcell", name="square 26, black king").count() == 1
    live = page.locator("#engine-summary")
    assert live.get_attribute("role") == "status"
    assert "rule 4 (king met first) decides" in live.inner_text()
    page.check('input[name="mode"][value="play"]')
    square(page, 30).click()
    square(page, 5).click()
    page.wait_for_function(
        "() => document.querySelector('#chosen').textContent.includes('30x21x14x5')"
    )
    finish_and_save(page, "rule-4-by-clicks")
    assert "update-translations" in page.inner_text("#save-result")
    path = editor[1] / "diagrams" / "rule-4-by-clicks.yaml"
    report = verify_paths([path])
    assert report.ok, [str(failure.error) for failure in report.failures]
    assert report.verified[0].rule is not None and report.verified[0].rule.number == 4


def focused_square(page: Any) -> int:
    return int(page.evaluate("document.activeElement.dataset.square || 0"))


def key_to_square(page: Any, target: int) -> None:
    """Arrow keys only, from the focused square to ``target``."""
    for _ in range(30):
        here = focused_square(page)
        if here == target:
            return
        row, target_row = (here - 1) // 4, (target - 1) // 4
        if row != target_row:
            page.keyboard.press("ArrowDown" if target_row > row else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if target > here else "ArrowLeft")
    raise AssertionError(f"the arrow keys never reached square {target}")


def tab_to(page: Any, selector: str) -> None:
    """Tab until ``selector`` has the focus, as a keyboard user would."""
    for _ in range(80):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_the_rule_4_diagram_set_up_by_keyboard_only(page: Any, editor: tuple[str, Path]) -> None:
    tab_to(page, "#empty-board")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#fen').value === 'W:W:B'")
    page.keyboard.press("Shift+Tab")
    tab_to(page, "[data-square]")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible
    for number, content in RULE_4_PIECES.items():
        key_to_square(page, number)
        for _ in range(CYCLE.index(content)):
            page.keyboard.press("Enter")
            page.wait_for_timeout(60)
        wait_for_piece(page, number, content)
    page.wait_for_function(
        "() => document.querySelector('#fen').value === 'W:WK30:B10,12,18,K20,K26,27'"
    )
    assert "rule 4 (king met first)" in page.inner_text("#explain")
    tab_to(page, "#moves button")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('#chosen').textContent.includes('30x21x14x5')"
    )
    tab_to(page, "#claim")
    for _ in range(5):
        if "priority" in page.evaluate("document.querySelector('#claim').selectedOptions[0].text"):
            break
        page.keyboard.press("ArrowDown")
    tab_to(page, "#title")
    page.keyboard.type("Rule 4 by keys")
    tab_to(page, "#caption")
    page.keyboard.type("{move} meets its king first.")
    tab_to(page, "#name")
    page.keyboard.type("rule-4-by-keys")
    page.keyboard.press("Enter")  # submits the save form
    page.wait_for_selector("#save-result:not(:empty)")
    report = verify_paths([editor[1] / "diagrams" / "rule-4-by-keys.yaml"])
    assert report.ok and report.verified[0].rule is not None
    assert report.verified[0].rule.value == "king-first"


def test_the_rule_menu_offers_only_rules_that_hold(page: Any, editor: tuple[str, Path]) -> None:
    """E3: no menu turns a holding claim into a refused one; the server refuses one all the same.

    FID art. 6.9's example: both captures take three pieces with the king, two of them
    kings, so rules 1 to 3 do not separate them and only rule 4 (king met first) decides.
    """
    show_rule_4_capture(page)
    label = page.locator("#claim option", has_text="priority").first.text_content()
    page.select_option("#claim", label=label)
    rules = page.eval_on_selector_all("#rule option", "options => options.map(o => o.value)")
    assert rules == ["king-first"]
    page.wait_for_selector("#preview-summary:not(:empty)")
    assert page.inner_text("#preview-error") == ""
    # the claim sent anyway, as a hand-made request would: refused, nothing written
    said = page.evaluate(
        """async () => {
            const diagram = {position: 'W:WK30:B10,12,18,K20,K26,27', claim: 'priority',
                move: '30x21x14x5', rule: 'most-pieces', rejected: ['30x23x16x7']};
            const r = await fetch('/api/save', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({name: 'wrong-rule', diagram})});
            return [r.status, (await r.json()).error];
        }"""
    )
    assert said[0] == 422 and "most-pieces does not decide" in said[1]
    assert not (editor[1] / "diagrams" / "wrong-rule.yaml").exists()


def test_a_cross_origin_post_and_a_wrong_host_are_refused(
    browser: Any, editor: tuple[str, Path]
) -> None:
    url, project = editor
    context = browser.new_context()
    page = context.new_page()
    evil = "http://evil.example/"
    page.route(evil, lambda route: route.fulfill(content_type="text/html", body="<p>evil</p>"))
    page.goto(evil)
    body = json.dumps({"name": "evil", "diagram": {"position": "W:W30:B5", "claim": "setup"}})
    said = page.evaluate(
        """async ([url, body]) => {
            const out = [];
            try {  // a JSON POST needs a preflight, which the editor never grants
                const r = await fetch(url + 'api/save', {method: 'POST', body,
                    headers: {'Content-Type': 'application/json'}});
                out.push(r.status);
            } catch (e) { out.push('blocked'); }
            try {  // a "simple" POST goes without preflight; the editor refuses it
                await fetch(url + 'api/save', {method: 'POST', body, mode: 'no-cors',
                    headers: {'Content-Type': 'text/plain'}});
                out.push('sent');
            } catch (e) { out.push('blocked'); }
            return out;
        }""",
        [url, body],
    )
    assert said[0] == "blocked"
    refused = context.request.post(
        f"{url}api/save",
        data=body,
        headers={"Content-Type": "application/json", "Origin": evil[:-1]},
    )
    assert refused.status == 403 and "refused" in refused.json()["error"]
    wrong_host = context.request.get(url, headers={"Host": "evil.example"})
    assert wrong_host.status == 403
    context.close()
    assert not (project / "diagrams" / "evil.yaml").exists()


def test_editing_an_existing_file_keeps_its_comments(page: Any, editor: tuple[str, Path]) -> None:
    path = editor[1] / "diagrams" / "priority-king-first.yaml"
    before = path.read_text().splitlines()
    page.select_option("#open-name", "priority-king-first")
    page.click("#open-form button")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Opened')"
    )
    assert page.input_value("#fen") == "W:WK30:B10,12,18,K20,K26,27"
    assert page.input_value("#title") == "Rule 4: king met first"
    page.fill("#title", "Rule 4: the king met first")
    page.click("#save")
    page.wait_for_selector("#save-result:not(:empty)")
    after = path.read_text().splitlines()
    assert after[0] == "# FID Art. 6.9 (ordering)"
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert changed == [('title: "Rule 4: king met first"', 'title: "Rule 4: the king met first"')]
    assert verify_paths([path]).ok


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_the_editor(
    new_page: PageOpener, editor: tuple[str, Path], scheme: str
) -> None:
    page = new_page(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page.goto(editor[0])
    page.wait_for_selector("#moves button")
    show_rule_4_capture(page)
    page.wait_for_selector("#preview figure")
    found = _findings(page, "", scheme)  # the editor's one page, at its server's root
    assert found == [], "\n".join(found)


def test_the_editor_fits_a_phone(new_page: PageOpener, editor: tuple[str, Path]) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    page.goto(editor[0])
    page.wait_for_selector("#moves button")
    show_rule_4_capture(page)
    page.wait_for_selector("#preview figure")  # the widest things: the table and the figure
    width = page.evaluate("document.documentElement.scrollWidth")
    board = page.locator("#board").bounding_box()
    assert width <= 390
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 390


# == Nothing lost (issue 54) ===================================================


START_FEN = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def fen_is(page: Any, fen: str) -> None:
    page.wait_for_function("f => document.querySelector('#fen').value === f", arg=fen)


def click_to(page: Any, number: int, content: str) -> None:
    """Clicks on an empty square until it holds ``content``, as an author sets it up."""
    for _ in range(CYCLE.index(content)):
        square(page, number).click()
    wait_for_piece(page, number, content)


@contextmanager
def answering_dialogs(page: Any) -> Iterator[list[str]]:
    """While the block runs, each dialog the browser opens is accepted and its type listed
    ("beforeunload": the question before leaving unsaved work)."""
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.type)
        dialog.accept()

    page.on("dialog", answer)
    try:
        yield asked
    finally:
        page.remove_listener("dialog", answer)


def test_a_draft_set_up_by_clicks_survives_a_reload_and_a_closed_tab(
    page: Any, editor: tuple[str, Path]
) -> None:
    empty_board(page)
    click_to(page, 30, "white king")
    click_to(page, 27, "black man")
    fen_is(page, "W:WK30:B27")
    page.fill("#title", "Kept through a reload")
    page.fill("#name", "kept-draft")
    with answering_dialogs(page) as asked:
        page.reload()
        page.wait_for_function(
            "() => document.querySelector('#draft-note').textContent.includes('Restored')"
        )
    assert asked == ["beforeunload"]  # the browser asked before leaving unsaved work
    fen_is(page, "W:WK30:B27")
    assert page.input_value("#title") == "Kept through a reload"
    assert page.input_value("#name") == "kept-draft"
    wait_for_piece(page, 30, "white king")
    note = page.locator("#draft-note")
    assert note.get_attribute("role") == "status" and note.get_attribute("aria-live") == "polite"
    assert page.get_by_role("button", name="Discard").is_visible()
    # a closed tab: another tab of the same browser opens the editor and finds it too
    other = page.context.new_page()
    try:
        other.goto(editor[0])
        other.wait_for_function(
            "() => document.querySelector('#draft-note').textContent.includes('Restored')"
        )
        assert other.input_value("#fen") == "W:WK30:B27"
        assert other.input_value("#title") == "Kept through a reload"
    finally:
        other.close(run_before_unload=False)
    page.get_by_role("button", name="Discard").click()
    fen_is(page, START_FEN)
    assert page.input_value("#title") == "" and page.input_value("#name") == ""
    page.reload()  # nothing unsaved: no question, nothing restored
    page.wait_for_selector("#moves button")
    page.wait_for_timeout(300)
    assert page.inner_text("#draft-note") == ""
    assert page.input_value("#fen") == START_FEN


def test_a_saved_draft_is_not_restored(page: Any, editor: tuple[str, Path]) -> None:
    empty_board(page)
    click_to(page, 29, "white man")
    click_to(page, 5, "black man")
    page.fill("#title", "A single man")
    page.fill("#caption", "White to move.")
    page.fill("#name", "saved-then-reloaded")
    page.click("#save")
    page.wait_for_selector("#save-result:not(:empty)")
    assert page.evaluate("localStorage.length") == 0
    page.reload()
    page.wait_for_selector("#moves button")
    page.wait_for_timeout(300)
    assert page.inner_text("#draft-note") == ""
    assert page.input_value("#title") == ""


def test_ctrl_z_undoes_a_click_and_ctrl_shift_z_redoes_it(page: Any) -> None:
    undo, redo = page.locator("#undo"), page.locator("#redo")
    assert undo.is_disabled() and redo.is_disabled()  # nothing done yet
    empty_board(page)
    click_to(page, 30, "white man")
    fen_is(page, "W:W30:B")
    assert undo.is_enabled() and redo.is_disabled()
    page.keyboard.press("Control+z")  # the focus is on square 30, where the author clicked
    fen_is(page, "W:W:B")
    wait_for_piece(page, 30, "empty")
    assert redo.is_enabled()
    page.keyboard.press("Control+Shift+z")
    fen_is(page, "W:W30:B")
    page.keyboard.press("Control+z")
    fen_is(page, "W:W:B")
    page.keyboard.press("Control+y")
    fen_is(page, "W:W30:B")
    # in a text box, Ctrl+Z is the browser's own undo of its typing: the board stays
    page.click("#title")
    page.keyboard.type("Typed")
    page.keyboard.press("Control+z")
    page.wait_for_timeout(300)
    assert page.input_value("#fen") == "W:W30:B"
    # the buttons: the typing, then the click, then the empty board, back to the start
    page.fill("#title", "A title")
    undo.click()  # the typing is a step of its own, even before it pauses
    page.wait_for_function("() => document.querySelector('#title').value === ''")
    undo.click()
    fen_is(page, "W:W:B")
    undo.click()
    fen_is(page, START_FEN)
    assert undo.is_disabled() and redo.is_enabled()
    assert page.evaluate("document.activeElement.id") == "redo"  # not lost to the page
    redo.click()
    fen_is(page, "W:W:B")


def test_new_asks_then_clears_the_form_and_forgets_the_opened_file(page: Any) -> None:
    page.select_option("#open-name", "priority-king-first")
    page.click("#open-form button")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Opened')"
    )
    page.fill("#title", "An unsaved change")
    page.get_by_role("button", name="New").click()
    dialog = page.locator("#confirm")
    dialog.wait_for(state="visible")
    assert "unsaved" in dialog.inner_text()
    page.keyboard.press("Escape")  # no: nothing changes
    dialog.wait_for(state="hidden")
    assert page.input_value("#title") == "An unsaved change"
    page.get_by_role("button", name="New").click()
    page.get_by_role("button", name="Start a new diagram").click()
    fen_is(page, START_FEN)
    for field in ("#title", "#caption", "#name"):
        assert page.input_value(field) == ""
    assert page.inner_text("#opened") == ""
    assert "new diagram" in page.inner_text("#status")
    assert page.evaluate("document.activeElement.dataset.square") is not None  # on the board
    assert page.evaluate("localStorage.length") == 0


def test_saving_over_another_file_asks_and_refuses_without_confirmation(
    page: Any, editor: tuple[str, Path]
) -> None:
    path = editor[1] / "diagrams" / "man-move.yaml"
    before = path.read_bytes()
    show_rule_4_capture(page)
    finish_and_save_attempt = page.locator("#claim option", has_text="priority").first
    page.select_option("#claim", label=finish_and_save_attempt.text_content())
    page.fill("#title", "Rule 4")
    page.fill("#caption", "{move} meets its king first.")
    page.fill("#name", "man-move")
    page.click("#save")
    dialog = page.locator("#confirm")
    dialog.wait_for(state="visible")
    assert "already exists" in dialog.inner_text()
    assert page.evaluate("document.activeElement.id") == "confirm-no"  # the safe answer first
    page.get_by_role("button", name="Cancel").click()
    page.wait_for_selector("#save-error:not(:empty)")
    assert "not replaced" in page.inner_text("#save-error")
    assert path.read_bytes() == before
    # Save as under the same name: asked again; confirmed, it replaces the file
    page.get_by_role("button", name="Save as").click()
    page.get_by_role("button", name="Replace diagrams/man-move.yaml").click()
    page.wait_for_selector("#save-result:not(:empty)")
    assert path.read_bytes() != before and "30x21x14x5" in path.read_text()
    report = verify_paths([path])
    assert report.ok, [str(failure.error) for failure in report.failures]


# == Setting up a position fast (issue 54) =====================================


def show_fen(page: Any, text: str) -> None:
    page.fill("#fen", text)
    page.click("#fen-form button[type=submit]")


def test_delete_and_backspace_empty_the_focused_square_in_one_undo_step(page: Any) -> None:
    show_fen(page, "W:W29,K30:B27")
    fen_is(page, "W:W29,K30:B27")
    square(page, 30).focus()
    page.keyboard.press("Delete")
    fen_is(page, "W:W29:B27")
    wait_for_piece(page, 30, "empty")
    assert page.inner_text("#status") == "Square 30: empty."  # the live line says what changed
    page.keyboard.press("Control+z")
    fen_is(page, "W:W29,K30:B27")
    wait_for_piece(page, 30, "white king")
    square(page, 27).focus()
    page.keyboard.press("Backspace")
    fen_is(page, "W:W29,K30:B")
    page.keyboard.press("Control+z")
    fen_is(page, "W:W29,K30:B27")


def test_a_key_for_each_piece_on_the_focused_square(page: Any) -> None:
    empty_board(page)
    # worked by hand: w and 1 a white man, W and 2 a white king, b and 3 a black man, B and 4
    # a black king; the FEN lists each side's squares in order, K before a king
    for number, key in [(29, "w"), (30, "Shift+W"), (31, "1"), (32, "2")]:
        square(page, number).focus()
        page.keyboard.press(key)
    for number, key in [(5, "b"), (1, "Shift+B"), (6, "3"), (7, "4")]:
        square(page, number).focus()
        page.keyboard.press(key)
    fen_is(page, "W:W29,K30,31,K32:BK1,5,6,K7")
    wait_for_piece(page, 7, "black king")
    help_text = page.inner_text("#board-help")
    for key in ("Delete", "Backspace", "Shift+W", "Shift+B", "Home", "End"):
        assert key in help_text
    page.keyboard.press("Control+z")  # each key is one step
    fen_is(page, "W:W29,K30,31,K32:BK1,5,6")


def test_the_palette_puts_the_chosen_piece_and_a_second_click_empties_it(page: Any) -> None:
    empty_board(page)
    page.check('input[name="mode"][value="play"]')
    page.get_by_role("radio", name="a black king").check()  # back to setting up by itself
    assert page.is_checked('input[name="mode"][value="setup"]')
    for number in (20, 26):
        square(page, number).click()
    page.get_by_role("radio", name="a black man").check()
    for number in (10, 12, 18, 27):
        square(page, number).click()
    page.get_by_role("radio", name="a white king").check()
    square(page, 30).click()
    # FID Art. 6.9, as the rule 4 test sets it up by cycling: 7 clicks here, 17 there
    fen_is(page, "W:WK30:B10,12,18,K20,K26,27")
    page.get_by_role("radio", name="a black man").check()
    square(page, 27).click()  # the piece chosen, on a square that holds it: emptied
    fen_is(page, "W:WK30:B10,12,18,K20,K26")
    square(page, 27).click()
    fen_is(page, "W:WK30:B10,12,18,K20,K26,27")
    page.get_by_role("radio", name="nothing (empties it)").check()
    square(page, 10).click()
    fen_is(page, "W:WK30:B12,18,K20,K26,27")
    page.keyboard.press("Control+z")
    fen_is(page, "W:WK30:B10,12,18,K20,K26,27")
    assert "rule 4 (king met first) decides" in page.inner_text("#engine-summary")
    page.get_by_role("radio", name="the next piece in turn").check()  # clicks cycle again
    square(page, 29).click()
    fen_is(page, "W:W29,K30:B10,12,18,K20,K26,27")


@pytest.mark.parametrize(
    ("pasted", "fen"),
    [
        ('"W:W21-32:B1-12"', START_FEN),  # from a diagram file, with its quotes
        ("'W:WK30:B27'", "W:WK30:B27"),
        ('[FEN "W:WK30:B27"]', "W:WK30:B27"),  # a PDN tag
        ('[FEN "B:W18,K30:B6"]', "B:W18,K30:B6"),
        ("W:W31,32:B5,K9:H0:F1", "W:W31,32:B5,K9"),  # lidraughts' clock fields
        ('  [FEN "b:w18,k30:b6:H0:F12"] ', "B:W18,K30:B6"),
        ("\u201cW:W29:B5\u201d", "W:W29:B5"),  # curly quotes, from a word processor
    ],
)
def test_the_fen_box_reads_what_authors_paste(page: Any, pasted: str, fen: str) -> None:
    show_fen(page, pasted)
    fen_is(page, fen)
    assert page.inner_text("#status") == "Position shown."


def test_copy_puts_the_fen_on_the_clipboard_and_says_so(page: Any) -> None:
    show_fen(page, "W:WK30:B27")
    fen_is(page, "W:WK30:B27")
    # what the browser copies: the selection when its copy event fires
    page.evaluate(
        """() => document.addEventListener('copy', () => {
          const box = document.activeElement;
          window.copiedText = box.value.slice(box.selectionStart, box.selectionEnd);
        }, { once: true })"""
    )
    page.get_by_role("button", name="Copy").click()
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Copied')"
    )
    assert page.inner_text("#status") == "Copied: W:WK30:B27."
    assert page.evaluate("window.copiedText") == "W:WK30:B27"
    assert page.evaluate("document.activeElement.id") == "copy-fen"  # the focus stays


def test_swap_colours_gives_the_same_position_for_the_other_side(page: Any) -> None:
    show_fen(page, "W:W29,K30:B5,K9")
    fen_is(page, "W:W29,K30:B5,K9")
    page.get_by_role("button", name="Swap colours").click()
    # worked by hand: square n goes to 33 - n and changes colour, Black moves
    # (white 29 -> black 4, white K30 -> black K3, black 5 -> white 28, black K9 -> white K24)
    fen_is(page, "B:WK24,28:BK3,4")
    assert page.inner_text("#status").startswith("Colours swapped: Black to move")
    page.get_by_role("button", name="Swap colours").click()
    fen_is(page, "W:W29,K30:B5,K9")
    page.keyboard.press("Control+z")
    fen_is(page, "B:WK24,28:BK3,4")


def test_a_refused_fen_stays_in_its_box_marked_invalid(page: Any) -> None:
    show_fen(page, "W:W1-16:B")  # sixteen white men: no such position
    page.wait_for_selector('#fen[aria-invalid="true"]')
    assert page.inner_text("#status").startswith("Not shown: ")
    assert page.inner_text("#status").endswith(f"The board still shows {START_FEN}.")
    assert page.input_value("#fen") == "W:W1-16:B"  # to be mended, not lost
    wait_for_piece(page, 21, "white man")
    show_fen(page, "W:W:B5")  # White has no pieces left
    page.wait_for_selector("#fen:not([aria-invalid])")  # the board shows it: no longer marked
    fen_is(page, "W:W:B5")
    assert (
        page.inner_text("#game-over") == "The game is over: Black wins; White has no pieces left."
    )


def test_keys_on_a_move_keep_the_focus_and_rows_are_named_once(page: Any) -> None:
    assert page.get_by_role("row", name="row 1").count() == 1
    page.fill("#fen", "W:WK30:B10,12,18,K20,K26,27")
    page.click("#fen-form button[type=submit]")
    fen_is(page, "W:WK30:B10,12,18,K20,K26,27")
    move = page.locator("#moves button", has_text="30x21x14x5")
    move.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('#chosen').textContent.includes('30x21x14x5')"
    )
    assert page.evaluate("document.activeElement.textContent") == "30x21x14x5"
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"


def test_a_refused_preview_shows_no_stale_file_and_blames_the_name(page: Any) -> None:
    page.wait_for_function("() => document.querySelector('#yaml').textContent !== ''")
    page.fill("#name", "a" * 65)
    page.wait_for_selector("#preview-error:not(:empty)")
    assert page.inner_text("#preview-error").startswith("The name is refused: ")
    assert (page.text_content("#yaml") or "").startswith("None")  # in its closed <details>


def drag_square(page: Any, start: int, end: int) -> None:
    """A mouse drag from one square to another, as an author moves a piece."""
    page.locator("#board").scroll_into_view_if_needed()
    boxes = [square(page, number).bounding_box() for number in (start, end)]
    page.mouse.move(boxes[0]["x"] + boxes[0]["width"] / 2, boxes[0]["y"] + boxes[0]["height"] / 2)
    page.mouse.down()
    page.mouse.move(
        boxes[1]["x"] + boxes[1]["width"] / 2, boxes[1]["y"] + boxes[1]["height"] / 2, steps=5
    )
    page.mouse.up()


def test_a_piece_dragged_to_another_square_moves_there_in_one_step(page: Any) -> None:
    show_fen(page, "W:W22,K30:B27")
    fen_is(page, "W:W22,K30:B27")
    drag_square(page, 30, 19)  # the white king from 30 to 19, 30 emptied
    fen_is(page, "W:WK19,22:B27")
    assert page.inner_text("#status") == "The white king moved from 30 to 19."
    drag_square(page, 27, 22)  # onto a piece: it takes its place
    fen_is(page, "W:WK19:B22")
    page.keyboard.press("Control+z")
    fen_is(page, "W:WK19,22:B27")
    page.keyboard.press("Control+z")
    fen_is(page, "W:W22,K30:B27")


def test_a_piece_dragged_with_a_finger_moves_there(page: Any) -> None:
    """On a phone, a piece moves under the finger (real touch events, as Chromium makes them)."""
    page.set_viewport_size({"width": 390, "height": 844})
    show_fen(page, "W:W22,K30:B27")
    fen_is(page, "W:W22,K30:B27")
    page.locator("#board").scroll_into_view_if_needed()
    centres = []
    for number in (30, 19):
        box = square(page, number).bounding_box()
        centres.append((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    touch = page.context.new_cdp_session(page)
    touch.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    try:
        (x0, y0), (x1, y1) = centres
        touch.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
        )
        for step in range(1, 6):
            x, y = x0 + (x1 - x0) * step / 5, y0 + (y1 - y0) * step / 5
            touch.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        fen_is(page, "W:WK19,22:B27")  # the king from 30 to 19 in one step
    finally:
        touch.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
        touch.detach()
    assert page.inner_text("#status") == "The white king moved from 30 to 19."


def test_a_move_cannot_start_on_an_empty_square_or_the_other_sides_piece(page: Any) -> None:
    page.check('input[name="mode"][value="play"]')
    square(page, 17).click()  # empty, in the start position
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('No move starts on 17')"
    )
    assert "holds no piece, and White is to move" in page.inner_text("#status")
    square(page, 9).click()  # a black man, White to move
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('No move starts on 9')"
    )
    assert page.get_attribute('[data-square="9"]', "aria-selected") == "false"
    square(page, 21).click()
    square(page, 17).click()  # then a move as usual
    page.wait_for_function("() => document.querySelector('#chosen').textContent.includes('21-17')")


def test_the_caption_help_lists_every_placeholder(page: Any) -> None:
    listed = page.locator("#caption-help code").all_text_contents()
    assert listed[: len(CAPTION_PLACEHOLDERS)] == [f"{{{n}}}" for n in CAPTION_PLACEHOLDERS]


def _luminance(rgb: str) -> float:
    """WCAG's relative luminance of a computed ``rgb(r, g, b)``."""
    parts = [int(v) / 255 for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    linear = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in parts]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    low, high = sorted([_luminance(a), _luminance(b)])
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_reaches_3_to_1_on_both_square_colours(
    new_page: PageOpener, editor: tuple[str, Path], scheme: str
) -> None:
    page = new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page.goto(editor[0])
    page.wait_for_selector("#moves button")
    tab_to(page, '[data-square="1"]')
    ring = page.evaluate(
        """() => {
          const cell = document.activeElement, style = getComputedStyle(cell);
          return [style.outlineColor, style.boxShadow, style.backgroundColor,
                  getComputedStyle(document.querySelector('.light')).backgroundColor];
        }"""
    )
    outer, shadow, dark, light = ring
    inner = shadow[: shadow.index(")") + 1]  # the white ring inside the outline
    assert _contrast(outer, light) >= 3  # the outer ring, against the light squares around
    assert _contrast(inner, dark) >= 3  # the inner ring, against the dark square itself
    assert _contrast(outer, inner) >= 3
    assert new_page.errors == []
