"""What Chromium's headless shell saves the browser tests, against the full browser.

    python benchmarks/browsers.py [--runs N] [--lang L]

The browser tests prefer Debian's ``chromium-headless-shell`` to its
``chromium`` (``tests/conftest.py``).  Both run the suite's heaviest pattern
here: start the browser, open every page of one language of the built site
and check it with axe-core (WCAG 2.1 AA), then close.  The two alternate, so
that this machine's drift reaches both alike.  Measured in the machine's busy
processor seconds (``/proc/stat``), which count every process of the browser
and the page's own scripts: run it with nothing else running.  A figure below 1
in the last column is what the headless shell saves.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM_ARGS, serving  # noqa: E402
from tests.test_browser_accessibility import axe_violations  # noqa: E402

BROWSERS = {"chromium": "chromium", "headless shell": "chromium-headless-shell"}
"""The baseline first: Debian's program for each."""


def busy_seconds() -> float:
    """The processor seconds this machine has spent working since it started."""
    with open("/proc/stat", encoding="ascii") as stat:
        user, nice, system = (int(field) for field in stat.readline().split()[1:4])
    return (user + nice + system) / os.sysconf("SC_CLK_TCK")


def check_pages(executable: str, address: str, pages: list[str]) -> float:
    """One round: start the browser, load and axe-check each page, close; busy seconds."""
    from playwright.sync_api import sync_playwright

    before = busy_seconds()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_page()
        for path in pages:
            page.goto(f"{address}/{path}")
            if found := axe_violations(page):  # the browser tests' own check, as they run it
                raise SystemExit(f"{path}: axe finds {len(found)} violations; run the tests")
        browser.close()
    return busy_seconds() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    executables = {name: shutil.which(program) or "" for name, program in BROWSERS.items()}
    if missing := [BROWSERS[name] for name, path in executables.items() if not path]:
        raise SystemExit(f"needs {' and '.join(missing)}: apt-get install {' '.join(missing)}")
    from dama_diagrams.site import build_site

    os.environ["DAMA_DIAGRAMS_BOOKS"] = "0"  # as in the suite
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        build_site(ROOT, out=site, drafts=True)
        pages = sorted(
            f"{page.parent.relative_to(site).as_posix()}/"
            for page in (site / args.lang).rglob("index.html")
        )
        with serving(site) as address:
            times: dict[str, list[float]] = {name: [] for name in BROWSERS}
            started = time.perf_counter()
            for _ in range(args.runs):
                for name, path in executables.items():
                    times[name].append(check_pages(path, address, pages))
    base, shell = (statistics.median(times[name]) for name in BROWSERS)
    print(f"{len(pages)} pages of {args.lang}, loaded and checked by axe, {args.runs} runs each")
    print(f"{'browser':16} {'busy (s)':>9} {'ratio':>6}")
    print(f"{'chromium':16} {base:9.2f} {1:6.2f}")
    print(f"{'headless shell':16} {shell:9.2f} {shell / base:6.2f}")
    print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
