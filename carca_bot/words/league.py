"""Words for the refusals of ratings and events (`carca_bot.service` league codes):
merged into `carca_bot.words.service.SERVICE_REFUSALS`, so `say` says them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from carca_bot.i18n import Domain

_T = Domain("words")
_ = _T.gettext

Params = Mapping[str, Any]

REFUSALS: dict[str, Callable[[Params], str]] = {
    # who may run events
    "not_organiser": lambda p: _(
        "only organisers can do that: members of the organiser role chosen by a server "
        "admin, or the server's admins"),
    "admin_only": lambda p: _(
        "only members with the Manage Server permission can choose the organiser role"),
    # finding events
    "no_event": lambda p: _("there is no event {event} on this server").format(
        event=p.get("event", "?")),
    "no_league": lambda p: _("there is no league of that name on this server"),
    "league_exists": lambda p: _("a league of that name already exists on this server"),
    "event_changed": lambda p: _(
        "the event changed while your command was on its way; nothing was done: try again"),
    "event_cancelled": lambda p: _("this event was cancelled"),
    "event_not_running": lambda p: _("this event is not running: its games cannot be opened"),
    "pairing_stale": lambda p: _("that game is no longer needed: the match has moved on"),
    "game_already_open": lambda p: _("that match's game is already open"),
    "league_no_title": lambda p: _("give the event a name"),
    # ratings
    "no_result": lambda p: _("game {game} has no recorded result").format(
        game=p.get("game", "?")),
    "bad_ranks": lambda p: _("give a place to every player of the game"),
    "unknown_pool": lambda p: _("the leaderboards are duel and multi"),
    "bad_page": lambda p: _("pages start at 1"),
    # the event itself (carca_bot.league's codes)
    "league_refused": lambda p: _("the event cannot do that"),
    "league_already_entered": lambda p: _("you are already signed up for this event"),
    "league_event_full": lambda p: _("this event is full"),
    "league_no_late_entries": lambda p: _(
        "this event has started and takes no late entries"),
    "league_event_over": lambda p: _("the event's last round has been paired"),
    "league_already_withdrawn": lambda p: _("that player has already withdrawn"),
    "league_not_entered": lambda p: _("that player is not in this event"),
    "league_already_started": lambda p: _("this event has already started"),
    "league_too_few_players": lambda p: _("there are not enough players to pair a round"),
    "league_not_started": lambda p: _("the event has not started yet"),
    "league_round_open": lambda p: _(
        "the round is not over: every match must have its result before the next round"),
    "league_no_match": lambda p: _("there is no match of that name in this event"),
    "league_already_decided": lambda p: _(
        "this match already has its result: an organiser can override it"),
    "league_no_games": lambda p: _("give the scores of at least one game"),
    "league_no_winner": lambda p: _("a knockout match needs a winner"),
    "league_one_game": lambda p: _("this match is a single game: give one game's scores"),
    "league_not_in_match": lambda p: _("name players of this match"),
    "league_bye": lambda p: _("a bye has no game and no opponent"),
    "league_nothing_to_appeal": lambda p: _("this match has no organiser ruling to appeal"),
    "league_wrong_players": lambda p: _("the scores must be for this match's players"),
    "league_bad_score": lambda p: _("scores are whole numbers from 0 to 10000"),
    "league_already_advanced": lambda p: _(
        "the next knockout round is paired: this match can no longer change"),
    "league_bad_rounds": lambda p: _("a Swiss or table event needs 1 to 99 rounds"),
    "league_bad_best_of": lambda p: _("best of must be an odd number from 1 to 9"),
    "league_bad_groups": lambda p: _("a round robin has 1 to 26 groups"),
    "league_bad_table_size": lambda p: _("tables seat 3 to 6 players"),
    "league_bad_deadline": lambda p: _("a round needs time to be played: give it at least a day"),
    "league_bad_tiebreaks": lambda p: _("name each tie-break at most once"),
    "league_not_finished": lambda p: _(
        "the season is not over: every division must play its last round first"),
    "league_twice": lambda p: _("a player cannot be in two divisions"),
    "league_bad_moves": lambda p: _(
        "a division cannot promote and relegate more players than it has"),
    "league_bad_format": lambda p: _("that is not an event this bot can read"),
    "league_bad_timeout_rule": lambda p: _(
        "after repeated time-outs: none, forfeit or expel, after 1 to 20 time-outs"),
    # rulings after the end, pairings, leagues (issue 28)
    "event_would_reopen": lambda p: _(
        "the event is over: a ruling must leave every match with a result"),
    "league_no_round": lambda p: _("this event has rounds 1 to {rounds}").format(
        rounds=p.get("rounds", "?")),
    "pairing_busy": lambda p: _("the pairing could not be made just now: try again"),
    "league_from_division": lambda p: _(
        "event #{event} is a division of the league {league}: a league starts from a "
        "sign-up event of its own").format(event=p.get("event", "?"),
                                           league=p.get("league", "?")),
    "league_signups_closed": lambda p: _(
        "that event is no longer taking sign-ups: a league starts from one that is"),
    "league_bad_divisions": lambda p: _(
        "a league has 1 to {most} divisions of at least 2 players each").format(
        most=p.get("most", "?")),
    "no_season": lambda p: _("this league has no season {season}").format(
        season=p.get("season", "?")),
}
