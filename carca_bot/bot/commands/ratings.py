"""`/carc-profile` and `/carc-leaderboard`: a player's record and the server's ratings.

Both answer with a picture (carca_bot/render/league_profile.py's card, render/league.py's
leaderboard) drawn in the render threads, under a short line of text. The pictures are
drawn in the language of the reply, passed to them explicitly (the render threads do not
see the task's language). When a picture cannot be drawn or does not fit the upload
limit the answer is the same record as text, so nobody is left without one.
"""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.pictures import Pictures
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import names as vocab
from carca_bot.bot.words import text
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain, current
from carca_bot.render.league import PER_PAGE, LeaderRow, render_leaderboard
from carca_bot.render.league_profile import ProfileCard, render_profile
from carca_bot.service import LeaderPage, Profile
from carca_bot.service.ratings_ops import PROVISIONAL_GAMES
from carca_bot.words.alt_league import leaderboard_alt, profile_alt

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

POOLS = [
    app_commands.Choice(name="Duels (2 players)", value="duel"),
    app_commands.Choice(name="Multiplayer (3 to 6)", value="multi"),
]


EVERYONE = 10**6  # a leaderboard "page" that holds the whole board (the picture pages it)


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


def profile_card(card: Profile, name: str) -> ProfileCard:
    """The service's record as the picture draws it. Expansions go as their codes (the
    picture names them)."""
    duel = next((r for r in card.ratings if r.pool.value == "duel"), None)
    multi = next((r for r in card.ratings if r.pool.value == "multi"), None)
    return ProfileCard(
        name=name, rating2=None if duel is None else duel.rating,
        rating_multi=None if multi is None else multi.rating, games=card.games,
        wins=card.wins, average_score=card.average_score,
        favourite_expansions=tuple(e for e, _n in card.favourite_expansions),
        median_move_seconds=card.median_move_seconds,
        recent_results=card.recent_results,
        provisional2=duel is not None and duel.provisional,
        provisional_multi=multi is not None and multi.provisional)


async def profile_reply(pictures: Pictures, card: Profile, name: str,
                        limit: int = 8 * 1024 * 1024) -> Reply:
    """The profile card under its title line; the record as text if the card cannot go."""
    drawn = profile_card(card, name)
    language = current()
    png = await pictures.fitting(lambda: render_profile(drawn, language=language), limit,
                                 "profile")
    if png is None:
        return Reply(text.clip(profile_text(card, name)), public=True)
    title = _("**{name}** on this server").format(name=safe_name(name))
    if not card.games and not card.ratings:
        title += "\n" + _("No finished game here yet.")
    about = profile_alt(drawn)
    return Reply(title, public=True, picture=("profile.png", about, png))


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


def leaderboard_rows(board: LeaderPage) -> list[LeaderRow]:
    return [LeaderRow(rank=r.place, name=r.name, rating=r.rating, games=r.games,
                      provisional=r.provisional) for r in board.rows]


def page_of_board(board: LeaderPage, page: int) -> LeaderPage:
    """One page (PER_PAGE rows, as the picture pages them) of a whole board; a page past
    either end gives the nearest."""
    pages = max(1, -(-len(board.rows) // PER_PAGE))
    page = min(max(page, 1), pages)
    return LeaderPage(board.pool, page, pages, board.total,
                      board.rows[(page - 1) * PER_PAGE:page * PER_PAGE])


async def leaderboard_reply(pictures: Pictures, board: LeaderPage, page: int, server: str,
                            limit: int = 8 * 1024 * 1024) -> Reply:
    """A page of the leaderboard as a picture under its title line. `board` is the whole
    board (one page of everything); `page` past either end gives the nearest page. As
    text when the picture cannot go."""
    shown = page_of_board(board, page)
    rows = leaderboard_rows(board)
    language = current()
    png = await pictures.fitting(lambda: render_leaderboard(
        rows, server=server, pool=board.pool.value, provisional_games=PROVISIONAL_GAMES,
        language=language, page=shown.page).data, limit, "leaderboard")
    if png is None:
        return Reply(text.clip(leaderboard_text(shown)), public=True)
    head = _("**Leaderboard, {pool}** (page {page} of {pages})").format(
        pool=pool_words(board.pool.value), page=shown.page, pages=shown.pages)
    if not shown.rows:
        head += "\n" + _("Nobody here yet: a rating shows once a player has finished "
                         "10 rated games.")
    about = leaderboard_alt(server, pool_words(board.pool.value),
                            leaderboard_rows(shown), page=shown.page, pages=shown.pages)
    return Reply(head, public=True, picture=("leaderboard.png", about, png))


@top_level
@app_commands.command(name="carc-profile", description="A player's ratings and record on "
                                                       "this server")
@app_commands.guild_only()
@app_commands.describe(player="Whose profile (by default yours)")
async def profile_command(interaction: Interaction,
                          player: discord.User | discord.Member | None = None) -> None:
    await run(interaction, "profile", lambda act: profile(act, player), public=True)


async def profile(act: Act, player: discord.User | discord.Member | None) -> Reply:
    target = player or act.interaction.user
    card = await act.service.profile(act.here.guild, str(target.id))
    shown = getattr(target, "display_name", None) or target.name
    return await profile_reply(act.bot.pictures, card, card.name or shown,
                               act.interaction.filesize_limit)


@top_level
@app_commands.command(name="carc-leaderboard", description="This server's best rated players")
@app_commands.guild_only()
@app_commands.describe(pool="Duels or multiplayer games", page="Which page")
@app_commands.choices(pool=POOLS)
async def leaderboard_command(interaction: Interaction, pool: str = "duel",
                              page: app_commands.Range[int, 1, 1000] = 1) -> None:
    await run(interaction, "leaderboard", lambda act: leaderboard(act, pool, page),
              public=True)


async def leaderboard(act: Act, pool: str, page: int) -> Reply:
    found = await act.service.leaderboard(act.here.guild, pool, 1, per_page=EVERYONE)
    guild = act.interaction.guild
    server = guild.name if guild is not None and guild.name else _("This server")
    return await leaderboard_reply(act.bot.pictures, found, page, server,
                                   act.interaction.filesize_limit)
