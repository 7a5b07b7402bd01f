"""Creating an event, listing this server's, signing up and withdrawing."""

from __future__ import annotations

from dataclasses import dataclass

import discord
from discord import app_commands

from carca_bot.bot.commands.events.group import EventNumber, actor, events, info_of
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import parse, text
from carca_bot.bot.words.events import event_line
from carca_bot.bot.words.languages import new_game_language
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import NAMES, Domain
from carca_bot.service import GameOptions, event_config
from carca_bot.service.model import clock_rules

_T = Domain("bot")
_ = _T.gettext

Choice = app_commands.Choice
FORMATS = [Choice(name="Swiss", value="swiss"), Choice(name="Round robin", value="round_robin"),
           Choice(name="Knockout", value="knockout"),
           Choice(name="Multiplayer tables", value="tables")]
CLOCKS = [Choice(name="Fast clock", value="fast"), Choice(name="Normal clock", value="normal"),
          Choice(name="Slow clock", value="slow")]
LANGUAGES = [Choice(name=NAMES["en"], value="en"), Choice(name=NAMES["es"], value="es")]


@events.command(name="create", description="Create an event (organisers)")
@app_commands.rename(kind="format")
@app_commands.describe(
    name="The event's name", kind="How players are paired",
    rounds="Rounds (Swiss: 5, tables: 3 by default)",
    best_of="Games per knockout match (odd)", groups="Round-robin groups",
    table_size="Players per table", days="Days to play each round",
    expansions="Comma-separated: river, abbot, abbey_mayor, king_robber, cult, tunnel, or all",
    clock="A time bank per player instead of no limit", unrated="Games change no rating",
    language="The language of the event's games (by default the server's)")
@app_commands.choices(kind=FORMATS, clock=CLOCKS, language=LANGUAGES)
async def create_command(interaction: Interaction, name: app_commands.Range[str, 1, 80],
                         kind: str, rounds: app_commands.Range[int, 0, 99] = 0,
                         best_of: app_commands.Range[int, 1, 9] = 1,
                         groups: app_commands.Range[int, 1, 26] = 1,
                         table_size: app_commands.Range[int, 3, 6] = 4,
                         days: app_commands.Range[int, 1, 60] = 7,
                         expansions: app_commands.Range[str, 0, 200] | None = None,
                         clock: str | None = None, unrated: bool = False,
                         language: str | None = None) -> None:
    asked = EventAsked(name, kind, rounds, best_of, groups, table_size, days, expansions,
                       clock, unrated, language)
    await run(interaction, "event-create", lambda act: create(act, asked), public=True)


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
    clock: str | None
    unrated: bool
    language: str | None


async def create(act: Act, asked: EventAsked) -> Reply:
    config = event_config(asked.kind, rounds=asked.rounds, best_of=asked.best_of,
                          groups=asked.groups, table_size=asked.table_size,
                          round_days=asked.days)
    options = GameOptions(expansions=parse.expansions(asked.expansions),
                          clock=None if asked.clock is None else clock_rules(asked.clock),
                          unrated=asked.unrated, language=new_game_language(
                              act.interaction, asked.language, act.prefs))
    info = await act.service.create_event(act.here, actor(act), asked.name, config, options)
    return Reply(_("Event created: {event}\nPlayers sign up with "
                   "`/carc-event signup event:{id}`.").format(
        event=event_line(info), id=info.id), public=True)


@events.command(name="list", description="The events on this server")
async def list_command(interaction: Interaction) -> None:
    await run(interaction, "event-list", listed)


async def listed(act: Act) -> Reply:
    found = await act.service.events(act.here.guild)
    if not found:
        return Reply(_("No event is taking sign-ups or running on this server."))
    return Reply(text.clip("\n".join(event_line(i) for i in found)))


@events.command(name="signup", description="Sign up for an event")
@app_commands.describe(event="The event's number")
async def signup_command(interaction: Interaction, event: EventNumber) -> None:
    await run(interaction, "event-signup", lambda act: sign_up(act, event), public=True)


async def sign_up(act: Act, event: int) -> Reply:
    await info_of(act, event)
    info = await act.service.sign_up(event, act.user)
    late = info.event.entrant(act.user.id).joined > 1
    words = (_("{name} signed up for {event} (a late entry: from the next round).")
             if late else _("{name} signed up for {event}."))
    return Reply(words.format(name=safe_name(act.user.name), event=event_line(info)),
                 public=True)


@events.command(name="withdraw", description="Withdraw from an event (organisers: withdraw "
                                             "a player)")
@app_commands.describe(event="The event's number",
                       player="Who (organisers only; by default yourself)")
async def withdraw_command(interaction: Interaction, event: EventNumber,
                           player: discord.User | discord.Member | None = None) -> None:
    target = str(player.id) if player is not None else None
    await run(interaction, "event-withdraw", lambda act: withdraw(act, event, target),
              public=True)


async def withdraw(act: Act, event: int, target: str | None) -> Reply:
    await info_of(act, event)
    info = await act.service.withdraw(event, actor(act), target)
    gone = info.event.entrant(target or act.user.id).name
    return Reply(_("{name} withdrew from {event}.").format(
        name=safe_name(gone), event=event_line(info)), public=True)
