"""Alt text of the end-of-game pictures (the summary card, the score chart, the animated
replay) and of the pile's tiles (`/carc-tiles`), as `carca_bot.words.alt` writes the
game's: in the language being spoken, within `ALT_LIMIT`, the ranking always kept.

| picture | function |
|---|---|
| the end-of-game summary card (`render.summary.render_summary`) | `summary_alt` |
| the score chart (`render.chart.render_score_chart`) | `chart_alt` |
| the animated replay (`render.replay.render_replay`) | `replay_alt` |
| the tiles left in the pile (`render.pile.render_pile`) | `pile_alt` |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from carca_bot.i18n import N_, Domain
from carca_bot.words.alt import name, ranking_words, within
from carca_bot.words.tiles import tile_name

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext

CATEGORY_WORDS = {
    "cities": N_("cities"), "roads": N_("roads"), "monasteries": N_("monasteries"),
    "fields": N_("fields"), "barns": N_("barns"), "gardens": N_("gardens"),
    "titles": N_("titles"), "other": N_("other"),
}  # the end-of-game card's categories (`render.summary.CATEGORIES`), as alt text says them


class Tally(Protocol):
    """The end-of-game numbers (`carca_bot.render.summary.Tally`)."""

    @property
    def names(self) -> Sequence[str]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def categories(self) -> Sequence[Mapping[str, int]]: ...
    @property
    def curves(self) -> Sequence[Sequence[int]]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def moves(self) -> int: ...
    @property
    def final(self) -> Sequence[int]: ...


def _ranking_or_scores(tally: Tally) -> str:
    if tally.finished:
        return ranking_words(tally.names, tally.scores)
    return _("Scores so far: {scores}.").format(scores=", ".join(
        _("{name} {score}").format(name=name(n), score=s)
        for n, s in zip(tally.names, tally.scores, strict=False)))


def summary_alt(tally: Tally) -> str:
    """The end-of-game summary card: the ranking, each player's points by category,
    then the chart under it (with the final scoring's bars, `Tally.final`)."""
    what = (_("The final ranking, points by category and each player's score over the "
              "game.") if tally.finished else
            _("The scores so far, points by category and each player's score over the "
              "game."))
    details = []
    for p, points in enumerate(tally.categories):
        parts = [f"{_(CATEGORY_WORDS[k]) if k in CATEGORY_WORDS else k} {v}"
                 for k, v in points.items() if v]
        if parts and p < len(tally.names):
            details.append(_("{name}: {points}").format(name=name(tally.names[p]),
                                                        points=", ".join(parts)))
    by = _("By category: {details}.").format(details="; ".join(details)) if details else ""
    return within([(what, 0), (_ranking_or_scores(tally), 0), (by, 2),
                   (_final_words(tally.names, tally.final), 1)])


def chart_alt(tally: Tally, final: Sequence[int] = ()) -> str:
    """The score chart: each player's score over the moves; `final`: the points each
    player got at the final scoring, drawn as its own bars."""
    what = ngettext("Each player's score after each of {n} move, one line per player in "
                    "their colour.", "Each player's score after each of {n} moves, one "
                    "line per player in their colour.", tally.moves).format(n=tally.moves)
    return within([(what, 0), (_ranking_or_scores(tally), 0),
                   (_final_words(tally.names, final), 1)])


def _final_words(names: Sequence[str], final: Sequence[int]) -> str:
    """What the final scoring added, drawn as its own bars on the chart (none: empty)."""
    if not any(final):
        return ""
    return _("The final scoring, drawn as its own bars, added: {points}.").format(
        points=", ".join(_("{name} {score}").format(name=name(n), score=f)
                         for n, f in zip(names, final, strict=False)))


def replay_alt(tally: Tally) -> str:
    """The animated replay of the whole game."""
    what = ngettext("An animation of the whole game, {n} move, tile by tile; each frame "
                    "says what the move did.", "An animation of the whole game, {n} "
                    "moves, tile by tile; each frame says what the move did.",
                    tally.moves).format(n=tally.moves)
    return within([(what, 0), (_ranking_or_scores(tally), 0)])


def pile_alt(pile: Sequence[tuple[str, int]]) -> str:
    """The tiles left in the pile, counted by kind (`service.history.pile`)."""
    total = sum(n for _t, n in pile)
    what = ngettext("{n} tile is left in the pile.", "{n} tiles are left in the pile.",
                    total).format(n=total)
    kinds = sorted(pile, key=lambda item: -item[1])
    listed = "; ".join(_("{count} × {tile}").format(count=n, tile=tile_name(t))
                       for t, n in kinds)
    return within([(what, 0), (_("By kind: {kinds}.").format(kinds=listed) if pile else "",
                               1)])
