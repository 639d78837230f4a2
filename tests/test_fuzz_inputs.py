"""A seeded fuzz over the project's YAML inputs: a bad file is one clear error, never a crash.

Each case mutates a real file (a diagram, a catalog, ``nav.yml``) with the kind
of damage a hand edit, a bad merge or an attacker makes, then reads it the way
the build does.  Anything but a :class:`DamaError` (which the command line
prints as ``path:line: message``) fails the test, which prints the seed and
the input.  The same seed gives the same cases on every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from dama_diagrams.diagram import parse_diagram, verify
from dama_diagrams.errors import DamaError
from dama_diagrams.site.nav import load_nav
from dama_diagrams.site.translations import load_catalog
from tests.conftest import ROOT

SEED = 20261130
CASES = 1500  # per kind of file; a few seconds in all

TOKENS = [
    "&a ", "*a", "!!python/object:os.system ", "!!int ", "!!float ", "!!timestamp ", "<<: ",
    "0x_", "0b_", "1_0", "2024-02-30", "1e999", "9" * 4400, '"\\ud800"', "\x00", "\x07",
    "\t", "{", "}", "[", "]", '"', "'", ": ", "- ", "---\n", "...\n", "#", "|\n", ">\n",
    "~", "null", "yes", "K", "x", "-", "\ufeff", "\u202e", "\U0001f600", "{{ x }}", "{% x %}",
]  # fmt: skip


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True) or ["\n"]
    for _ in range(rng.randint(1, 3)):
        choice = rng.randrange(5)
        index = rng.randrange(len(lines))
        if choice == 0:  # a token inserted inside a line
            line = lines[index]
            at = rng.randrange(len(line) + 1)
            lines[index] = line[:at] + rng.choice(TOKENS) + line[at:]
        elif choice == 1:  # a line lost
            if len(lines) > 1:
                del lines[index]
        elif choice == 2:  # a line doubled (a bad merge)
            lines.insert(index, lines[index])
        elif choice == 3:  # indentation changed
            lines[index] = rng.choice(["", "  ", "    ", "\t"]) + lines[index].lstrip(" ")
        else:  # a character replaced
            line = lines[index]
            if line:
                at = rng.randrange(len(line))
                lines[index] = line[:at] + chr(rng.randrange(0x20, 0x3000)) + line[at + 1 :]
    return "".join(lines)


def _never_crashes(read: Callable[[str], object], sources: list[str], kind: str) -> None:
    rng = random.Random(f"{SEED}-{kind}")
    for case in range(CASES):
        text = _mutate(rng.choice(sources), rng)
        try:
            read(text)
        except DamaError:
            continue
        except Exception as exc:
            pytest.fail(f"{kind} case {case} (seed {SEED}): {type(exc).__name__}: {exc}\n{text!r}")


def test_mutated_diagrams_give_clear_errors() -> None:
    sources = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "diagrams").glob("*.yaml"))]

    def read(text: str) -> None:
        verify(parse_diagram(text.encode("utf-8", "surrogatepass"), "diagrams/fuzz.yaml"))

    _never_crashes(read, sources, "diagram")


def test_mutated_catalogs_give_clear_errors(tmp_path: Path) -> None:
    locales = tmp_path / "docs" / "locales"
    locales.mkdir(parents=True)
    sources = [(ROOT / "docs" / "locales" / "nl.yml").read_text(encoding="utf-8")]
    sources = ["\n".join(source.splitlines()[start : start + 40]) for source in sources
               for start in range(0, 400, 40)]  # fmt: skip

    def read(text: str) -> None:
        (locales / "xx.yml").write_bytes(text.encode("utf-8", "surrogatepass"))
        catalog = load_catalog(tmp_path, "xx")
        for key in list(catalog.entries)[:5]:
            catalog.text(key)

    _never_crashes(read, sources, "catalog")


def test_mutated_page_lists_give_clear_errors(tmp_path: Path) -> None:
    pages = tmp_path / "docs" / "pages"
    pages.mkdir(parents=True)
    sources = [(ROOT / "docs" / "pages" / "nav.yml").read_text(encoding="utf-8")]

    def read(text: str) -> None:
        (pages / "nav.yml").write_bytes(text.encode("utf-8", "surrogatepass"))
        load_nav(tmp_path)

    _never_crashes(read, sources, "nav")
