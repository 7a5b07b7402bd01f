"""Opening a game and filling its seats: `/carc create`, `join`, `leave`, `start` (the
lobby's Join and Start buttons are their twins), and `/carc import`, which loads a
record to study it."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord
from discord import app_commands

from carca_bot.bot.commands import suggest
from carca_bot.bot.commands.tree import carc
from carca_bot.bot.components.rows import row_for
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply, in_language, public
from carca_bot.bot.core.run import run
from carca_bot.bot.core.shows import public_move
from carca_bot.bot.core.verbs import button
from carca_bot.bot.posts.channel import post
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import clocks, parse, text
from carca_bot.bot.words import names as vocab
from carca_bot.bot.words.languages import new_game_language
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import file_name, plain, safe_name
from carca_bot.i18n import N_, NAMES, Domain, speaking
from carca_bot.service import GameOptions, TurnView, Where
from carca_bot.service.model import clock_rules

log = logging.getLogger("carca_bot.bot")
_T = Domain("bot")
_ = _T.gettext

Choice = app_commands.Choice
# Choice names are English here and translated by `translator.CommandTranslator`.
WAGON_RULES = [Choice(name="c2: a feature on its tile or the 8 around (default)", value="c2"),
               Choice(name="c1: a feature connected to the scored one", value="c1")]
LANGUAGES = [Choice(name=NAMES["en"], value="en"), Choice(name=NAMES["es"], value="es")]
CLOCKS = [Choice(name="Fast: about 8 hours per move", value="fast"),
          Choice(name="Normal: about 24 hours per move", value="normal"),
          Choice(name="Slow: about 72 hours per move", value="slow")]
OUT_OF_TIME = [Choice(name="Play the turn for them (default)", value="play"),
               Choice(name="Skip the turn", value="skip"),
               Choice(name="The others vote to expel them", value="vote")]
Hours = app_commands.Range[int, 1, clocks.MAX_BANK_HOURS]
Hour = app_commands.Range[int, 0, 23]


@dataclass(frozen=True)
class ClockAsked:
    """`/carc create`'s clock options as given (`clocks.clock_choice` reads them)."""

    preset: str | None = None
    bank_hours: int | None = None
    increment_hours: int | None = None
    cap_hours: int | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None
    time_zone: str | None = None
    out_of_time: str | None = None


@dataclass(frozen=True)
class NewGame:
    """`/carc create`'s options as given."""

    expansions: str | None = None
    wagon: str = "c2"
    timer_hours: int = 0
    auto_play: bool = False
    thread: bool = False
    players: int = 6
    language: str | None = None
    clock: ClockAsked = ClockAsked()
    hints: bool = False
    unrated: bool = False


@carc.command(name="create", description="Open a game in this channel (or a new thread)")
@app_commands.describe(
    expansions="Comma-separated: river, abbot, abbey_mayor, king_robber, cult, tunnel, or all",
    wagon="Wagon movement rule (Abbey & Mayor)", timer_hours="Hours per turn (0: none)",
    auto_play="When the timer runs out, play the turn for the player",
    thread="Start the game in a new thread", players="Most players (1-6)",
    language="The language of the game's posts (by default the server's)",
    clock="A time bank per player instead of a timer per turn",
    bank_hours="Custom clock: hours each player starts with",
    increment_hours="Custom clock: hours added after each move",
    cap_hours="Custom clock: the most hours a player may save up",
    quiet_start="Clock: hour (0-23) the clocks stop each day",
    quiet_end="Clock: hour (0-23) the clocks start again",
    time_zone="Clock: the time zone of the quiet hours, e.g. Europe/Madrid",
    out_of_time="Clock: what happens when a player's time runs out",
    hints="Let the player to act ask the AI for a move (/carc-hint)",
    unrated="Games change no rating")
@app_commands.choices(wagon=WAGON_RULES, language=LANGUAGES, clock=CLOCKS,
                      out_of_time=OUT_OF_TIME)
@app_commands.autocomplete(expansions=suggest.expansions, time_zone=suggest.zones)
async def create_command(
        interaction: Interaction, expansions: app_commands.Range[str, 0, 200] | None = None,
        wagon: str = "c2", timer_hours: app_commands.Range[int, 0, 720] = 0,
        auto_play: bool = False, thread: bool = False,
        players: app_commands.Range[int, 1, 6] = 6, language: str | None = None,
        clock: str | None = None, bank_hours: Hours | None = None,
        increment_hours: app_commands.Range[int, 0, clocks.MAX_BANK_HOURS] | None = None,
        cap_hours: app_commands.Range[int, 1, clocks.MAX_CAP_HOURS] | None = None,
        quiet_start: Hour | None = None, quiet_end: Hour | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
        out_of_time: str | None = None, hints: bool = False, unrated: bool = False) -> None:
    asked = NewGame(expansions, wagon, timer_hours, auto_play, thread, players, language,
                    ClockAsked(clock, bank_hours, increment_hours, cap_hours, quiet_start,
                               quiet_end, time_zone, out_of_time), hints, unrated)
    await run(interaction, "create", lambda act: create(act, asked), public=True)


def game_options(act: Act, asked: NewGame) -> GameOptions:
    """The options of the game `asked` opens; refused when they cannot go together."""
    c = asked.clock
    rules = clocks.clock_choice(c.preset, c.bank_hours, c.increment_hours, c.cap_hours,
                                c.quiet_start, c.quiet_end, c.time_zone, c.out_of_time)
    if rules is not None and asked.timer_hours:
        raise Refused(_("a game has a clock or a turn timer, not both: leave timer_hours "
                        "out, or the clock options"))
    timer = None if rules is not None else (asked.timer_hours * 3600
                                            or act.bot.settings.default_timer)
    return GameOptions(
        expansions=parse.expansions(asked.expansions), wagon_rule=asked.wagon,
        turn_timer=timer, auto_play=asked.auto_play and timer is not None,
        max_players=asked.players,
        language=new_game_language(act.interaction, asked.language, act.prefs),
        clock=None if rules is None else clock_rules(rules),
        hints=asked.hints, unrated=asked.unrated)


async def create(act: Act, asked: NewGame) -> Reply:
    options = game_options(act, asked)
    place, host = act.here, act.user
    if asked.thread:  # refused before the thread is made, so a refusal leaves none behind
        await act.service.check_can_create(place.guild, host.id, new_thread=True)
        place = await new_thread(act, options.language)
    view = await act.service.create(place, host, options, new_thread=asked.thread)
    with public(view):
        values = {"name": safe_name(host.name), "game": view.game_id,
                  "expansions": vocab.expansions(options.expansions),
                  "thread": f"<#{place.channel}>"}
        lobby = _("**{name}** opened Carcassonne game #{game} ({expansions}). Join with "
                  "**Join** or `/carc join`; the host starts it with **Start** or "
                  "`/carc start`.").format(**values)
        timer = text.timer_words(view)
        lobby = clocks.add_clock_lines(lobby + (f"\n{timer}" if timer else ""), view)
        if not asked.thread:
            return in_language(Reply(lobby, public=True, view=view))
        await post(act.bot, place, lobby, row_for(view, None, private=False))
        return in_language(Reply(
            _("**{name}** opened Carcassonne game #{game} in {thread} ({expansions}): the "
              "game is played there. Join with **Join** here or in the thread.").format(
                **values), public=True, components=row_for(view, None, private=False)))


async def new_thread(act: Act, language: str) -> Where:
    """A public thread under the channel, for a game that should not fill the channel;
    named in the game's language."""
    with speaking(language):
        # TRANSLATORS: the name of a game's thread.
        name = _("Carcassonne — {host}").format(host=act.user.name)
    try:
        data = await act.bot.http.start_thread_without_message(
            act.interaction.channel_id or 0, name=plain(name, 100),
            auto_archive_duration=10080, type=discord.ChannelType.public_thread.value,
            reason="carca-bot game")
    except discord.HTTPException as exc:
        log.info("could not open a thread in channel %s: %s", act.here.channel, exc.status)
        raise Refused(_("I could not open a thread here (I need the Create Public Threads "
                        "and Send Messages in Threads permissions): create the game without "
                        "`thread`, or ask an admin")) from None
    return Where(act.here.guild, str(data["id"]))


@carc.command(name="join", description="Take a seat in this channel's game")
async def join_command(interaction: Interaction) -> None:
    await run(interaction, "join", join, public=True)


@button("join", N_("Join"), discord.ButtonStyle.success, public=True)
async def join(act: Act) -> Reply:
    """Take a seat; the button also works from a thread's parent channel."""
    view = await act.service.join(await act.place(anywhere=True), act.user)
    with public(view):
        return in_language(Reply(joined(act.user.name, view), public=True, view=view))


def joined(name: str, view: TurnView) -> str:
    """'**Ana** joined. Waiting for ...' in the lobby post."""
    said = _("**{name}** joined.").format(name=safe_name(name))
    return f"{said} {text.next_line(view)}"


@carc.command(name="leave", description="Give up your seat before the game starts")
async def leave_command(interaction: Interaction) -> None:
    await run(interaction, "leave", leave, public=True)


async def leave(act: Act) -> Reply:
    view = await act.service.leave(act.here, act.user)
    with public(view):
        said = _("**{name}** left.").format(name=safe_name(act.user.name))
        return in_language(Reply(f"{said} {text.next_line(view)}", public=True, view=view))


@carc.command(name="start", description="Start the game (host only); seats are shuffled")
async def start_command(interaction: Interaction) -> None:
    await run(interaction, "start", start)


@button("start", N_("Start"), discord.ButtonStyle.primary)
async def start(act: Act) -> Reply:
    """Start the game: its card goes up; the button works from a thread's parent too."""
    return await public_move(act.bot, await act.service.start(
        await act.place(anywhere=True), act.user), None)


@carc.command(name="import", description="Load a game record (JSON) here to replay and play "
                                         "on; you play every seat")
@app_commands.describe(record="A carca-record/1 file, e.g. from /carc export")
async def import_command(interaction: Interaction, record: discord.Attachment) -> None:
    await run(interaction, "import", lambda act: load(act, record))


async def load(act: Act, record: discord.Attachment) -> Reply:
    data = await read_record(record, act.service.limits.record_bytes)
    view = await act.service.import_record(act.here, act.user, data)
    reply = await public_move(act.bot, view, None)
    with speaking(reply.language):
        said = _("**{name}** imported game #{game} for analysis: they play every "
                 "seat.").format(name=safe_name(act.user.name), game=view.game_id)
    reply.content = text.clip(f"{said}\n{reply.content}")
    return reply


async def read_record(record: discord.Attachment, limit: int) -> bytes:
    """The attachment's bytes; its announced size is checked first, so a huge upload is
    never fetched. Decoding, the other bounds and the replay are the service's, off the loop."""
    name = file_name(record.filename)
    if record.size > limit:
        raise Refused(_("that file is {size} KiB; a game record is at most {limit} KiB"
                        ).format(size=record.size // 1024, limit=limit // 1024))
    try:
        return await record.read()
    except discord.HTTPException:
        raise Refused(_("{file} could not be downloaded from Discord: try again").format(
            file=name)) from None
