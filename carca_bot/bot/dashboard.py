"""`/carc games` as a dashboard: the user's games in every server, theirs to play first.

Games where it is the user's turn come first, the most urgent deadline first; then the
others by deadline, and games without one last (lobbies, untimed games), the most
recently changed first. Each line says whose turn it is and until when (a Discord
timestamp, shown in the reader's own time zone), and the user's clock in a clock game;
a link button per game jumps to its channel, in whatever server. Pages of ten, turned
with buttons only the user can press (the reply is private anyway).
"""

from __future__ import annotations

from typing import Any

import discord

from carca_bot.bot import text, vocab
from carca_bot.bot.actions import Reply
from carca_bot.bot.refused import Refused
from carca_bot.bot.safe import plain, safe_name
from carca_bot.bot.vote_ids import VoteButton, handles
from carca_bot.i18n import Domain
from carca_bot.service import GameSummary

_T = Domain("bot")
_ = _T.gettext

PAGE_SIZE = 10  # two rows of five link buttons
MOST_GAMES = 100  # a user sits in at most `Limits.games_per_user` (20) live games
JUMP = "https://discord.com/channels/{guild}/{channel}"


def ordered(games: list[GameSummary]) -> list[GameSummary]:
    """Your turn first; then by deadline (soonest first, none last); then newest first."""
    return sorted(games, key=lambda g: (not g.your_turn, g.deadline is None,
                                        g.deadline or 0.0, -g.updated_at, g.game_id))


def game_line(g: GameSummary) -> str:
    values: dict[str, Any] = {"game": g.game_id, "channel": f"<#{g.where.channel}>",
                              "status": vocab.status(g.status)}
    if g.status == "lobby" or g.waiting_for is None:
        line = _("**#{game}** in {channel} · {status}").format(**values)
    elif g.your_turn:
        line = _("**#{game}** in {channel} · **your turn**").format(**values)
    else:
        line = _("**#{game}** in {channel} · waiting for {name}").format(
            name=safe_name(g.waiting_for), **values)
    if g.deadline is not None and g.status == "active":
        line += " · " + _("time runs out {when}").format(when=f"<t:{int(g.deadline)}:R>")
    if g.bank is not None:
        line += " · " + _("your clock: {time}").format(time=text.duration(int(g.bank)))
    scores = ", ".join(f"{safe_name(n)} {s}" for n, s in zip(g.players, g.scores, strict=True))
    return f"{line}\n   {scores}" if g.status == "active" else line


def page_of(games: list[GameSummary], page: int, owner: str
            ) -> tuple[str, discord.ui.View | None]:
    """The page's words and its buttons (links to each game's channel, ◀ ▶)."""
    if not games:
        return _("You are not in any game. Start one with `/carc create`."), None
    games = ordered(games)
    pages = (len(games) + PAGE_SIZE - 1) // PAGE_SIZE
    page = max(0, min(page, pages - 1))
    shown = games[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]
    yours = sum(g.your_turn for g in games)
    head = (_("Your games: {count}, your turn in {yours}.").format(count=len(games),
                                                                     yours=yours)
            if yours else _("Your games: {count}; none waits for you.").format(
                count=len(games)))
    if pages > 1:
        head += " " + _("Page {page} of {pages}.").format(page=page + 1, pages=pages)
    ui = discord.ui.View(timeout=None)
    for g in shown:
        if g.where.guild.isdigit() and g.where.channel.isdigit():
            ui.add_item(discord.ui.Button(
                label=plain(_("Go to #{game}").format(game=g.game_id), 80),
                url=JUMP.format(guild=g.where.guild, channel=g.where.channel)))
    if page > 0:
        ui.add_item(VoteButton("games", page - 1, owner, label=_("◀ Earlier")))
    if page < pages - 1:
        ui.add_item(VoteButton("games", page + 1, owner, label=_("Later ▶")))
    body = "\n".join(game_line(g) for g in shown)
    return text.clip(f"{head}\n{body}"), (ui if ui.children else None)


async def games_reply(bot: Any, interaction: discord.Interaction[Any], page: int = 0) -> Reply:
    owner = str(interaction.user.id)
    games = await bot.service.my_games(owner, live_only=True, limit=MOST_GAMES)
    content, ui = page_of(list(games), page, owner)
    return Reply(content, components=ui)


async def page_reply(bot: Any, interaction: discord.Interaction[Any], page: int,
                     owner: int) -> Reply:
    """A pager click: the same list at another page, in place."""
    if str(interaction.user.id) != str(owner):
        raise Refused(_("these pages list someone else's games: use `/carc games` for "
                        "yours"))
    reply = await games_reply(bot, interaction, page)
    reply.edit = True
    if reply.components is None:
        reply.components = discord.ui.View()  # no buttons left: remove the old ones
    return reply


@handles("games")
async def _page_clicked(interaction: discord.Interaction[Any], action: str, page: int,
                        owner: int) -> None:
    bot: Any = interaction.client
    await bot.actions.run(interaction, "games_page",
                          lambda: page_reply(bot, interaction, page, owner),
                          public=False, update=True)
