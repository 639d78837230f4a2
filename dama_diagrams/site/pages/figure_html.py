"""A figure's HTML: picture, caption, moves, legend, the engine's line and the step data.

One writer for every place a verified diagram is shown: the rules site's pages
(:class:`.renderer.PageRenderer`, whose picture is a file beside the page) and
the Markdown fence of any other site (:mod:`dama_diagrams.site.fence`, whose
pictures are inside the page).  The caller gives the picture's markup; the
words come from the catalog, cleaned (:mod:`..i18n.safe_text`), and everything
that lands in an attribute is escaped.
"""

from __future__ import annotations

import html
import json
from collections.abc import Collection, Sequence

from ..._markdown_text import is_paragraph, one_line
from ...render.legend import LEGEND_KEYS, legend_html
from ..i18n import Catalog, used_values
from ..i18n.safe_text import (
    attribute_html,
    braces_escaped,
    catalog_html,
    plain_html,
    table_cell,
)
from ..messages import MESSAGES
from .figures import (
    ExplainRow,
    FigureView,
    engine_sentence,
    finding_sentence,
    rule_label,
    step_texts,
)
from .nav import PageError


def legend_block(
    catalog: Catalog,
    keys: Collection[str],
    hidden: Collection[str] = (),
    *,
    icons: bool = True,
    icon_folder: str | None = None,
) -> str:
    """The legend's HTML, with braces escaped like all catalog text: they are no template."""
    labels = {key: catalog.text(f"legend.{key}") for key in LEGEND_KEYS}
    return braces_escaped(
        legend_html(labels, keys=keys, hidden=hidden, icons=icons, icon_folder=icon_folder)
    )


def figure_legend(
    view: FigureView, catalog: Catalog, *, icons: bool = True, icon_folder: str | None = None
) -> str | None:
    """Every entry of the figure and its steps; those its own picture lacks are hidden.

    So without JavaScript, and in print, the legend is the picture's own;
    the steps' script shows each step's entries.
    """
    keys = {*view.legend, *(key for step in view.step_legends for key in step)}
    if not keys:
        return None
    hidden = keys - set(view.legend)
    return legend_block(catalog, keys, hidden, icons=icons, icon_folder=icon_folder)


def figure_html(
    view: FigureView,
    catalog: Catalog,
    image: str,
    *,
    icons: bool = True,
    icon_folder: str | None = None,
    markdown: bool = True,
    pictures: Sequence[str] | None = None,
    require_caption: bool = True,
    title: bool = False,
) -> str:
    """One checked diagram: ``image`` (the picture's markup), caption, move, legend, engine line.

    ``markdown`` marks the figure for Python-Markdown's ``md_in_html`` (the
    site writes its picture in Markdown); ``pictures`` are the addresses of
    the step pictures, when they are not the files beside the diagram;
    ``icon_folder`` where the legend's icons are (:func:`.legend_html`).  The
    site's diagrams all have a caption; elsewhere (``require_caption`` false)
    a diagram without one shows none.  ``title`` shows the diagram's title
    above the caption, where no heading of the page names the figure.
    """
    diagram_id = view.id
    parts = []
    if title and view.title:
        shown_title = catalog_html(catalog.message(view.title), inline=True)
        parts.append(f'<strong class="dama-title">{shown_title}</strong>')
    caption = ""
    if view.caption is not None:
        values = caption_values(view, catalog)
        caption = catalog.message(view.caption, **used_values(view.caption, values))
        parts.append(f'<span class="dama-caption">{catalog_html(caption, inline=True)}</span>')
    elif require_caption:
        raise PageError(
            f"diagram '{diagram_id}' has no caption: add caption: \"...\" to "
            f"diagrams/{diagram_id}.yaml"
        )
    shown = (view.move,) if view.move else view.moves
    if shown:
        if view.finding == "illegal":  # the move is drawn, and it is not allowed
            label = catalog.text("ui.not_allowed")
        else:
            label = catalog.text("ui.move" if len(shown) == 1 else "ui.moves")
        parts.append(move_line(catalog, "dama-move", label, shown))
    if view.rejected:
        label = (
            catalog.text("ui.rejected_by", rule=rule_label(view.rejected_by, catalog))
            if view.rejected_by is not None
            else catalog.text("ui.not_allowed")
        )
        parts.append(move_line(catalog, "dama-move dama-rejected", label, view.rejected))
    legend = figure_legend(view, catalog, icons=icons, icon_folder=icon_folder)
    if legend is not None:
        parts.append(legend)
    engine = catalog.text("ui.engine")
    sentence = catalog_html(engine_sentence(view, catalog), inline=True)
    parts.append(
        f'<span class="dama-engine"><strong>{plain_html(engine)}</strong> '
        f'<span class="dama-engine-text">{sentence}</span></span>'
    )
    steps = steps_data(view, catalog, caption, pictures)
    marked = " markdown" if markdown else ""
    opening = f'<figure class="dama-figure" id="figure-{diagram_id}"{steps}{marked}>'
    return "\n".join([opening, image, "<figcaption>", *parts, "</figcaption>", "</figure>"])


def steps_data(
    view: FigureView, catalog: Catalog, caption: str, pictures: Sequence[str] | None = None
) -> str:
    """The step controls' data, for the page's script: empty without steps.

    Without JavaScript the figure stays as it is, the complete diagram; the
    script adds the buttons, and shows the legend entries of each step
    (``legends``).  Braces are escaped like all catalog text.
    A game's steps also carry the caption and the engine's line of each
    position, for the script to show with it, and open on the first
    position, the start of the game; the last step's caption is the
    figure's own, which describes the final position.  ``pictures``, when
    given, are the step pictures' addresses, else the script finds them
    beside the diagram.
    """
    if not view.steps:
        return ""
    labels = {name: catalog.text(f"steps.{name}") for name in ("first", "previous", "next", "last")}
    labels["group"] = (
        catalog.text("steps.group", move=view.move)
        if view.move
        else catalog.text("steps.game_group")
    )
    texts = step_texts(view, catalog)
    data: dict[str, object] = {"texts": texts, "labels": labels}
    if len(view.step_legends) == len(texts):
        data["legends"] = [list(keys) for keys in view.step_legends]
    findings = [(line.finding, line.finding_values) for line in view.steps if line.finding]
    if len(findings) == len(texts):
        data["open"] = 0
        captions = [*texts[:-1], caption or texts[-1]]
        data["captions"] = [catalog_html(text, inline=True) for text in captions]
        data["engines"] = [
            catalog_html(finding_sentence(finding, values, catalog), inline=True)
            for finding, values in findings
        ]
    if pictures is not None and len(pictures) == len(texts):
        data["pictures"] = list(pictures)
    encoded = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return f' data-steps="{attribute_html(encoded)}"'


def move_line(catalog: Catalog, css: str, label: str, moves: tuple[str, ...]) -> str:
    """``Move: 22-19``, with the moves as code and the catalog's word for "and"."""
    codes = [f"<code>{html.escape(move)}</code>" for move in moves]
    listed = catalog.join(codes, escape=plain_html)
    return f'<span class="{css}">{plain_html(label)} {listed}</span>'


def caption_values(view: FigureView, catalog: Catalog) -> dict[str, str]:
    """Values that a diagram's caption may use as placeholders, in this language.

    The items come from the diagram stage's one table (``view.caption_items``),
    which ``verify`` checks each caption against: a placeholder used is never empty.
    """
    values = {}
    for name, items in view.caption_items.items():
        if name == "count":
            values[name] = str(len(items))
        elif name == "sequence":
            values[name] = numbered(items)
        else:
            values[name] = catalog.join(list(items)) if items else ""
    return values


def numbered(moves: Sequence[str]) -> str:
    """Moves from the start in numbered notation: ``1. 22-18 11-14 2. 18x11``.

    A no-break space keeps each number with its move at the end of a line.
    """
    pairs = [moves[index : index + 2] for index in range(0, len(moves), 2)]
    return " ".join(f"{number}.\u00a0{' '.join(pair)}" for number, pair in enumerate(pairs, 1))


def explain_markdown(explain: Sequence[ExplainRow], catalog: Catalog) -> str:
    """The engine's table of every candidate capture, as Markdown (``md_in_html``).

    One writer for the site's ``explain_table()`` and the editor's live table,
    so an author sees the very table the page will show.
    """

    def t(key: str, **params: str) -> str:
        english = MESSAGES[key]
        return catalog_html(catalog.message(english, key, **params), inline=is_paragraph(english))

    headings = [
        t(f"explain.{key}")
        for key in ("capture", "pieces", "with_king", "kings", "king_places", "verdict")
    ]
    rows = [
        "| " + " | ".join(table_cell(h) for h in headings) + " |",
        "| --- | :---: | :---: | :---: | :---: | --- |",
    ]
    for row in explain:
        places = ", ".join(map(str, row.king_places)) or t("explain.none")
        verdict = (
            f"**{t('explain.legal')}**"
            if row.rejected_by is None
            else t("explain.rejected", rule=rule_label(row.rejected_by, catalog))
        )
        cells = [
            f"`{row.move}`",
            str(row.pieces),
            t("explain.by_king_yes") if row.by_king else t("explain.by_king_no"),
            str(row.kings),
            places,
            verdict,
        ]
        rows.append("| " + " | ".join(table_cell(c) for c in cells) + " |")
    caption = one_line(catalog.text("explain.caption"))
    return "\n".join(
        [
            '<div class="dama-explain" markdown>',
            f'<p class="dama-explain-caption">{catalog_html(caption, inline=True)}</p>',
            "",
            *rows,
            "",
            "</div>",
        ]
    )
