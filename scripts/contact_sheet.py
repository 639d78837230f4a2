"""Every diagram on one page: a PNG contact sheet for reviewers.

    python scripts/contact_sheet.py [--diagrams diagrams] [--out docs/assets/diagram-sheet.png]

Each diagram is verified first; if any claim fails, the errors are printed and
no sheet is written, so the sheet only ever shows what the engine confirmed.
The sheet is one SVG with every diagram nested in it, drawn once by cairosvg,
so it comes out byte-for-byte the same on every run.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from dama_diagrams.diagram import VerifiedDiagram, verify_directory
from dama_diagrams.render.figure import diagram_svg
from dama_diagrams.render.png import svg_to_png

SVG_NS = "http://www.w3.org/2000/svg"
BOARD = 300
LABEL = 44
GAP = 24
COLUMNS = 5
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def sheet_svg(diagrams: list[VerifiedDiagram]) -> str:
    """The grid: each board nested as an ``<svg>``, its id and claim beneath it."""
    ET.register_namespace("", SVG_NS)
    rows = -(-len(diagrams) // COLUMNS)
    width = GAP + COLUMNS * (BOARD + GAP)
    height = GAP + rows * (BOARD + LABEL + GAP)
    sheet = ET.Element(
        f"{{{SVG_NS}}}svg",
        {"width": str(width), "height": str(height), "viewBox": f"0 0 {width} {height}"},
    )
    ET.SubElement(
        sheet, f"{{{SVG_NS}}}rect", {"width": str(width), "height": str(height), "fill": "#ffffff"}
    )
    for index, verified in enumerate(diagrams):
        row, column = divmod(index, COLUMNS)
        x = GAP + column * (BOARD + GAP)
        y = GAP + row * (BOARD + LABEL + GAP)
        board = ET.fromstring(diagram_svg(verified, size=BOARD).svg)
        board.set("x", str(x))
        board.set("y", str(y))
        sheet.append(board)
        for offset, text, size, color in (
            (22, verified.id, 16, "#222222"),
            (40, verified.claim.value, 13, "#6b6b6b"),
        ):
            label = ET.SubElement(
                sheet,
                f"{{{SVG_NS}}}text",
                {
                    "x": str(x + BOARD // 2),
                    "y": str(y + BOARD + offset),
                    "text-anchor": "middle",
                    "font-family": FONT,
                    "font-size": str(size),
                    "fill": color,
                },
            )
            label.text = text
    return ET.tostring(sheet, encoding="unicode")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--diagrams", type=Path, default=Path("diagrams"))
    parser.add_argument("--out", type=Path, default=Path("docs/assets/diagram-sheet.png"))
    args = parser.parse_args()

    report = verify_directory(args.diagrams)
    for failure in report.failures:
        print(failure.error, file=sys.stderr)
    if not report.ok:
        print("contact sheet not written: fix the diagrams above first", file=sys.stderr)
        return 1
    png = svg_to_png(sheet_svg(list(report.verified)))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(png)
    print(f"{args.out}: {len(report.verified)} diagrams")
    return 0


if __name__ == "__main__":
    sys.exit(main())
