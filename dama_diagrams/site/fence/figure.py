"""One fence's figure: the diagram verified, drawn and written as the site writes it.

The same code as the rules site's pages: :func:`~..pages.figures.figure_view`
for what the figure shows, :meth:`~..pages.figures.Figure.draw` for the
pictures and their alt text, and :func:`~..pages.figure_html.figure_html` for
the HTML.  Only the pictures differ: the site serves them as files, the fence
writes them into the page (``data:`` addresses), so a page needs nothing else.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ...diagram.claims import VerifiedDiagram, verify
from ...diagram.markdown import Fence, fence_diagram
from ...errors import DamaError, DiagramError
from ...render.svg import SvgPicture
from ..i18n import Catalog
from ..pages.figure_html import figure_html
from ..pages.figures import Figure, figure_view
from .assets import SCOPE, assets_html
from .words import fence_catalog

DEFAULT_LANGUAGE = "en"


def picture_address(picture: SvgPicture) -> str:
    """The picture as a ``data:`` address: inside the page, the same bytes every build."""
    encoded = base64.b64encode(picture.svg.encode("utf-8")).decode("ascii")
    return f"data:image/svg+xml;base64,{encoded}"


def fence_html(
    source: str,
    *,
    language: str = DEFAULT_LANGUAGE,
    page: str = "<string>",
    line: int = 1,
    number: int = 1,
    options: dict[str, str] | None = None,
    unknown: Sequence[str] = (),
    root: Path | None = None,
    assets: bool = True,
    taken: set[str] | None = None,
) -> str:
    """The HTML figure of one ``dama`` fence whose body is ``source``.

    ``page`` and ``line`` (the line of the opening fence) place every error
    in the page; ``number`` (the fence's place on the page) names the diagram
    when ``options`` give no ``id``; ``unknown`` are the header's words that
    are no option, refused at the fence's line.  ``assets`` puts the figure's style and
    scripts before it: once per page is enough.  ``taken`` are the figure ids
    already on the page: a diagram whose id is taken gets ``-2``, ``-3`` …, an
    ``id="..."`` option that is taken is refused; the figure's id is added.  Raises a located
    :class:`~dama_diagrams.errors.DamaError` when the diagram is malformed or
    its claim does not hold: a page never shows a diagram the engine refused.
    """
    fence = Fence(line, source, dict(options or {}), tuple(unknown))
    try:
        catalog = fence_catalog(language)
    except DamaError as error:
        raise DiagramError(error.message, path=page, line=line) from None
    diagram = fence_diagram(fence, page, number, root)
    if taken is not None:
        diagram = replace(diagram, id=_free_id(diagram.id, fence, taken, page))
        taken.add(diagram.id)
    verified = verify(diagram)
    block = inline_figure(verified, catalog, title=True)
    styled = f"{assets_html()}\n" if assets else ""
    return f'<div class="{SCOPE}" lang="{html.escape(language)}">\n{styled}{block}\n</div>'


def _free_id(wanted: str, fence: Fence, taken: set[str], page: str) -> str:
    """``wanted``, or ``wanted-2``, ``-3`` … when another figure of the page has it."""
    if wanted not in taken:
        return wanted
    if "id" in fence.options:
        raise DiagramError(
            f'id="{wanted}" is already the id of another figure on this page: '
            "give each figure its own id",
            path=page,
            line=fence.line,
        )
    return next(f"{wanted}-{n}" for n in range(2, len(taken) + 3) if f"{wanted}-{n}" not in taken)


def inline_figure(verified: VerifiedDiagram, catalog: Catalog, *, title: bool = False) -> str:
    """A verified diagram's figure as the site writes it, its pictures inside (``data:``).

    The fence puts it in a page, its ``title:`` shown above the caption (``title``);
    the editor (:mod:`..editor`) shows it as its preview.
    """
    figure = Figure(verified, figure_view(verified))
    drawn = figure.draw(catalog)
    image = _image(picture_address(drawn.picture), drawn.alt, drawn.picture)
    pictures = [picture_address(step) for step in figure.step_pictures(catalog)]
    return figure_html(
        figure.view,
        catalog,
        image,
        markdown=False,
        pictures=pictures or None,
        require_caption=False,
        title=title,
    )


def _image(address: str, alt: str, picture: SvgPicture) -> str:
    """The board as HTML, its size given so that the page does not jump as it loads."""
    return (
        f'<p><img class="dama-board" src="{address}" alt="{html.escape(alt)}" '
        f'width="{picture.width}" height="{picture.height}"></p>'
    )
