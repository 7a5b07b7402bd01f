"""`/carc games` as a dashboard: the user's games in every server, theirs to play first.

Games where it is the user's turn come first, the most urgent deadline first; then the
others by deadline, and games without one last (lobbies, untimed games), the most
recently changed first. Each line says whose turn it is and until when (a Discord
timestamp, shown in the reader's own time zone), and the user's clock in a clock game;
a link button per game jumps to its channel, in whatever server. Pages of ten, turned
with buttons only the user can press (the reply is private anyway).
"""

from __future__ import annotations

import discord

from carca_bot.bot.commands.tree import carc
from carca_bot.bot.components.ids import VoteItem
from carca_bot.bot.core.act import Act, Click
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.core.verbs import on_private_message, vote
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import names as vocab
from carca_bot.bot.words import text
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import plain, safe_name
from carca_bot.i18n import N_, Domain
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
    values: dict[str, object] = {"game": g.game_id, "channel": f"<#{g.where.channel}>",
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
        ui.add_item(VoteItem.button("games", page - 1, owner, label=_("◀ Earlier")))
    if page < pages - 1:
        ui.add_item(VoteItem.button("games", page + 1, owner, label=_("Later ▶")))
    body = "\n".join(game_line(g) for g in shown)
    return text.clip(f"{head}\n{body}"), (ui if ui.children else None)


@carc.command(name="games", description="Your games in every channel")
async def games_command(interaction: Interaction) -> None:
    await run(interaction, "games", games)


async def games(act: Act, page: int = 0) -> Reply:
    """The user's games, a page of PAGE_SIZE."""
    owner = act.user.id
    found = await act.service.my_games(owner, live_only=True, limit=MOST_GAMES)
    content, ui = page_of(list(found), page, owner)
    return Reply(content, components=ui)


async def turn_page(act: Act) -> Reply:
    """A pager click: the same list at another page (the id's game is the page, its
    reference the list's owner)."""
    assert act.click is not None
    if act.user.id != str(act.click.number):
        raise Refused(_("these pages list someone else's games: use `/carc games` for "
                        "yours"))
    reply = await games(act, act.click.game_id)
    if reply.components is None:
        reply.components = discord.ui.View()  # no buttons left: remove the old ones
    return reply


@vote("games", N_("Page"))
async def page_clicked(interaction: Interaction, click: Click) -> None:
    """The list steps in place on the private message it is on (only there: the pages
    never replace another message)."""
    await run(interaction, "games_page", turn_page, click=click,
              edit=on_private_message(interaction))
