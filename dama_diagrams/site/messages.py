# ruff: noqa: E501, RUF001  (one message a line, as translators read it; the dash is the text)
"""The words that the site's code writes: labels, the legend, the engine's sentences.

English is the source text.  Each entry is marked as ``pgettext(key, english)``,
so that ``pybabel extract`` (with the project's ``babel.cfg``) finds it, with
its key as the message context: the code looks a message up by its key, and a
translator sees the key beside the English.  Page text lives in the page
templates and diagram text in the diagram files, not here.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MESSAGES", "pgettext"]


def pgettext(context: str, message: str) -> tuple[str, str]:
    """Marks a message for extraction; the key is its context."""
    return context, message


# fmt: off
MESSAGES: Final[dict[str, str]] = dict([
    # notice
    pgettext("notice.untranslated", "Passages on this page shown in English, because their translation is missing, out of date or faulty: {count}."),
    # site
    pgettext("site.name", "Italian draughts rules"),
    pgettext("site.description", "The rules of Italian draughts (dama italiana), with diagrams checked by a rules engine."),
    pgettext("site.root_choose", "Choose your language"),
    pgettext("site.not_found", "Page not found"),
    pgettext("site.not_found_text", "There is no page at this address."),
    # nav
    pgettext("nav.about", "About"),
    # ui
    pgettext("ui.move", "Move:"),
    pgettext("ui.moves", "Moves:"),
    pgettext("ui.not_allowed", "Not allowed:"),
    pgettext("ui.rejected_by", "Rejected by {rule}:"),
    pgettext("ui.engine", "Checked by the engine:"),
    pgettext("ui.and", "and"),
    pgettext("ui.to_dark", "Switch to dark mode"),
    pgettext("ui.to_light", "Switch to light mode"),
    pgettext("ui.made_with", "Made with {tool}"),
    pgettext("ui.not_served", "not in this preview"),
    # theme: Material's labels, for screen readers
    pgettext("theme.header", "Header"),
    pgettext("theme.footer", "Footer"),
    # glossary: one entry, its headword and Italian term from docs/terms.yaml
    pgettext("glossary.entry", "**{term}** ({original}): {definition}"),
    pgettext("glossary.entry_plain", "**{term}**: {definition}"),
    # legend
    pgettext("legend.start", "start square"),
    pgettext("legend.landing", "landing squares"),
    pgettext("legend.order", "landing squares, numbered in jump order"),
    pgettext("legend.captured", "captured piece"),
    pgettext("legend.king", "king (crowned piece)"),
    pgettext("legend.rejected", "move not allowed"),
    pgettext("legend.white_to_move", "White to move"),
    pgettext("legend.black_to_move", "Black to move"),
    # position
    pgettext("position.white", "White"),
    pgettext("position.black", "Black"),
    pgettext("position.man", "man on {squares}"),
    pgettext("position.men", "men on {squares}"),
    pgettext("position.king", "king on {squares}"),
    pgettext("position.kings", "kings on {squares}"),
    pgettext("position.none", "no pieces"),
    pgettext("position.men_and_kings", "{men}; {kings}"),
    pgettext("position.side", "{side}: {pieces}."),
    pgettext("position.white_to_move", "White to move."),
    pgettext("position.black_to_move", "Black to move."),
    # steps
    pgettext("steps.group", "Step through the capture {move}"),
    pgettext("steps.first", "Start"),
    pgettext("steps.previous", "Previous step"),
    pgettext("steps.next", "Next step"),
    pgettext("steps.last", "Final position"),
    pgettext("steps.start", "Start: the capture {move} takes {count} pieces."),
    pgettext("steps.man_takes_man", "Step {n} of {total}: the man lands on {square}, taking the man on {captured}."),
    pgettext("steps.king_takes_man", "Step {n} of {total}: the king lands on {square}, taking the man on {captured}."),
    pgettext("steps.king_takes_king", "Step {n} of {total}: the king lands on {square}, taking the king on {captured}."),
    pgettext("steps.final", "Final position: the captured pieces on {captured} come off the board."),
    pgettext("steps.final_crowned", "Final position: the captured pieces on {captured} come off the board, and the man is crowned."),
    pgettext("steps.game_group", "Step through the game"),
    pgettext("steps.game_start", "The starting position."),
    pgettext("steps.game_move", "Move {label} {move}."),
    # alt
    pgettext("alt.start", "The start square, {square}, is filled in."),
    pgettext("alt.landing", "The landing square, {squares}, has a ring."),
    pgettext("alt.landings", "The landing squares, {squares}, have rings."),
    pgettext("alt.landings_numbered", "The landing squares, {squares}, have rings numbered in the order of the jumps."),
    pgettext("alt.captured_one", "The captured piece on {squares} has a ring and a corner badge."),
    pgettext("alt.captured", "The captured pieces on {squares} each have a ring and a corner badge."),
    pgettext("alt.arrow", "A solid arrow shows the move {moves}."),
    pgettext("alt.arrows", "Solid arrows show the moves {moves}."),
    pgettext("alt.rejected_arrow", "A dashed arrow, ending in a dashed ring, shows the move {moves}, which is not allowed."),
    pgettext("alt.rejected_arrows", "Dashed arrows, ending in dashed rings, show the moves {moves}, which are not allowed."),
    pgettext("alt.rejected_end", "A dashed ring marks where the move {moves} would end; it is not allowed."),
    pgettext("alt.rejected_ends", "Dashed rings mark where the moves {moves} would end; they are not allowed."),
    pgettext("alt.turn", "A small disc beside the board, on the side to move, shows whose turn it is."),
    pgettext("alt.empty_board", "Empty board: the 32 dark squares are numbered from 1, top left, to 32, bottom right."),
    # rules
    pgettext("rules.most-pieces", "most pieces"),
    pgettext("rules.with-king", "capture with a king"),
    pgettext("rules.most-kings", "most kings"),
    pgettext("rules.king-first", "king met first"),
    pgettext("rules.numbered", "rule {number} ({name})"),
    # explain
    pgettext("explain.caption", "What the engine compares, capture by capture:"),
    pgettext("explain.capture", "Capture"),
    pgettext("explain.pieces", "Pieces captured"),
    pgettext("explain.with_king", "With a king"),
    pgettext("explain.kings", "Kings captured"),
    pgettext("explain.king_places", "Kings met at"),
    pgettext("explain.verdict", "Verdict"),
    pgettext("explain.by_king_yes", "yes"),
    pgettext("explain.by_king_no", "no"),
    pgettext("explain.none", "–"),
    pgettext("explain.legal", "legal"),
    pgettext("explain.rejected", "ruled out by {rule}"),
    # engine
    pgettext("engine.setup_initial", "this is the starting position, and White has {count} legal moves."),
    pgettext("engine.setup_white", "the position is valid; White is to move."),
    pgettext("engine.setup_black", "the position is valid; Black is to move."),
    pgettext("engine.setup_empty", "the board is empty, and all 32 dark squares carry their number."),
    pgettext("engine.move", "{move} is legal: one of {count} possible moves, none of them a capture."),
    pgettext("engine.move_only", "{move} is legal, and it is the only possible move."),
    pgettext("engine.moves", "{moves} are legal moves; no capture is possible."),
    pgettext("engine.capture", "every legal move here is a capture, so a capture must be played; {move} is one of the {count} possible captures."),
    pgettext("engine.capture_only", "{move} is the only legal move: the capture is compulsory."),
    pgettext("engine.multi_capture", "{move} is legal and takes {count} pieces in a single move."),
    pgettext("engine.illegal", "{move} is not allowed: {reason}."),
    pgettext("engine.reason_backward", "a man never captures backwards"),
    pgettext("engine.reason_man-takes-king", "a man may not capture a king"),
    pgettext("engine.reason_capture-compulsory", "a capture is available, and capturing is compulsory"),
    pgettext("engine.reason_priority", "another capture has priority"),
    pgettext("engine.reason_occupied", "the landing square is not empty"),
    pgettext("engine.reason_not-diagonal", "pieces only move along the diagonals"),
    pgettext("engine.priority", "{move} is the only legal move; {rule} decides."),
    pgettext("engine.priority_many", "{rule} decides; {moves} remain legal."),
    pgettext("engine.free_choice", "{moves} tie on all four rules, so both are legal: the player chooses."),
    pgettext("engine.free_choice_many", "{moves} tie on all four rules, so all of them are legal: the player chooses."),
    pgettext("engine.promotion", "{move} ends on the last row: the man stops there and is crowned, although a king could go on capturing."),
    pgettext("engine.no_pieces_white", "White has no pieces left and has lost."),
    pgettext("engine.no_pieces_black", "Black has no pieces left and has lost."),
    pgettext("engine.blocked_white", "White is to move but has no legal move, and has lost."),
    pgettext("engine.blocked_black", "Black is to move but has no legal move, and has lost."),
    pgettext("engine.move_wins_white", "after {move} White has no legal move, and has lost."),
    pgettext("engine.move_wins_black", "after {move} Black has no legal move, and has lost."),
    # exercise
    pgettext("exercise.heading", "Exercise {number}: {title}"),
    pgettext("exercise.board", "Board of the exercise: choose a piece, then where it lands"),
    pgettext("exercise.square_empty", "{square}, empty"),
    pgettext("exercise.square_white_man", "{square}, white man"),
    pgettext("exercise.square_white_king", "{square}, white king"),
    pgettext("exercise.square_black_man", "{square}, black man"),
    pgettext("exercise.square_black_king", "{square}, black king"),
    pgettext("exercise.check", "Check"),
    pgettext("exercise.undo", "Undo"),
    pgettext("exercise.again", "Try again"),
    pgettext("exercise.show_answer", "Show the answer"),
    pgettext("exercise.solved", "Solved"),
    pgettext("exercise.progress", "Solved in this browser: {solved} of {total}."),
    pgettext("exercise.forget", "Forget my progress"),
    pgettext("exercise.choose_white", "Choose one of White's pieces: White is to play."),
    pgettext("exercise.choose_black", "Choose one of Black's pieces: Black is to play."),
    pgettext("exercise.chosen", "The piece on {square} is chosen. Now choose where it lands."),
    pgettext("exercise.landed", "It lands on {square}: {path}."),
    pgettext("exercise.go_on", "Choose the next landing square, or press Check."),
    pgettext("exercise.unreachable", "The piece cannot reach {square} from {from}: it steps one square diagonally, or jumps over an opposing piece."),
    pgettext("exercise.only_jump", "The piece cannot reach {square} from {from}: after a jump, it can only jump again, over an opposing piece."),
    pgettext("exercise.taken_back", "Taken back. Chosen so far: {path}."),
    pgettext("exercise.cleared", "Nothing is chosen."),
    pgettext("exercise.right_move", "Right: {move} is the only move the rules allow."),
    pgettext("exercise.right_any", "Right: {move} is allowed."),
    pgettext("exercise.right_win", "Right: after {move} the opponent cannot move, and loses."),
    pgettext("exercise.wrong_not_winning", "Allowed, but it does not win: after {move} the opponent can still play {reply}."),
    pgettext("exercise.wrong_crowned", "Not allowed: the man is crowned on {square}, and that ends the move."),
    pgettext("exercise.wrong_backward_step", "Not allowed: {move} goes backwards, and a man only moves forwards."),
    pgettext("exercise.wrong_backward_capture", "Not allowed: {move} captures backwards, and a man only captures forwards."),
    pgettext("exercise.wrong_man_takes_king", "Not allowed: in {move} a man would capture a king, and a man may not capture a king."),
    pgettext("exercise.wrong_must_capture", "Not allowed: capturing is compulsory, and {capture} is a capture."),
    pgettext("exercise.wrong_unfinished", "Not allowed: {move} stops halfway. A piece that can capture again must go on."),
    pgettext("exercise.wrong_most_pieces", "Not allowed: {best} takes more pieces than {move} ({best_count} against {count}), and the capture of the most pieces comes first (rule 1)."),
    pgettext("exercise.wrong_with_king", "Not allowed: {move} captures with a man, and {best} takes as many pieces with the king; the king must capture (rule 2)."),
    pgettext("exercise.wrong_most_kings", "Not allowed: {best} takes more kings than {move} ({best_count} against {count}), and the capture of the most kings comes first (rule 3)."),
    pgettext("exercise.wrong_king_first", "Not allowed: {best} meets a king sooner than {move}, and the capture that meets a king first comes first (rule 4)."),
    pgettext("exercise.wrong_other", "Not allowed: the rules do not allow {move}."),
    pgettext("exercise.no_script", "Without JavaScript the board cannot be played on: work out your answer, then open “Show the answer” under each exercise to see it, and why the rules allow it."),
    # the printed book, and the link to it on every page
    pgettext("ui.pdf", "Download the rules as PDF"),
    pgettext("book.contents", "Contents"),
    pgettext("book.solutions", "Solutions to the exercises"),
    pgettext("book.exercise", "Exercise {number}"),
    pgettext("book.page_reference", "{reference}, p. {page}"),
    pgettext("book.subject", "The rules of Italian draughts, as played under the rules of the Italian Draughts Federation (FID)"),
    pgettext("book.subtitle", "The rules of the Italian Draughts Federation, explained with diagrams"),
    pgettext("book.edition", "Edition of {date}"),
    pgettext("book.publisher", "Published by {publisher}."),
    # the project's own site_author: translated, and said as a whole sentence (a club's own
    # name is printed as written, in "Published by {publisher}.")
    pgettext("book.author", "The dama-diagrams contributors"),
    pgettext("book.published_by_author", "Published by the dama-diagrams contributors."),
    pgettext("book.licence", "Licence: {licence}. You may copy, print and share this book."),
    pgettext("book.sources", "Source: the technical rules of the Italian Draughts Federation (FID), Capo I, as published on www.federdama.org. Every diagram was checked against them by the rules engine on {date}."),
    pgettext("book.printed", "Printed on {date}."),
    pgettext("book.report", "Found an error? Please report it at {address}."),
    pgettext("book.same_diagram", "{caption} (See the diagram on p. {page}.)"),
    pgettext("book.solution", "Solution"),
    # theme: what Material and Python-Markdown write in English; {direction} is Material's
    # "Previous" or "Next", {title} a page's title (French: a no-break space before the colon)
    pgettext("theme.footer.link", "{direction}: {title}"),
    pgettext("theme.permalink", "Permanent link"),
])
# fmt: on
"""Every message of the code, by key, in English."""
