"""`/carc-event create`: an event's format, its rules (tie-breaks, a third-place match, a
bracket reset, forfeits at the deadline, what repeated time-outs lead to) and its games'
options (expansions, a clock with every option a casual game has), all in one command,
checked before anything is made.

Tie-breaks are a comma-separated list of the menu's codes (`service.league_ops.TIEBREAKS`)
in the order they apply; autocomplete offers them one at a time, named in the
organiser's language, and the format's own chain before anything is typed."""

from __future__ import annotations

from dataclasses import dataclass

from discord import app_commands

from carca_bot.bot.commands.events.group import actor, events
from carca_bot.bot.commands.lobby import OUT_OF_TIME, ClockAsked, Hour, Hours
from carca_bot.bot.commands.suggest import Choice as Suggested
from carca_bot.bot.commands.suggest import spoken
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import clocks, parse, text
from carca_bot.bot.words.events import chain_words, event_line, tiebreak_name
from carca_bot.bot.words.languages import new_game_language
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import plain
from carca_bot.i18n import NAMES, Domain
from carca_bot.service import EventInfo, GameOptions, ServiceError, event_config
from carca_bot.service.league_ops import TIEBREAKS
from carca_bot.service.model import clock_rules

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

Choice = app_commands.Choice
FORMATS = [Choice(name="Swiss", value="swiss"), Choice(name="Round robin", value="round_robin"),
           Choice(name="Knockout", value="knockout"),
           Choice(name="Double elimination", value="double_elimination"),
           Choice(name="Multiplayer tables", value="tables")]
CLOCKS = [Choice(name="Fast clock", value="fast"), Choice(name="Normal clock", value="normal"),
          Choice(name="Slow clock", value="slow")]
LANGUAGES = [Choice(name=NAMES["en"], value="en"), Choice(name=NAMES["es"], value="es")]
TIMEOUTS = [Choice(name="Nothing more (default)", value="none"),
            Choice(name="Forfeit the match", value="forfeit"),
            Choice(name="Withdraw them from the event", value="expel")]
DEFAULT_TIMEOUT_LIMIT = 3
SUGGESTIONS = 25  # Discord's most


@dataclass(frozen=True)
class RulesAsked:
    """The event's own rules as given (None: not given, the default)."""

    tiebreaks: str | None = None
    third_place: bool | None = None
    bracket_reset: bool | None = None
    forfeit_at_deadline: bool = False
    timeouts: str = "none"
    timeout_limit: int | None = None


@dataclass(frozen=True)
class EventAsked:
    """`/carc-event create`'s options as given."""

    name: str
    kind: str
    rounds: int
    best_of: int
    groups: int
    table_size: int
    days: int
    expansions: str | None
    unrated: bool
    language: str | None
    rules: RulesAsked
    clock: ClockAsked


@events.command(name="create", description="Create an event (organisers)")
@app_commands.rename(kind="format")
@app_commands.describe(
    name="The event's name", kind="How players are paired",
    rounds="Rounds (Swiss: 5, tables: 3 by default)",
    best_of="Games per knockout match (odd)", groups="Round-robin groups",
    table_size="Players per table", days="Days to play each round",
    expansions="Comma-separated: river, abbot, abbey_mayor, king_robber, cult, tunnel, or all",
    clock="A time bank per player instead of no limit", unrated="Games change no rating",
    language="The language of the event's games (by default the server's)",
    tiebreaks="Tie-breaks in order, comma-separated (by default the format's own)",
    third_place="Knockout: the semi-finals' losers play for third place",
    bracket_reset="Double elimination: replay a grand final the losers' side wins (default)",
    forfeit_at_deadline="A match open at the round's deadline is lost by the player it waits for",
    timeouts="After repeated time-outs on the clock: forfeit the match, or withdraw the player",
    timeout_limit="How many time-outs lead to that (1-20, by default 3)",
    bank_hours="Custom clock: hours each player starts with",
    increment_hours="Custom clock: hours added after each move",
    cap_hours="Custom clock: the most hours a player may save up",
    quiet_start="Clock: hour (0-23) the clocks stop each day",
    quiet_end="Clock: hour (0-23) the clocks start again",
    time_zone="Clock: the time zone of the quiet hours, e.g. Europe/Madrid",
    out_of_time="Clock: what happens when a player's time runs out")
@app_commands.choices(kind=FORMATS, clock=CLOCKS, language=LANGUAGES, timeouts=TIMEOUTS,
                      out_of_time=OUT_OF_TIME)
async def create_command(
        interaction: Interaction, name: app_commands.Range[str, 1, 80], kind: str,
        rounds: app_commands.Range[int, 0, 99] = 0, best_of: app_commands.Range[int, 1, 9] = 1,
        groups: app_commands.Range[int, 1, 26] = 1,
        table_size: app_commands.Range[int, 3, 6] = 4, days: app_commands.Range[int, 1, 60] = 7,
        expansions: app_commands.Range[str, 0, 200] | None = None, clock: str | None = None,
        unrated: bool = False, language: str | None = None,
        tiebreaks: app_commands.Range[str, 0, 200] | None = None,
        third_place: bool | None = None, bracket_reset: bool | None = None,
        forfeit_at_deadline: bool = False, timeouts: str = "none",
        timeout_limit: app_commands.Range[int, 1, 20] | None = None,
        bank_hours: Hours | None = None,
        increment_hours: app_commands.Range[int, 0, clocks.MAX_BANK_HOURS] | None = None,
        cap_hours: app_commands.Range[int, 1, clocks.MAX_CAP_HOURS] | None = None,
        quiet_start: Hour | None = None, quiet_end: Hour | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
        out_of_time: str | None = None) -> None:
    asked = EventAsked(name, kind, rounds, best_of, groups, table_size, days, expansions,
                       unrated, language,
                       RulesAsked(tiebreaks, third_place, bracket_reset, forfeit_at_deadline,
                                  timeouts, timeout_limit),
                       ClockAsked(clock, bank_hours, increment_hours, cap_hours, quiet_start,
                                  quiet_end, time_zone, out_of_time))
    await run(interaction, "event-create", lambda act: create(act, asked), public=True)


async def create(act: Act, asked: EventAsked) -> Reply:
    check_rules(asked)
    r = asked.rules
    config = event_config(asked.kind, rounds=asked.rounds, best_of=asked.best_of,
                          groups=asked.groups, table_size=asked.table_size,
                          round_days=asked.days, tiebreaks=tiebreak_list(r.tiebreaks),
                          third_place=bool(r.third_place),
                          bracket_reset=r.bracket_reset is not False,
                          forfeit_at_deadline=r.forfeit_at_deadline, timeout_rule=r.timeouts,
                          timeout_limit=r.timeout_limit or DEFAULT_TIMEOUT_LIMIT)
    c = asked.clock
    rules = clocks.clock_choice(c.preset, c.bank_hours, c.increment_hours, c.cap_hours,
                                c.quiet_start, c.quiet_end, c.time_zone, c.out_of_time)
    if rules is None and config.timeout_rule != "none":
        raise Refused(_("the timeouts option acts on clock time-outs: choose a clock too "
                        "(the clock option, or bank_hours)"))
    options = GameOptions(expansions=parse.expansions(asked.expansions),
                          clock=None if rules is None else clock_rules(rules),
                          unrated=asked.unrated, language=new_game_language(
                              act.interaction, asked.language, act.prefs))
    info = await act.service.create_event(act.here, actor(act), asked.name, config, options)
    lines = [_("Event created: {event}\nPlayers sign up with "
               "`/carc-event signup event:{id}`.").format(event=event_line(info), id=info.id),
             *settings_lines(info)]
    return Reply(text.clip("\n".join(lines)), public=True)


def check_rules(asked: EventAsked) -> None:
    """Refused, naming the option, when one does not fit the format (the service refuses
    what cannot run at all)."""
    r = asked.rules
    if r.third_place is not None and asked.kind != "knockout":
        raise Refused(_("third_place is for knockouts: leave it out for this format"))
    if r.bracket_reset is not None and asked.kind != "double_elimination":
        raise Refused(_("bracket_reset is for double elimination: leave it out for this "
                        "format"))
    if r.timeout_limit is not None and r.timeouts == "none":
        raise Refused(_("timeout_limit goes with the timeouts option: choose what repeated "
                        "time-outs lead to, or leave timeout_limit out"))


def _key(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


def tiebreak_list(typed: str | None) -> tuple[str, ...]:
    """'buchholz, scored' -> ('buchholz', 'scored'): codes, or their names in the
    language spoken; empty for the format's own chain."""
    if not typed or not typed.strip():
        return ()
    known = {_key(k): k for k in TIEBREAKS} | {_key(tiebreak_name(k)): k for k in TIEBREAKS}
    chosen = []
    for word in (w.strip() for w in typed.split(",")):
        if not word:
            continue
        if _key(word) not in known:
            raise Refused(_("'{word}' is not a tie-break I know: choose from {menu} "
                            "(comma-separated, in the order they apply)").format(
                word=plain(word, 40), menu=", ".join(TIEBREAKS)))
        chosen.append(known[_key(word)])
    return tuple(chosen)


def default_chain(kind: object) -> tuple[str, ...]:
    """The format's own tie-breaks (none for a format not chosen yet)."""
    try:
        return tuple(t.value for t in event_config(str(kind)).chain)
    except ServiceError:
        return ()


@create_command.autocomplete("tiebreaks")
@spoken
async def suggest_tiebreaks(interaction: Interaction, current: str) -> list[Suggested]:
    """The next tie-break to add after those typed (value: the codes; label: the names);
    with nothing typed, the chosen format's own chain first."""
    head, _comma, tail = current.rpartition(",")
    try:
        done = list(tiebreak_list(head))
    except Refused:
        return []
    typed = _key(tail)
    options = [[*done, k] for k in TIEBREAKS if k not in done and (
        _key(k).startswith(typed) or _key(tiebreak_name(k)).startswith(typed))]
    chain = default_chain(getattr(interaction.namespace, "format", None))
    if not current.strip() and chain:
        options.insert(0, list(chain))
    return [Suggested(name=plain(chain_words(o)), value=", ".join(o)[:100])
            for o in options[:SUGGESTIONS]]


def settings_lines(info: EventInfo) -> list[str]:
    """The event's rules in words, for the organiser to check: tie-breaks, brackets,
    forfeits, time-outs, the clock."""
    config = info.config
    lines = [_("Tie-breaks: {chain}.").format(chain=chain_words(
        [str(t.value) for t in config.chain]))]
    if config.third_place and config.format == "knockout":
        lines.append(_("The semi-finals' losers play for third place."))
    if config.format == "double_elimination" and not config.bracket_reset:
        lines.append(_("A grand final won from the losers' side is not played again."))
    if config.forfeit_at_deadline:
        lines.append(_("A match still open at its round's deadline is lost by the player "
                       "its game waits for."))
    n = config.timeout_limit
    if config.timeout_rule == "forfeit":
        lines.append(ngettext("After {n} time-out in one game, that player loses the match.",
                              "After {n} time-outs in one game, that player loses the match.",
                              n).format(n=n))
    elif config.timeout_rule == "expel":
        lines.append(ngettext(
            "After {n} time-out in the event's games, a player is withdrawn from it.",
            "After {n} time-outs in the event's games, a player is withdrawn from it.",
            n).format(n=n))
    said = clocks.clock_words(info.options.clock)
    return [*lines, said] if said else lines
