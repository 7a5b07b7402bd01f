"""League pictures: an event's standings and a server's leaderboard, a page at a time.

They draw plain rows (`StandingRow`, `LeaderRow`) that the service fills from the league's
own records, so the render layer never sees a league. Column headings are short and in
the language asked (`language`: the pictures are drawn in worker threads, which do not
see the caller's language); a legend under the table says what each short heading means.
Names are user text: made one safe line and cut with an ellipsis to fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from carca_bot.i18n import N_, Domain, speaking
from carca_bot.render.png import encode_rgb
from carca_bot.render.table import WIDTH, Column, Line, Paged, draw_table, page_of, safe_name

_T = Domain("render")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

PER_PAGE = 15  # rows on a page: the picture stays about as tall as a phone's screen
LEVEL = 6  # zlib level: these are drawn once per round, not per move


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in an event's standings. `tiebreaks` line up with the chain
    passed to `render_standings` (numbers are formatted here, text is shown as given)."""

    rank: int
    name: str
    played: int
    wins: int
    draws: int
    losses: int
    points: float
    tiebreaks: tuple[float | str, ...] = ()
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One player on a server's leaderboard; `rating` is the number players see."""

    rank: int
    name: str
    rating: float
    games: int
    provisional: bool = False


# The league's tie-break keys (carca_bot.league.Tiebreak values): short heading, legend.
TIEBREAK_HEADINGS: Mapping[str, tuple[str, str]] = {
    "wins": (N_("W"), N_("W: games won")),
    "buchholz": (N_("BH"), N_("BH: Buchholz (the opponents' wins)")),
    "buchholz_cut1": (N_("BH-1"), N_("BH-1: Buchholz less the weakest opponent")),
    "median": (N_("Med"), N_("Med: median Buchholz (less the weakest and the strongest "
                            "opponent)")),
    "sonneborn_berger": (N_("SB"), N_("SB: Sonneborn-Berger (each opponent's wins times "
                                      "your result against them)")),
    "difference": (N_("Diff"), N_("Diff: point difference")),
    "scored": (N_("Scored"), N_("Scored: points scored")),
    "head_to_head": (N_("H2H"), N_("H2H: head-to-head")),
    "placing": (N_("PP"), N_("PP: placing points")),
}
POOLS = ("duel", "multi")  # carca_bot.league.Pool values


def number(value: float | str, signed: bool = False) -> str:
    """A score as players write it: 3, 2½, -1½, 12.3 (one decimal beyond halves); text is
    shown as it is. `signed` puts + on positive numbers (a difference)."""
    if isinstance(value, str):
        return value
    sign = "+" if signed and value > 0 else ""
    if value == int(value):
        return f"{sign}{int(value)}"
    if (2 * value) == int(2 * value):
        whole = int(abs(value))
        return f"{sign}{'-' if value < 0 else ''}{whole if whole else ''}½"
    return f"{sign}{value:.1f}"


def standing_columns(tiebreaks: Sequence[str]) -> tuple[list[Column], list[str]]:
    """The columns for a tie-break chain, and the legend of their short headings.

    Call inside `speaking(language)`.
    """
    columns = [
        Column("", rank=True),
        # TRANSLATORS: column heading over the players' names.
        Column(_("Player"), align="left", stretch=True),
        # TRANSLATORS: short column headings of standings: games played, won, drawn, lost.
        Column(pgettext("standings", "P")),
        Column(pgettext("standings", "W")),
        Column(pgettext("standings", "D")),
        Column(pgettext("standings", "L")),
        Column(pgettext("standings", "Pts")),
    ]
    legend = [pgettext("standings", "P: games played"), pgettext("standings", "W: won"),
              pgettext("standings", "D: drawn"), pgettext("standings", "L: lost"),
              pgettext("standings", "Pts: points")]
    for key in tiebreaks:
        if key in TIEBREAK_HEADINGS:
            heading, meaning = TIEBREAK_HEADINGS[key]
            columns.append(Column(_(heading)))
            legend.append(_(meaning))
        else:  # a tie-break this picture has no words for: its key, cut short
            columns.append(Column(safe_name(key)[:12]))
    return columns, legend


def tiebreak_headings(keys: Sequence[str]) -> list[str]:
    """The short headings of these tie-breaks, as the picture heads its columns, in the
    language spoken (the bot's text table uses them too)."""
    columns, _legend = standing_columns(keys)
    return [c.heading for c in columns[len(columns) - len(keys):]]


def _page_note(page: int, pages: int) -> str:
    return _("Page {page} of {pages}").format(page=page, pages=pages) if pages > 1 else ""


def render_standings(rows: Sequence[StandingRow], *, event: str,
                     tiebreaks: Sequence[str] = (), round_no: int | None = None,
                     rounds: int | None = None, final: bool = False, language: str = "en",
                     page: int = 1, per_page: int = PER_PAGE,
                     width: int = WIDTH) -> Paged:
    """One page of an event's standings as PNG bytes, with the page drawn and the count.

    `event` is the event's name (user text); `tiebreaks` the chain's keys in order
    (`TIEBREAK_HEADINGS`), one value per key in each row; `round_no` of `rounds` says how
    far the event is; `final` titles it the final standings.
    """
    shown, page, pages = page_of(rows, page, per_page)
    with speaking(language):
        columns, legend = standing_columns(tiebreaks)
        lines = [event]
        if round_no is not None:
            lines.append(_("After round {n} of {total}").format(n=round_no, total=rounds)
                         if rounds else _("After round {n}").format(n=round_no))
        body: list[Line] = []
        for row in shown:
            # TRANSLATORS: after the name of a player who left an event.
            note = _("(withdrawn)") if row.withdrawn else ""
            values = [number(v, signed=key == "difference")
                      for key, v in zip(tiebreaks, row.tiebreaks, strict=False)]
            body.append(Line((str(row.rank), safe_name(row.name), str(row.played),
                              str(row.wins), str(row.draws), str(row.losses),
                              number(row.points), *values),
                             muted=row.withdrawn, strong=row.rank == 1, note=note))
        img = draw_table(_("Final standings") if final else _("Standings"), lines, columns,
                         body, legend=legend, corner=_page_note(page, pages),
                         empty=_("Nobody has signed up yet."), width=width)
    return Paged(encode_rgb(img, LEVEL), page, pages)


def render_leaderboard(rows: Sequence[LeaderRow], *, server: str, pool: str = "duel",
                       provisional_games: int = 10, language: str = "en", page: int = 1,
                       per_page: int = PER_PAGE, width: int = WIDTH) -> Paged:
    """One page of a server's leaderboard for one rating pool ("duel": 2-player games,
    "multi": 3 to 6 players) as PNG bytes, with the page drawn and the count.

    `server` is the server's name (user text). Provisional ratings (fewer than
    `provisional_games` rated games) are greyed and marked "?".
    """
    if pool not in POOLS:
        raise ValueError(f"pool must be one of {POOLS}, not {pool!r}")
    shown, page, pages = page_of(rows, page, per_page)
    with speaking(language):
        columns = [Column("", rank=True), Column(_("Player"), align="left", stretch=True),
                   # TRANSLATORS: leaderboard column headings.
                   Column(_("Rating"), align="right"), Column(_("Games"))]
        kind = (_("2-player games") if pool == "duel" else _("Games of 3 to 6 players"))
        body = [Line((str(row.rank), safe_name(row.name),
                      f"{row.rating:.1f}" + ("?" if row.provisional else ""), str(row.games)),
                     muted=row.provisional, strong=row.rank == 1) for row in shown]
        legend = [ngettext("?: provisional, fewer than {n} rated game",
                           "?: provisional, fewer than {n} rated games",
                           provisional_games).format(n=provisional_games)]
        img = draw_table(_("Leaderboard"), [server, kind], columns, body,
                         legend=legend if any(r.provisional for r in shown) else (),
                         corner=_page_note(page, pages), empty=_("No rated games yet."),
                         width=width)
    return Paged(encode_rgb(img, LEVEL), page, pages)
