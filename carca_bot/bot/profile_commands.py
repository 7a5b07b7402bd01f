"""`/carc-profile` and `/carc-leaderboard`: a player's record and the server's ratings.

Text for now: `profile_reply` and `leaderboard_reply` are where the pictures of
carca_bot/render/league.py (`ProfileCard`, `LeaderRow`) go once they are wired.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands

from carca_bot.bot import text, vocab
from carca_bot.bot.actions import Actions, Reply
from carca_bot.bot.safe import safe_name
from carca_bot.i18n import Domain
from carca_bot.service import GameService, LeaderPage, Profile

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

Interaction = discord.Interaction[Any]

POOLS = [
    app_commands.Choice(name="Duels (2 players)", value="duel"),
    app_commands.Choice(name="Multiplayer (3 to 6)", value="multi"),
]


class ProfileBot(Protocol):
    @property
    def service(self) -> GameService: ...
    @property
    def actions(self) -> Actions: ...


def pool_words(pool: str) -> str:
    return _("duels") if pool == "duel" else _("multiplayer")


def rating_words(value: float) -> str:
    return f"{value:.1f}"


def profile_text(card: Profile, name: str) -> str:
    """A player's record as a few lines (the profile picture goes in `profile_reply`)."""
    lines = [_("**{name}** on this server").format(name=safe_name(name))]
    if not card.games and not card.ratings:
        lines.append(_("No finished game here yet."))
        return "\n".join(lines)
    for r in card.ratings:
        games = ngettext("{n} rated game", "{n} rated games", r.games).format(n=r.games)
        if r.provisional:
            lines.append(_("Rating, {pool}: {rating} (provisional, {games})").format(
                pool=pool_words(r.pool.value), rating=rating_words(r.rating), games=games))
        else:
            lines.append(_("Rating, {pool}: {rating} ({games}, place {place})").format(
                pool=pool_words(r.pool.value), rating=rating_words(r.rating), games=games,
                place=r.place if r.place is not None else "?"))
    lines.append(ngettext("{n} game, {wins} won", "{n} games, {wins} won", card.games).format(
        n=card.games, wins=card.wins))
    if card.average_score is not None:
        lines.append(_("Average score: {score}").format(score=f"{card.average_score:.1f}"))
    if card.favourite_expansions:
        lines.append(_("Favourite expansions: {list}").format(list=", ".join(
            f"{vocab.expansions(frozenset({e}))} ({n})" for e, n in card.favourite_expansions)))
    if card.median_move_seconds is not None:
        seconds = int(card.median_move_seconds)
        said = text.duration(seconds) if seconds >= 60 else _("{n} s").format(n=seconds)
        lines.append(_("Median time per move: {time}").format(time=said))
    return "\n".join(lines)


def profile_reply(card: Profile, name: str) -> Reply:
    """The profile picture (render/league.py's ProfileCard) goes here."""
    return Reply(text.clip(profile_text(card, name)), public=True)


def leaderboard_text(page: LeaderPage) -> str:
    head = _("**Leaderboard, {pool}** (page {page} of {pages})").format(
        pool=pool_words(page.pool.value), page=page.page, pages=page.pages)
    if not page.rows:
        return head + "\n" + _("Nobody here yet: a rating shows once a player has finished "
                               "10 rated games.")
    lines = [head]
    for row in page.rows:
        games = ngettext("{n} game", "{n} games", row.games).format(n=row.games)
        lines.append(f"{row.place}. {safe_name(row.name)} — {rating_words(row.rating)} "
                     f"({games})")
    return "\n".join(lines)


def leaderboard_reply(page: LeaderPage) -> Reply:
    """The leaderboard picture (render/league.py's LeaderRow) goes here."""
    return Reply(text.clip(leaderboard_text(page)), public=True)


def build_profile_command(bot: ProfileBot) -> app_commands.Command[Any, ..., None]:
    act = bot.actions

    @app_commands.command(name="carc-profile", description="A player's ratings and record "
                                                           "on this server")
    @app_commands.guild_only()
    @app_commands.describe(player="Whose profile (by default yours)")
    async def profile_command(interaction: Interaction,
                              player: discord.User | discord.Member | None = None) -> None:
        async def work() -> Reply:
            target = player or interaction.user
            card = await bot.service.profile(str(interaction.guild_id or 0), str(target.id))
            shown = getattr(target, "display_name", None) or target.name
            return profile_reply(card, card.name or shown)
        await act.run(interaction, "profile", work, public=True)

    return profile_command


def build_leaderboard_command(bot: ProfileBot) -> app_commands.Command[Any, ..., None]:
    act = bot.actions

    @app_commands.command(name="carc-leaderboard", description="This server's best rated "
                                                               "players")
    @app_commands.guild_only()
    @app_commands.describe(pool="Duels or multiplayer games", page="Which page")
    @app_commands.choices(pool=POOLS)
    async def leaderboard_command(interaction: Interaction, pool: str = "duel",
                                  page: app_commands.Range[int, 1, 1000] = 1) -> None:
        async def work() -> Reply:
            found = await bot.service.leaderboard(str(interaction.guild_id or 0), pool, page)
            return leaderboard_reply(found)
        await act.run(interaction, "leaderboard", work, public=True)

    return leaderboard_command
