"""Words for what the service reports as data: refusals, notes and feature labels (the
steps of a turn and what happens next are in `turns.py`). `say` turns any of the layers'
data into a sentence in the language being spoken (`carca_bot.i18n.speaking`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias, cast

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.moves import Move
from carca_bot.i18n import N_, Domain
from carca_bot.words import english, fair, league, privacy
from carca_bot.words.english import square
from carca_bot.words.names import figure_name
from carca_bot.words.turns import prompt, step

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

Params: TypeAlias = Mapping[str, Any]


class Refusal(Protocol):
    """A service refusal as data (`carca_bot.service.ServiceError`)."""

    @property
    def code(self) -> str: ...
    @property
    def params(self) -> Mapping[str, Any]: ...
    @property
    def engine(self) -> bool: ...  # the code is the engine's (`IllegalMove`), not the service's
    @property
    def names(self) -> tuple[str, ...]: ...


class Noted(Protocol):
    """Something the service says happened, as data (`carca_bot.service.Note`)."""

    @property
    def code(self) -> str: ...
    @property
    def params(self) -> Mapping[str, Any]: ...


Sayable: TypeAlias = "str | IllegalMove | Event | Move | Refusal | Noted"


def say(item: Sayable, names: Sequence[str] = ()) -> str:
    """Any of the layers' data as one sentence: an engine `Event` or `IllegalMove`, a
    service refusal (`ServiceError`) or `Note`, a step of a turn (an engine `Move`), or
    a plain string stored by an older version (returned as it is). `names` are the
    players in seat order, for what names players by their seat."""
    if isinstance(item, str):
        return item
    if isinstance(item, Event):
        return english.event(item, names)
    if isinstance(item, IllegalMove):
        return english.refusal(item, names or item.names)
    if isinstance(item, Move):
        return step(item)
    if isinstance(item, BaseException):  # a ServiceError: a code, params and `engine`
        return refusal(cast(Refusal, item), names)
    return note(item)


# -- what the service says happened ---------------------------------------------------

NOTES: dict[str, Callable[[Params], str]] = {
    "joined": lambda p: _("{name} joined").format(name=p["name"]),
    "left": lambda p: _("{name} left").format(name=p["name"]),
    "removed_from_lobby": lambda p: _("{name} was removed from the lobby").format(
        name=p["name"]),
    "removed_from_game": lambda p: _("{name} was removed from the game").format(
        name=p["name"]),
    "resigned": lambda p: _("{name} resigned").format(name=p["name"]),
    "new_host": lambda p: _("{name} is the host now").format(name=p["name"]),
    "lobby_empty": lambda p: _("the lobby is empty and closed"),
    "game_starts": lambda p: _("the game starts; turn order: {order}").format(
        order=", ".join(p["order"])),
    "cancelled": lambda p: _("the game was cancelled"),
    "played_for_resigned": lambda p: _(
        "{name} has resigned: their move was played for them").format(name=p["name"]),
    "played_for_late": lambda p: _(
        "{name} ran out of time: their move was played for them").format(name=p["name"]),
    "time_up": lambda p: _("{name}, your time for this turn is up").format(name=p["name"]),
    "skipped_for_late": lambda p: _(
        "{name} ran out of time: their turn was skipped (the tile went to the first "
        "square it fits, with no figure)").format(name=p["name"]),
    "clock_reminder": lambda p: _clock_reminder(p),
    "expel_vote_open": lambda p: _(
        "{name} ran out of time: the other players may now vote to expel them").format(
        name=p["name"]),
    "expel_vote": lambda p: ngettext(
        "{name} voted to expel {target} ({votes} of {needed} vote needed)",
        "{name} voted to expel {target} ({votes} of {needed} votes needed)",
        p["needed"]).format(name=p["name"], target=p["target"], votes=p["votes"],
                            needed=p["needed"]),
    "expelled": lambda p: _(
        "{name} was expelled by a vote of the other players: their figures stay on the "
        "board and score nothing more").format(name=p["name"]),
    "expel_vote_closed": lambda p: _(
        "the vote to expel {name} closed without enough votes: their turn is played for "
        "them and the game goes on").format(name=p["name"]),
    "taken_back": lambda p: _(
        "{name} took back their last move, as every other player agreed").format(
        name=p["name"]),
    "lobby_expired": lambda p: ngettext(
        "the lobby was closed: it was not started within {days} day",
        "the lobby was closed: it was not started within {days} days",
        _whole(p["days"])).format(days=f"{p['days']:g}"),
}


def _clock_reminder(p: Params) -> str:
    """A reminder: the time left in minutes under two hours, else in hours."""
    seconds = max(0, int(p["seconds"]))
    if seconds < 2 * 3600:
        minutes = max(1, round(seconds / 60))
        return ngettext("{name}, it is your turn: about {n} minute left on your clock",
                        "{name}, it is your turn: about {n} minutes left on your clock",
                        minutes).format(name=p["name"], n=minutes)
    hours = round(seconds / 3600)
    return ngettext("{name}, it is your turn: about {n} hour left on your clock",
                    "{name}, it is your turn: about {n} hours left on your clock",
                    hours).format(name=p["name"], n=hours)


def _whole(n: float) -> int:
    """The number a plural form is chosen by: 1 only for exactly one."""
    return 1 if n == 1 else 2 if n != int(n) else int(n)


def note(item: Noted) -> str:
    """What the service says happened during a command (`carca_bot.service.Note`)."""
    words = NOTES.get(item.code)
    return words(item.params) if words is not None else item.code.replace("_", " ")


# -- the service's refusals -------------------------------------------------------------

NOT_NOW = {
    "must_choose": N_("first choose: draw a tile, or place your abbey"),
    "must_place": N_("first place your tile"),
    "must_finish": N_("your tile is down: add a figure or a token, then confirm (or undo)"),
    "must_wagon": N_("first move your wagon or return it"),
    "must_abbey_round": N_("the tiles are used up: place your abbey or skip it"),
    "must_over": N_("the game is over"),
    "must_join": N_("the game has not started yet"),
}
ALREADY_STARTED = {
    "join": N_("you cannot join now: the game has already started"),
    "leave": N_("you cannot leave now: the game has already started"),
    "start": N_("you cannot start now: the game has already started"),
}


def _kib(n: int) -> int:
    return n // 1024


def _already_started(p: Params) -> str:
    sentence = ALREADY_STARTED[p["action"]]
    return _(sentence)


def _not_your_turn(p: Params) -> str:
    if p.get("name") is None:
        return _("not your turn")
    return _("not your turn: {waiting}").format(waiting=prompt(p["must"], p["name"]))


def _broken_rule(p: Params) -> str:
    rule = p["refusal"]
    return _("action {index} of the record breaks a rule: {why}").format(
        index=p["index"], why=say(rule, rule.names))


def _setup_refused(p: Params) -> str:
    rule = p["refusal"]
    return _("that record cannot be set up: {why}").format(why=say(rule, rule.names))


SERVICE_REFUSALS: dict[str, Callable[[Params], str]] = {
    "said": lambda p: str(p["text"]),
    "refused": lambda p: _("refused"),
    "unavailable": lambda p: _(
        "the game could not be saved just now (the database is busy or full); nothing "
        "was changed, so please try again in a moment"),
    # turns
    "drew_place_it": lambda p: _("you drew a tile this turn: place it"),
    "no_tile_to_draw": lambda p: _(
        "no tile is left to draw: this second part of your turn can only place your abbey"),
    "skip_only_abbey_round": lambda p: _(
        "an abbey can be skipped only in the end-of-game abbey round"),
    "nothing_to_undo": lambda p: _(
        "there is nothing to undo: only unconfirmed steps of your own turn can be taken back"),
    "bad_rotation": lambda p: _("the rotation must be 0, 90, 180 or 270 (degrees clockwise)"),
    "figure_and_recall": lambda p: _("a turn places a figure or recalls the abbot, not both"),
    "say_where": lambda p: _("say where the {figure} goes").format(figure=figure_name(p["figure"])),
    "nothing_to_rotate": lambda p: _("there is no placed tile to rotate"),
    "abbey_cannot_rotate": lambda p: _(
        "an abbey looks the same every way round: there is nothing to rotate"),
    "fits_one_way": lambda p: _("{tile} fits the square {square} only one way").format(
        tile=p["tile"], square=square(p["square"])),
    "game_moved_on": lambda p: _(
        "the game moved on while your command was waiting; here is the current state"),
    "saved_not_shown": lambda p: _(
        "your command was saved, but the game could not be shown just now: look at it "
        "again in a moment (do not repeat the command)"),
    "not_your_turn": _not_your_turn,
    # games and seats
    "no_game_here": lambda p: _("there is no game in this channel: create one first"),
    "no_game_yet": lambda p: _("there has been no game in this channel yet"),
    "no_such_game": lambda p: _("there is no game {game}").format(game=p["game"]),
    "not_started": lambda p: _("the game has not started yet"),
    "game_over": lambda p: _("the game is over"),
    "not_playing": lambda p: _("you are not playing in this game"),
    "you_resigned": lambda p: _("you resigned from this game"),
    "channel_busy": lambda p: _(
        "this channel already has a game: join it, or the host can cancel it"),
    "channel_busy_import": lambda p: _(
        "this channel already has a game: import the record elsewhere, or cancel that "
        "game first"),
    "already_in_game": lambda p: _("you are already in this game"),
    "game_full": lambda p: ngettext("the game is full ({limit} player)",
                                    "the game is full ({limit} players)",
                                    p["limit"]).format(limit=p["limit"]),
    "not_in_game": lambda p: _("you are not in this game"),
    "use_resign": lambda p: _("the game has started: use resign to stop playing"),
    "use_leave": lambda p: _("the game has not started: use leave instead"),
    "already_started": lambda p: _already_started(p),
    "only_host_kicks": lambda p: _("only the host or a server admin can kick players"),
    "target_not_in_game": lambda p: _("that user is not in this game"),
    "host_not_kickable": lambda p: _("the host cannot be kicked: cancel the game instead"),
    "only_host_starts": lambda p: _("only the host can start the game"),
    "too_few_players": lambda p: _(
        "at least 2 players are needed to start (or create the game with solo play allowed)"),
    "only_host_cancels": lambda p: _("only the host or a server admin can cancel the game"),
    "analysis_no_resign": lambda p: _("this is an analysis game: cancel it instead"),
    "already_resigned": lambda p: _("{name} has already resigned").format(name=p["name"]),
    "nothing_to_export": lambda p: _(
        "the game has not started: there is nothing to export yet"),
    # options
    "unknown_expansion": lambda p: _("unknown expansion {name!r}; choose from {choices}").format(
        name=p["name"], choices=", ".join(p["choices"])),
    "unknown_wagon_rule": lambda p: _("unknown wagon rule {rule!r}: use c2 or c1").format(
        rule=p["rule"]),
    "timer_too_short": lambda p: _("a turn timer must be at least {seconds} seconds").format(
        seconds=p["seconds"]),
    "bad_max_players": lambda p: _("a game has 1 to {most} players").format(most=p["most"]),
    "bad_tunnel_pairs": lambda p: _("tunnel pairs must be 0 or more"),
    "auto_play_needs_timer": lambda p: _("auto-play needs a turn timer"),
    "unknown_language": lambda p: _("unknown language {language!r}: use {choices}").format(
        language=p["language"], choices=" or ".join(p["choices"])),
    "bad_scope": lambda p: _("a language is set for a server or a user"),
    # clocks
    "clock_and_timer": lambda p: _("a game has a clock or a turn timer, not both"),
    "unknown_clock_preset": lambda p: _("unknown clock {name!r}: use {choices}").format(
        name=p["name"], choices=", ".join(p["choices"])),
    "bad_clock": lambda p: _(
        "that clock cannot be read: give a preset (fast, normal, slow) or a bank, an "
        "increment and a cap in seconds"),
    "clock_out_of_range": lambda p: _(
        "a clock needs a bank of at least a minute, an increment of 0 or more, and a cap "
        "no smaller than the bank"),
    "vacation_days_out_of_range": lambda p: _(
        "vacation days per month must be between 0 and 31"),
    "reminders_out_of_range": lambda p: _(
        "reminders are shares of the time left, between 0 and 1, largest first"),
    "unknown_timeout": lambda p: _(
        "when time runs out the turn is played, skipped, or put to a vote: use play, "
        "skip or vote"),
    "unknown_time_zone": lambda p: _(
        "unknown time zone: use a name such as Europe/Madrid or America/Mexico_City"),
    "quiet_hours_out_of_range": lambda p: _(
        "quiet hours start and end within the day (00:00 to 23:59)"),
    "quiet_hours_empty": lambda p: _("quiet hours must not start and end at the same time"),
    "no_vacations": lambda p: _("this game's clock allows no vacations"),
    "vacation_too_long": lambda p: ngettext(
        "a vacation may last at most {days} day", "a vacation may last at most {days} days",
        p["days"]).format(days=p["days"]),
    "vacation_overlaps": lambda p: _("you already have a vacation at that time"),
    "vacation_days_used": lambda p: ngettext(
        "that would take you over {days} day of vacation in a month",
        "that would take you over {days} days of vacation in a month",
        p["days"]).format(days=p["days"]),
    "no_clock_games": lambda p: _(
        "you play in no game with a clock, so there is no clock to pause"),
    "not_on_vacation": lambda p: _("you are not on vacation"),
    "no_expel_vote": lambda p: _("there is no vote to expel {name} now").format(
        name=p["name"]),
    "no_self_expel": lambda p: _("you cannot vote on expelling yourself"),
    "already_voted": lambda p: _("you have already voted"),
    # taking a move back
    "nothing_to_take_back": lambda p: _("no move has been made yet, so there is none to "
                                        "take back"),
    "not_your_move": lambda p: _(
        "only the player who made the last move may ask to take it back (it was "
        "{name}'s)").format(name=p["name"]),
    "takeback_too_late": lambda p: _(
        "too late to take it back: the next player has already begun"),
    "takeback_open": lambda p: _("the others are already voting on taking that move back"),
    "takeback_refused": lambda p: _(
        "the others already refused to let that move be taken back"),
    "no_takeback": lambda p: _("there is no vote on taking back that move"),
    "takeback_decided": lambda p: _("that vote is already over"),
    "own_takeback": lambda p: _(
        "you asked to take it back: the others vote (you may withdraw your request)"),
    "already_answered": lambda p: _("you have already accepted"),
    "not_your_takeback": lambda p: _("only the player who asked may withdraw the request"),
    # records
    "record_too_big": lambda p: _(
        "that record is {size} KiB; a game record may be at most {limit} KiB").format(
        size=_kib(p["size"]) + 1, limit=_kib(p["limit"])),
    "not_json": lambda p: _("that is not a JSON game record"),
    "import_too_slow": lambda p: _(
        "that record takes too long to replay (over {seconds:g} s), so it was not "
        "imported").format(seconds=p["seconds"]),
    "record_invalid": lambda p: (
        _("that is not a valid carca-record/1 record: {detail}").format(detail=p["detail"])
        if p.get("index") is None else
        _("that is not a valid carca-record/1 record: {detail} (action {index})").format(
            detail=p["detail"], index=p["index"])),
    "record_too_deep": lambda p: _("that record is nested too deeply to be a game record"),
    "record_breaks_rule": _broken_rule,
    "record_setup_refused": _setup_refused,
    "record_setup_invalid": lambda p: _(
        "that record cannot be set up: its players, expansions and rules do not fit "
        "together"),
    # limits: each names the limit and the way on
    "games_per_user": lambda p: ngettext(
        "you are already in {count} game (lobbies and running games; the limit is "
            "{limit}): finish, resign from or leave one first",
        "you are already in {count} games (lobbies and running games; the limit is "
            "{limit}): finish, resign from or leave one first",
            p["count"]).format(count=p["count"], limit=p["limit"]),
    "lobbies_per_user": lambda p: ngettext(
        "you already host {count} open lobby (the limit is {limit}): start or cancel one "
            "of them first",
        "you already host {count} open lobbies (the limit is {limit}): start or cancel "
            "one of them first",
            p["count"]).format(count=p["count"], limit=p["limit"]),
    "lobbies_per_server": lambda p: ngettext(
        "this server already has {count} open lobby (the limit is {limit}): join one of "
            "them, or try again when some have started",
        "this server already has {count} open lobbies (the limit is {limit}): join one "
            "of them, or try again when some have started",
            p["count"]).format(count=p["count"], limit=p["limit"]),
    "threads_per_day": lambda p: ngettext(
        "you made {count} game thread in the last 24 hours (the limit is {limit}): "
            "create the game in this channel instead (without a thread), or try again "
            "tomorrow",
        "you made {count} game threads in the last 24 hours (the limit is {limit}): "
            "create the game in this channel instead (without a thread), or try again "
            "tomorrow",
            p["count"]).format(count=p["count"], limit=p["limit"]),
    "games_per_server": lambda p: ngettext(
        "this server already has {count} running game (the limit is {limit}): finish or "
            "cancel some first",
        "this server already has {count} running games (the limit is {limit}): finish "
            "or cancel some first",
            p["count"]).format(count=p["count"], limit=p["limit"]),
    "imports_per_hour": lambda p: ngettext(
        "you imported {count} record in the last hour (the limit is {limit}): try again "
            "later",
        "you imported {count} records in the last hour (the limit is {limit}): try again "
            "later",
            p["count"]).format(count=p["count"], limit=p["limit"]),
    # AI players and hints
    "unknown_ai_level": lambda p: _("unknown AI level {name!r}: use {choices}").format(
        name=p["name"], choices=", ".join(p["choices"])),
    "bad_ai_seconds": lambda p: _(
        "an AI may think from {seconds} to {most} seconds per move").format(
        seconds=p["seconds"], most=p["most"]),
    "only_host_adds_ai": lambda p: _("only the host can add AI players"),
    "only_host_removes_ai": lambda p: _("only the host can remove AI players"),
    "no_such_ai": lambda p: _("there is no AI player called {name} in this game").format(
        name=p["name"]),
    "hints_off": lambda p: _("hints are off in this game (the host chooses them when "
                             "creating it)"),
    "hint_failed": lambda p: _("the AI could not find a hint just now: try again"),
    # turn notifications
    "unknown_notify_mode": lambda p: _(
        "unknown way to be told {name!r}: use {choices}").format(
        name=p["name"], choices=", ".join(p["choices"])),
}

SERVICE_REFUSALS.update(league.REFUSALS)  # ratings and events: words/league.py
SERVICE_REFUSALS.update(fair.REFUSALS)  # fair play, rating reads, records: words/fair.py
NOTES.update(fair.NOTES)
SERVICE_REFUSALS.update(privacy.REFUSALS)  # players' data: words/privacy.py


def refusal(err: Refusal, names: Sequence[str] = ()) -> str:
    """Why the service refused a command, as one sentence for the user who sent it."""
    if err.engine:
        return english.refusal(IllegalMove(err.code, **err.params), names or err.names)
    known = NOT_NOW.get(err.code)
    if known is not None:
        return _(known)
    words = SERVICE_REFUSALS.get(err.code)
    return words(err.params) if words is not None else err.code.replace("_", " ")


# -- feature labels -------------------------------------------------------------------

HALVES = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west"),
          "NE": N_("north-east"), "NW": N_("north-west"), "SE": N_("south-east"),
          "SW": N_("south-west"), "C": N_("middle")}
KINDS = {"city": N_("city"), "road": N_("road"), "field": N_("field"),
         "monastery": N_("monastery"), "shrine": N_("shrine"), "garden": N_("garden"),
         "corner": N_("corner")}


def feature_label(kind: str, where: str) -> str:
    """A feature of one tile as data (`FeatureLabel`'s kind and where) in words:
    ('field', 'SW') -> 'field, south-west half'; ('city', 'N') -> 'city, north';
    ('corner', 'NW') -> 'north-west corner' (where a corner figure, the barn, stands)."""
    side = _(HALVES[where]) if where in HALVES else where
    name = _(KINDS[kind]) if kind in KINDS else kind
    if kind == "corner":
        return _("{side} corner").format(side=side)
    if kind == "field" and where not in ("N", "E", "S", "W", "C"):
        if len(where) == 2:
            return _("field, {side} half").format(side=side)
        return _("{kind}, {side}").format(kind=name, side=side)
    if where == "C":
        return name
    return _("{kind}, {side}").format(kind=name, side=side)
