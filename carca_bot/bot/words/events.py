"""Tournaments and leagues in words: an event's line, its formats and states, a pairing's
players, a game thread's name, and the standings as a text table (when the pictures
cannot go)."""

from __future__ import annotations

from collections.abc import Sequence

from carca_bot.bot.words.safe import plain, safe_name
from carca_bot.i18n import N_, Domain
from carca_bot.render.league import number, tiebreak_headings
from carca_bot.service import EventInfo, Pairing, Standing

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

TABLE_ROWS = 40  # standings lines in a message; the CSV holds them all
NAME_WIDTH = 18
TABLE_TIEBREAKS = 2  # tie-break columns in the text table (the picture and CSV show all)
COLUMN = 6


def status_words(status: str) -> str:
    words = {"signup": _("taking sign-ups"), "running": _("running"),
             "finished": _("finished"), "cancelled": _("cancelled")}
    return words.get(status, status)


def format_words(kind: str) -> str:
    words = {"swiss": _("Swiss"), "round_robin": _("round robin"), "knockout": _("knockout"),
             "tables": _("multiplayer tables"),
             "double_elimination": _("double elimination")}
    return words.get(kind, kind)


# The tie-break menu (`carca_bot.league.Tiebreak` values), as organisers read it.
TIEBREAK_NAMES = {
    "wins": N_("wins"),
    "buchholz": N_("Buchholz"),
    "buchholz_cut1": N_("Buchholz cut-1"),
    "median": N_("median Buchholz"),
    "sonneborn_berger": N_("Sonneborn-Berger"),
    "difference": N_("point difference"),
    "scored": N_("points scored"),
    "head_to_head": N_("head-to-head"),
    "placing": N_("placing points"),
}


def tiebreak_name(key: str) -> str:
    """'buchholz_cut1' -> 'Buchholz cut-1' (in the language spoken)."""
    return _(TIEBREAK_NAMES[key]) if key in TIEBREAK_NAMES else key


def chain_words(chain: Sequence[str]) -> str:
    """'wins, then Buchholz, then point difference'."""
    said = ""
    for key in chain:
        # TRANSLATORS: tie-breaks in the order they apply: "wins, then Buchholz".
        said = _("{earlier}, then {later}").format(earlier=said, later=tiebreak_name(
            key)) if said else tiebreak_name(key)
    return said


def event_line(info: EventInfo) -> str:
    """'#3 **Autumn cup** · Swiss · 8 players · running (round 2 of 5)'."""
    event = info.event
    players = ngettext("{n} player", "{n} players", len(event.entrants)).format(
        n=len(event.entrants))
    line = _("#{id} **{title}** · {format} · {players} · {status}").format(
        id=info.id, title=safe_name(info.title, 80), format=format_words(info.config.format),
        players=players, status=status_words(info.status))
    if event.started:
        line += " " + _("(round {round} of {rounds})").format(round=len(event.rounds),
                                                              rounds=event.total_rounds)
    return line


def players_line(pairing: Pairing) -> str:
    return " – ".join(safe_name(u.name) for u in pairing.players)


def thread_name(info: EventInfo, pairing: Pairing) -> str:
    # TRANSLATORS: the name of an event game's thread: the event, the round, the players.
    name = _("{event} · round {round} · {players}").format(
        event=info.title, round=pairing.round,
        players=" – ".join(u.name for u in pairing.players))
    if pairing.game_index:
        name += " · " + _("game {n}").format(n=pairing.game_index + 1)
    return plain(name, 100)


def standings_table(info: EventInfo, rows: Sequence[Standing],
                    chain: Sequence[str] = ()) -> str:
    """The standings as a fixed-width table in a code block (names made harmless there):
    place, name, points (placing points at tables, else wins), the first TABLE_TIEBREAKS
    of the event's tie-breaks `chain` (short headings as in the picture), games."""
    tables = info.config.format == "tables"
    shown = list(chain)[:TABLE_TIEBREAKS]
    heads = [pgettext("standings table", "Pts") if tables
             else pgettext("standings table", "Wins"),
             *tiebreak_headings(shown), pgettext("standings table", "Games")]
    # TRANSLATORS: short headings of the standings' text table: place, player.
    place, player = pgettext("standings table", "Pl."), pgettext("standings table", "Player")
    lines = [f"{place[:4]:<4} {player[:NAME_WIDTH]:<{NAME_WIDTH}}"
             + "".join(f" {h[:COLUMN]:>{COLUMN}}" for h in heads)]
    for r in rows[:TABLE_ROWS]:
        name = plain(r.name, NAME_WIDTH).replace("`", "'")
        cells = [number(r.placing if tables else r.wins),
                 *(_cell(r, k) for k in shown), str(r.played)]
        lines.append(f"{r.place:>3}{'*' if r.withdrawn else ' '} {name:<{NAME_WIDTH}}"
                     + "".join(f" {c:>{COLUMN}}" for c in cells))
    body = "\n".join(lines)
    extra = ""
    if len(rows) > TABLE_ROWS:
        extra = "\n" + _("… and {n} more in the CSV file.").format(n=len(rows) - TABLE_ROWS)
    if any(r.withdrawn for r in rows):
        extra += "\n" + _("* withdrew")
    return f"```\n{body}\n```{extra}"


def _cell(row: Standing, key: str) -> str:
    """A tie-break's value as the picture writes it; a dash where it was not needed."""
    value = getattr(row, key, None)
    return "—" if value is None else number(float(value), signed=key == "difference")
