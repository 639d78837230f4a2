"""The README's picture of the board editor, made by the tests' browser (Debian's chromium).

    python scripts/editor_screenshot.py [--out images/editor.png] [--width 1280]

The editor runs on a temporary copy of ``diagrams/`` (nothing of the project
is written), an author's steps are played in headless Chromium (the rule 4
position of FID Art. 6.9 typed in, its capture chosen, the priority claim
named), and the page is saved as a PNG.  ``--width 390`` shows a phone.
Nothing is downloaded: Playwright drives the system's chromium.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

from dama_diagrams.site.editor import listen_editor

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the tests' own browser)

RULE_4 = "W:WK30:B10,12,18,K20,K26,27"


def screenshot(out: Path, width: int) -> None:
    """Play an author's steps in the editor and save the page, whole, as ``out``."""
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        shutil.copytree(ROOT / "diagrams", project / "diagrams")
        server = listen_editor(project, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.goto(url)
                page.wait_for_selector("#moves button")
                page.fill("#fen", RULE_4)
                page.click("#fen-form button")
                page.locator("#moves button", has_text="30x21x14x5").click()
                page.wait_for_selector("#claim option >> text=priority", state="attached")
                label = page.locator("#claim option", has_text="priority").first.text_content()
                page.select_option("#claim", label=label)
                page.fill("#title", "Rule 4: king met first")
                page.fill(
                    "#caption", "Both captures take three pieces, but {move} meets its king first."
                )
                page.fill("#name", "my-king-first")
                page.wait_for_selector("#preview figure")
                page.wait_for_timeout(400)  # the last preview, after the caption
                page.evaluate("document.activeElement.blur()")
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), full_page=True)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "images" / "editor.png")
    parser.add_argument("--width", type=int, default=1280)
    args = parser.parse_args()
    screenshot(args.out, args.width)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
