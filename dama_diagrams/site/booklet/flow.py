"""What the book keeps on one page: a paragraph with the diagram it leads into, a diagram
with the table that explains it, the key to the diagrams with the words under it, a
chapter's last short paragraph with the block before it.

Typst keeps a heading with what follows it, and no paragraph leaves a single line
alone at the top or foot of a page; these rules keep what reads as one thing
together beyond that.  They work on the Typst markup of a chapter's blocks, as
:mod:`.markup` writes them, before they are joined.
"""

from __future__ import annotations

_DIAGRAMS = ("#dama-figure(", "#dama-exercise(", "#dama-see-diagram[")
"""The blocks that print a board, or name the page of a board printed before."""
_KEY = "#dama-legend("
"""The key to the diagrams, each marker with its words."""
_FIGURE = "#dama-figure("
_EXPLAIN = "#dama-explain("
"""The engine's table of a diagram's candidate captures, which follows the diagram."""


def kept_together(parts: list[str], *, chapter: bool) -> list[str]:
    """Blocks, those that read as one kept on one page; ``chapter``: the blocks are a
    chapter's, whose short last paragraph stays with the block before it."""
    kept = _explained_kept(_leads_kept([_list_kept(_key_kept(part)) for part in parts]))
    return _last_line_kept(kept) if chapter else kept


SHORT_ENDING = 700
"""A chapter's last paragraph this short in markup (a few lines, "Try it yourself: ...",
its links and page references counted) is never printed alone at the top of a page: it
stays with the block before it."""
KEPT_BEFORE = 4000
"""The longest block (in markup) that a chapter's short last paragraph is kept with: far
less than a page."""
_INLINE = ("#link(", "#emph[", "#strong[", "#raw(", "#context ")
_LISTS = ("#enum(", "#list(")
"""A list as :mod:`.markup` writes it, all its items in one Typst list (a long list's last
items are kept by ``dama-list-end``)."""


def _leads_kept(parts: list[str]) -> list[str]:
    """Blocks, a short paragraph that leads into a diagram kept on the diagram's page."""
    return [
        f"#block(sticky: true)[{part}]"
        if following.startswith(_DIAGRAMS) and _short_paragraph(part)
        else part
        for part, following in zip(parts, [*parts[1:], ""], strict=True)
    ]


def _key_kept(part: str) -> str:
    """A block, the key to the diagrams kept on one page with the words said under it (how
    the turn is shown)."""
    return f"#block(breakable: false)[{part}]" if part.startswith(_KEY) and "\n\n" in part else part


def _list_kept(part: str) -> str:
    """A block, a short list (the two moves of an example, the four priority rules) kept on
    one page: its first item is never left alone at a page's foot (nl A4 p. 6 ended with
    "1. Wit speelt 22-18, en Zwart antwoordt met 11-14.", its "2." on p. 7)."""
    flat = not any(kind in part[1:] for kind in _LISTS)  # a list of lists is not short
    short = part.startswith(_LISTS) and len(part) <= SHORT_ENDING and flat
    return f"#block(breakable: false)[{part}]" if short else part


def _explained_kept(parts: list[str]) -> list[str]:
    """Blocks, a diagram kept on one page with the table that explains it: a table is never
    read a page away from the board whose captures it compares.  A short paragraph after
    the table that ends the blocks ("Try it yourself: ...") stays with them too."""
    kept: list[str] = []
    index = 0
    while index < len(parts):
        group = parts[index : index + 2]
        if len(group) < 2 or not (group[0].startswith(_FIGURE) and group[1].startswith(_EXPLAIN)):
            kept.append(parts[index])
            index += 1
            continue
        index += 2
        if index == len(parts) - 1 and _short_paragraph(parts[index]):
            group.append(parts[index])
            index += 1
        kept.append("#block(breakable: false)[" + "\n\n".join(group) + "]")
    return kept


def _short_paragraph(part: str) -> bool:
    """Whether a block's markup is a paragraph of a few lines (its links counted)."""
    plain = not part.startswith("#") or part.startswith(_INLINE)
    return plain and len(part) <= SHORT_ENDING and "\n\n" not in part


def _last_line_kept(parts: list[str]) -> list[str]:
    """A chapter's blocks, its short last paragraph kept on the page of the block before."""
    if len(parts) < 2 or parts[-2].startswith("#heading(") or len(parts[-2]) > KEPT_BEFORE:
        return parts
    if not _short_paragraph(parts[-1]):
        return parts
    last = parts[-1]
    return [*parts[:-2], f"#block(breakable: false)[{parts[-2]}\n\n{last}]"]
