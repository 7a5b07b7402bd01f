"""`/carc-ai` (AI players: add, remove, who used hints) and `/carc-hint`, commands of their
own as `/carc` is full. Every reply is private; the service's refusals (not the host,
the lobby full, hints off, not your turn, not in the game) are worded by `words.say`
through `Actions.run`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord import app_commands

from carca_bot.bot.actions import Actions, Reply, is_admin, where, who
from carca_bot.bot.languages import game_language
from carca_bot.bot.safe import plain, safe_name, sentence
from carca_bot.engine.moves import Draw, Move
from carca_bot.i18n import N_, Domain, speaking
from carca_bot.service import AI_LEVELS, GameService, TurnView
from carca_bot.words import say

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)
PREVIOUS_POST_WAIT = 15.0  # seconds the AI's post waits for the post of the move before it


class Bot(Protocol):
    """What these commands use of `carca_bot.bot.client.CarcaBot` (named by what it does,
    so this module and the client do not import each other)."""

    @property
    def actions(self) -> Actions: ...
    @property
    def service(self) -> GameService: ...
    async def deliver_pending(self, min_age: float = ..., game_id: int | None = ...) -> int: ...

# The levels by name, as players read them (`AI_LEVELS` are the service's codes).
LEVEL_NAMES = {"random": N_("random"), "greedy": N_("greedy"), "easy": N_("easy"),
               "medium": N_("medium"), "strong": N_("strong")}
# Choice names are English here and translated by `translator.CommandTranslator`.
LEVEL_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name="Random: any legal move", value="random"),
    app_commands.Choice(name="Greedy: the most points now", value="greedy"),
    app_commands.Choice(name="Easy", value="easy"),
    app_commands.Choice(name="Medium", value="medium"),
    app_commands.Choice(name="Strong: thinks ahead (about 2 s a move)", value="strong")]
assert tuple(c.value for c in LEVEL_CHOICES) == AI_LEVELS == tuple(LEVEL_NAMES)


def level_name(level: str) -> str:
    """An AI level in the language being spoken; an unknown one as it is."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def seat_name(level: str) -> str:
    """The player name of an AI seat, in the language being spoken (the game's)."""
    # TRANSLATORS: the player name of an AI seat: "AI (strong)". At most 32 characters.
    return _("AI ({level})").format(level=level_name(level))


def ai_seats(view: TurnView) -> list[str]:
    """The names of the AI seats still playing in the game."""
    return [s.name for s in view.seats if s.ai is not None and not s.resigned]


def suggested(step: Move, names: list[str]) -> str:
    """One step of a hint, as advice: the choice to draw is not "tile drawn" yet."""
    if isinstance(step, Draw):
        return _("draw a tile (rather than place your abbey)")
    return sentence(say(step, names), names)


def hints_used(view: TurnView) -> str:
    """Who asked for hints in the game, and how many."""
    asked = [s for s in view.seats if s.hints]
    if not asked:
        return _("Nobody has asked for a hint in this game.")
    return "\n".join(ngettext("• {name}: {count} hint", "• {name}: {count} hints",
                              s.hints).format(name=safe_name(s.name), count=s.hints)
                     for s in asked)


def build_ai_group(bot: Bot) -> app_commands.Group:
    """`/carc-ai add`, `/carc-ai remove`, `/carc-ai hints`."""
    group = app_commands.Group(name="carc-ai", description="AI players in this channel's game",
                               guild_only=True)
    act = bot.actions

    @group.command(name="add", description="Seat an AI player in the lobby (host only)")
    @app_commands.describe(level="How well it plays")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add(interaction: Interaction, level: app_commands.Choice[str]) -> None:
        async def work() -> Reply:
            place, user = where(interaction), who(interaction)
            lobby = await bot.service.status(place, user.id)
            with speaking(game_language(lobby)):  # its name is read by the whole table
                name = seat_name(level.value)
            view = await bot.service.add_ai(place, user, level.value, name,
                                            is_admin=is_admin(interaction),
                                            expect=lobby.version)
            added = next(s.name for s in reversed(view.seats) if s.ai == level.value)
            return Reply(_("**{name}** takes a seat ({players} of {most} seats taken).").format(
                name=safe_name(added), players=len(view.seats),
                most=view.options.max_players))

        await act.run(interaction, "ai-add", work, public=False)

    @group.command(name="remove", description="Take an AI player out of the game (host only)")
    @app_commands.describe(player="The AI player's name")
    async def remove(interaction: Interaction, player: app_commands.Range[str, 1, 40]) -> None:
        async def work() -> Reply:
            view = await bot.service.remove_ai(where(interaction), who(interaction),
                                               plain(player, 40),
                                               is_admin=is_admin(interaction))
            gone = plain(player, 40)
            if view.status == "lobby":
                said = _("**{name}** left the lobby.")
            else:
                said = _("**{name}** left the game; its turns are played plainly from now on.")
            return Reply(said.format(name=safe_name(gone)))

        await act.run(interaction, "ai-remove", work, public=False)

    @remove.autocomplete("player")
    async def remove_names(interaction: Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        try:
            view = await bot.service.status(where(interaction))
        except Exception:  # no game, a busy database: simply no suggestions
            return []
        typed = current.casefold()
        return [app_commands.Choice(name=plain(n, 100), value=n[:40])
                for n in ai_seats(view) if typed in n.casefold()][:25]

    @group.command(name="hints", description="Who asked the AI for hints in this game")
    async def hints(interaction: Interaction) -> None:
        async def work() -> Reply:
            view = await bot.service.status(where(interaction), str(interaction.user.id))
            return Reply(hints_used(view))

        await act.run(interaction, "ai-hints", work, public=False)

    return group


def build_hint_command(bot: Bot) -> app_commands.Command[Any, ..., None]:
    """`/carc-hint`: the AI's move for your turn, only for you, in a game with hints on."""
    act = bot.actions

    @app_commands.command(name="carc-hint",
                          description="Ask the AI for a move for your turn (only you see it)")
    @app_commands.guild_only()
    async def hint_command(interaction: Interaction) -> None:
        async def work() -> Reply:
            place, user = where(interaction), who(interaction)
            hint = await bot.service.hint(place, user)
            view = await bot.service.status(place, user.id)
            names = [s.name for s in view.seats]
            steps = "\n".join(f"• {suggested(step, names)}" for step in hint.steps)
            head = _("The AI suggests (hints you have asked for in this game: {count}):"
                     ).format(count=hint.used)
            return Reply(f"{head}\n{steps}")

        await act.run(interaction, "hint", work, public=False)

    return hint_command


def public_change_hook(bot: Bot) -> Callable[[int, int], Awaitable[None]]:
    """The service's `on_public_change` for this bot: post an AI's move at once.

    The service calls it after storing a change it made itself (an AI seat's move),
    `after` being the game's version before it. The post of the change before (a
    player's move, which their own command is still posting) is waited for first, so
    the catch-up post holds only the new moves; then the game's owed post goes out as
    the timer loop would send it (other games' posts are left to their own commands and
    the timer loop). One delivery at a time, so no owed post goes out twice.
    """
    delivering = asyncio.Lock()

    async def on_public_change(game_id: int, after: int) -> None:
        loop = asyncio.get_running_loop()
        waited_until = loop.time() + PREVIOUS_POST_WAIT
        while loop.time() < waited_until:
            owed = next((p for p in await bot.service.pending_posts()
                         if p.game_id == game_id), None)
            if owed is None:
                return  # posted already (the timer loop, or an earlier call)
            if owed.posted_version >= after:
                break
            await asyncio.sleep(0.1)
        async with delivering:  # this game's only: another's may still be posting
            await bot.deliver_pending(min_age=0.0, game_id=game_id)

    return on_public_change
