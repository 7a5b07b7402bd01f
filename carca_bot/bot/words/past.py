"""A game's public past in words: a moment of its history, and the pile's counts.

The moment comes from the service (`GameService.moment`), replayed from the committed
actions WITHOUT the seed: the seed fixes the order of the pile and the turn being
played may hold a tile only its player has seen; neither is in it, so no post or
picture made from it can show them.
"""

from __future__ import annotations

from collections.abc import Sequence

from carca_bot.bot.words import text
from carca_bot.bot.words.safe import safe_name, sentence
from carca_bot.engine.moves import DeclareEnd, Discard
from carca_bot.i18n import Domain
from carca_bot.service import Moment, Played
from carca_bot.words import say

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

EVENT_LINES = 20  # lines of what a move did; the rest is counted (`/carc score` lists all)


def action_words(done: Played) -> str:
    """A played action in whole sentences, the ones public posts do not tell too."""
    for move in done.moves:
        if isinstance(move, DeclareEnd):
            return _("The pile ran out: the final scoring.")
        if isinstance(move, Discard):
            return _("{who} drew {tile}, which fits nowhere, so it left the game.").format(
                who=f"**{safe_name(done.by or '?')}**", tile=move.tile)
    return text.describe(done)


def moment_text(m: Moment) -> str:
    """The words of a history post: which move, who did what, what it scored."""
    names = list(m.names)
    if m.number == 0:
        head = _("Game #{game}: the start, before move 1 of {total}.").format(
            game=m.game_id, total=m.total)
    else:
        head = _("Game #{game}: move {move} of {total}.").format(
            game=m.game_id, move=m.number, total=m.total)
    lines = [f"**{head}**"]
    if not m.finished:
        lines.append(_("The game is still being played: ⏭ shows the newest move."))
    if m.action is not None:
        said = action_words(m.action)
        if said:
            lines.append(said)
    told = [f"• {sentence(say(e, names), names)}" for e in m.events]
    lines.extend(told[:EVENT_LINES])
    if len(told) > EVENT_LINES:
        more = len(told) - EVENT_LINES
        lines.append(ngettext("• … and {n} more (see `/carc score`).",
                              "• … and {n} more (see `/carc score`).", more).format(n=more))
    lines.append(_("Scores: {scores}").format(scores=scores_line(names, m.scores)))
    return text.clip("\n".join(lines))


def scores_line(names: Sequence[str], scores: Sequence[int]) -> str:
    return " · ".join(f"{safe_name(n)} {s}" for n, s in zip(names, scores, strict=True))


def pile_text(game_id: int, counts: Sequence[tuple[str, int]]) -> str:
    total = sum(n for _tile, n in counts)
    if not total:
        return _("Game #{game}: the pile is empty.").format(game=game_id)
    return ngettext("Game #{game}: {n} tile left in the pile, counted by kind (the order "
                    "they come in is secret).",
                    "Game #{game}: {n} tiles left in the pile, counted by kind (the order "
                    "they come in is secret).", total).format(game=game_id, n=total)
