"""Words for fair play (issue 26) and the rating reads (issue 28): the service's notes and
refusals about aborted, repeated and voided games, vacations, time zones and records,
merged into `carca_bot.words.service` (NOTES, SERVICE_REFUSALS), so `say` says them;
and `rating_status`, a game's rating status (`service.GameRating.status`) in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from carca_bot.i18n import Domain

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext

Params = Mapping[str, Any]


def _games(p: Params) -> int:
    return int(p.get("games", 0))


def _moves(p: Params) -> int:
    return int(p.get("moves", 5))


NOTES: dict[str, Callable[[Params], str]] = {
    "unrated_left_early": lambda p: ngettext(
        "this game will not be rated: {name} left before making {moves} move of their own",
        "this game will not be rated: {name} left before making {moves} moves of their own",
        _moves(p)).format(name=p["name"], moves=_moves(p)),
    "unrated_absent": lambda p: ngettext(
        "this game is not rated: {name} made fewer than {moves} move of their own (the "
        "others were played for them)",
        "this game is not rated: {name} made fewer than {moves} moves of their own (the "
        "others were played for them)",
        _moves(p)).format(name=p["name"], moves=_moves(p)),
    "ratings_voided": lambda p: ngettext(
        "a server admin voided the rated results of {name}: {games} game no longer counts "
        "for anyone, and the ratings were worked out again without it",
        "a server admin voided the rated results of {name}: {games} games no longer count "
        "for anyone, and the ratings were worked out again without them",
        _games(p)).format(name=p["name"], games=_games(p)),
    "ratings_restored": lambda p: ngettext(
        "a server admin restored the rated results of {name}: {games} game counts again, "
        "and the ratings were worked out again with it",
        "a server admin restored the rated results of {name}: {games} games count again, "
        "and the ratings were worked out again with them",
        _games(p)).format(name=p["name"], games=_games(p)),
}

REFUSALS: dict[str, Callable[[Params], str]] = {
    # ratings
    "void_admin_only": lambda p: _(
        "only members with the Manage Server permission can void or restore a player's "
        "rated results"),
    "nothing_to_void": lambda p: _(
        "{name} has no rated results on this server to void").format(name=p["name"]),
    "not_voided": lambda p: _(
        "the rated results of {name} are not voided").format(name=p["name"]),
    "versus_self": lambda p: _("choose another player to compare with"),
    # records, as the record reader refuses them (carca_bot.engine.record)
    "record_not_utf8": lambda p: _(
        "that record is not UTF-8 text (a wrong byte at position {offset})").format(
        offset=p.get("offset", "?")),
    "record_not_json": lambda p: _(
        "that is not a JSON game record: the text goes wrong at line {line}, column "
        "{column}").format(line=p.get("line", "?"), column=p.get("column", "?")),
    "record_not_json_value": lambda p: _(
        "that record holds {value}, which JSON does not allow").format(
        value=p.get("value", "?")),
    "record_duplicate_key": lambda p: _(
        "that record has the key {key} twice in one object").format(key=p.get("key", "?")),
    "record_too_many_digits": lambda p: _(
        "a number in that record has more than {limit} digits").format(
        limit=p.get("limit", "?")),
    "record_number_too_long": lambda p: _(
        "a number in that record is longer than {limit} characters").format(
        limit=p.get("limit", "?")),
    "record_too_many_containers": lambda p: _(
        "that record has more than {limit} lists and objects, far more than any game "
        "needs").format(limit=p.get("limit", "?")),
    "record_not_object": lambda p: _(
        "that is not a game record: a record is one JSON object, in braces"),
    "record_wrong_format": lambda p: _(
        "that is not a game record of this kind: its format must be {expected}").format(
        expected=p.get("expected", "carca-record/1")),
    "record_too_many_actions": lambda p: _(
        "that record has {count} actions, but a game with its players and expansions has "
        "at most {most}").format(count=p.get("count", "?"), most=p.get("most", "?")),
    "record_unknown_expansion": lambda p: _(
        "that record names an expansion this bot does not know: {name}").format(
        name=p.get("name", "?")),
    "record_expansion_not_implemented": lambda p: _(
        "that record plays an expansion this bot cannot play yet: {name}").format(
        name=p.get("name", "?")),
    # clocks
    "time_zone_too_long": lambda p: _(
        "that time zone name is too long: use a name from the time zone list, such as "
        "Europe/Madrid or America/Mexico_City"),
}

STATUS: dict[str, Callable[[Params], str]] = {
    "rated": lambda p: _("rated"),
    "reduced": lambda p: _(
        "rated, but counting less for some players: they have played each other often "
        "this week"),
    "repeat_limit": lambda p: _(
        "not rated: these players have played each other too often this week"),
    "aborted": lambda p: ngettext(
        "not rated: a player left, or never played, before making {moves} move of their "
        "own",
        "not rated: a player left, or never played, before making {moves} moves of their "
        "own", int(p.get("moves", 5))).format(moves=p.get("moves", 5)),
    "unrated": lambda p: _("not rated (an unrated game)"),
    "voided": lambda p: _("not rated: a server admin voided a player's results"),
}


def rating_status(status: str, min_moves: int = 5) -> str:
    """A game's rating status (`carca_bot.service.GameRating.status`) as a phrase."""
    words = STATUS.get(status)
    return words({"moves": min_moves}) if words is not None else status.replace("_", " ")
