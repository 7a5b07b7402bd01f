"""The `/carc` command group: one subcommand per thing a player or admin does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from carca_bot.bot import clock_words, dashboard, languages, parse, text, vocab
from carca_bot.bot.actions import Reply, in_language, is_admin, joined, public, where, who
from carca_bot.bot.autocomplete import Autocomplete
from carca_bot.bot.buttons import resign_row, row_for
from carca_bot.bot.features import legend
from carca_bot.bot.help import rules_text
from carca_bot.bot.refused import Refused
from carca_bot.bot.safe import file_name, safe_name
from carca_bot.i18n import NAMES, Domain, speaking
from carca_bot.service import (
    GameOptions,
    TurnView,
)
from carca_bot.service.model import clock_rules

if TYPE_CHECKING:
    from carca_bot.bot.client import CarcaBot

_T = Domain("bot")
_ = _T.gettext

Interaction = discord.Interaction[Any]
# Free text is short by nature here; Discord enforces these lengths before we see it.
Text30 = app_commands.Range[str, 1, 30]
Text200 = app_commands.Range[str, 0, 200]
ROTATIONS: list[app_commands.Choice[int]] = [
    app_commands.Choice(name=f"{d}°", value=d) for d in (0, 90, 180, 270)]
# Choice names are English here and translated by `translator.CommandTranslator`.
FIGURES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=vocab.FIGURE_NAMES[n], value=n)
    for n in ("follower", "abbot", "mayor", "wagon")]
CORNERS: list[app_commands.Choice[str]] = [
    app_commands.Choice(name="NW: barn, north-west corner", value="NW"),
    app_commands.Choice(name="NE: barn, north-east corner", value="NE"),
    app_commands.Choice(name="SE: barn, south-east corner", value="SE"),
    app_commands.Choice(name="SW: barn, south-west corner", value="SW")]
LANGUAGE_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=NAMES["en"], value="en"),
    app_commands.Choice(name=NAMES["es"], value="es")]
CLEARABLE_LANGUAGES = [*LANGUAGE_CHOICES, app_commands.Choice(
    name="Default (follow Discord's language)", value="default")]
WAGON_RULES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name="c2: a feature on its tile or the 8 around (default)", value="c2"),
    app_commands.Choice(name="c1: a feature connected to the scored one", value="c1")]


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


def build_group(bot: CarcaBot) -> app_commands.Group:
    group = app_commands.Group(name="carc", description="Carcassonne in this channel",
                               guild_only=True)
    act, ac = bot.actions, Autocomplete(bot)

    async def time_zones(interaction: Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        return clock_words.time_zone_choices(current)

    def service() -> Any:
        return bot.service

    # -- lobby ----------------------------------------------------------------------

    @group.command(name="create", description="Open a game in this channel (or a new thread)")
    @app_commands.describe(
        expansions="Comma-separated: river, abbot, abbey_mayor, king_robber, cult, tunnel, "
                   "or all",
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
    @app_commands.choices(wagon=WAGON_RULES, language=LANGUAGE_CHOICES,
                          clock=clock_words.PRESET_CHOICES,
                          out_of_time=clock_words.TIMEOUT_CHOICES)
    @app_commands.autocomplete(expansions=ac.expansions, time_zone=time_zones)
    async def create(interaction: Interaction, expansions: Text200 | None = None,
                     wagon: str = "c2", timer_hours: app_commands.Range[int, 0, 720] = 0,
                     auto_play: bool = False, thread: bool = False,
                     players: app_commands.Range[int, 1, 6] = 6,
                     language: str | None = None, clock: str | None = None,
                     bank_hours: app_commands.Range[int, 1, clock_words.MAX_BANK_HOURS]
                     | None = None,
                     increment_hours: app_commands.Range[int, 0, clock_words.MAX_BANK_HOURS]
                     | None = None,
                     cap_hours: app_commands.Range[int, 1, clock_words.MAX_CAP_HOURS]
                     | None = None,
                     quiet_start: app_commands.Range[int, 0, 23] | None = None,
                     quiet_end: app_commands.Range[int, 0, 23] | None = None,
                     time_zone: app_commands.Range[str, 1, 64] | None = None,
                     out_of_time: str | None = None, hints: bool = False,
                     unrated: bool = False) -> None:
        async def work() -> Reply:
            chosen = parse.expansions(expansions)
            rules = clock_words.clock_choice(clock, bank_hours, increment_hours, cap_hours,
                                             quiet_start, quiet_end, time_zone, out_of_time)
            if rules is not None and timer_hours:
                raise Refused(_("a game has a clock or a turn timer, not both: leave "
                                "timer_hours out, or the clock options"))
            timer = None if rules is not None else (timer_hours * 3600
                                                    or bot.settings.default_timer)
            spoken = languages.new_game_language(interaction, language,
                                                 await act.prefs(interaction))
            options = GameOptions(
                expansions=chosen, wagon_rule=wagon, turn_timer=timer,
                auto_play=auto_play and timer is not None, max_players=players,
                language=spoken, clock=None if rules is None else clock_rules(rules),
                hints=hints, unrated=unrated)
            place, host = where(interaction), who(interaction)
            if thread:  # refused before the thread is made, so a refusal leaves none behind
                await service().check_can_create(place.guild, host.id, new_thread=True)
                place = await bot.new_thread(interaction, host.name, spoken)
            view: TurnView = await service().create(place, host, options, new_thread=thread)
            with public(view):
                values = {"name": safe_name(host.name), "game": view.game_id,
                          "expansions": vocab.expansions(chosen),
                          "thread": f"<#{place.channel}>"}
                lobby_post = _("**{name}** opened Carcassonne game #{game} ({expansions}). "
                               "Join with **Join** or `/carc join`; the host starts it with "
                               "**Start** or `/carc start`.").format(**values)
                timer_line = text.timer_words(view)
                lobby_post += f"\n{timer_line}" if timer_line else ""
                lobby_post = clock_words.add_clock_lines(lobby_post, view)
                if not thread:
                    return in_language(Reply(lobby_post, public=True, view=view))
                await bot.post(place, lobby_post, row_for(view, None, private=False))
                return in_language(Reply(
                    _("**{name}** opened Carcassonne game #{game} in {thread} ({expansions}): "
                      "the game is played there. Join with **Join** here or in the thread."
                      ).format(**values),
                    public=True, components=row_for(view, None, private=False)))
        await act.run(interaction, "create", work, public=True)

    @group.command(name="join", description="Take a seat in this channel's game")
    async def join(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().join(where(interaction), who(interaction))
            with public(view):
                return in_language(Reply(joined(who(interaction).name, view), public=True,
                                         view=view))
        await act.run(interaction, "join", work, public=True)

    @group.command(name="leave", description="Give up your seat before the game starts")
    async def leave(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().leave(where(interaction), who(interaction))
            with public(view):
                said = _("**{name}** left.").format(name=safe_name(who(interaction).name))
                return in_language(Reply(f"{said} {text.next_line(view)}", public=True,
                                         view=view))
        await act.run(interaction, "leave", work, public=True)

    @group.command(name="start", description="Start the game (host only); seats are shuffled")
    async def start(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().start(where(interaction), who(interaction))
            return await act.public_move(view, None)
        await act.run(interaction, "start", work, public=True)

    # -- a turn ---------------------------------------------------------------------

    @group.command(name="tile", description="See the tile you drew and where it fits")
    async def tile(interaction: Interaction) -> None:
        async def work() -> Reply:
            return await act.your_tile(interaction,
                                       await service().begin_turn(where(interaction),
                                                                  who(interaction)))
        await act.run(interaction, "tile", work, public=False)

    @group.command(name="draw", description="Draw a tile (instead of placing your abbey)")
    async def draw(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().draw(where(interaction), who(interaction))
            return await act.your_tile(interaction, view)
        await act.run(interaction, "draw", work, public=False)

    @group.command(name="place", description="Place your tile: square, rotation, and "
                                             "optionally a figure")
    @app_commands.describe(square="Where: x,y (the board's labels)",
                           rotation="Clockwise turn of the tile as drawn",
                           figure="A figure to place on the tile", on="Where the figure goes",
                           confirm="Finish the turn at once")
    @app_commands.choices(rotation=ROTATIONS)
    @app_commands.choices(figure=FIGURES)
    @app_commands.autocomplete(square=ac.squares, on=ac.place_features)
    async def place(interaction: Interaction, square: Text30, rotation: int | None = None,
                    figure: str | None = None, on: Text30 | None = None,
                    confirm: bool = False) -> None:
        async def work() -> Reply:
            x, y = parse.square(square)
            place, user = where(interaction), who(interaction)
            if figure is None and on is not None:
                raise Refused(_("say which figure goes there (the figure option)"))
            if figure is not None and on is None:
                raise Refused(_("say where the figure goes (the on option)"))
            rot = rotation if rotation is not None else await ac.only_rotation(interaction,
                                                                               (x, y))
            if on is not None and figure is not None:
                await ac.check_kind(interaction, (x, y), rot, figure, on)
            # All or nothing: the tile, the figure and the confirmation in one step.
            view = await service().place(place, user, x, y, rot, figure,
                                         parse.feature(on) if on else None, confirm)
            if confirm:
                return await act.public_move(view, user.name)
            return await act.after(interaction, view, user.name)
        await act.run(interaction, "place", work, public=confirm)

    @group.command(name="follower", description="Put a follower, abbot, mayor or wagon on "
                                                "the tile you just placed")
    @app_commands.describe(figure="Which figure", on="Which feature of the tile")
    @app_commands.choices(figure=FIGURES)
    @app_commands.autocomplete(on=ac.features)
    async def follower(interaction: Interaction, on: Text30, figure: str = "follower") -> None:
        async def work() -> Reply:
            view = await service().deploy(where(interaction), who(interaction), figure,
                                          parse.feature(on))
            return await act.private_step(interaction, view)
        await act.run(interaction, "follower", work, public=False)

    @group.command(name="barn", description="Put your barn on a corner of the tile you just "
                                            "placed")
    @app_commands.describe(corner="Which corner of the tile")
    @app_commands.choices(corner=CORNERS)
    async def barn(interaction: Interaction, corner: str) -> None:
        async def work() -> Reply:
            view = await service().deploy(where(interaction), who(interaction), "barn", corner)
            return await act.private_step(interaction, view)
        await act.run(interaction, "barn", work, public=False)

    @group.command(name="recall", description="Take your abbot back and score it now")
    async def recall(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().recall(where(interaction), who(interaction))
            return await act.private_step(interaction, view)
        await act.run(interaction, "recall", work, public=False)

    @group.command(name="abbey", description="Place your abbey in a hole (or skip it at the "
                                             "end)")
    @app_commands.describe(square="x,y of a hole, or 'skip' in the final abbey round")
    @app_commands.autocomplete(square=ac.abbey_squares)
    async def abbey(interaction: Interaction, square: Text30) -> None:
        skip = parse.is_skip(square)

        async def work() -> Reply:
            place, user = where(interaction), who(interaction)
            if skip:
                return await act.public_move(await service().skip_abbey(place, user), user.name)
            x, y = parse.square(square)
            view = await service().place_abbey(place, user, x, y)
            return await act.private_step(interaction, view)
        await act.run(interaction, "abbey", work, public=skip)

    @group.command(name="tunnel", description="Put a tunnel token on a free entrance")
    @app_commands.describe(entrance="x,y and side of the entrance, e.g. '2,0 W'",
                           pair="Your token pair (1 to 3)")
    @app_commands.autocomplete(entrance=ac.tunnel_entrances)
    async def tunnel(interaction: Interaction, entrance: Text30,
                     pair: app_commands.Range[int, 1, 3] = 1) -> None:
        async def work() -> Reply:
            x, y, side = parse.square_and_name(entrance)
            view = await service().place_token(where(interaction), who(interaction), x, y,
                                               side.upper(), pair - 1)
            return await act.private_step(interaction, view)
        await act.run(interaction, "tunnel", work, public=False)

    @group.command(name="wagon", description="Move your wagon after its feature was scored")
    @app_commands.describe(target="x,y and feature, e.g. '1,-1 C', or 'return'")
    @app_commands.autocomplete(target=ac.wagon_targets)
    async def wagon(interaction: Interaction, target: Text30) -> None:
        async def work() -> Reply:
            place, user = where(interaction), who(interaction)
            if parse.is_return(target):
                return await act.public_move(await service().return_wagon(place, user),
                                             user.name)
            x, y, on = parse.square_and_name(target)
            return await act.public_move(await service().move_wagon(place, user, x, y,
                                                                    parse.feature(on)), user.name)
        await act.run(interaction, "wagon", work, public=True)

    @group.command(name="confirm", description="Finish your turn")
    async def confirm(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().confirm(where(interaction), who(interaction))
            return await act.public_move(view, who(interaction).name)
        await act.run(interaction, "confirm", work, public=True)

    @group.command(name="undo", description="Take back the unconfirmed steps of your turn")
    async def undo(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().undo(where(interaction), who(interaction))
            return await act.private_step(interaction, view)
        await act.run(interaction, "undo", work, public=False)

    # -- looking ----------------------------------------------------------------------

    @group.command(name="board", description="Show the board")
    async def board(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().status(where(interaction), str(interaction.user.id))
            game = await service().game(where(interaction), view.game_id)
            if game is None:
                return Reply(text.status_text(view), view=view)
            return in_language(Reply(text.status_text(view), board=game))
        await act.run(interaction, "board", work, public=False)

    @group.command(name="status", description="Players, scores, figures and whose turn it is")
    async def status(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().status(where(interaction), str(interaction.user.id))
            return Reply(text.clip(clock_words.add_clock_lines(text.status_text(view), view)))
        await act.run(interaction, "status", work, public=False)

    @group.command(name="score", description="How the points were scored")
    @app_commands.describe(page="Which page of scorings (the newest by default)")
    async def score(interaction: Interaction,
                    page: app_commands.Range[int, 1, 10_000] | None = None) -> None:
        await act.run(interaction, "score", lambda: act.score_details(
            interaction, None if page is None else page - 1), public=False)

    @group.command(name="games", description="Your games in every channel")
    async def games(interaction: Interaction) -> None:
        await act.run(interaction, "games", lambda: dashboard.games_reply(bot, interaction),
                      public=False)

    @group.command(name="export", description="Download this game's record (JSON)")
    async def export(interaction: Interaction) -> None:
        await act.run(interaction, "export", lambda: act.export(interaction), public=False)

    @group.command(name="rules", description="How to play with this bot")
    async def rules(interaction: Interaction) -> None:
        async def work() -> Reply:
            return Reply(f"{rules_text()}{legend()}")
        await act.run(interaction, "rules", work, public=False)

    @group.command(name="import", description="Load a game record (JSON) here to replay "
                                              "and play on; you play every seat")
    @app_commands.describe(record="A carca-record/1 file, e.g. from /carc export")
    async def import_(interaction: Interaction, record: discord.Attachment) -> None:
        async def work() -> Reply:
            data = await read_record(record, service().limits.record_bytes)
            view = await service().import_record(where(interaction), who(interaction), data)
            reply = await act.public_move(view, None)
            with speaking(reply.language):
                said = _("**{name}** imported game #{game} for analysis: they play every "
                         "seat.").format(name=safe_name(who(interaction).name),
                                         game=view.game_id)
            reply.content = text.clip(f"{said}\n{reply.content}")
            return reply
        await act.run(interaction, "import", work, public=True)

    # -- ending -----------------------------------------------------------------------

    @group.command(name="resign", description="Resign from this channel's game")
    async def resign(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().status(where(interaction), str(interaction.user.id))
            if view.status != "active":
                raise Refused(_("there is no running game to resign from in this channel"))
            if not any(s.user_id == str(interaction.user.id) for s in view.seats):
                raise Refused(_("you are not playing in this game"))
            return Reply(_("Really resign from game #{game}? You cannot come back, and the "
                           "others play on without you.").format(game=view.game_id),
                         components=resign_row(view))
        await act.run(interaction, "resign", work, public=False)

    @group.command(name="kick", description="Remove a player (host or Manage Server)")
    @app_commands.describe(player="The player to remove")
    async def kick(interaction: Interaction, player: discord.User) -> None:
        async def work() -> Reply:
            view = await service().kick(where(interaction), who(interaction), str(player.id),
                                        is_admin(interaction))
            with public(view):
                said = _("**{name}** was removed from game #{game}.").format(
                    name=safe_name(player.display_name), game=view.game_id)
                return in_language(Reply(f"{said} {text.next_line(view)}", public=True,
                                         view=view, pings=text.pinged(view)))
        await act.run(interaction, "kick", work, public=True)

    @group.command(name="cancel", description="Cancel this channel's game (host or Manage "
                                              "Server)")
    async def cancel(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await service().cancel(where(interaction), who(interaction),
                                          is_admin(interaction))
            with public(view):
                return in_language(Reply(_("Game #{game} was cancelled by **{name}**.").format(
                    game=view.game_id, name=safe_name(who(interaction).name)), public=True,
                    view=view))
        await act.run(interaction, "cancel", work, public=True)

    return group


def build_language_command(bot: CarcaBot) -> app_commands.Command[Any, ..., None]:
    """`/carc-language`: a command of its own, as `/carc` holds the 25 subcommands
    Discord allows a group."""
    act = bot.actions

    def service() -> Any:
        return bot.service

    @app_commands.command(name="carc-language", description="The language the bot speaks to "
                                                            "you, or (Manage Server) in this "
                                                            "server")
    @app_commands.guild_only()
    @app_commands.describe(language="Your language, or Default to follow your Discord app",
                           server="Set the server's language instead (Manage Server)")
    @app_commands.choices(language=CLEARABLE_LANGUAGES)
    async def language_command(interaction: Interaction, language: str | None = None,
                               server: bool = False) -> None:
        async def work() -> Reply:
            user_id, guild_id = str(interaction.user.id), str(interaction.guild_id or 0)
            if language is not None:
                if server and not is_admin(interaction):
                    raise Refused(_("only members with the Manage Server permission can "
                                    "choose the server's language"))
                chosen = None if language == "default" else language
                if server:
                    await service().set_language("guild", guild_id, chosen)
                else:
                    await service().set_language("user", user_id, chosen)
            prefs = await act.prefs(interaction)
            with speaking(languages.private_language(interaction, prefs)):
                return in_language(Reply(language_text(prefs)))
        await act.run(interaction, "language", work, public=False)

    return language_command


def language_text(prefs: languages.Prefs) -> str:
    """What `/carc language` answers: both settings, in the language now spoken to you."""
    if prefs.user:
        mine = _("Your language: {language} (your choice).").format(
            language=NAMES.get(prefs.user, prefs.user))
    else:
        mine = _("Your language: not chosen, so I follow your Discord app's language.")
    if prefs.guild:
        server = _("This server's language: {language}. New games here speak it unless "
                   "their creator chooses another.").format(
            language=NAMES.get(prefs.guild, prefs.guild))
    else:
        server = _("This server's language: not chosen, so new games follow the server's "
                   "Discord settings.")
    return f"{mine}\n{server}"


def build_history_command(bot: CarcaBot) -> app_commands.Command[Any, ..., None]:
    """`/carc-history`: a command of its own (`/carc` is full); stepping is done with the
    buttons of its private reply."""
    act = bot.actions

    @app_commands.command(name="carc-history", description="Step through a game of this "
                                                           "channel, move by move (only you "
                                                           "see it)")
    @app_commands.guild_only()
    @app_commands.describe(move="The move to show (0: the start; by default the newest)",
                           game="The game's number (by default this channel's game)")
    async def history_command(interaction: Interaction,
                              move: app_commands.Range[int, 0, 100_000] | None = None,
                              game: app_commands.Range[int, 1, 10**15] | None = None) -> None:
        await act.run(interaction, "history", lambda: act.history(interaction, game, move),
                      public=False)

    return history_command


def build_tiles_command(bot: CarcaBot) -> app_commands.Command[Any, ..., None]:
    """`/carc-tiles`: a command of its own, as `/carc` is full."""
    act = bot.actions

    @app_commands.command(name="carc-tiles", description="The tiles left in the pile of this "
                                                         "channel's game, counted by kind")
    @app_commands.guild_only()
    async def tiles_command(interaction: Interaction) -> None:
        await act.run(interaction, "tiles", lambda: act.tiles(interaction), public=False)

    return tiles_command
