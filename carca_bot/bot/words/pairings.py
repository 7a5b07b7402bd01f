"""Why each match of a round was made, in words an organiser can read (`/carc-event
pairings`): the service's reasons (`carca_bot.league.Why`: a code, why the first player
goes first, each seat's points, whether they had met, whether a first-seat limit was
passed) and the round's counts (pairs across score groups, rematches, the seat limit)."""

from __future__ import annotations

from collections.abc import Sequence

from carca_bot.bot.words import text
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import N_, Domain
from carca_bot.render.league import number
from carca_bot.service.league_ops import PairedMatch, PairingsView

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

WHY_WORDS = {
    "same_group": N_("same score group"),
    "floated": N_("across score groups: the higher group could not be paired within itself"),
    "bye": N_("a bye, to the lowest-ranked player who had not had one"),
    "bye_again": N_("a bye, though everyone had had one already"),
    "schedule": N_("the round robin's schedule"),
    "bracket": N_("the bracket: winners of the round before"),
    "winners_bracket": N_("winners' bracket"),
    "losers_bracket": N_("losers' bracket"),
    "grand_final": N_("grand final"),
    "bracket_reset": N_("the grand final played again: the losers' side won the first"),
    "third_place": N_("the match for third place"),
    "table": N_("a table of players close in the standings"),
}
SEAT_WORDS = {
    "fewer_first_seats": N_("{name} goes first: fewer first seats so far"),
    "second_last_time": N_("{name} goes first: second seat last time"),
    "alternating_boards": N_("{name} goes first: their seats so far are level, so boards "
                             "alternate"),
    "seed": N_("{name} goes first: the higher seed"),
    "schedule": N_("{name} goes first: by the schedule"),
}


def match_line(view: PairingsView, match: PairedMatch) -> str:
    """'**r2-1** Ana (2) – Ben (2): same score group; Ana goes first: …'."""
    why = match.why
    points = why.points if why is not None else ()
    seats = [safe_name(u.name) + (f" ({number(points[k])})" if k < len(points) else "")
             for k, u in enumerate(match.players)]
    head = f"**{match.match_id}** " + " – ".join(seats)
    if match.decided and len(match.players) > 1:  # a bye is decided from the start
        head += " ✓"
    if why is None:
        return head + ": " + _("paired before reasons were kept")
    if why.code == "bye" and view.format != "swiss":
        said = [_("a bye")]
    else:
        said = [_(WHY_WORDS[why.code]) if why.code in WHY_WORDS else why.code]
    if why.seat in SEAT_WORDS and len(match.players) > 1:
        said.append(_(SEAT_WORDS[why.seat]).format(name=safe_name(match.players[0].name)))
    if why.met and len(match.players) == 2:
        said.append(_("they had met before: no pairing could avoid it"))
    elif why.met:
        said.append(ngettext("{n} pair here had met before: no seating could avoid it",
                             "{n} pairs here had met before: no seating could avoid it",
                             why.met).format(n=why.met))
    if why.beyond_limit:
        said.append(_("a first-seat count passes the limit: nothing else could be paired"))
    return head + ": " + "; ".join(said)


def round_summary(view: PairingsView) -> str:
    """The round's counts: pairs across score groups and rematches in a Swiss, repeat
    opponents at tables, and the first-seat limit."""
    if view.format == "swiss":
        return _("Pairs across score groups: {crossings} · rematches: {rematches} · first "
                 "seats: at most {limit} more than second seats, or the other way "
                 "round.").format(crossings=view.crossings, rematches=view.rematches,
                                  limit=view.seat_limit)
    if view.format == "tables":
        repeats = sum(m.why.met for m in view.matches if m.why is not None)
        return _("Pairs of players who meet again at a table: {repeats}.").format(
            repeats=repeats)
    return ""


def pairings_text(view: PairingsView, event: str) -> str:
    """The whole answer: a heading, the counts, then one line per match (whole lines
    only, as many as fit; the number left out is said)."""
    head = [_("{event}: why each match of round {round} was made.").format(
        event=event, round=view.round)]
    summary = round_summary(view)
    if summary:
        head.append(summary)
    return fitting(head, [f"• {match_line(view, m)}" for m in view.matches])


def fitting(head: Sequence[str], lines: Sequence[str]) -> str:
    """`head` and as many of `lines` as fit one message, then how many were left out."""
    out, room = list(head), text.MAX_CONTENT - sum(len(h) + 1 for h in head) - 60
    for k, line in enumerate(lines):
        if len(line) + 1 > room:
            out.append(_("… and {n} more.").format(n=len(lines) - k))
            break
        out.append(line)
        room -= len(line) + 1
    return "\n".join(out)
