"""A game's public past for Discord: the table after any move, and the pile's counts.

Everything starts from the committed actions replayed WITHOUT the seed
(`carca_bot.service.history.public_setup`): the seed fixes the order of the pile and
the turn being played may hold a tile only its player has seen; neither is in the
replayed game, so no post or picture made from it can show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from carca_bot.bot import text
from carca_bot.bot.safe import safe_name, sentence
from carca_bot.engine.events import Event
from carca_bot.engine.game import Game
from carca_bot.i18n import Domain
from carca_bot.service.history import public_setup
from carca_bot.words import say

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

EVENT_LINES = 20  # lines of what a move did; the rest is counted (`/carc score` lists all)


@dataclass(frozen=True)
class Moment:
    """The game right after move `number` (0: before the first), as anyone may see it."""

    number: int
    total: int  # moves committed so far
    finished: bool
    names: tuple[str, ...]
    action: dict[str, Any] | None  # move `number` as recorded (public once played)
    events: tuple[Event, ...]  # what it did and scored
    scores: tuple[int, ...]
    table: Game  # the public game after the move, for `render_board`


def moment(game: Game, number: int) -> Moment:
    """CPU work (a replay): call it from a worker thread. `number` is clamped."""
    actions = [dict(a) for a in game.history]
    total = len(actions)
    number = max(0, min(number, total))
    walk = Game.replay(public_setup(game.setup), actions[:max(number - 1, 0)])
    action: dict[str, Any] | None = None
    events: tuple[Event, ...] = ()
    if number:
        action = actions[number - 1]
        events = tuple(walk.apply(dict(action)))
    return Moment(number, total, game.finished, tuple(game.players), action, events,
                  tuple(walk.scores), walk)


def action_words(action: dict[str, Any]) -> str:
    """A recorded move in whole sentences, the moves public posts do not tell too."""
    if "end" in action:
        return _("The pile ran out: the final scoring.")
    if "discard" in action:
        return _("{who} drew {tile}, which fits nowhere, so it left the game.").format(
            who=f"**{safe_name(str(action.get('by', '?')))}**", tile=action["discard"])
    return text.describe_action(action)


def moment_text(game_id: int, m: Moment) -> str:
    """The words of a history post: which move, who did what, what it scored."""
    names = list(m.names)
    if m.number == 0:
        head = _("Game #{game}: the start, before move 1 of {total}.").format(
            game=game_id, total=m.total)
    else:
        head = _("Game #{game}: move {move} of {total}.").format(
            game=game_id, move=m.number, total=m.total)
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
