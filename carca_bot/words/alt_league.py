"""Alt text of the league's pictures: an event's standings, a server's leaderboard and a
player's profile card, as `carca_bot.words.alt` writes the game's: what the picture is,
then its rows in order, in the language being spoken, within `ALT_LIMIT` (the rows at
the bottom are cut first; the heading always stays).

| picture | function |
|---|---|
| an event's standings, one page (`render.league.render_standings`) | `standings_alt` |
| a server's leaderboard, one page (`render.league.render_leaderboard`) | `leaderboard_alt` |
| a player's profile card (`render.league_profile.render_profile`) | `profile_alt` |

Each takes the rows the picture draws (the render module's own row types, read through
the protocols below), so the words say exactly what the picture shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from carca_bot.i18n import Domain
from carca_bot.words.alt import name, within

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext


class StandingLine(Protocol):
    """One player's line of the standings (`carca_bot.render.league.StandingRow`)."""

    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def played(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def points(self) -> float: ...
    @property
    def withdrawn(self) -> bool: ...


class LeaderLine(Protocol):
    """One player on a leaderboard (`carca_bot.render.league.LeaderRow`)."""

    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def rating(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def provisional(self) -> bool: ...


class ProfileFacts(Protocol):
    """What a profile card shows (`carca_bot.render.league_profile.ProfileCard`)."""

    @property
    def name(self) -> str: ...
    @property
    def rating2(self) -> float | None: ...
    @property
    def rating_multi(self) -> float | None: ...
    @property
    def provisional2(self) -> bool: ...
    @property
    def provisional_multi(self) -> bool: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def average_score(self) -> float | None: ...
    @property
    def recent_results(self) -> Sequence[tuple[int, int]]: ...


def number(value: float) -> str:
    """A score or a number of points as the pictures write it: 3, 2.5."""
    return f"{value:g}"


def _page(page: int, pages: int) -> str:
    return _("Page {page} of {pages}.").format(page=page, pages=pages) if pages > 1 else ""


def standing_words(row: StandingLine) -> str:
    """'1. Ana, 3 points (3 won, 0 drawn, 1 lost)', '(withdrawn)' after it if so."""
    points = ngettext("{points} point", "{points} points",
                      int(row.points) if row.points == int(row.points) else 2).format(
        points=number(row.points))
    said = _("{rank}. {name}, {points} ({won} won, {drawn} drawn, {lost} lost)").format(
        rank=row.rank, name=name(row.name), points=points, won=row.wins, drawn=row.draws,
        lost=row.losses)
    return _("{line} (withdrawn)").format(line=said) if row.withdrawn else said


def standings_alt(event: str, rows: Sequence[StandingLine], *, page: int = 1,
                  pages: int = 1, round_no: int | None = None, rounds: int | None = None,
                  final: bool = False) -> str:
    """One page of an event's standings: `rows` are the lines it draws, best first."""
    title = name(event)
    if final:
        head = _("The final standings of {event}.").format(event=title)
    elif round_no and rounds:
        head = _("The standings of {event} after round {round} of {rounds}.").format(
            event=title, round=round_no, rounds=rounds)
    elif round_no:
        head = _("The standings of {event} after round {round}.").format(
            event=title, round=round_no)
    else:
        head = _("The standings of {event}.").format(event=title)
    lines = "; ".join(standing_words(r) for r in rows) + "." if rows else _(
        "Nobody has signed up yet.")
    return within([(head, 0), (_page(page, pages), 0), (lines, 1)])


def leader_words(row: LeaderLine) -> str:
    """'1. Ana 1520.4 (34 games)', or '(12 games, provisional)'."""
    games = ngettext("{n} game", "{n} games", row.games).format(n=row.games)
    if row.provisional:
        games = _("{games}, provisional").format(games=games)
    return _("{rank}. {name} {rating} ({games})").format(
        rank=row.rank, name=name(row.name), rating=f"{row.rating:.1f}", games=games)


def leaderboard_alt(server: str, pool: str, rows: Sequence[LeaderLine], *, page: int = 1,
                    pages: int = 1) -> str:
    """One page of a server's leaderboard in one rating pool (`pool`, worded already:
    "duels"); `rows` are the lines it draws, best first."""
    head = _("The leaderboard of {server}, {pool}.").format(server=name(server), pool=pool)
    lines = "; ".join(leader_words(r) for r in rows) + "." if rows else _(
        "No rated games yet.")
    return within([(head, 0), (_page(page, pages), 0), (lines, 1)])


def _rating(value: float | None, provisional: bool) -> str:
    if value is None:
        return _("none yet")
    if provisional:
        return _("{rating} (provisional)").format(rating=f"{value:.1f}")
    return f"{value:.1f}"


def profile_alt(card: ProfileFacts) -> str:
    """A player's profile card: ratings, games and wins, average score, latest places."""
    head = _("The profile of {name}.").format(name=name(card.name))
    if not card.games and card.rating2 is None and card.rating_multi is None:
        return within([(head, 0), (_("No finished game here yet."), 0)])
    ratings = _("2-player rating: {duel}. Multiplayer rating: {multi}.").format(
        duel=_rating(card.rating2, card.provisional2),
        multi=_rating(card.rating_multi, card.provisional_multi))
    games = ngettext("{n} game, {wins} won.", "{n} games, {wins} won.", card.games).format(
        n=card.games, wins=card.wins)
    average = "" if card.average_score is None else _("Average score: {score}.").format(
        score=f"{card.average_score:.1f}")
    recent = ""
    if card.recent_results:
        recent = _("Latest places, newest first: {places}.").format(places="; ".join(
            _("{place} of {players}").format(place=p, players=n)
            for p, n in card.recent_results))
    return within([(head, 0), (ratings, 0), (games, 0), (average, 1), (recent, 2)])
