"""`/carc-ai` (AI players: add, remove, who used hints) and `/carc-hint`, commands of their
own as `/carc` is full. Every reply is private; the service's refusals (not the host,
the lobby full, hints off, not your turn, not in the game) are worded by `words.say`
through the reply cycle. An AI seat's moves are posted by `posts.outbox`.
"""

from __future__ import annotations

from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply, is_admin, where
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction, bot_of
from carca_bot.bot.words.languages import game_language
from carca_bot.bot.words.safe import plain, safe_name, sentence
from carca_bot.engine.moves import Draw, Move
from carca_bot.i18n import N_, Domain, speaking
from carca_bot.service import AI_LEVELS, TurnView
from carca_bot.words import say

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

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


ai = top_level(app_commands.Group(name="carc-ai",
                                  description="AI players in this channel's game",
                                  guild_only=True))


@ai.command(name="add", description="Seat an AI player in the lobby (host only)")
@app_commands.describe(level="How well it plays")
@app_commands.choices(level=LEVEL_CHOICES)
async def add_command(interaction: Interaction, level: app_commands.Choice[str]) -> None:
    await run(interaction, "ai-add", lambda act: add(act, level.value))


async def add(act: Act, level: str) -> Reply:
    lobby = await act.service.status(act.here, act.user.id)
    with speaking(game_language(lobby)):  # its name is read by the whole table
        name = seat_name(level)
    view = await act.service.add_ai(act.here, act.user, level, name,
                                    is_admin=is_admin(act.interaction), expect=lobby.version)
    added = next(s.name for s in reversed(view.seats) if s.ai == level)
    return Reply(_("**{name}** takes a seat ({players} of {most} seats taken).").format(
        name=safe_name(added), players=len(view.seats), most=view.options.max_players))


async def ai_names(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The AI seats still playing, for `/carc-ai remove`."""
    try:
        view = await bot_of(interaction).service.status(where(interaction))
    except Exception:  # no game, a busy database: simply no suggestions
        return []
    typed = current.casefold()
    return [app_commands.Choice(name=plain(n, 100), value=n[:40])
            for n in ai_seats(view) if typed in n.casefold()][:25]


@ai.command(name="remove", description="Take an AI player out of the game (host only)")
@app_commands.describe(player="The AI player's name")
@app_commands.autocomplete(player=ai_names)
async def remove_command(interaction: Interaction,
                         player: app_commands.Range[str, 1, 40]) -> None:
    await run(interaction, "ai-remove", lambda act: remove(act, plain(player, 40)))


async def remove(act: Act, name: str) -> Reply:
    view = await act.service.remove_ai(act.here, act.user, name,
                                       is_admin=is_admin(act.interaction))
    if view.status == "lobby":
        said = _("**{name}** left the lobby.")
    else:
        said = _("**{name}** left the game; its turns are played plainly from now on.")
    return Reply(said.format(name=safe_name(name)))


@ai.command(name="hints", description="Who asked the AI for hints in this game")
async def hints_command(interaction: Interaction) -> None:
    await run(interaction, "ai-hints", hints)


async def hints(act: Act) -> Reply:
    return Reply(hints_used(await act.service.status(act.here, act.user.id)))


@top_level
@app_commands.command(name="carc-hint",
                      description="Ask the AI for a move for your turn (only you see it)")
@app_commands.guild_only()
async def hint_command(interaction: Interaction) -> None:
    await run(interaction, "hint", hint)


async def hint(act: Act) -> Reply:
    """The AI's move for your turn, only for you, in a game with hints on."""
    found = await act.service.hint(act.here, act.user)
    view = await act.service.status(act.here, act.user.id)
    names = [s.name for s in view.seats]
    steps = "\n".join(f"• {suggested(step, names)}" for step in found.steps)
    head = _("The AI suggests (hints you have asked for in this game: {count}):").format(
        count=found.used)
    return Reply(f"{head}\n{steps}")
